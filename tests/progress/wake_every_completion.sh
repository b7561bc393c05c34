#!/bin/bash
# A rank in a wait on requests is not woken when a collective's internal
# message completes or a message arrives unexpected: the look it would take
# is applied to its clock instead (RankProgress::wake_unless_selective), an
# optimisation of host time only. Runs a program with it and with every
# completion waking its rank (PROGSIM_WAKE_EVERY_COMPLETION=1, the
# unoptimized path) and requires byte-identical stdout, stderr and report.
# With --looks, also requires that the optimized run applied at least one
# look (PROGSIM_COUNT_LOOKS prints how many on stderr; that line is left out
# of the comparison), so that the comparison is not vacuous.
#   wake_every_completion.sh PROGSIM WORKDIR [--looks] -- RUN_OPTIONS... PROGRAM [ARGS...]
set -u
# shellcheck source=tests/lib/same_two_runs.sh
source "$(dirname "$0")/../lib/same_two_runs.sh"
progsim=$1 work=$2
shift 2
need_looks=0
if [ "$1" = --looks ]; then need_looks=1; shift; fi
shift  # --
rm -rf "$work" && mkdir -p "$work"
unoptimized_and_counted "$work" "$progsim" PROGSIM_WAKE_EVERY_COMPLETION PROGSIM_COUNT_LOOKS \
  "looks applied without waking a rank" "$@"
applied=$COUNTED
failed=0
same_two_runs "$work" old "$OLD_STATUS" new "$NEW_STATUS" || failed=1
# The count is printed when the model is destroyed.
if [ $need_looks = 1 ] && [ -z "$applied" ]; then
  echo "no count of looks on stderr"; failed=1
elif [ $need_looks = 1 ] && [ "$applied" -eq 0 ]; then
  echo "no look was applied: the comparison tests nothing"; failed=1
fi
[ $failed = 0 ] && echo "same stdout, stderr and report with and without waking at every completion (exit $NEW_STATUS, ${applied:-no count of} looks applied)"
exit $failed
