#!/usr/bin/env bash
# Public MPI programs, built unmodified with progsim-cc / progsim-cxx, run
# under every progress policy at 8 to 64 ranks; each run passes when progsim
# ends it `completed` and the program's own verification output says it is
# correct. Heavy (minutes to an hour): outside CI, one program at a time.
set -uo pipefail

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
  --src DIR          the checkouts (default /work/public-src)
  --build-dir DIR    progsim build tree (default <repo>/build)
  --out DIR          builds, outputs and results.tsv (default /tmp/progsim-public-<date>)
  --policies "P ..." (default "weak thread offload ideal")
  --time-limit S     wall-clock seconds per run (default 900)
  -h, --help         this text

Output: one line per run (program, ranks, policy, PASS/FAIL, why) on stdout
and in OUT/results.tsv; exit status 1 if any run failed.
USAGE
}

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
src=/work/public-src
build="$repo/build"
out="/tmp/progsim-public-$(date +%Y%m%d-%H%M%S)"
policies="weak thread offload ideal"
time_limit=900
programs=()
while [ $# -gt 0 ]; do
  case "$1" in
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
[ ${#programs[@]} -gt 0 ] || programs=(ompi-examples lulesh hpcg imb osu)
build=$(cd "$build" && pwd)
progsim="$build/bin/progsim"
cc="$build/bin/progsim-cc"
cxx="$build/bin/progsim-cxx"
for tool in "$progsim" "$cc" "$cxx"; do
  [ -x "$tool" ] || { echo "$tool: not built" >&2; exit 2; }
done
mkdir -p "$out"
results="$out/results.tsv"
: >"$results"
failures=0

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
