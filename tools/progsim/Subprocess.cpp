#include "progsim/Subprocess.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/Interruption.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace progsim::cli {

std::string self_path()
{
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    throw sim::InputError{"cannot find the progsim executable"};
  return std::string(buf, static_cast<std::size_t>(n));
}

std::string self_dir()
{
  std::string self = self_path();
  return self.substr(0, self.rfind('/'));
}

pid_t start_subprocess(std::vector<std::string> argv, const std::string& log, const std::string& output,
                       bool own_process_group)
{
  pid_t pid = ::fork();
  if (pid == 0) {
    if (own_process_group)
      ::setpgid(0, 0);  // its own process group: a timeout ends its children too (mpirun's ranks)
    if (!log.empty()) {
      int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
      }
    }
    if (!output.empty()) {
      int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0)
        ::dup2(fd, 1);
    }
    std::vector<char*> cargv;
    for (auto& a : argv)
      cargv.push_back(a.data());
    cargv.push_back(nullptr);
    ::execvp(argv[0].c_str(), cargv.data());  // a name without '/' is looked up in PATH
    ::_exit(127);
  }
  return pid;
}

std::vector<std::string> command_words(const std::string& text)
{
  std::vector<std::string> words;
  std::istringstream in(text);
  std::string word;
  while (in >> word)
    words.push_back(word);
  return words;
}

int exit_status_of(int wait_status)
{
  return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
}

int run_subprocess(std::vector<std::string> argv, const std::string& log, const std::string& output,
                   double timeout_seconds)
{
  pid_t pid = start_subprocess(std::move(argv), log, output, timeout_seconds > 0);
  sim::Interruption::set_child(pid);  // SIGINT/SIGTERM of progsim end the child too
  int status = 0;
  if (timeout_seconds > 0) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        sim::Interruption::set_child(0);
        return kTimedOut;
      }
      ::usleep(10000);
    }
  } else {
    ::waitpid(pid, &status, 0);
  }
  sim::Interruption::set_child(0);
  return exit_status_of(status);
}

}  // namespace progsim::cli
