#!/bin/bash
# A program using a call replay does not support (MPI_Abort, ...) records
# an "unsupported" event, and replaying its trace exits 2 naming the first
# such call with file and line.
#   unsupported_check.sh PROGSIM WORKDIR [CALL [RUN_EXIT]] -- RUN_ARGS... PROGRAM
# CALL: the first unsupported call the replay must name (default MPI_Probe);
# RUN_EXIT: the recorded run's exit status (default 0).
set -u
progsim=$1 work=$2 call=MPI_Probe run_exit=0
shift 2
[ "$1" != "--" ] && { call=$1; shift; }
[ "$1" != "--" ] && { run_exit=$1; shift; }
shift
rm -rf "$work" && mkdir -p "$work"
"$progsim" run --record "$work/trace.jsonl" "$@" >"$work/run.out" 2>&1
status=$?
[ "$status" = "$run_exit" ] || { echo "FAIL: the run exited $status, expected $run_exit"; cat "$work/run.out"; exit 1; }
"$progsim" replay "$work/trace.jsonl" >"$work/replay.out" 2>"$work/replay.err"
status=$?
cat "$work/replay.err"
[ "$status" = 2 ] || { echo "FAIL: replay exit status $status, expected 2"; exit 1; }
grep -q "trace.jsonl:[0-9]*: the recorded program called $call, which traces cannot replay yet" "$work/replay.err" ||
  { echo "FAIL: no error naming $call"; exit 1; }
