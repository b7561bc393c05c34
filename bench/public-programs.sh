#!/usr/bin/env bash
# Public MPI programs, built unmodified with progsim-cc / progsim-cxx, run
# under every progress policy at 8 to 64 ranks; each run passes when progsim
# ends it `completed` and the program's own verification output says it is
# correct. Heavy (minutes to an hour): outside CI, one program at a time.
# --speed: host CPU time of OSU and IMB-MPI1 runs under progsim (default
# policy) and SMPI (its defaults) side by side, in the same run (issue 17).
set -uo pipefail

BENCH_NAME=public-programs.sh
# shellcheck source=bench/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage() {
  cat <<'USAGE'
Usage: bench/public-programs.sh [options] [PROGRAM...]

PROGRAM: ompi-examples lulesh hpcg imb osu (default: all). Each is built from
SRC/<dir>, an unmodified checkout of its public repository (never copied into
this project):
  ompi-examples  SRC/ompi    https://github.com/open-mpi/ompi (examples/ only)
  lulesh         SRC/lulesh  https://github.com/LLNL/LULESH
  hpcg           SRC/hpcg    https://github.com/hpcg-benchmark/hpcg
  imb            SRC/imb     https://github.com/intel/mpi-benchmarks
  osu            SRC/osu     https://github.com/forresti/osu-micro-benchmarks (OMB 5.3)

Options:
  --speed            speed mode: no correctness verdicts; builds OSU (osu_bw, osu_bibw,
                     osu_allreduce, osu_alltoall) and IMB-MPI1 with progsim-cc/-cxx and with
                     smpicc/smpicxx, runs each case under progsim (its default policy and
                     platform) and smpirun (its defaults; same platform, one rank per host)
                     and prints CPU seconds side by side (PROGRAM: osu imb, default both)
  --quick            with --speed: 8 ranks at most and fewer iterations (a few minutes)
  --src DIR          the checkouts (default /work/public-src)
  --build-dir DIR    progsim build tree (default <repo>/build)
  --out DIR          builds, outputs and results.tsv (default /tmp/progsim-public-<date>)
  --policies "P ..." (default "weak thread offload ideal")
  --time-limit S     wall-clock seconds per run (default 900)
  -h, --help         this text

Output: one line per run (program, ranks, policy, PASS/FAIL, why) on stdout
and in OUT/results.tsv; exit status 1 if any run failed. With --speed:
OUT/speed.txt and OUT/speed.md (the table; default OUT bench/out/public-speed-DATE),
OUT/speed.tsv, OUT/logs/.
USAGE
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=/work/public-src
build="$repo/build"
out=""
policies="weak thread offload ideal"
time_limit=900
speed=no
quick=no
programs=()
command_line="bench/public-programs.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --speed) speed=yes ;;
    --quick) quick=yes ;;
    --src) src=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --out) out=$2; shift ;;
    --policies) policies=$2; shift ;;
    --time-limit) time_limit=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
    *) programs+=("$1") ;;
  esac
  shift
