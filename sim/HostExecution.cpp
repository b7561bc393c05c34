#include "sim/HostExecution.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/simix.hpp>

#include <cstdio>
#include <cstdlib>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

namespace {

bool allowed = true;  // allow_two_simcall_executions

bool stepwise()
{
  static const bool set = std::getenv("PROGSIM_EXECUTE_STEPWISE") != nullptr;
  return set || !allowed;
}

// PROGSIM_COUNT_EXECUTIONS (set, any value): how many executions took the
// two-simcall path, printed on stderr at exit (tests/progress/
// execute_stepwise.sh: the comparison with the stepwise path is not vacuous).
struct ExecutionCount {
  unsigned long long two_simcalls = 0;
  ~ExecutionCount()
  {
    if (std::getenv("PROGSIM_COUNT_EXECUTIONS"))
      std::fprintf(stderr, "progsim: executions in two simcalls: %llu\n", two_simcalls);
  }
};
ExecutionCount count;

}  // namespace

void allow_two_simcall_executions(bool allowed_now)
{
  allowed = allowed_now;
}

void execute_on_host(double flops)
{
  if (stepwise()) {
    sg4::this_actor::execute(flops);
    return;
  }
  ++count.two_simcalls;
  // Created by the actor, as exec_init does: SimGrid records the creating
  // actor as the execution's owner (cancelled with it); created in the
  // maestro, it would be the maestro's.
  sg4::ExecPtr exec = sg4::Exec::init();
  sg4::Host* host = sg4::this_actor::get_host();  // as exec_init (no simcall)
  // this_actor::execute(flops) is execute(flops, 1.0): exec_init's setters,
  // set_priority(1.0), vetoable_start, in this order, run by the maestro.
  simgrid::kernel::actor::simcall_answered([&exec, host, flops] {
    exec->set_flops_amount(flops);
    exec->set_host(host);
    exec->set_priority(1.0);
    exec->vetoable_start();
  });
  exec->wait();
}

}  // namespace progsim::sim
