#!/bin/bash
# Memory waits (issue 19, branch issue19-memwait; docs/traces.md): records
# PROGRAM under RECORD_POLICY and requires that the trace names, in each
# `memory_wait`, an existing event of another rank that makes a write (a
# `store`, or an RMA operation), that KIND (store or rma) is among them,
# then replays the trace under every policy twice: the two replays must be
# byte-identical (report, stdout, stderr), end with the outcome given for
# that policy (POLICY=OUTCOME), and a deadlock must name the poller's
# `memory_wait` line. RUN_OPTIONS are given to the run and the replays.
#   memory_wait_check.sh PROGSIM WORKDIR RECORD_POLICY KIND POLICY=OUTCOME... -- RUN_OPTIONS... -- PROGRAM [ARGS...]
set -u
progsim=$1 work=$2 record_policy=$3 kind=$4
shift 4
expectations=()
while [ "$1" != "--" ]; do expectations+=("$1"); shift; done
shift
options=()
while [ "$1" != "--" ]; do options+=("$1"); shift; done
shift
rm -rf "$work" && mkdir -p "$work"
trace="$work/trace.jsonl"
"$progsim" run --progress "$record_policy" "${options[@]}" --record "$trace" --report "$work/run.json" "$@" >"$work/run.out" 2>&1
echo "recorded under $record_policy: $(jq -r .outcome "$work/run.json")"
failed=0
# Each wait's write, as the writer's event: the rank's events are its lines, in order.
waits=$(jq -c 'select(.call == "memory_wait")' "$trace")
[ -n "$waits" ] || { echo "FAIL: the trace has no memory_wait"; exit 1; }
kinds=""
while read -r wait; do
  writer=$(jq -r .writer <<<"$wait") event=$(jq -r .event <<<"$wait")
  made=$(jq -r --argjson w "$writer" 'select(.rank == $w) | .call' "$trace" | sed -n "$((event + 1))p")
  echo "memory_wait $wait: rank $writer's event $event is '$made'"
  case "$made" in
    store) kinds="$kinds store" ;;
    put | rput | accumulate | raccumulate | get_accumulate | rget_accumulate | fetch_and_op | compare_and_swap)
      kinds="$kinds rma" ;;
    *) echo "FAIL: the wait names no write"; failed=1 ;;
  esac
done <<<"$waits"
[[ " $kinds " == *" $kind "* ]] || { echo "FAIL: no wait for a write of kind $kind"; failed=1; }
for expectation in "${expectations[@]}"; do
  policy=${expectation%=*} outcome=${expectation#*=}
  for i in 1 2; do
    "$progsim" replay --progress "$policy" "${options[@]}" --report "$work/$policy.$i.json" "$trace" \
      >"$work/$policy.$i.out" 2>"$work/$policy.$i.err"
  done
  got=$(jq -r .outcome "$work/$policy.1.json")
  echo "replay under $policy: $got, simulated time $(jq -r .simulated_time "$work/$policy.1.json"), rank 0 polled $(jq -r '.ranks[0].memory_polling_time' "$work/$policy.1.json") s"
  for part in json out err; do
    cmp -s "$work/$policy.1.$part" "$work/$policy.2.$part" ||
      { echo "FAIL $policy: two replays differ ($part)"; failed=1; }
  done
  [ "$got" = "$outcome" ] || { echo "FAIL $policy: expected $outcome"; cat "$work/$policy.1.err"; failed=1; }
  if [ "$outcome" = deadlock ] && ! grep -q "polling watched memory .* at [^ ]*trace\.jsonl:[0-9]* (memory_wait)" "$work/$policy.1.err"; then
    echo "FAIL $policy: the deadlock does not name the memory_wait line"; cat "$work/$policy.1.err"; failed=1
  fi
done
exit $failed
