#!/usr/bin/env bash
# Replay throughput and memory (issue 6): generates a synthetic 1-D stencil +
# allreduce trace (tools/gen-stencil-trace.py, one file per rank) for each
# rank count, replays it once with `progsim replay`, and prints MPI events
# per second of wall time and peak resident memory per rank (/usr/bin/time).
# The platform is sized to the rank count, as a user replaying a trace from a
# machine of that size would: a flat cluster (bench/lib/common.sh) of
# ceil(N / K) hosts of K cores, one rank per core (--ranks-per-host K, default
# 32). --hosts H instead places the ranks on a fixed H-host cluster of 32 cores
# (--hosts 128: the old runs on platforms/cluster-128.xml's shape, flat),
# oversubscribed beyond 32 x H ranks: SimGrid then shares each host's CPU among
# N / H ranks, and every computation start or end costs O(N / H).
# Several iteration counts show whether memory grows with trace length:
#   bench/replay.sh --ranks 64 --iterations "100 2000 6000"
#   bench/replay.sh [--ranks "1000 10000 100000"] [--iterations "K ..."] [--halo-bytes B] [--progress P]
#                   [--stack-size KiB|default] [--predict N] [--keep-trace] [--build DIR] [--out DIR]
#                   [--ranks-per-host K | --hosts H]
# After two rank counts or more it prints the peak memory predicted for
# --predict N ranks (default 1,000,000), a line through the last two peaks.
# The 1,000,000-rank replay (4 GiB of trace files, a 4 KiB block each, and a 2 GiB report
# under --out; bench/README.md gives the peak memory to expect):
#   bench/replay.sh --ranks 1000000 --halo-bytes 1024 --iterations 2
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
ranks="1000 10000"
iterations=10
halo=65536
progress=weak
stack=default
build="$here/build"
out=/tmp/progsim-bench-replay
predict=1000000
keep=no
per_host=32
fixed_hosts=
while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks="$2"; shift ;;
    --iterations) iterations="$2"; shift ;;
    --halo-bytes) halo="$2"; shift ;;
    --progress) progress="$2"; shift ;;
    --stack-size) stack="$2"; shift ;;
    --build) build="$2"; shift ;;
    --out) out="$2"; shift ;;
    --predict) predict="$2"; shift ;;
    --keep-trace) keep=yes ;;
    --ranks-per-host) per_host="$2"; shift ;;
    --hosts) fixed_hosts="$2"; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
progsim="$build/bin/progsim"
mkdir -p "$out"
source "$here/bench/lib/common.sh"
peaks=()
printf "%-8s %-6s %7s %10s %12s %10s %10s %12s %14s %10s %s\n" ranks iters hosts events "sim. time" "wall s" "CPU s" \
  "events/s" "KiB/rank" "peak MiB" outcome
for n in $ranks; do
for it in $iterations; do
  trace="$out/stencil-$n"
  rm -rf "$trace"
  python3 "$here/tools/gen-stencil-trace.py" --ranks "$n" --iterations "$it" --halo-bytes "$halo" --out "$trace/"
  # Events: every line but the header of each file.
  events=$(( $(find "$trace" -name "rank-*.jsonl" -exec cat {} + | wc -l) - n ))
  if [ -n "$fixed_hosts" ]; then
    hosts=$fixed_hosts
    per_node=$(( (n + hosts - 1) / hosts ))
  else
    per_node=$per_host
    hosts=$(( (n + per_node - 1) / per_node ))
  fi
  platform="$out/platform-$n.xml"
  bench_flat_platform "$platform" "$hosts" 32
  stack_cfg=()
  [ "$stack" = default ] || stack_cfg=(--cfg "stack-size=$stack")
  /usr/bin/time -f "%e %M %U %S" -o "$out/time-$n" "$progsim" replay --progress "$progress" --platform "$platform" --ranks-per-node "$per_node" \
    "${stack_cfg[@]}" --report "$out/report-$n.json" "$trace" >"$out/log-$n" 2>&1
  read -r wall rss_kib user_s sys_s <"$out/time-$n"
  cpu=$(echo "$user_s + $sys_s" | bc -l)
  # Read from the report's head: a million ranks' report is gigabytes, too
  # much for jq. The top-level keys are the lines indented by two spaces.
  head_keys=$(head -n 40 "$out/report-$n.json" 2>/dev/null | grep '^  "')
  outcome=$(sed -n 's/^  "outcome": "\(.*\)",$/\1/p' <<<"$head_keys")
  simtime=$(sed -n 's/^  "simulated_time": \(.*\),$/\1/p' <<<"$head_keys")
  [ -n "$outcome" ] || outcome=error
  [ -n "$simtime" ] || simtime=0
  printf "%-8s %-6s %7s %10s %12.6f %10s %10.2f %12.0f %14.1f %10.1f %s\n" "$n" "$it" "$hosts" "$events" "$simtime" "$wall" "$cpu" \
    "$(echo "$events / $wall" | bc -l)" "$(echo "$rss_kib / $n" | bc -l)" "$(echo "$rss_kib / 1024" | bc -l)" "$outcome"
  [ "$keep" = yes ] || rm -rf "$trace"
  peaks+=("$n $rss_kib")
done
done
# Peak = fixed + per-rank cost: the line through the last two rank counts measured.
if [ "${#peaks[@]}" -ge 2 ]; then
  read -r n1 p1 <<<"${peaks[-2]}"
  read -r n2 p2 <<<"${peaks[-1]}"
  if [ "$n1" != "$n2" ]; then
    per_rank=$(echo "($p2 - $p1) / ($n2 - $n1)" | bc -l)
    printf "predicted peak at %s ranks: %.1f GiB (%.2f KiB per rank from %s to %s ranks)\n" "$predict" \
      "$(echo "($p2 + $per_rank * ($predict - $n2)) / 1048576" | bc -l)" "$per_rank" "$n1" "$n2"
  fi
fi
