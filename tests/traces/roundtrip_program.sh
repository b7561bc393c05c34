#!/bin/bash
# Record -> replay round trip of one test program under every policy (issue
# 19): for each of weak, thread, offload, ideal, runs the program with
# --record and the test's own run options (its --progress replaced), replays
# the trace with the same options (but --privatize), and requires the same exit status,
# outcome, simulated time, every rank's finish time (within 1e-12 s, as
# roundtrip.sh says why), number of MPI calls per rank, and undefined
# outcomes found (rule, ranks, time; not the program's local accesses).
# With REFUSED (a call name, or what the program did, not "-"), the program must instead be one the
# recorder refuses: its replay stops naming REFUSED (so this list of
# refused programs shrinks as the recorder learns calls: the test fails
# once the program round-trips). REFUSED@POLICY,...: refused only under
# those policies, a round trip under the others. REFUSED "deadlock@POLICY,...":
# under those policies the run deadlocks (a busy-wait on memory that weak
# progress never ends, a generalized request never completed), and the
# replay must deadlock alike: the same summary, outcome "deadlock", and the
# same deadlock (class, cycle, each rank's blocked call or polled memory,
# since when, whom it waits for), each rank named at its trace line, a
# poller at its memory_wait's (issue 19). "erroneous@POLICY,...": the run
# finishes but breaks a rule of the standard (outcome "erroneous"), and the
# replay must find the same errors (rule, ranks, time) too. "deadlock@as-run":
# only under the run's own policy (its --progress, else weak), where the
# run deadlocks.
#   roundtrip_program.sh PROGSIM WORKDIR REFUSED -- RUN_OPTIONS... -- PROGRAM [ARGS...]
set -u
progsim=$1 work=$2 refused=$3
refused_under=weak,thread,offload,ideal
case "$refused" in *@*) refused_under=${refused#*@} refused=${refused%@*} ;; esac
shift 4
options=() run_only=() own_policy=weak
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --progress) own_policy=$2; shift 2; continue ;;
    --privatize=*) run_only+=("$1"); shift; continue ;;  # how the program is loaded: not an option of replay
  esac
  options+=("$1"); shift
done
shift
# Undefined outcomes too (rule, ranks, time): a replay finding a conflict the
# run had not (rma_semantics' strided get replayed contiguous, before branch
# issue19-rmart) is another report. Not those of the program's own loads and
# stores against RMA accesses (lc_rma_local): a trace holds no local access.
summary='[.exit_status, .outcome, .simulated_time, [.ranks[] | .finish_time], [.ranks[] | .mpi_calls],
          [.undefined[]? | select(.rule != "conflicting local and RMA accesses") | [.rule, .ranks, .time]]]'
# A blocked call's communicator is named by its name, which a trace does
# not hold (MPI_Comm_set_name is a local event): not compared.
deadlock='.deadlock | [.class, .cycle, [.ranks[] | [.rank, (.call // "" | gsub("comm=[^,)]*"; "comm=")), .state,
          .last_call, .blocked_since, .polling_since, .watch, .offset, [.waits_for[]? | [.rank, .kind]]]]]'
policies="weak thread offload ideal"
if [ "$refused_under" = as-run ]; then  # "deadlock@as-run": under the run's own policy only
  policies=$own_policy refused_under=$own_policy
fi
failed=0
for policy in $policies; do
  dir="$work/$policy"
  rm -rf "$dir" && mkdir -p "$dir"
  "$progsim" run --progress "$policy" "${options[@]}" "${run_only[@]}" --record "$dir/trace.jsonl" --report "$dir/run.json" "$@" \
    >"$dir/run.out" 2>&1
  "$progsim" replay --progress "$policy" "${options[@]}" --report "$dir/replay.json" "$dir/trace.jsonl" \
    >"$dir/replay.out" 2>&1
  replay_status=$?
  expected=completed
  summary_of=$summary
  if [ "$refused" = deadlock ] && [[ ",$refused_under," == *",$policy,"* ]]; then
    expected=deadlock
  elif [ "$refused" = erroneous ] && [[ ",$refused_under," == *",$policy,"* ]]; then
    expected=erroneous
    summary_of="$summary + [[.errors[] | [.rule, .ranks, .time]]]"  # the same errors, found at the same time
  elif [ "$refused" != - ] && [[ ",$refused_under," == *",$policy,"* ]]; then
    if [ "$replay_status" = 2 ] && grep -q "the recorded program [a-z]* $refused, which traces cannot replay yet" "$dir/replay.out"; then
      echo "$policy: refused as expected: $(grep -o "$refused, [^(]*([^)]*)" "$dir/replay.out" | head -1)"
    else
      echo "FAIL $policy: the replay was expected to stop at $refused (exit $replay_status):"; cat "$dir/replay.out"
      failed=1
    fi
    continue
  fi
  recorded=$(jq -c "$summary_of" "$dir/run.json" 2>/dev/null)
  replayed=$(jq -c "$summary_of" "$dir/replay.json" 2>/dev/null)
  same=$(python3 "$(dirname "$0")/same_report_values.py" "$recorded" "$replayed" 2>/dev/null)
  echo "$policy: run $recorded"
  echo "$policy: replay $replayed"
  if [ "$(jq -r .outcome "$dir/run.json" 2>/dev/null)" != "$expected" ]; then
    echo "FAIL $policy: the recorded run did not end as expected ($expected)"; cat "$dir/run.out"; failed=1
  elif [ "$same" != yes ]; then
    echo "FAIL $policy: the replay differs from the recorded run"; cat "$dir/replay.out"; failed=1
  elif [ "$expected" = deadlock ]; then
    # The same deadlock: class, cycle, and per rank its blocked call (or the
    # memory it polls), since when, and whom it waits for; each rank that
    # did not finish named at its trace line, a poller at its memory_wait's.
    recorded=$(jq -c "$deadlock" "$dir/run.json" 2>/dev/null)
    replayed=$(jq -c "$deadlock" "$dir/replay.json" 2>/dev/null)
    same=$(python3 "$(dirname "$0")/same_report_values.py" "$recorded" "$replayed" 2>/dev/null)
    echo "$policy: deadlock $replayed"
    unnamed=$(jq -r '.deadlock.ranks[] | select(.state != "finished") |
                     (if .watch then "memory_wait" else "[a-z_]+" end) as $event |
                     select(.source // "" | test("trace\\.jsonl:[0-9]+ \\(" + $event + "\\)$") | not) |
                     "rank \(.rank) at \(.source)"' "$dir/replay.json" 2>&1)
    if [ "$same" != yes ] || [ -n "$unnamed" ] || [ -z "$replayed" ]; then
      echo "FAIL $policy: another deadlock, or a rank not named at its trace line: $unnamed"; cat "$dir/replay.out"
      failed=1
    fi
  fi
done
exit $failed
