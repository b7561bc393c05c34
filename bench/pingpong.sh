#!/usr/bin/env bash
# Point-to-point speed benchmark of progsim, side by side with SimGrid's SMPI.
#
# Builds bench/programs/pingpong.c with progsim-cc and with smpicc, then for
# each case (ranks x round trips) runs it with progsim under every progress
# policy and with smpirun, on the same platform with the same placement (rank
# r on host node-r: one rank per host), and measures the host wall time and
# CPU time of every run with /usr/bin/time. The table gives messages per host
# second (messages = 2 x round trips x pairs, pairs = ranks / 2) and the
# simulated time rank 0 printed. Failed or timed-out runs stay in the table.
set -uo pipefail

BENCH_NAME=pingpong.sh
# shellcheck source=bench/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage() {
  cat <<'USAGE'
Usage: bench/pingpong.sh [options]

Options:
  --cases "N:R ..."       rank counts N (even, one rank per host) and round trips R
                          per pair (default "2:200000 64:20000")
  --policies "P ..."      progsim progress policies (default "weak thread offload ideal")
  --tools "progsim smpi"  which tools to run (default both)
  --repeat K              runs of each configuration; the table shows the median
                          wall time, results.tsv every run (default 1)
  --time-limit S          wall-clock limit per run, seconds (default 900)
  --platform FILE         SimGrid platform with hosts node-0 ... node-(N-1)
                          (default platforms/cluster-128.xml)
  --smpi-privatize MODE   smpi/privatization for smpirun: dlopen or no (default no:
                          pingpong.c has no writable globals; progsim runs with
                          --privatize=off accordingly)
  --smpi-simulate-computation yes|no
                          SMPI's benchmarking of the code between MPI calls
                          (default no: progsim's user-time=zero equivalent, and
                          deterministic simulated times)
  --build-dir DIR         progsim build tree to use (default <repo>/build)
  --out DIR               output directory (default <repo>/bench/out/pingpong-DATE)
  --progsim-cfg K=V       extra --cfg for every progsim run (repeatable)
  --smpi-cfg K:V          extra --cfg for every smpirun run (repeatable)
  -h, --help              this text

Output: the table on stdout and in <out>/table.txt, one line per run in
<out>/results.tsv, each run's stdout and stderr in <out>/logs/.
USAGE
}

root=$BENCH_ROOT
cases="2:200000 64:20000"
policies="weak thread offload ideal"
tools="progsim smpi"
repeat=1
time_limit=900
platform="$root/platforms/cluster-128.xml"
smpi_priv=no
smpi_simcomp=no
build_dir="$root/build"
out=""
progsim_extra=()
smpi_extra=()

while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases="$2"; shift ;;
    --policies) policies="$2"; shift ;;
    --tools) tools="$2"; shift ;;
    --repeat) repeat="$2"; shift ;;
    --time-limit) time_limit="$2"; shift ;;
    --platform) platform="$2"; shift ;;
    --smpi-privatize) smpi_priv="$2"; shift ;;
    --smpi-simulate-computation) smpi_simcomp="$2"; shift ;;
    --build-dir) build_dir="$2"; shift ;;
    --out) out="$2"; shift ;;
    --progsim-cfg) progsim_extra+=(--cfg "$2"); shift ;;
    --smpi-cfg) smpi_extra+=("--cfg=$2"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bench_die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

for c in $cases; do
  [[ "$c" =~ ^([0-9]+):([0-9]+)$ ]] || bench_die "--cases: '$c' is not N:R"
  n=${BASH_REMATCH[1]}
  if [ "$n" -lt 2 ] || [ $((n % 2)) != 0 ]; then bench_die "--cases: '$c': N must be even and at least 2"; fi
done
for p in $policies; do
  case "$p" in weak|thread|offload|ideal) ;; *) bench_die "--policies: unknown policy '$p'" ;; esac
done
[[ "$repeat" =~ ^[0-9]+$ && "$repeat" -gt 0 ]] || bench_die "--repeat: not a positive integer"
[[ "$time_limit" =~ ^[0-9]+$ && "$time_limit" -gt 0 ]] || bench_die "--time-limit: not a positive integer"
case "$smpi_priv" in dlopen|no) ;; *) bench_die "--smpi-privatize: dlopen or no, not '$smpi_priv'" ;; esac
case "$smpi_simcomp" in yes|no) ;; *) bench_die "--smpi-simulate-computation: yes or no" ;; esac
[ -r "$platform" ] || bench_die "$platform: cannot read the platform"
platform=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform")

