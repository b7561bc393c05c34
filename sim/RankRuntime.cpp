#include "sim/RankRuntime.hpp"

#include "sim/ForkedChild.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"

#include <dlfcn.h>
#include <libgen.h>

#include <cstring>
#include <memory>

namespace progsim::sim {

void run_rank(Simulation& simulation, Rank& rank, ProgramInstance program, const std::vector<std::string>& argv)
{
  // A private, writable argv per rank: programs may modify their arguments.
  std::vector<std::unique_ptr<char[]>> storage;
  std::vector<char*> args;
  for (const std::string& a : argv) {
    storage.emplace_back(new char[a.size() + 1]);
    std::memcpy(storage.back().get(), a.c_str(), a.size() + 1);
    args.push_back(storage.back().get());
  }
  args.push_back(nullptr);

  // Known while the rank runs: its stack is freed when its actor ends, and
  // may then serve another actor (returning or unwinding, the guard forgets it).
  rank.set_stack(__builtin_frame_address(0),
                 static_cast<std::uintptr_t>(simulation.parameters().stack_size_kib) * 1024);
  struct StackForgotten {
    Rank& rank;
    ~StackForgotten() { rank.set_stack(nullptr, 0); }
  } stack_forgotten{rank};
  rank.set_state(RankState::UserCode);
  rank.libc().start_user_code();
  int code;
  bool run_exit_handlers = true;
  try {
    code = program.main(static_cast<int>(argv.size()), args.data());
  } catch (const RankExit& e) {
    code = e.code;
    run_exit_handlers = e.run_exit_handlers;
  }
  if (ForkedChild::active())  // a forked child returned from main: its process ends, not the rank
    ForkedChild::exit(code, run_exit_handlers);
  end_rank(simulation, rank, code, run_exit_handlers);
}

void end_rank(Simulation& simulation, Rank& rank, int code, bool run_exit_handlers)
{
  if (run_exit_handlers)
    rank.libc().run_exit_handlers(code);  // as at a process's exit (C11 7.22.4.4)
  rank.libc().enter_simulator();        // for good
  OutputCapture::collect(rank.id());
  rank.clock().flush();
  simulation.rank_returned(rank, code);
}

std::string data_directory()
{
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&data_directory), &info) == 0 || !info.dli_fname)
    return "";
  std::string lib(info.dli_fname);
  std::unique_ptr<char, decltype(&std::free)> copy(::strdup(lib.c_str()), &std::free);
  std::string libdir = ::dirname(copy.get());
  return libdir + "/../share/progsim";
}

}  // namespace progsim::sim