done
if [ $speed = yes ]; then
  [ ${#programs[@]} -gt 0 ] || programs=(osu imb)
  [ -n "$out" ] || out="$repo/bench/out/public-speed-$(date +%Y%m%d-%H%M%S)"
else
  [ ${#programs[@]} -gt 0 ] || programs=(ompi-examples lulesh hpcg imb osu)
  [ -n "$out" ] || out="/tmp/progsim-public-$(date +%Y%m%d-%H%M%S)"
fi
build=$(cd "$build" && pwd)
progsim="$build/bin/progsim"
cc="$build/bin/progsim-cc"
cxx="$build/bin/progsim-cxx"
for tool in "$progsim" "$cc" "$cxx"; do
  [ -x "$tool" ] || { echo "$tool: not built" >&2; exit 2; }
done
mkdir -p "$out"
failures=0

# ============================================================== speed mode
# Each case: a program, a rank count, its arguments; built unmodified with
# both tools' compilers; progsim runs with its defaults (policy weak,
# platforms/cluster-128.xml, one rank per host), smpirun with its own
# (privatization dlopen, computation benchmarking on) on the same platform
# with a hostfile of node-0 ... node-(N-1).
speed_cases() {
  local imb_coll="Allreduce Reduce Bcast Allgather Alltoall Barrier"
  if [ $quick = yes ]; then
    printf '%s\n' "osu_bw 2 -i 10 -x 2" "osu_bibw 2 -i 10 -x 2" \
      "osu_allreduce 8 -m 65536 -i 50 -x 5" "osu_alltoall 8 -m 65536 -i 50 -x 5" \
      "imb 8 -npmin 8 -msglog 0:10 -iter 20 -time 5 $imb_coll"
  else
    # OSU: defaults at 2 and 8 ranks (sizes up to 4 MiB / 1 MiB), at 64 ranks up
    # to 64 KiB (osu_alltoall's defaults would hold 2 x 64 MiB per rank).
    # IMB: up to 64 KiB at 8 ranks, 1 KiB (small messages) at 32 and 64.
    printf '%s\n' "osu_bw 2" "osu_bibw 2" "osu_allreduce 8" "osu_alltoall 8" \
      "osu_allreduce 64 -m 65536" "osu_alltoall 64 -m 65536" \
      "imb 8 -npmin 8 -msglog 0:16 -iter 100 -time 5 $imb_coll" \
      "imb 32 -npmin 32 -msglog 0:10 -iter 100 -time 5 $imb_coll" \
      "imb 64 -npmin 64 -msglog 0:10 -iter 100 -time 5 $imb_coll"
  fi
}

# speed_build TOOL DIR: builds the selected programs with TOOL's compilers
# into DIR; a failed build is recorded and its rows are skipped.
declare -A speed_built=()
speed_build() {
  local tool=$1 dir=$2 c_cc c_cxx b p
  if [ "$tool" = progsim ]; then c_cc=$cc; c_cxx=$cxx; else c_cc=smpicc; c_cxx=smpicxx; fi
  mkdir -p "$dir"
  for p in "${programs[@]}"; do
    case "$p" in
      osu)
        need_source osu || continue
        for b in bw bibw; do
          "$c_cc" -O2 -I"$src/osu/mpi/pt2pt" "$src/osu/mpi/pt2pt/osu_$b.c" "$src/osu/mpi/pt2pt/osu_pt2pt.c" -lm \
            -o "$dir/osu_$b" >"$dir/osu_$b.log" 2>&1 && speed_built[$tool:osu_$b]=$dir/osu_$b
        done
        for b in allreduce alltoall; do
          "$c_cc" -O2 -I"$src/osu/mpi/collective" "$src/osu/mpi/collective/osu_$b.c" \
            "$src/osu/mpi/collective/osu_coll.c" -lm -o "$dir/osu_$b" >"$dir/osu_$b.log" 2>&1 &&
            speed_built[$tool:osu_$b]=$dir/osu_$b
        done ;;
      imb)
        need_source imb || continue
        rm -rf "$dir/imb" && mkdir -p "$dir/imb" && cp -r "$src/imb/." "$dir/imb/"  # its makefiles build in place
        bench_note "building IMB-MPI1 with $c_cxx (a few minutes)"
        # smpicc/smpicxx force-include smpi_helpers.h, whose malloc/calloc macros
        # break IMB's later <stdlib.h>/<malloc.h>: SMPI's own switch turns them off
        # (they only matter with smpi/shared-malloc, off by default).
        local imb_cc=$c_cc imb_cxx=$c_cxx
        if [ "$tool" = smpi ]; then
          imb_cc="$c_cc -DSMPI_NO_OVERRIDE_MALLOC"; imb_cxx="$c_cxx -DSMPI_NO_OVERRIDE_MALLOC"
        fi
        (cd "$dir/imb" && make IMB-MPI1 CC="$imb_cc" CXX="$imb_cxx") >"$dir/imb.log" 2>&1 &&
          speed_built[$tool:imb]=$dir/imb/IMB-MPI1 ;;
      *) bench_die "--speed: programs are osu and imb, not '$p'" ;;
    esac
  done
}

# Did the program reach its end? (the line of its largest size, its last line)
speed_complete() {  # NAME STDOUT ARGS
  local max=1048576
  [[ "$3" =~ -m\ ([0-9]+) ]] && max=${BASH_REMATCH[1]}
  case "$1" in
    osu_bw|osu_bibw) grep -qE '^4194304 +[0-9.]+' "$2" ;;
    osu_*) grep -qE "^$max +[0-9.]+" "$2" ;;
    imb) grep -q 'All processes entering MPI_Finalize' "$2" ;;
  esac
}

