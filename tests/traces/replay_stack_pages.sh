#!/bin/bash
# A replayed rank's stack stays within MAX_PAGES pages (issue 19: a million
# replayed ranks in 24 GiB need one resident stack page per rank; each page
# more costs 4 KiB per rank). Replays a trace on stacks from the stack arena
# (--cfg guard-pages=0: untouched zero memory of their own, as from 4,096
# ranks on) with PROGSIM_REPLAY_STACK_REPORT=1, which makes each rank write,
# as its replay ends, its resident stack pages and the deepest byte it wrote
# below the stack's top (traces/replay/ReplayProgram.cpp), and requires
# every rank but rank 0 within MAX_PAGES pages. Rank 0, the first to start,
# makes the replay's one-time initializations (the trace's header, static
# tables: 19-23 KiB), once per run, not per rank. LD_BIND_NOW=1: a first call
# through the dynamic linker's lazy binding runs its resolver on the stack
# of the rank that makes it, again once per run. Prints the deepest byte and
# the headroom left in MAX_PAGES pages.
#   replay_stack_pages.sh PROGSIM WORKDIR MAX_PAGES --stencil GENERATOR RANKS
#   replay_stack_pages.sh PROGSIM WORKDIR MAX_PAGES -- RUN_ARGS... PROGRAM [ARGS...]
set -u
progsim=$1 work=$2 max_pages=$3
shift 3
rm -rf "$work" && mkdir -p "$work"
if [ "$1" = --stencil ]; then
  # tools/gen-stencil-trace.py: irecv, isend, compute, waitall, allreduce (bench/replay.sh's trace).
  python3 "$2" --ranks "$3" --iterations 3 --halo-bytes 1024 --out "$work/trace/" >/dev/null || exit 1
  trace="$work/trace/"
else
  shift
  trace="$work/trace.jsonl"
  "$progsim" run --record "$trace" "$@" >"$work/run.out" 2>&1
  [ -s "$trace" ] || { echo "FAIL: no trace recorded"; cat "$work/run.out"; exit 1; }
fi
LD_BIND_NOW=1 PROGSIM_REPLAY_STACK_REPORT=1 "$progsim" replay --cfg guard-pages=0 "$trace" >"$work/replay.out" 2>&1
pattern='replay stack of rank \([0-9]*\): \([0-9]*\) page(s) resident of [0-9]* bytes, deepest byte written \([0-9]*\) bytes below the top'
grep -o "$pattern" "$work/replay.out" | sed "s/$pattern/\1 \2 \3/" | sort -n >"$work/stacks.txt"
measured=$(wc -l <"$work/stacks.txt")
expected=$(grep -c "replay stack of rank" "$work/replay.out")
if [ "$measured" = 0 ] || [ "$measured" != "$expected" ]; then
  echo "FAIL: not every rank's stack was measured ($measured of $expected lines)"; cat "$work/replay.out"; exit 1
fi
failed=0 deepest=0 deepest_rank=-1
while read -r rank pages bytes; do
  [ "$rank" = 0 ] && { echo "rank 0 (one-time initializations, not checked): $pages page(s), deepest byte $bytes"; continue; }
  if [ "$pages" -gt "$max_pages" ]; then
    echo "FAIL: rank $rank's stack has $pages pages resident (deepest byte $bytes bytes below the top), more than $max_pages"
    failed=1
  fi
  if [ "$bytes" -gt "$deepest" ]; then deepest=$bytes deepest_rank=$rank; fi
done <"$work/stacks.txt"
page=$(getconf PAGESIZE)
echo "$((measured - 1)) ranks checked: deepest byte $deepest bytes below the top (rank $deepest_rank), headroom $((max_pages * page - deepest)) bytes in $max_pages page(s)"
exit $failed