[ -n "$out" ] || out="$root/bench/out/pingpong-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs" || bench_die "cannot create $out"
out=$(cd "$out" && pwd)

# ---------------------------------------------------------------- tools
bench_require_time "$out/logs"

want_progsim=0; want_smpi=0
[[ " $tools " == *" progsim "* ]] && want_progsim=1
[[ " $tools " == *" smpi "* ]] && want_smpi=1
progsim="$build_dir/bin/progsim"
progsim_cc="$build_dir/bin/progsim-cc"
if [ $want_progsim = 1 ] && { [ ! -x "$progsim" ] || [ ! -x "$progsim_cc" ]; }; then
  bench_die "no progsim in $build_dir/bin: build it (cmake -S $root -B $build_dir -DCMAKE_BUILD_TYPE=Release && cmake --build $build_dir -j2) or pass --build-dir"
fi
smpi_missing=""
if [ $want_smpi = 1 ]; then
  command -v smpicc >/dev/null || smpi_missing="smpicc not found"
  command -v smpirun >/dev/null || smpi_missing="smpirun not found"
fi

# ---------------------------------------------------------------- programs
src="$root/bench/programs/pingpong.c"
prog_progsim="$out/pingpong.progsim"
prog_smpi="$out/pingpong.smpi"
if [ $want_progsim = 1 ]; then
  "$progsim_cc" -O2 -o "$prog_progsim" "$src" >"$out/logs/progsim-cc.log" 2>&1 ||
    bench_die "progsim-cc failed (see $out/logs/progsim-cc.log)"
fi
if [ $want_smpi = 1 ] && [ -z "$smpi_missing" ]; then
  smpicc -O2 -o "$prog_smpi" "$src" >"$out/logs/smpicc.log" 2>&1 || smpi_missing="smpicc failed (see logs/smpicc.log)"
fi

runtime_sum() { [ $want_progsim = 1 ] && bench_build_sum "$build_dir"; }
runtime_before=$(runtime_sum)

{
  bench_machine_facts "$root"
  echo "platform: $platform"
  echo "progsim: $progsim"
  echo "smpi: $(bench_simgrid_version)${smpi_missing:+ ($smpi_missing)}"
  echo "smpi settings: privatization $smpi_priv, simulate-computation $smpi_simcomp"
} >"$out/system.txt"
cat "$out/system.txt" >&2

# ---------------------------------------------------------------- one run
results="$out/results.tsv"
printf 'tool\tpolicy\tranks\trounds\tmessages\trepeat\twall_s\tuser_s\tsys_s\tmaxrss_kib\tsim_time\texit\tstatus\tload1\tlog\n' >"$results"
run_index=0

# run_one TOOL POLICY N R REP -- COMMAND...
run_one() {
  local tool=$1 policy=$2 n=$3 r=$4 rep=$5
  shift 6
  run_index=$((run_index + 1))
  local id
  id=$(printf '%03d-%s-%s-n%s-r%s-%s' "$run_index" "$tool" "$policy" "$n" "$r" "$rep")
  local log="$out/logs/$id"
  bench_note "$id: $*"
  bench_timed_run "$log" "$time_limit" "$@"
  local rc=$BT_RC wall=$BT_WALL user=$BT_USER sys=$BT_SYS rss=$BT_RSS status=$BT_STATUS load1=$BT_LOAD1 sim
  # Rank 0 prints one number; SMPI may print its own lines on stdout too.
  sim=$(grep -E '^[0-9]+\.[0-9]+$' "$log.stdout" | tail -1)
  [ "$status" = ok ] && [ -z "$sim" ] && status="FAILED(no output)"
  bench_note "$id: $status wall=${wall}s user=${user}s sim=${sim:-?}"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$tool" "$policy" "$n" "$r" "$((n * r))" "$rep" "${wall:-?}" "${user:-?}" "${sys:-?}" "${rss:-?}" \
    "${sim:--}" "$rc" "$status" "$load1" "logs/$id" >>"$results"
}

