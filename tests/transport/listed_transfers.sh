#!/bin/bash
# The fabric's transfers skip SimGrid 3.32's maestro list (mpi_model/transport/
# HostTransfer): an optimisation of host time only. Runs a program with it and
# with SimGrid's own detach (PROGSIM_SIMGRID_LISTED_TRANSFERS=1, the
# unoptimized path) and requires byte-identical stdout, stderr and report.
#   listed_transfers.sh PROGSIM WORKDIR -- RUN_OPTIONS... PROGRAM [ARGS...]
set -u
# shellcheck source=tests/lib/same_two_runs.sh
source "$(dirname "$0")/../lib/same_two_runs.sh"
progsim=$1 work=$2
shift 3
rm -rf "$work" && mkdir -p "$work"
PROGSIM_SIMGRID_LISTED_TRANSFERS=1 "$progsim" run --report "$work/listed.json" "$@" >"$work/listed.out" 2>"$work/listed.err"
listed=$?
"$progsim" run --report "$work/unlisted.json" "$@" >"$work/unlisted.out" 2>"$work/unlisted.err"
unlisted=$?
failed=0
same_two_runs "$work" listed "$listed" unlisted "$unlisted" || failed=1
# A run that ended before its transfers did would compare nothing.
grep -q '"packets": [1-9]' "$work/unlisted.json" || { echo "no packet in the report"; failed=1; }
[ $failed = 0 ] && echo "same stdout, stderr and report with and without SimGrid's transfer list (exit $unlisted)"
exit $failed