speed_mode() {
  mkdir -p "$out/logs"
  out=$(cd "$out" && pwd)
  bench_require_time "$out/logs"
  local platform="$repo/platforms/cluster-128.xml" smpi_ok=yes
  if ! command -v smpicc >/dev/null || ! command -v smpicxx >/dev/null || ! command -v smpirun >/dev/null; then smpi_ok=no; fi
  speed_build progsim "$out/build/progsim"
  [ $smpi_ok = yes ] && speed_build smpi "$out/build/smpi"
  {
    bench_machine_facts "$repo"
    echo "nice: $(nice)"
    echo "progsim: $progsim run -n N (defaults: policy weak, $(basename "$platform"), one rank per host)"
    if [ $smpi_ok = yes ]; then
      echo "smpi: smpirun -np N -platform $(basename "$platform") -hostfile (node-0..node-N-1), its defaults"
    else
      echo "smpi: smpicc, smpicxx or smpirun not found: SMPI rows skipped"
    fi
    echo "sources: osu $(git -C "$src/osu" rev-parse --short HEAD 2>/dev/null || echo '?'), imb $(git -C "$src/imb" rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "command: $command_line"
  } >"$out/system.txt"
  cat "$out/system.txt" >&2
  local tsv="$out/speed.tsv" line name n args tool exe id log i=0 status
  printf 'program\tranks\targs\ttool\twall_s\tcpu_s\trss_kib\tstatus\tload1\tlog\n' >"$tsv"
  while read -r line; do
    read -r name n args <<<"$line"
    [[ " ${programs[*]} " == *" ${name%%_*} "* || " ${programs[*]} " == *" $name "* ]] || continue
    local hostfile="$out/hostfile-$n.txt"
    bench_hostfile "$hostfile" "$n" 1
    for tool in progsim smpi; do
      i=$((i + 1)); id=$(printf '%02d-%s-n%s-%s' "$i" "$name" "$n" "$tool"); log="$out/logs/$id"
      exe=${speed_built[$tool:$name]:-}
      if [ -z "$exe" ]; then
        printf '%s\t%s\t%s\t%s\t-\t-\t-\t%s\t-\t-\n' "$name" "$n" "$args" "$tool" "SKIPPED(not built)" >>"$tsv"
        continue
      fi
      local dir="$out/runs/$id"
      mkdir -p "$dir"
      cd "$dir" || bench_die "cannot enter $dir"
      # shellcheck disable=SC2086  # args: the case's words
      if [ "$tool" = progsim ]; then
        bench_timed_run "$log" "$time_limit" "$progsim" run -n "$n" --report "$log.report.json" "$exe" $args
      else
        bench_timed_run "$log" "$time_limit" smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" "$exe" $args
      fi
      cd "$out" || bench_die "cannot enter $out"
      status=$BT_STATUS
      [ "$status" = ok ] && ! speed_complete "$name" "$log.stdout" "$args" && status="INCOMPLETE(output)"
      bench_note "$id: $status cpu=${BT_CPU}s wall=${BT_WALL}s"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$n" "$args" "$tool" "$BT_WALL" "$BT_CPU" "$BT_RSS" \
        "$status" "$BT_LOAD1" "logs/$id" >>"$tsv"
    done
  done < <(speed_cases)
  speed_table() {  # txt|md
    awk -F'\t' -v fmt="$1" '
      NR == 1 { next }
      { key = $1 FS $2 FS $3; if (!(key in seen)) { seen[key] = 1; order[++m] = key }
        cpu[key, $4] = $6; wall[key, $4] = $5; rss[key, $4] = $7; st[key, $4] = $8; load[key, $4] = $9 }
      function mib(x) { return x ~ /^[0-9]+$/ ? sprintf("%.0f", x / 1024) : "-" }
      END {
        if (fmt == "md") {
          print "| program | ranks | arguments | progsim CPU s | SMPI CPU s | progsim/SMPI | progsim wall s | SMPI wall s | progsim RSS MiB | SMPI RSS MiB | status progsim / SMPI | load |"
          print "|---|---|---|---|---|---|---|---|---|---|---|---|"
        } else {
          f = "%-14s %5s %9s %9s %8s %9s %9s %8s %8s %-30s %-10s %s\n"
          printf f, "program", "ranks", "progsim", "SMPI", "prog/", "progsim", "SMPI", "progsim", "SMPI", "status progsim / SMPI", "load", "arguments"
          printf f, "", "", "CPU s", "CPU s", "SMPI", "wall s", "wall s", "RSS MiB", "RSS MiB", "", "", ""
        }
        for (i = 1; i <= m; i++) {
          k = order[i]; split(k, x, FS)
          p = cpu[k, "progsim"]; s = cpu[k, "smpi"]
          r = (p ~ /^[0-9.]+$/ && s ~ /^[0-9.]+$/ && s > 0 && st[k, "progsim"] == "ok" && st[k, "smpi"] == "ok") ? sprintf("%.2f", p / s) : "-"
          stat = st[k, "progsim"] " / " st[k, "smpi"]; ld = load[k, "progsim"] "," load[k, "smpi"]
          if (fmt == "md")
            printf "| %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", x[1], x[2], x[3], p, s, r, wall[k, "progsim"], wall[k, "smpi"], mib(rss[k, "progsim"]), mib(rss[k, "smpi"]), stat, ld
          else
            printf f, x[1], x[2], p, s, r, wall[k, "progsim"], wall[k, "smpi"], mib(rss[k, "progsim"]), mib(rss[k, "smpi"]), stat, ld, x[3]
        }
      }' "$tsv"
  }
  {
    echo "bench/public-programs.sh --speed: $(sed -n 's/^date: //p' "$out/system.txt") to $(date -Is)"
    sed 's/^/  /' "$out/system.txt"
    echo
    speed_table txt
    echo
    echo "CPU s = user + system (/usr/bin/time), whole run (build excluded); RSS = peak resident set;"
    echo "load = 1-min load average when each run started (progsim,SMPI); prog/SMPI = CPU ratio."
  } | tee "$out/speed.txt"
  speed_table md >"$out/speed.md"
  echo "results: $out" >&2
}

