#!/bin/bash
# Determinism of a replay (issue 19): records PROGRAM once, then replays the
# trace twice under each of weak, thread, offload and ideal, and requires the
# two replays to be byte-identical (report, stdout, stderr) and to end as
# OUTCOME. RUN_OPTIONS are given to the run and the replays.
#   replay_twice_check.sh PROGSIM WORKDIR OUTCOME -- RUN_OPTIONS... -- PROGRAM [ARGS...]
set -u
progsim=$1 work=$2 outcome=$3
shift 4
options=()
while [ "$1" != "--" ]; do options+=("$1"); shift; done
shift
rm -rf "$work" && mkdir -p "$work"
trace="$work/trace.jsonl"
"$progsim" run "${options[@]}" --record "$trace" --report "$work/run.json" "$@" >"$work/run.out" 2>&1
failed=0
for policy in weak thread offload ideal; do
  for i in 1 2; do
    "$progsim" replay --progress "$policy" "${options[@]}" --report "$work/$policy.$i.json" "$trace" \
      >"$work/$policy.$i.out" 2>"$work/$policy.$i.err"
  done
  got=$(jq -r .outcome "$work/$policy.1.json" 2>/dev/null)
  echo "$policy: $got, simulated time $(jq -r .simulated_time "$work/$policy.1.json" 2>/dev/null)"
  for part in json out err; do
    cmp -s "$work/$policy.1.$part" "$work/$policy.2.$part" || { echo "FAIL $policy: two replays differ ($part)"; failed=1; }
  done
  [ "$got" = "$outcome" ] || { echo "FAIL $policy: expected $outcome"; cat "$work/$policy.1.err"; failed=1; }
done
exit $failed
