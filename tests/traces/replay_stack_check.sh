#!/bin/bash
# A replayed rank runs on a 64 KiB stack by default (tools/progsim/ReplayCommand.cpp):
# records PROGRAM (its deepest calls: collectives, communicator creation,
# probes, persistent and nonblocking requests), replays the trace twice with
# the default stack (below 4,096 ranks a guard page turns an overflow into a
# crash) and requires a completed run, byte-identical reports, and the same
# report as a replay on the 8 MiB stack of `progsim run`, and as one on
# unguarded stacks from the stack arena, but for the echoed setting.
#   replay_stack_check.sh PROGSIM WORKDIR -- RUN_ARGS... PROGRAM [ARGS...]
set -u
progsim=$1 work=$2
shift 3
rm -rf "$work" && mkdir -p "$work"
"$progsim" run --record "$work/trace.jsonl" "$@" >"$work/run.out" 2>&1 || { echo "FAIL: the recorded run failed"; cat "$work/run.out"; exit 1; }
for name in a b; do
  "$progsim" replay --report "$work/$name.json" "$work/trace.jsonl" >"$work/$name.out" 2>&1
done
"$progsim" replay --cfg stack-size=8192 --report "$work/large.json" "$work/trace.jsonl" >"$work/large.out" 2>&1
# Without guard pages (4,096 ranks and more) the stacks come from one mapping
# (sim/memory/StackArena.hpp): the same run.
"$progsim" replay --cfg guard-pages=0 --report "$work/arena.json" "$work/trace.jsonl" >"$work/arena.out" 2>&1
failed=0
[ "$(jq -r .outcome "$work/a.json" 2>/dev/null)" = completed ] || { echo "FAIL: the replay did not complete"; cat "$work/a.out"; failed=1; }
[ "$(jq -r '.parameters["stack-size"]' "$work/a.json" 2>/dev/null)" = 64 ] || { echo "FAIL: the replay's stack is not 64 KiB"; failed=1; }
cmp "$work/a.json" "$work/b.json" && cmp "$work/a.out" "$work/b.out" || { echo "FAIL: two replays differ"; failed=1; }
diff <(grep -v '"stack-size"' "$work/a.json") <(grep -v '"stack-size"' "$work/large.json") >/dev/null ||
  { echo "FAIL: the 8 MiB-stack replay's report differs"; failed=1; }
diff <(grep -v '"guard-pages"' "$work/a.json") <(grep -v '"guard-pages"' "$work/arena.json") >/dev/null && cmp "$work/a.out" "$work/arena.out" ||
  { echo "FAIL: the replay on stacks without guard pages differs"; failed=1; }
[ $failed = 0 ] && echo "ok: completed on a 64 KiB stack, deterministic, same report as on 8 MiB and without guard pages"
exit $failed