note() {  # program ranks policy verdict reason
  printf '%-22s %3s %-8s %-4s %s\n' "$1" "$2" "$3" "$4" "$5"
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$results"
  [ "$4" = PASS ] || failures=$((failures + 1))
}

need_source() {  # dir
  [ -d "$src/$1" ] && return 0
  echo "$src/$1: missing checkout (see --help)" >&2
  return 1
}

if [ $speed = yes ]; then
  speed_mode
  exit 0
fi
results="$out/results.tsv"
: >"$results"

# Runs one program; sets run_dir (its output files) and run_status ("" when
# progsim said completed, else why not). The program runs in run_dir.
run() {  # name ranks policy exe args...
  local name=$1 n=$2 policy=$3 exe=$4
  shift 4
  run_dir="$out/runs/$name/n$n-$policy"
  rm -rf "$run_dir" && mkdir -p "$run_dir"
  (cd "$run_dir" && timeout "$time_limit" "$progsim" run -n "$n" --progress "$policy" --report report.json \
     "$exe" "$@" >stdout.txt 2>stderr.txt)
  local status=$?
  local outcome
  outcome=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["outcome"])' "$run_dir/report.json" 2>/dev/null)
  if [ $status -eq 124 ]; then
    run_status="wall-clock limit of ${time_limit} s"
  elif [ "$outcome" != completed ]; then
    run_status="exit $status, outcome ${outcome:-none}: $(grep -m1 'progsim' "$run_dir/stderr.txt" | cut -c1-160)"
  else
    run_status=""
  fi
}

