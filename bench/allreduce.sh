#!/usr/bin/env bash
# Collective speed at the placements of issue 5, side by side with SMPI:
# bench/programs/allreduce.c (R x MPI_Allreduce of one double) on N ranks, K
# per host of platforms/cluster-128.xml, privatization off in both tools, SMPI
# without computation benchmarking, progsim forced to SMPI's algorithm
# (reduce + broadcast). These are FAVOURABLE configurations (issue 17: users
# run one rank per core with both tools' defaults); they are the fav-N:K rows
# of bench/speed.sh, which this script runs (no logic of its own).
set -euo pipefail

usage() {
  cat <<'USAGE'
Usage: bench/allreduce.sh [options]     (= bench/speed.sh --cases "fav-N:K ..." --count none ...)

Options:
  --cases "N:K ..."     rank counts N with K ranks per host (default "1024:8 4096:32")
  --platform FILE       platform of these rows (speed.sh --fav-platform; default
                        platforms/cluster-128.xml)
  -h, --help            this text
Any other option goes to bench/speed.sh unchanged: --rounds, --policies, --tools,
--time-limit, --build-dir, --out, --progsim-cfg, --fav-algorithm A (default
reduce_bcast; 'default' = progsim's own choice), --count first (simcalls and
context switches per message), ... (bench/speed.sh --help).
USAGE
}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cases="1024:8 4096:32"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cases|--platform)
      [ $# -ge 2 ] || { echo "allreduce.sh: $1 needs a value" >&2; exit 2; }
      if [ "$1" = --cases ]; then cases=$2; else args+=(--fav-platform "$2"); fi
      shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) args+=("$1"); shift ;;
  esac
done
speed_cases=""
for c in $cases; do
  [[ "$c" =~ ^[0-9]+:[0-9]+$ ]] || { echo "allreduce.sh: --cases: '$c' is not N:K" >&2; exit 2; }
  speed_cases+=" fav-$c"
done
exec "$here/speed.sh" --cases "${speed_cases# }" --count none "${args[@]}"
