#include "sim/LibcState.hpp"

#include "sim/OutputCapture.hpp"
#include "sim/RankRuntime.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace progsim::sim {

namespace {

// The process's environment as progsim started: each rank starts with a
// copy of it, and the simulator runs with it.
char** g_process_environ = nullptr;
bool g_process_environ_known = false;

// "NAME=VALUE" of set_rank_variables, alive as long as the ranks.
std::vector<std::string> g_rank_variables;

// The name part of "NAME=VALUE".
std::string variable_name(const char* entry)
{
  const char* eq = std::strchr(entry, '=');
  return eq ? std::string(entry, eq) : std::string(entry);
}

// The rank whose values errno, optind, ... and environ hold now (it is in
// its user code, or left it without saying so yet), or null.
LibcState* g_installed = nullptr;

// The rank whose getopt scan the C library's hidden position belongs to.
const LibcState* g_getopt_owner = nullptr;

}  // namespace

LibcState::LibcState(int rank) : rank_(rank)
{
  if (!g_process_environ_known) {
    g_process_environ = ::environ;
    g_process_environ_known = true;
  }
  // A copy of the array, not of the strings: setenv/putenv/unsetenv of one
  // rank change its array (unsetenv in place), never a string of another.
  // Sized exactly: growing it one push at a time left up to twice its size
  // per rank (~200 bytes of a million-rank replay's ranks, issue 19).
  std::size_t entries = g_rank_variables.size() + 1;
  for (char** e = g_process_environ; e && *e; ++e)
    ++entries;
  environment_.reserve(entries);
  for (char** e = g_process_environ; e && *e; ++e) {
    bool replaced = !g_rank_variables.empty() &&
                    std::any_of(g_rank_variables.begin(), g_rank_variables.end(), [&](const std::string& v) {
                      return variable_name(v.c_str()) == variable_name(*e);
                    });
    if (!replaced)
      environment_.push_back(*e);
  }
  for (const std::string& v : g_rank_variables)
    environment_.push_back(const_cast<char*>(v.c_str()));
  environment_.push_back(nullptr);
  environ_ = environment_.data();
}

void LibcState::set_rank_variables(const std::vector<std::pair<std::string, std::string>>& variables)
{
  g_rank_variables.clear();
  for (auto& [name, value] : variables) {
    std::string entry = name + "=" + value;
    // A later setting of the same name wins, as for setenv.
    g_rank_variables.erase(std::remove_if(g_rank_variables.begin(), g_rank_variables.end(),
                                          [&](const std::string& v) { return variable_name(v.c_str()) == name; }),
                           g_rank_variables.end());
    g_rank_variables.push_back(entry);
  }
}

LibcState::~LibcState()
{
  if (g_getopt_owner == this)
    g_getopt_owner = nullptr;
  if (g_installed == this)
    g_installed = nullptr;
}

void LibcState::save()
{
  // Saved already if another rank's values were installed meanwhile (this
  // rank gave control away before it said it left user code).
  if (g_installed != this)
    return;
  capture();
  g_installed = nullptr;
  ::environ = g_process_environ;
  OutputCapture::user_code_left(rank_);
}

void LibcState::restore()
{
  if (g_installed == this)
    return;
  if (g_installed)
    g_installed->capture();
  ::optind = optind_;
  ::opterr = opterr_;
  ::optopt = optopt_;
  ::optarg = optarg_;
  ::environ = environ_;
  errno = errno_;
  g_installed = this;
}

void LibcState::capture()
{
  errno_ = errno;
  optind_ = ::optind;
  opterr_ = ::opterr;
  optopt_ = ::optopt;
  optarg_ = ::optarg;
  environ_ = ::environ;
}

void LibcState::restore_process_environment()
{
  if (g_installed)
    g_installed->save();
  if (g_process_environ_known)
    ::environ = g_process_environ;
}