# Judges the last run: run_status, then `check` (a command run in run_dir).
judge() {  # name ranks policy check-description check-command...
  local name=$1 n=$2 policy=$3 what=$4
  shift 4
  if [ -n "$run_status" ]; then
    note "$name" "$n" "$policy" FAIL "$run_status"
  elif (cd "$run_dir" && "$@") >/dev/null 2>&1; then
    note "$name" "$n" "$policy" PASS "$what"
  else
    note "$name" "$n" "$policy" FAIL "no: $what (see $run_dir)"
  fi
}

# --- Open MPI's examples: hello, ring, connectivity --------------------------
program_ompi_examples() {
  need_source ompi || return
  local dir="$out/build/ompi-examples" ex
  mkdir -p "$dir"
  for ex in hello_c ring_c connectivity_c; do
    "$cc" -O2 "$src/ompi/examples/$ex.c" -o "$dir/$ex" >"$dir/$ex.log" 2>&1 ||
      { note "ompi-examples/$ex" - - FAIL "build failed ($dir/$ex.log)"; continue; }
  done
  for n in 8 64; do
    for policy in $policies; do
      run ompi-examples/hello_c "$n" "$policy" "$dir/hello_c"
      judge ompi-examples/hello_c "$n" "$policy" "$n hello lines" \
        bash -c "[ \$(grep -c 'Hello, world, I am [0-9]* of $n' stdout.txt) -eq $n ]"
      run ompi-examples/ring_c "$n" "$policy" "$dir/ring_c"
      judge ompi-examples/ring_c "$n" "$policy" "every process exits, rank 0 counts down to 0" \
        bash -c "grep -q 'Process 0 decremented value: 0' stdout.txt && [ \$(grep -c 'exiting' stdout.txt) -eq $n ]"
      run ompi-examples/connectivity_c "$n" "$policy" "$dir/connectivity_c"
      judge ompi-examples/connectivity_c "$n" "$policy" "Connectivity test PASSED" \
        grep -q "Connectivity test on $n processes PASSED" stdout.txt
    done
  done
}

# --- LULESH 2.0 (C++, MPI, no OpenMP) -----------------------------------------
program_lulesh() {
  need_source lulesh || return
  local dir="$out/build/lulesh"
  mkdir -p "$dir"
  (cd "$src/lulesh" && "$cxx" -O2 -DUSE_MPI=1 -DUSE_OMP=0 lulesh.cc lulesh-comm.cc lulesh-viz.cc lulesh-util.cc \
     lulesh-init.cc -o "$dir/lulesh") >"$dir/build.log" 2>&1 ||
    { note lulesh - - FAIL "build failed ($dir/build.log)"; return; }
  # LULESH needs a cube number of ranks. Its own check: the energy field is
  # symmetric (MaxRelDiff of plane 0, printed by rank 0), and the final
  # origin energy must not depend on the progress policy.
  local n policy energy
  for n in 8 27 64; do
    local reference=""
    for policy in $policies; do
      run lulesh "$n" "$policy" "$dir/lulesh" -s 8 -i 20
      energy=$(sed -n 's/.*Final Origin Energy *= *//p' "$run_dir/stdout.txt")
      [ -n "$reference" ] || reference=$energy
      judge lulesh "$n" "$policy" "symmetric (MaxRelDiff < 1e-8), origin energy $energy as under the first policy" \
        bash -c "awk '/MaxRelDiff/ { ok = (\$3 + 0 < 1e-8) } END { exit !ok }' stdout.txt && [ '$energy' = '$reference' ]"
    done
  done
}

