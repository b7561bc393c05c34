#!/usr/bin/env bash
# Replays each of SimGrid's example time-independent traces
# (examples/smpi/replay of the SimGrid sources, `apt-get source simgrid`)
# with `progsim replay --progress ideal` and with `smpirun -replay` on the
# same platform and hostfile, and prints a Markdown table of simulated times
# and relative differences (docs/traces-simgrid.md is its output).
# SMPI runs twice: with its default network model (SMPI, with its TCP/MPI
# correction factors) and with CM02, the plain latency + size/bandwidth
# model progsim configures; the CM02 column is the like-for-like comparison.
#   tools/compare-simgrid-replay.sh [SIMGRID_SOURCE_DIR] [BUILD_DIR]
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sg=${1:-/tmp/simgrid-3.32}
build=$(cd "${2:-$here/build}" && pwd)
progsim="$build/bin/progsim"
work=$(mktemp -d /tmp/progsim-sg-compare-XXXXXX)
trap 'rm -rf "$work"' EXIT
smpi_replay="$work/smpi_replay"
smpicxx -std=c++17 -O1 "$sg/examples/smpi/replay/replay.cpp" -o "$smpi_replay" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; exit 1; }
cd "$sg/examples/smpi" || exit 1
platform="$sg/examples/platforms/small_platform.xml"
hostfile="$sg/examples/smpi/hostfile"

smpi_time() {  # INDEX NP [CFG...]
  local index=$1 np=$2
  shift 2
  timeout 120 smpirun -no-privatize -replay "$index" -np "$np" -platform "$platform" -hostfile "$hostfile" \
    "$smpi_replay" "$@" --log=smpi_config.thres:warning --log=xbt_cfg.thres:warning 2>&1 |
    sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p' | tail -1
}
progsim_time() {  # TRACE NP [CFG...]
  local trace=$1
  shift 2
  "$progsim" replay --progress ideal --platform "$platform" --hostfile "$hostfile" --report "$work/r.json" "$@" \
    "$trace" >"$work/progsim.log" 2>&1
  jq -r 'if .outcome == "completed" then .simulated_time else "(" + .outcome + ")" end' "$work/r.json" 2>/dev/null ||
    echo "(error: $(head -1 "$work/progsim.log"))"
}
reldiff() {
  [[ "$1" =~ ^[0-9.e+-]+$ && "$2" =~ ^[0-9.e+-]+$ ]] || { echo "-"; return; }
  echo "$1 $2" | awk '{ if ($2 == 0) print "-"; else printf "%+.2f%%", 100 * ($1 - $2) / $2 }'
}

# Two like-for-like pairs: progsim's default network model (CM02, no
# cross-traffic) against SMPI configured the same, and progsim given SMPI's
# default model (--cfg network/model=SMPI, cross-traffic on: SMPI's latency
# and bandwidth factors) against SMPI's defaults.
echo "| trace | ranks | progsim ideal (s) | SMPI CM02 (s) | diff vs CM02 | progsim ideal, SMPI model (s) | SMPI default (s) | diff vs default |"
echo "|---|---|---|---|---|---|---|---|"
for trace in replay/actions_*.txt split_traces; do
  if [ "$trace" = split_traces ]; then
    np=$(grep -c . "replay/$trace")
    index="replay/$trace"
    ptrace="replay/$trace"
  else
    np=$(awk 'NF { if ($1 + 1 > n) n = $1 + 1 } END { print n }' "$trace")
    index="$work/index-$(basename "$trace")"
    echo "$trace" >"$index"
    ptrace="$trace"
  fi
  p=$(progsim_time "$ptrace" "$np")
  s_cm02=$(smpi_time "$index" "$np" --cfg=network/model:CM02 --cfg=network/crosstraffic:0)
  p_smpi=$(progsim_time "$ptrace" "$np" --cfg network/model=SMPI --cfg network/crosstraffic=1)
  s_default=$(smpi_time "$index" "$np")
  echo "| $(basename "$trace") | $np | $p | ${s_cm02:--} | $(reldiff "$p" "$s_cm02") | $p_smpi | ${s_default:--} | $(reldiff "$p_smpi" "$s_default") |"
done
