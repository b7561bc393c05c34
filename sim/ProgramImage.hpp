// Loading the user's program, once per rank.
//
// progsim-cc links a program as a shared object that carries the marker
// symbol `progsim_program_abi`. Privatization (MPI ranks must not share the
// program's global and static variables) loads one private copy of that
// object per rank: dlopen() gives each distinct file its own data segment,
// so each rank gets a copy under a unique name in a private temporary
// directory. With privatization off, all ranks share one instance.
#pragma once

#include "sim/TemporaryDirectory.hpp"

#include <memory>
#include <string>
#include <vector>

namespace progsim::sim {

using ProgramMain = int (*)(int, char**);

struct ProgramInstance {
  void* handle = nullptr;
  ProgramMain main = nullptr;
  // Address range of the program's code, to tell user code from library code.
  uintptr_t text_begin = 0;
  uintptr_t text_end = 0;
};

class ProgramImage {
public:
  // Checks that `path` is a program built with progsim-cc; throws InputError.
  explicit ProgramImage(std::string path, bool privatize);
  ~ProgramImage();
  ProgramImage(const ProgramImage&) = delete;
  ProgramImage& operator=(const ProgramImage&) = delete;

  // The instance for one rank (a private copy when privatizing).
  ProgramInstance instantiate(int rank);
  // Every rank has its instance: the copies' directory is not needed any
  // more (removing it now leaves nothing behind even if progsim is killed).
  void loading_done() { scratch_dir_.reset(); }
  const std::string& path() const { return path_; }

private:
  ProgramInstance load(const std::string& file, const std::string& what);

  std::string path_;
  bool privatize_;
  std::unique_ptr<TemporaryDirectory> scratch_dir_;
  ProgramInstance shared_;  // the first instance, used by every rank when not privatizing
  bool first_used_ = false;
};

// Is `address` inside the code of any loaded instance of the program?
bool is_program_code(uintptr_t address);
// The rank whose private copy of the program holds `address` (code), or -1
// (not program code, or one instance shared by every rank).
int program_copy_owner(uintptr_t address);

}  // namespace progsim::sim
