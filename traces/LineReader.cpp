#include "traces/LineReader.hpp"

#include "traces/TraceEvent.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace progsim::traces {

LineReader::LineReader(std::string path, std::size_t block) : path_(std::move(path)), block_(block)
{
  int fd = ::open(path_.c_str(), O_RDONLY);
  if (fd < 0)
    throw TraceError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
  ::close(fd);
}

bool LineReader::refill()
{
  if (eof_)
    return false;
  int fd = ::open(path_.c_str(), O_RDONLY);
  if (fd < 0)
    throw TraceError(path_, line_, std::string("cannot reopen: ") + std::strerror(errno));
  buffer_.erase(0, start_);
  start_ = 0;
  std::size_t old = buffer_.size();
  buffer_.resize(old + block_);
  ssize_t n = ::pread(fd, &buffer_[old], block_, static_cast<off_t>(offset_));
  int err = errno;
  ::close(fd);
  if (n < 0)
    throw TraceError(path_, line_, std::string("read error: ") + std::strerror(err));
  buffer_.resize(old + static_cast<std::size_t>(n));
  if (static_cast<std::size_t>(n) < block_)
    buffer_.shrink_to_fit();  // the file's end: no room kept for a block that will not come
  offset_ += static_cast<std::uint64_t>(n);
  if (n == 0)
    eof_ = true;
  return n > 0;
}

bool LineReader::next(std::string& line)
{
  for (;;) {
    std::size_t end = buffer_.find('\n', start_);
    if (end != std::string::npos) {
      line.assign(buffer_, start_, end - start_);
      start_ = end + 1;
      ++line_;
      // What is kept is the unread part, within a factor of 2: a replayed
      // rank waits in MPI holding its reader, and a million of them held a
      // block each (4 GiB).
      if (start_ > buffer_.size() / 2) {
        buffer_.erase(0, start_);
        buffer_.shrink_to_fit();
        start_ = 0;
      }
      return true;
    }
    if (!refill()) {
      if (start_ >= buffer_.size())
        return false;
      line.assign(buffer_, start_, std::string::npos);
      buffer_.clear();
      buffer_.shrink_to_fit();
      start_ = 0;
      ++line_;
      return true;
    }
  }
}

}  // namespace progsim::traces
