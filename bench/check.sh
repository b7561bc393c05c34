#!/usr/bin/env bash
# progsim check's speed (issue 16): configurations explored per second.
#
# Builds bench/programs/wildcards.c (rank 0 takes one message from every
# other rank with MPI_ANY_SOURCE, then one more each with MPI_Waitany) with
# progsim-cc and runs `progsim check --json` on it at each rank count: the 32
# configurations (4 policies x 8 implementation settings) and the
# alternatives of its wildcard decisions, depth first, up to --max-runs. The
# table gives the runs made, the alternatives left unexplored, the wall time
# and the runs per wall second. Issue 16's bar: seconds for 2-4 ranks.
set -uo pipefail

BENCH_NAME=check.sh
# shellcheck source=bench/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage() {
  cat <<'USAGE'
Usage: bench/check.sh [options]

Options:
  --ranks "N ..."     rank counts (default "2 3 4")
  --max-runs N        progsim check --max-runs (default 64)
  --build-dir DIR     progsim build tree to use (default <repo>/build)
  --out DIR           output directory (default <repo>/bench/out/check-DATE)
  -h, --help          this text

Output: the table on stdout and in <out>/table.txt; each check's JSON and
stderr in <out>/logs/.
USAGE
}

root=$BENCH_ROOT
ranks="2 3 4"
max_runs=64
build_dir="$root/build"
out=""
while [ $# -gt 0 ]; do
  case $1 in
    --ranks) ranks=$2; shift 2 ;;
    --max-runs) max_runs=$2; shift 2 ;;
    --build-dir) build_dir=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) bench_die "unknown option $1 (--help)" ;;
  esac
done
[ -x "$build_dir/bin/progsim" ] || bench_die "$build_dir/bin/progsim: not built"
out=${out:-$root/bench/out/check-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs" || bench_die "cannot create $out"
bench_require_time "$out"
"$build_dir/bin/progsim-cc" -O1 "$root/bench/programs/wildcards.c" -o "$out/wildcards" ||
  bench_die "cannot compile wildcards.c"

{
  bench_machine_facts "$root"
  echo
  printf '%-6s %-6s %-11s %-9s %-10s %s\n' ranks runs unexplored "wall (s)" "runs/s" verdict
  for n in $ranks; do
    log="$out/logs/check-$n"
    bench_timed_run "$log" 900 "$build_dir/bin/progsim" check --json --max-runs "$max_runs" -n "$n" "$out/wildcards"
    read -r runs unexplored verdict < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(len(r["configurations"]), len(r["unexplored"]), r["verdict"].replace(" ", "_"))' "$log.stdout" 2>/dev/null ||
      echo "? ? $BT_STATUS")
    rate=$(awk -v r="$runs" -v w="$BT_WALL" 'BEGIN { if (w > 0 && r + 0 == r) printf "%.1f", r / w; else print "?" }')
    printf '%-6s %-6s %-11s %-9s %-10s %s\n' "$n" "$runs" "$unexplored" "$BT_WALL" "$rate" "${verdict//_/ }"
  done
} | tee "$out/table.txt"