int LibcState::getopt(const std::function<int()>& call)
{
  if (::optind != getopt_optind_after_)
    getopt_calls_ = 0;  // the program set optind: a new scan
  if (g_getopt_owner != this) {
    resume_getopt_scan(call);
    g_getopt_owner = this;
  }
  int result = call();
  ++getopt_calls_;
  getopt_optind_after_ = ::optind;
  return result;
}

void LibcState::resume_getopt_scan(const std::function<int()>& call)
{
  if (getopt_calls_ == 0) {
    if (::optind <= 1)
      ::optind = 0;  // glibc: a full restart, as in a new process
    return;
  }
  int optind = ::optind, opterr = ::opterr, optopt = ::optopt;
  char* optarg = ::optarg;
  ::optind = 0;
  ::opterr = 0;  // the messages were printed the first time
  for (int i = 0; i < getopt_calls_; ++i)
    call();
  ::optind = optind;
  ::opterr = opterr;
  ::optopt = optopt;
  ::optarg = optarg;
}

void LibcState::adopt_environment()
{
  if (::environ == environment_.data())
    return;
  std::vector<char*> entries;
  for (char** e = ::environ; e && *e; ++e)
    entries.push_back(*e);
  entries.push_back(nullptr);
  environment_ = std::move(entries);
}

std::vector<char*>::iterator LibcState::find_variable(const char* name, std::size_t length)
{
  auto last = environment_.end() - 1;  // the terminating null
  return std::find_if(environment_.begin(), last,
                      [&](const char* e) { return std::strncmp(e, name, length) == 0 && e[length] == '='; });
}

int LibcState::setenv(const char* name, const char* value, int overwrite)
{
  if (!name || !*name || std::strchr(name, '=')) {
    errno = EINVAL;
    return -1;
  }
  adopt_environment();
  std::size_t length = std::strlen(name);
  auto found = find_variable(name, length);
  if (found != environment_.end() - 1 && !overwrite)
    return 0;
  // Never freed, as in glibc: the program may hold pointers from getenv.
  std::size_t size = length + 1 + std::strlen(value) + 1;
  auto* entry = static_cast<char*>(std::malloc(size));
  if (!entry) {
    errno = ENOMEM;
    return -1;
  }
  std::snprintf(entry, size, "%s=%s", name, value);
  if (found != environment_.end() - 1)
    *found = entry;
  else
    environment_.insert(environment_.end() - 1, entry);
  ::environ = environment_.data();
  return 0;
}

int LibcState::putenv(char* entry)
{
  const char* equals = std::strchr(entry, '=');
  if (!equals)
    return ::unsetenv(entry);  // glibc: a name alone removes the variable
  adopt_environment();
  auto found = find_variable(entry, static_cast<std::size_t>(equals - entry));
  if (found != environment_.end() - 1)
    *found = entry;  // the program's string itself becomes the variable (POSIX)
  else
    environment_.insert(environment_.end() - 1, entry);
  ::environ = environment_.data();
  return 0;
}

random_data& LibcState::random_generator()
{
  if (!random_ready_) {
    // A process's generator starts as if seeded with 1 (C11 7.22.2.2).
    ::initstate_r(1, random_default_state_, sizeof random_default_state_, &random_);
    random_buffer_ = random_default_state_;
    random_ready_ = true;
  }
  return random_;
}

const struct sigaction* LibcState::program_signal_action(int sig) const
{
  for (const auto& [s, action] : signal_actions_)
    if (s == sig)
      return &action;
  return nullptr;
}

void LibcState::set_program_signal_action(int sig, const struct sigaction& action)
{
  for (auto& [s, kept] : signal_actions_)
    if (s == sig) {
      kept = action;
      return;
    }
  signal_actions_.emplace_back(sig, action);
}

void LibcState::run_exit_handlers(int status)
{
  while (!exit_handlers_.empty()) {
    ExitHandler h = exit_handlers_.back();
    exit_handlers_.pop_back();
    try {
      if (h.plain)
        h.plain();
      else
        h.with_status(status, h.argument);
    } catch (const RankExit&) {
    }
  }
}

}  // namespace progsim::sim
