// Reads a text file line by line without keeping it open: each refill opens
// the file, reads one block from the saved offset and closes it again. A
// replay of 100,000 ranks thus holds 100,000 readers with a small buffer
// each, not 100,000 open files.
#pragma once

#include <cstdint>
#include <string>

namespace progsim::traces {

class LineReader {
public:
  // Throws TraceError when the file cannot be read.
  explicit LineReader(std::string path, std::size_t block = 4096);

  // The next line without its '\n' (a final line without '\n' counts);
  // false at the end of the file.
  bool next(std::string& line);
  // 1-based number of the line last returned.
  long line_number() const { return line_; }
  const std::string& path() const { return path_; }

private:
  bool refill();

  std::string path_;
  std::size_t block_;
  std::uint64_t offset_ = 0;  // file offset of the end of buffer_
  std::string buffer_;
  std::size_t start_ = 0;  // unread part of buffer_ begins here
  bool eof_ = false;
  long line_ = 0;
};

}  // namespace progsim::traces
