#include "sim/InputFile.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace progsim::sim {

std::string input_file_problem(const std::string& path)
{
  if (::access(path.c_str(), R_OK) != 0)
    return std::string(": ") + std::strerror(errno);
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    return ": is a directory";
  return "";
}

}  // namespace progsim::sim
