#!/bin/bash
# Record -> replay round trip of one test program under every policy (issue
# 19): for each of weak, thread, offload, ideal, runs the program with
# --record and the test's own run options (its --progress replaced), replays
# the trace with the same options (but --privatize), and requires the same exit status,
# outcome, simulated time, every rank's finish time (within 1e-12 s, as
# roundtrip.sh says why) and number of MPI calls per rank.
# With REFUSED (a call name, or what the program did, not "-"), the program must instead be one the
# recorder refuses: its replay stops naming REFUSED (so this list of
# refused programs shrinks as the recorder learns calls: the test fails
# once the program round-trips). REFUSED@POLICY,...: refused only under
# those policies, a round trip under the others. REFUSED "deadlock@POLICY,...":
# under those policies the run deadlocks (a busy-wait on memory that weak
# progress never ends), and the replay must deadlock alike: the same
# summary, outcome "deadlock" (issue 19, memory waits).
#   roundtrip_program.sh PROGSIM WORKDIR REFUSED -- RUN_OPTIONS... -- PROGRAM [ARGS...]
set -u
progsim=$1 work=$2 refused=$3
refused_under=weak,thread,offload,ideal
case "$refused" in *@*) refused_under=${refused#*@} refused=${refused%@*} ;; esac
shift 4
options=() run_only=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --progress) shift 2; continue ;;
    --privatize=*) run_only+=("$1"); shift; continue ;;  # how the program is loaded: not an option of replay
  esac
  options+=("$1"); shift
done
shift
summary='[.exit_status, .outcome, .simulated_time, [.ranks[] | .finish_time], [.ranks[] | .mpi_calls]]'
failed=0
for policy in weak thread offload ideal; do
  dir="$work/$policy"
  rm -rf "$dir" && mkdir -p "$dir"
  "$progsim" run --progress "$policy" "${options[@]}" "${run_only[@]}" --record "$dir/trace.jsonl" --report "$dir/run.json" "$@" \
    >"$dir/run.out" 2>&1
  "$progsim" replay --progress "$policy" "${options[@]}" --report "$dir/replay.json" "$dir/trace.jsonl" \
    >"$dir/replay.out" 2>&1
  replay_status=$?
  expected=completed
  if [ "$refused" = deadlock ] && [[ ",$refused_under," == *",$policy,"* ]]; then
    expected=deadlock
  elif [ "$refused" != - ] && [[ ",$refused_under," == *",$policy,"* ]]; then
    if [ "$replay_status" = 2 ] && grep -q "the recorded program [a-z]* $refused, which traces cannot replay yet" "$dir/replay.out"; then
      echo "$policy: refused as expected: $(grep -o "$refused, [^(]*([^)]*)" "$dir/replay.out" | head -1)"
    else
      echo "FAIL $policy: the replay was expected to stop at $refused (exit $replay_status):"; cat "$dir/replay.out"
      failed=1
    fi
    continue
  fi
  recorded=$(jq -c "$summary" "$dir/run.json" 2>/dev/null)
  replayed=$(jq -c "$summary" "$dir/replay.json" 2>/dev/null)
  same=$(python3 "$(dirname "$0")/same_report_values.py" "$recorded" "$replayed" 2>/dev/null)
  echo "$policy: run $recorded"
  echo "$policy: replay $replayed"
  if [ "$(jq -r .outcome "$dir/run.json" 2>/dev/null)" != "$expected" ]; then
    echo "FAIL $policy: the recorded run did not end as expected ($expected)"; cat "$dir/run.out"; failed=1
  elif [ "$same" != yes ]; then
    echo "FAIL $policy: the replay differs from the recorded run"; cat "$dir/replay.out"; failed=1
  elif [ "$expected" = deadlock ]; then
    # The same class, and the poller named at its memory_wait's line.
    classes=$(jq -r '.deadlock.class' "$dir/run.json" "$dir/replay.json" | sort -u)
    echo "$policy: deadlock class $classes"
    if [ "$(wc -l <<<"$classes")" != 1 ] || ! grep -q "trace\.jsonl:[0-9]* (memory_wait)" "$dir/replay.out"; then
      echo "FAIL $policy: another deadlock, or no memory_wait line named"; cat "$dir/replay.out"; failed=1
    fi
  fi
done
exit $failed
