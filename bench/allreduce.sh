#!/usr/bin/env bash
# Collective speed benchmark of progsim, side by side with SimGrid's SMPI in
# the same run: bench/programs/allreduce.c (R x MPI_Allreduce of one double)
# on N ranks, with progsim under every progress policy and with smpirun, on
# the same platform with the same placement (K consecutive ranks per host).
# Prints each run's host wall time and CPU time (user + system, less
# sensitive to other load; /usr/bin/time) and the simulated time rank 0
# printed; failed or timed-out runs stay in the table.
set -uo pipefail

usage() {
  cat <<'USAGE'
Usage: bench/allreduce.sh [options]

Options:
  --cases "N:K ..."     rank counts N with K ranks per host (default "1024:8 4096:32";
                        platforms/cluster-128.xml has 128 hosts of 32 cores)
  --rounds R            MPI_Allreduce calls (default 100)
  --policies "P ..."    progsim policies (default "weak thread offload ideal")
  --tools "progsim smpi" which tools to run (default both)
  --time-limit S        wall-clock limit per run, seconds (default 900)
  --platform FILE       SimGrid platform with hosts node-0 ... (default platforms/cluster-128.xml)
  --build-dir DIR       progsim build tree (default <repo>/build)
  --out DIR             output directory (default <repo>/bench/out/allreduce-DATE)
  --progsim-cfg K=V     extra --cfg for every progsim run (repeatable), e.g.
                        coll-allreduce=reduce_bcast (SMPI's default algorithm)
  -h, --help            this text

Output: the table on stdout and in <out>/table.txt, each run's output in <out>/logs/.
USAGE
}

die() { echo "allreduce.sh: $*" >&2; exit 2; }
note() { echo "== $*" >&2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cases="1024:8 4096:32"
rounds=100
policies="weak thread offload ideal"
tools="progsim smpi"
time_limit=900
platform="$root/platforms/cluster-128.xml"
build_dir="$root/build"
out=""
progsim_extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --policies) policies="$2"; shift ;;
    --tools) tools="$2"; shift ;;
    --time-limit) time_limit="$2"; shift ;;
    --platform) platform="$2"; shift ;;
    --build-dir) build_dir="$2"; shift ;;
    --out) out="$2"; shift ;;
    --progsim-cfg) progsim_extra+=(--cfg "$2"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
for c in $cases; do
  [[ "$c" =~ ^[0-9]+:[0-9]+$ ]] || die "--cases: '$c' is not N:K"
done
[ -r "$platform" ] || die "$platform: cannot read the platform"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing: install the Debian package 'time'"
platform=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform")
[ -n "$out" ] || out="$root/bench/out/allreduce-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs" || die "cannot create $out"

want_progsim=0; want_smpi=0
[[ " $tools " == *" progsim "* ]] && want_progsim=1
[[ " $tools " == *" smpi "* ]] && want_smpi=1
src="$root/bench/programs/allreduce.c"
if [ $want_progsim = 1 ]; then
  [ -x "$build_dir/bin/progsim" ] || die "no progsim in $build_dir/bin (build it or pass --build-dir)"
  "$build_dir/bin/progsim-cc" -O2 -o "$out/allreduce.progsim" "$src" >"$out/logs/progsim-cc.log" 2>&1 ||
    die "progsim-cc failed (see $out/logs/progsim-cc.log)"
fi
smpi_missing=""
if [ $want_smpi = 1 ]; then
  if command -v smpicc >/dev/null && command -v smpirun >/dev/null; then
    smpicc -O2 -o "$out/allreduce.smpi" "$src" >"$out/logs/smpicc.log" 2>&1 || smpi_missing="smpicc failed"
  else
    smpi_missing="smpicc/smpirun not found"
  fi
fi

results="$out/results.tsv"
printf 'tool\tpolicy\tranks\tper_host\twall_s\tmaxrss_kib\tsim_time\tstatus\tload1\tcpu_s\n' >"$results"
run_one() {  # TOOL POLICY N K -- COMMAND...
  local tool=$1 policy=$2 n=$3 k=$4
  shift 5
  local id="$tool-$policy-n$n"
  local log="$out/logs/$id" load1 rc wall="" user="" sys="" rss="" status sim cpu="?"
  load1=$(cut -d' ' -f1 /proc/loadavg)
  echo "$*" >"$log.cmd"
  note "$id: $*"
  /usr/bin/time -f '%e %U %S %M' -o "$log.time" timeout -k 10 "$time_limit" "$@" \
    >"$log.stdout" 2>"$log.stderr" </dev/null
  rc=$?
  [ -s "$log.time" ] && read -r wall user sys rss < <(tail -1 "$log.time")
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then status="TIMEOUT(${time_limit}s)"
  elif [ "$rc" = 0 ]; then status=ok
  else status="FAILED($rc)"; fi
  sim=$(grep -E '^[0-9]+\.[0-9]+$' "$log.stdout" | tail -1)
  [ -n "$user" ] && cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  note "$id: $status wall=${wall}s sim=${sim:-?}"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$policy" "$n" "$k" "${wall:-?}" "${rss:-?}" \
    "${sim:--}" "$status" "$load1" "$cpu" >>"$results"
}

for c in $cases; do
  n=${c%%:*}; k=${c##*:}
  hostfile="$out/hostfile-$n.txt"
  awk -v n="$n" -v k="$k" 'BEGIN { for (i = 0; i < n; i++) printf "node-%d\n", int(i / k) }' >"$hostfile"
  if [ $want_progsim = 1 ]; then
    for policy in $policies; do
      run_one progsim "$policy" "$n" "$k" -- "$build_dir/bin/progsim" run -n "$n" --platform "$platform" \
        --ranks-per-node "$k" --progress "$policy" --privatize=off "${progsim_extra[@]}" "$out/allreduce.progsim" "$rounds"
    done
  fi
  if [ $want_smpi = 1 ]; then
    if [ -n "$smpi_missing" ]; then
      printf 'smpi\t-\t%s\t%s\t-\t-\t-\tSKIPPED(%s)\t-\t-\n' "$n" "$k" "$smpi_missing" >>"$results"
    else
      run_one smpi - "$n" "$k" -- smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" \
        --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:no "$out/allreduce.smpi" "$rounds" \
        --log=root.thres:critical
    fi
  fi
done

{
  echo "allreduce: $(date -Is) on $(uname -n), $(nproc) cores, load at end $(cut -d' ' -f1-3 /proc/loadavg);"
  echo "$rounds x MPI_Allreduce(1 double) on $(basename "$platform"); $(smpirun -version 2>/dev/null | head -1)"
  echo "progsim options: ${progsim_extra[*]:-(defaults)}"
  echo
  awk -F'\t' 'NR > 1 {
      key = $3
      if (!(key in seen)) { seen[key] = 1; order[++m] = key }
      if ($1 == "smpi" && $8 == "ok") { smpi[key] = $5; smpi_cpu[key] = $10 }
      rows[key] = rows[key] sprintf("%-8s %-8s %6s %9s %10s %10s %12s %s (load %s)\n", $1, $2, $3, $4, $5, $10, $7, $8, $9)
      if ($1 == "progsim") { prog[key] = prog[key] " " $2 "=" $5; progcpu[key] = progcpu[key] " " $2 "=" $10 }
    }
    END {
      printf "%-8s %-8s %6s %9s %10s %10s %12s %s\n", "tool", "policy", "ranks", "per host", "wall s", "CPU s", "simulated s", "status"
      for (i = 1; i <= m; i++) {
        k = order[i]; printf "%s", rows[k]
        if (k in smpi) {
          n = split(prog[k], p, " ")
          line = "  progsim / SMPI wall time:"
          for (j = 1; j <= n; j++) { split(p[j], kv, "="); if (kv[2] != "?") line = line sprintf(" %s %.2f", kv[1], kv[2] / smpi[k]) }
          print line
          n = split(progcpu[k], p, " ")
          line = "  progsim / SMPI CPU time: "
          for (j = 1; j <= n; j++) { split(p[j], kv, "="); if (kv[2] != "?" && smpi_cpu[k] > 0) line = line sprintf(" %s %.2f", kv[1], kv[2] / smpi_cpu[k]) }
          print line
        }
      }
    }' "$results"
} | tee "$out/table.txt"
