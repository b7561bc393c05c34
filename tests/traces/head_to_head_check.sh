#!/bin/bash
# A run that deadlocks (or crashes) still leaves a valid trace: every line
# parses, the blocked call is each rank's last event, and replaying the
# trace ends the same way.
#   head_to_head_check.sh PROGSIM WORKDIR EXPECTED_LAST_CALLS -- RUN_ARGS... PROGRAM
# EXPECTED_LAST_CALLS: "call of rank 0,call of rank 1,..." (the last event of each rank).
set -u
progsim=$1 work=$2 expected=$3
shift 4
rm -rf "$work" && mkdir -p "$work"
"$progsim" run --record "$work/trace.jsonl" --report "$work/run.json" "$@" >"$work/run.out" 2>&1
run_status=$?
if ! jq -e . "$work/trace.jsonl" >/dev/null; then
  echo "FAIL: the trace does not parse"; exit 1
fi
n=$(jq -r 'select(.format) | .nranks' "$work/trace.jsonl")
last=""
for ((r = 0; r < n; r++)); do
  call=$(jq -r --argjson r "$r" 'select(.rank == $r) | .call' "$work/trace.jsonl" | tail -1)
  last="$last${last:+,}$call"
done
echo "run exit $run_status, outcome $(jq -r .outcome "$work/run.json"), last calls: $last"
[ "$last" = "$expected" ] || { echo "FAIL: expected last calls $expected"; exit 1; }
"$progsim" replay --report "$work/replay.json" "$work/trace.jsonl" >"$work/replay.out" 2>&1
replay_status=$?
echo "replay exit $replay_status, outcome $(jq -r .outcome "$work/replay.json")"
cat "$work/replay.out"
if [ "$(jq -r .outcome "$work/run.json")" = deadlock ]; then
  [ "$replay_status" = "$run_status" ] || { echo "FAIL: the replay should deadlock as the run did"; exit 1; }
fi
exit 0
