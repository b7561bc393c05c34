#include "sim/memory/CodeLocation.hpp"

#include "sim/ProgramImage.hpp"

#include <dlfcn.h>
#include <unwind.h>

#include <cstdio>
#include <memory>

namespace progsim::sim::memory {

namespace {

std::string hex(std::uintptr_t value)
{
  char text[32];
  std::snprintf(text, sizeof text, "0x%lx", static_cast<unsigned long>(value));
  return text;
}

// One line of output of `command`, without its newline ("" on failure).
std::string first_lines(const std::string& command, int lines)
{
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), &::pclose);
  if (!pipe)
    return "";
  std::string out;
  char buffer[1024];
  for (int i = 0; i < lines && std::fgets(buffer, sizeof buffer, pipe.get()); ++i)
    out += buffer;
  return out;
}

// "function (file:line)" from the debug information of `object` at `offset`, or "".
std::string lookup_line(const std::string& object, std::uintptr_t offset)
{
  // addr2line prints the function, then file:line ("??:0" without debug info).
  std::string out = first_lines("addr2line -f -C -e '" + object + "' " + hex(offset) + " 2>/dev/null", 2);
  std::size_t newline = out.find('\n');
  if (newline == std::string::npos)
    return "";
  std::string function = out.substr(0, newline);
  std::string line = out.substr(newline + 1);
  while (!line.empty() && (line.back() == '\n' || line.back() == ' '))
    line.pop_back();
  std::size_t discriminator = line.find(" (discriminator");
  if (discriminator != std::string::npos)
    line.erase(discriminator);
  if (line.empty() || line.rfind("??", 0) == 0 || function == "??")
    return "";
  std::size_t slash = line.rfind('/');
  return function + " (" + (slash == std::string::npos ? line : line.substr(slash + 1)) + ")";
}

}  // namespace

std::string describe_code_location(std::uintptr_t pc)
{
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(pc), &info) == 0 || !info.dli_fname)
    return "address " + hex(pc);
  std::uintptr_t offset = pc - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  std::string object = info.dli_fname;
  std::string line = lookup_line(object, offset);
  if (!line.empty())
    return line;
  if (info.dli_sname)
    return std::string(info.dli_sname) + "+" + hex(pc - reinterpret_cast<std::uintptr_t>(info.dli_saddr)) + " in " +
           object;
  return "address " + hex(pc) + " in " + object;
}

std::string describe_program_location(std::uintptr_t pc, const std::string& program)
{
  Dl_info info{};
  if (pc == 0 || ::dladdr(reinterpret_cast<void*>(pc), &info) == 0 || !info.dli_fbase)
    return "";
  std::string line = lookup_line(program, pc - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
  if (!line.empty())
    return line;
  if (info.dli_sname)
    return std::string(info.dli_sname) + "+" + hex(pc - reinterpret_cast<std::uintptr_t>(info.dli_saddr));
  return "";
}

namespace {

struct CallSiteSearch {
  std::uintptr_t found = 0;
  int frames_left = 48;  // MPI call -> binding -> model -> wait is far less
};

_Unwind_Reason_Code visit_frame(struct _Unwind_Context* context, void* arg)
{
  auto* search = static_cast<CallSiteSearch*>(arg);
  auto address = static_cast<std::uintptr_t>(_Unwind_GetIP(context));
  if (address && is_program_code(address)) {
    search->found = address - 1;  // inside the call instruction: the caller's line
    return _URC_END_OF_STACK;
  }
  return --search->frames_left > 0 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

}  // namespace

std::uintptr_t program_call_site(std::uintptr_t return_address)
{
  // The program called the MPI procedure directly: no unwinding (about a
  // microsecond, once per wait that blocks).
  if (return_address && is_program_code(return_address))
    return return_address - 1;  // inside the call instruction: the caller's line
  // Stops at the first frame of the program: only progsim's own frames are
  // unwound, never the rest of the coroutine's stack.
  CallSiteSearch search;
  _Unwind_Backtrace(&visit_frame, &search);
  return search.found;
}

std::string describe_rank_location(std::uintptr_t pc, const std::string& program)
{
  std::uintptr_t site = is_program_code(pc) ? pc : program_call_site();
  if (site != 0) {
    std::string where = describe_program_location(site, program);
    if (!where.empty())
      return where;
  }
  return pc != 0 && !is_program_code(pc) ? describe_code_location(pc) : "";
}

}  // namespace progsim::sim::memory
