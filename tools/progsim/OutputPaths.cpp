#include "progsim/OutputPaths.hpp"

#include "sim/Diagnostics.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace progsim::cli {

namespace {

[[noreturn]] void cannot_write(const std::string& option, const std::string& path, int error)
{
  throw sim::InputError{option + " " + path + ": cannot write: " + std::strerror(error)};
}

std::string parent_of(const std::string& path)
{
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/')
    trimmed.pop_back();
  auto slash = trimmed.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : trimmed.substr(0, slash);
}

}  // namespace

void check_writable_file(const std::string& option, const std::string& path)
{
  if (path.empty())
    throw sim::InputError{option + ": empty file name"};
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    cannot_write(option, path, EISDIR);
  // Opening is the only faithful test (access() ignores read-only file
  // systems' details and says yes to root): an existing file is opened
  // without truncation, a new one is created and removed again.
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  bool created = false;
  if (fd < 0 && errno == ENOENT) {
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    created = fd >= 0;
  }
  if (fd < 0)
    cannot_write(option, path, errno);
  ::close(fd);
  if (created)
    ::unlink(path.c_str());
}

void check_writable_directory(const std::string& option, const std::string& path)
{
  struct stat st {};
  std::string directory = path;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT)
      cannot_write(option, path, errno);
    directory = parent_of(path);  // the writer creates `path` in it
    if (::stat(directory.c_str(), &st) != 0)
      cannot_write(option, path, errno);
  }
  if (!S_ISDIR(st.st_mode))
    cannot_write(option, path, ENOTDIR);
  std::string probe = directory + "/.progsim-write-check-XXXXXX";
  std::vector<char> name(probe.begin(), probe.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0)
    cannot_write(option, path, errno);
  ::close(fd);
  ::unlink(name.data());
}

}  // namespace progsim::cli