# --- HPCG 3.1 (C++, MPI, no OpenMP) -------------------------------------------
program_hpcg() {
  need_source hpcg || return
  local dir="$out/build/hpcg"
  mkdir -p "$dir"
  (cd "$src/hpcg" && "$cxx" -O2 -DHPCG_NO_OPENMP -Isrc src/*.cpp -o "$dir/xhpcg") >"$dir/build.log" 2>&1 ||
    { note hpcg - - FAIL "build failed ($dir/build.log)"; return; }
  # Its own check: the report file it writes ends "HPCG result is VALID".
  # --rt=0 is its quick path (one set of each timed phase): code between MPI
  # calls costs no simulated time, so a run time to fill would take millions
  # of sets.
  local n policy
  for n in 8 32; do
    for policy in $policies; do
      run hpcg "$n" "$policy" "$dir/xhpcg" --nx=16 --ny=16 --nz=16 --rt=0
      judge hpcg "$n" "$policy" "HPCG result is VALID" bash -c "grep -q 'HPCG result is VALID' HPCG-Benchmark*.txt"
    done
  done
}

# --- Intel MPI Benchmarks, IMB-MPI1 -------------------------------------------
program_imb() {
  need_source imb || return
  local dir="$out/build/imb"
  rm -rf "$dir" && mkdir -p "$dir" && cp -r "$src/imb/." "$dir/"  # its makefiles build in place
  (cd "$dir" && make IMB-MPI1 CC="$cc" CXX="$cxx") >"$dir/build.log" 2>&1 ||
    { note imb - - FAIL "build failed ($dir/build.log)"; return; }
  # IMB verifies nothing without -DCHECK; passing is completing every
  # benchmark and reaching its final line.
  local n policy
  for n in 8 64; do
    for policy in $policies; do
      run imb "$n" "$policy" "$dir/IMB-MPI1" -npmin "$n" -iter 20 -msglog 0:12 -time 5 \
        PingPong Sendrecv Exchange Allreduce Reduce Bcast Barrier Allgather Alltoall
      judge imb "$n" "$policy" "all benchmarks ran" grep -q "All processes entering MPI_Finalize" stdout.txt
    done
  done
}

# --- OSU micro-benchmarks (OMB 5.3): latency and collectives ------------------
program_osu() {
  need_source osu || return
  local dir="$out/build/osu" b
  mkdir -p "$dir"
  "$cc" -O2 -I"$src/osu/mpi/pt2pt" "$src/osu/mpi/pt2pt/osu_latency.c" "$src/osu/mpi/pt2pt/osu_pt2pt.c" -lm \
    -o "$dir/osu_latency" >"$dir/osu_latency.log" 2>&1 || note osu/osu_latency - - FAIL "build failed"
  for b in allreduce bcast alltoall barrier; do
    "$cc" -O2 -I"$src/osu/mpi/collective" "$src/osu/mpi/collective/osu_$b.c" "$src/osu/mpi/collective/osu_coll.c" \
      -lm -o "$dir/osu_$b" >"$dir/osu_$b.log" 2>&1 || note "osu/osu_$b" - - FAIL "build failed"
  done
  # OMB prints a table of sizes; passing is the last size's line (for the
  # collectives, the options reached every rank: `-m 1024` deadlocked when
  # only rank 0 saw them). OMB 5.3's osu_latency has no -m.
  local n policy
  for policy in $policies; do
    run osu/osu_latency 2 "$policy" "$dir/osu_latency" -i 1000 -x 100
    judge osu/osu_latency 2 "$policy" "table up to 4 MiB" grep -qE '^4194304 +[0-9.]+' stdout.txt
  done
  for n in 8 64; do
    for policy in $policies; do
      for b in allreduce bcast alltoall; do
        run "osu/osu_$b" "$n" "$policy" "$dir/osu_$b" -m 1024 -i 20 -x 5
        judge "osu/osu_$b" "$n" "$policy" "table up to 1024 B" grep -qE '^1024 +[0-9.]+' stdout.txt
      done
      run osu/osu_barrier "$n" "$policy" "$dir/osu_barrier" -i 20 -x 5
      judge osu/osu_barrier "$n" "$policy" "a latency" grep -qE '^ *[0-9]+\.[0-9]+' stdout.txt
    done
  done
}

for p in "${programs[@]}"; do
  case "$p" in
    ompi-examples) program_ompi_examples ;;
    lulesh) program_lulesh ;;
    hpcg) program_hpcg ;;
    imb) program_imb ;;
    osu) program_osu ;;
    *) echo "unknown program $p (see --help)" >&2; exit 2 ;;
  esac
done
echo "results: $results ($failures failed)"
[ "$failures" -eq 0 ]