# ---------------------------------------------------------------- the runs
for c in $cases; do
  n=${c%%:*}; r=${c##*:}
  hostfile="$out/hostfile-$n.txt"
  bench_hostfile "$hostfile" "$n" 1
  for rep in $(seq 1 "$repeat"); do
    if [ $want_progsim = 1 ]; then
      for policy in $policies; do
        run_one progsim "$policy" "$n" "$r" "$rep" -- \
          "$progsim" run -n "$n" --platform "$platform" --ranks-per-node 1 --progress "$policy" \
          --privatize=off "${progsim_extra[@]}" "$prog_progsim" "$r"
      done
    fi
    if [ $want_smpi = 1 ]; then
      if [ -n "$smpi_missing" ]; then
        printf 'smpi\t-\t%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\t-\tSKIPPED(%s)\t-\t-\n' "$n" "$r" "$((n * r))" "$rep" "$smpi_missing" >>"$results"
      else
        run_one smpi - "$n" "$r" "$rep" -- \
          smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" \
          "--cfg=smpi/privatization:$smpi_priv" "--cfg=smpi/simulate-computation:$smpi_simcomp" \
          "${smpi_extra[@]}" "$prog_smpi" "$r"
      fi
    fi
  done
done

runtime_after=$(runtime_sum)

# ---------------------------------------------------------------- the table
{
  echo "pingpong: $(date -Is) on $(uname -n): $(nproc) cores; platform $(basename "$platform"), one rank per host;"
  echo "8-byte MPI_Send/MPI_Recv round trips between ranks 2k and 2k+1; $(sed -n 's/^smpi: //p' "$out/system.txt")," \
    "$(sed -n 's/^smpi settings: //p' "$out/system.txt")"
  echo
  awk -F'\t' -v repeat="$repeat" '
    NR == 1 { next }
    {
      key = $1 FS $2 FS $3 FS $4
      if (!(key in seen)) { seen[key] = 1; order[++m] = key; msgs[key] = $5 }
      if ($13 == "ok") { walls[key] = walls[key] " " $7; cpus[key] = cpus[key] " " ($8 + $9); sims[key] = $11 }
      else if (!(key in bad)) bad[key] = $13
      loads[key] = loads[key] (loads[key] == "" ? "" : ",") $14
      n[key]++
    }
    function median(list,   a, k, i, j, t) {
      k = split(list, a, " ")
      for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return k == 0 ? "" : (k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2)
    }
    END {
      fmt = "%-8s %-8s %6s %11s %11s %9s %14s %9s %14s %14s %s\n"
      printf fmt, "tool", "policy", "ranks", "round trips", "messages", "wall s", "msg / host s", "cpu s", "msg / cpu s", "simulated s", "status (load)"
      for (i = 1; i <= m; i++) {
        key = order[i]; split(key, f, FS)
        w = median(walls[key]); cpu = median(cpus[key])
        st = (key in bad) ? bad[key] : "ok"
        if (w == "") { printf fmt, f[1], f[2], f[3], f[4], msgs[key], "-", "-", "-", "-", "-", st " (" loads[key] ")"; continue }
        rate = (w > 0) ? sprintf("%.0f", msgs[key] / w) : "-"
        crate = (cpu > 0) ? sprintf("%.0f", msgs[key] / cpu) : "-"
        printf fmt, f[1], f[2], f[3], f[4], msgs[key], sprintf("%.2f", w), rate, sprintf("%.2f", cpu), crate, sims[key], st " (" loads[key] ")"
      }
    }' "$results"
  echo
  echo "messages = 2 x round trips x pairs; wall s = host wall time of the whole run (start-up included),"
  echo "median of $repeat run(s); cpu s = user + system CPU time; simulated s = rank 0's MPI_Wtime after"
  echo "its last round trip; load = 1-min load average when each run started (the machine has $(nproc) cores)."
  if [ -n "$runtime_before" ] && [ "$runtime_before" != "$runtime_after" ]; then
    echo "WARNING: $build_dir changed during the benchmark: the progsim rows may mix two versions."
  fi
} | tee "$out/table.txt"
echo "results: $out" >&2
