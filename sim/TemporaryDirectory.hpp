// A private temporary directory ($TMPDIR/PREFIX-XXXXXX): the privatized
// program copies of a run, the reports of `progsim compare`, the build of
// an example. Its owner removes it (with the files in it) when it goes out
// of scope; the endings that do not unwind (a crash, SIGINT/SIGTERM, an
// internal error) call remove_all(), so no ending leaves one behind.
#pragma once

#include <string>

namespace progsim::sim {

class TemporaryDirectory {
public:
  // Creates the directory; throws InputError when it cannot.
  explicit TemporaryDirectory(const std::string& prefix);
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::string& path() const { return path_; }

  // Removes every directory still alive and the files in it. System calls
  // only, on a fixed table: safe in a signal handler, even with a corrupted heap.
  static void remove_all();

private:
  std::string path_;
  int slot_ = -1;  // in the table remove_all() reads
};

}  // namespace progsim::sim
