#include "sim/OutputCapture.hpp"

#include "sim/ProgressLine.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <stdio_ext.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

namespace progsim::sim {

OutputCapture::Stream OutputCapture::out_;
OutputCapture::Stream OutputCapture::err_;
bool OutputCapture::tag_output_ = false;
bool OutputCapture::active_ = false;

namespace {

void write_all(int fd, const char* data, size_t size)
{
  ProgressLine::erase();  // the output replaces it on the terminal
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EFAULT) {
      // The data is on a page the memory watcher protects (heap shared
      // with a watched window): the kernel cannot read it, user code can.
      static char bounce[4096];
      size_t part = std::min(size, sizeof bounce);
      std::copy(data, data + part, bounce);
      n = ::write(fd, bounce, part);
    }
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return;  // nothing sensible to do if the real output is gone
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

}  // namespace

void OutputCapture::start(bool tag_output)
{
  if (active_)
    return;
  std::fflush(stdout);
  std::fflush(stderr);
  tag_output_ = tag_output;
  for (auto [stream, fd, name] : {std::tuple{&out_, 1, "progsim-stdout"}, std::tuple{&err_, 2, "progsim-stderr"}}) {
    stream->real_fd = ::dup(fd);
    stream->captured_fd = ::memfd_create(name, MFD_CLOEXEC);
    if (stream->real_fd < 0 || stream->captured_fd < 0 || ::dup2(stream->captured_fd, fd) < 0) {
      std::perror("progsim: cannot capture the ranks' output");
      return;
    }
  }
  active_ = true;
}

bool OutputCapture::active()
{
  return active_;
}

void OutputCapture::stop()
{
  if (!active_)
    return;
  collect(-1);
  for (Stream* stream : {&out_, &err_}) {
    for (auto& [rank, line] : stream->partial_lines)
      if (!line.empty())
        write_all(stream->real_fd, line.data(), line.size());
    stream->partial_lines.clear();
  }
  ::dup2(out_.real_fd, 1);
  ::dup2(err_.real_fd, 2);
  for (Stream* stream : {&out_, &err_}) {
    ::close(stream->captured_fd);
    ::close(stream->real_fd);
    stream->captured_fd = stream->real_fd = -1;
  }
  active_ = false;
}

void OutputCapture::collect(int rank)
{
  if (!active_)
    return;
  std::fflush(stdout);
  std::fflush(stderr);
  drain(out_, rank);
  drain(err_, rank);
}

void OutputCapture::yield_point(int rank)
{
  if (!active_)
    return;
  if (tag_output_ || forwarding_due()) {
    collect(rank);
    return;
  }
  std::fflush(stdout);  // no system call when the buffer is empty
  std::fflush(stderr);
}

void OutputCapture::user_code_left(int rank)
{
  if (active_ && (__fpending(stdout) > 0 || __fpending(stderr) > 0))
    collect(rank);
}

bool OutputCapture::forwarding_due()
{
  // Host time decides only when bytes reach the terminal, never which
  // bytes or their order. The coarse clock is read without a system call.
  static struct timespec last = {0, 0};
  struct timespec now {};
  ::clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
  long elapsed_ms = (now.tv_sec - last.tv_sec) * 1000 + (now.tv_nsec - last.tv_nsec) / 1000000;
  if (elapsed_ms < 10)
    return false;
  last = now;
  return true;
}

void OutputCapture::drain(Stream& stream, int rank)
{
  off_t end = ::lseek(stream.captured_fd, 0, SEEK_CUR);
  if (end <= 0)
    return;
  // A static buffer, not the heap: heap pages can hold a watched window
  // (sim/memory protects them), and the kernel then fails the read with
  // EFAULT instead of faulting, which lost the ranks' output.
  static char buffer[1 << 16];
  for (off_t offset = 0; offset < end;) {
    size_t want = static_cast<size_t>(std::min<off_t>(end - offset, sizeof buffer));
    ssize_t got = ::pread(stream.captured_fd, buffer, want, offset);
    if (got <= 0) {
      std::perror("progsim: cannot read the ranks' output");
      break;
    }
    emit(stream, rank, buffer, static_cast<size_t>(got));
    offset += got;
  }
  if (::ftruncate(stream.captured_fd, 0) != 0 || ::lseek(stream.captured_fd, 0, SEEK_SET) != 0)
    std::perror("progsim: cannot reset the output capture");
}

void OutputCapture::emit(Stream& stream, int rank, const char* data, size_t size)
{
  if (rank < 0) {
    write_all(stream.real_fd, data, size);
    return;
  }
  // Forward (and prefix) complete lines; keep a trailing partial line until
  // it completes.
  std::string& pending = stream.partial_lines[rank];
  std::string text;
  for (size_t i = 0; i < size; ++i) {
    pending.push_back(data[i]);
    if (data[i] == '\n') {
      if (tag_output_)
        text += "[" + std::to_string(rank) + "] ";
      text += pending;
      pending.clear();
    }
  }
  write_all(stream.real_fd, text.data(), text.size());
}

int OutputCapture::real_stderr()
{
  return active_ ? err_.real_fd : 2;
}

void OutputCapture::write_diagnostic(const std::string& text)
{
  // Untagged, what the ranks wrote before this message comes first (tagged
  // output is attributed when its rank yields, and must wait for it).
  if (active_ && !tag_output_)
    collect(-1);
  write_all(active_ ? err_.real_fd : 2, text.data(), text.size());
}

void OutputCapture::write_stdout(const std::string& text)
{
  if (!active_)
    std::fflush(stdout);
  write_all(active_ ? out_.real_fd : 1, text.data(), text.size());
}

}  // namespace progsim::sim
