#!/bin/bash
# Record -> replay round trip (issue 6): runs PROGRAM under POLICY with
# --record, replays the trace under the same policy and platform, and
# requires the same outcome, exit status, simulated time and finish time of
# every rank, times within 1e-12 s (the run and the replay split a rank's
# CPU costs into SimGrid executions differently: a local query's cost is
# deferred in the run, and sums in another order differ in their last bits).
# The recorded run must complete.
#   roundtrip.sh PROGSIM WORKDIR POLICY TRACE_NAME -- RUN_ARGS... PROGRAM [ARGS...]
# TRACE_NAME ending in '/' records one file per rank; "otf2" exports an OTF2
# archive (--otf2, issue 19) and replays its anchor file (the export's
# timestamps are whole nanoseconds: the programs' times must be too).
set -u
progsim=$1 work=$2 policy=$3 trace_name=$4
shift 5
rm -rf "$work" && mkdir -p "$work"
if [ "$trace_name" = otf2 ]; then
  output=(--otf2 "$work/otf2")
  trace="$work/otf2/traces.otf2"
else
  trace="$work/$trace_name"
  output=(--record "$trace")
fi
"$progsim" run --progress "$policy" "${output[@]}" --report "$work/run.json" "$@" >"$work/run.out" 2>&1
run_status=$?
"$progsim" replay --progress "$policy" --report "$work/replay.json" "$trace" >"$work/replay.out" 2>&1
replay_status=$?
summary='[.outcome, .simulated_time, [.ranks[] | .finish_time]]'
recorded=$(jq -c "$summary" "$work/run.json")
replayed=$(jq -c "$summary" "$work/replay.json")
echo "run    (exit $run_status): $recorded"
echo "replay (exit $replay_status): $replayed"
[ "$trace_name" = otf2 ] || echo "events: $(cat "$trace" "$trace"/*.jsonl 2>/dev/null | wc -l) lines"
if [ "$(jq -r .outcome "$work/run.json")" != completed ]; then
  echo "FAIL: the recorded run did not complete"
  cat "$work/run.out"
  exit 1
fi
same=$(python3 "$(dirname "$0")/same_report_values.py" "$recorded" "$replayed" 2>/dev/null)
if [ "$run_status" != "$replay_status" ] || [ "$same" != yes ] || [ -z "$recorded" ]; then
  echo "FAIL: the replay differs from the recorded run"
  cat "$work/replay.out"
  exit 1
fi
