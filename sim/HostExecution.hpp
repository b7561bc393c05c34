// Executes CPU work of the calling actor on its host: one SimGrid execution,
// as sg4::this_actor::execute, in two simcalls instead of five.
//
// Why: SimGrid 3.32's this_actor::execute(flops) is exec_init (set_flops_amount
// and set_host: a simcall each), set_priority, vetoable_start (a simcall each)
// and wait, five simcalls and ten context switches for one execution. A rank
// executes its debt (RankClock::flush) once per collective call under offload
// (the descriptor writes, nic-post-cost each, exceed the observation lag),
// and once per interacting MPI call under every policy. Here the setters and
// the start run in one simcall, where SimGrid's maestro calls them directly
// (simcall_answered's fast path), and the wait is the second: the same
// execution object, with the same amount, host, priority and start instant.
// Not under the thread policy (allow_two_simcall_executions).
// PROGSIM_EXECUTE_STEPWISE=1 (set, any value) calls this_actor::execute
// instead, the reference the tests compare against
// (progress.execute_stepwise.*, tests/progress/execute_stepwise.sh).
#pragma once

namespace progsim::sim {

// Executes `flops` on the calling actor's host; returns when done.
void execute_on_host(double flops);

// Whether executions may take two simcalls (the default). The MPI model
// forbids it when other actors run beside the ranks on their hosts
// (progress threads: ProgressPolicy::agents_are_actors), which would see
// the execution start in another order among their own steps of the same
// instant.
void allow_two_simcall_executions(bool allowed);

}  // namespace progsim::sim
