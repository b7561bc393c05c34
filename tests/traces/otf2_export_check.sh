#!/bin/bash
# OTF2 export (issue 19): runs PROGRAM twice with --otf2, requires the two
# archives to be byte-identical, reads the first back with otf2-print (from
# Debian's otf2-tools) and requires the given number of each event kind
# (otf2-print's names: ENTER, MPI_SEND, MPI_COLLECTIVE_END, ...), counted
# over all locations, and no other MPI event kind. With --status N, the run
# must end with exit status N (a crash: the archive is completed anyway);
# each --line REGEX must match a line of otf2-print's output.
#   otf2_export_check.sh PROGSIM WORKDIR [--status N] [--line REGEX]... KIND=COUNT... -- RUN_ARGS... PROGRAM [ARGS...]
set -u
progsim=$1 work=$2
shift 2
want_status=0
if [ "${1:-}" = --status ]; then
  want_status=$2
  shift 2
fi
expected=() lines=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  if [ "$1" = --line ]; then
    lines+=("$2")
    shift 2
    continue
  fi
  expected+=("$1")
  shift
done
shift
rm -rf "$work" && mkdir -p "$work"
for copy in a b; do
  "$progsim" run --otf2 "$work/$copy" --report "$work/$copy.json" "$@" >"$work/$copy.out" 2>&1
  status=$?
  if [ $status != "$want_status" ]; then
    echo "FAIL: progsim run --otf2 exited with $status, not $want_status"
    cat "$work/$copy.out"
    exit 1
  fi
done
if ! diff -r "$work/a" "$work/b" >/dev/null; then
  echo "FAIL: two runs gave different archives"
  diff -r "$work/a" "$work/b" | head
  exit 1
fi
if ! otf2-print "$work/a/traces.otf2" >"$work/print.txt" 2>"$work/print.err"; then
  echo "FAIL: otf2-print cannot read the archive"
  cat "$work/print.err"
  exit 1
fi
# Event lines follow the "Event Location Timestamp" header; count their first words.
awk '/^Event +Location/ { on = 1; next } on && /^[A-Z_]+ +[0-9]+ +[0-9]+/ { n[$1]++ }
     END { for (k in n) print k "=" n[k] }' "$work/print.txt" | sort >"$work/counts.txt"
echo "events read back by otf2-print:"
cat "$work/counts.txt"
failed=0
for pair in "${expected[@]}"; do
  if ! grep -qx "$pair" "$work/counts.txt"; then
    echo "FAIL: expected $pair"
    failed=1
  fi
done
# Nothing unexpected (a kind not listed).
while IFS== read -r kind count; do
  listed=0
  for pair in "${expected[@]}"; do
    [ "${pair%%=*}" = "$kind" ] && listed=1
  done
  if [ $listed = 0 ]; then
    echo "FAIL: unexpected events $kind=$count"
    failed=1
  fi
done <"$work/counts.txt"
for regex in "${lines[@]}"; do
  if ! grep -qE -- "$regex" "$work/print.txt"; then
    echo "FAIL: no event line matches /$regex/"
    failed=1
  fi
done
# Timestamps are simulated time in ns: the last Leave is the run's end.
end_ns=$(awk '/^LEAVE/ { if ($3 > m) m = $3 } END { print m + 0 }' "$work/print.txt")
sim=$(jq -r .simulated_time "$work/a.json")
if ! python3 -c "import sys; sys.exit(0 if abs($end_ns * 1e-9 - $sim) <= 1e-9 else 1)"; then
  echo "FAIL: the last Leave is at $end_ns ns, the run ends at $sim s"
  failed=1
fi
[ $failed = 0 ] && echo "OK"
exit $failed
