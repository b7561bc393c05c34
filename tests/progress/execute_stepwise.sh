#!/bin/bash
# A rank executes its CPU debt (RankClock::flush) as one SimGrid execution
# set up and started in one simcall (sim/HostExecution), an optimisation of
# host time only. Runs a program with it and with SimGrid's
# this_actor::execute (PROGSIM_EXECUTE_STEPWISE=1, five simcalls, the
# unoptimized path) and requires byte-identical stdout, stderr and report,
# and that the optimized run made at least one execution
# (PROGSIM_COUNT_EXECUTIONS prints how many on stderr; that line is left out
# of the comparison), so that the comparison is not vacuous.
# With --none, requires instead that the optimized run made none: under the
# thread policy, whose progress threads run beside the ranks, executions stay
# stepwise (ProgressPolicy::agents_are_actors).
#   execute_stepwise.sh PROGSIM WORKDIR [--none] -- RUN_OPTIONS... PROGRAM [ARGS...]
set -u
# shellcheck source=tests/lib/same_two_runs.sh
source "$(dirname "$0")/../lib/same_two_runs.sh"
progsim=$1 work=$2
shift 2
expect_none=0
if [ "$1" = --none ]; then expect_none=1; shift; fi
shift  # --
rm -rf "$work" && mkdir -p "$work"
unoptimized_and_counted "$work" "$progsim" PROGSIM_EXECUTE_STEPWISE PROGSIM_COUNT_EXECUTIONS \
  "executions in two simcalls" "$@"
made=$COUNTED
failed=0
same_two_runs "$work" old "$OLD_STATUS" new "$NEW_STATUS" || failed=1
if [ -z "$made" ]; then
  echo "no count of executions on stderr"; failed=1
elif [ $expect_none = 1 ] && [ "$made" -ne 0 ]; then
  echo "$made executions in two simcalls where none may be made"; failed=1
elif [ $expect_none = 0 ] && [ "$made" -eq 0 ]; then
  echo "no execution was made: the comparison tests nothing"; failed=1
fi
[ $failed = 0 ] && echo "same stdout, stderr and report with executions in two simcalls and stepwise (exit $NEW_STATUS, $made executions)"
exit $failed
