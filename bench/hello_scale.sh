#!/usr/bin/env bash
# Scale benchmark of progsim's runtime, side by side with SimGrid's SMPI.
#
# Builds bench/programs/hello.c with progsim-cc and with smpicc, then for each
# rank count runs it with progsim (privatization on and off) and with smpirun
# (privatization dlopen and no), on the same platform with the same rank
# placement, and measures wall time and peak resident memory of every run with
# /usr/bin/time. Failed or timed-out runs stay in the table. See bench/README.md.
set -uo pipefail

BENCH_NAME=hello_scale.sh
# shellcheck source=bench/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

usage() {
  cat <<'USAGE'
Usage: bench/hello_scale.sh [options]

Options:
  --ranks "N1 N2 ..."     rank counts (default "1000 10000")
  --time-limit S          wall-clock limit per run, seconds (default 600)
  --hosts H               hosts in the platform (default 128: platforms/cluster-128.xml;
                          any other H generates a flat cluster of H nodes of 32 cores,
                          same links, in the output directory). Ranks per host
                          K = ceil(N/H) for both tools.
  --stack-sizes "S ..."   rank stack sizes in KiB, 'default' = each tool's default
                          (8192 KiB in both) (default "default 256")
  --guard-rows yes|no     at N >= 4096, where progsim turns guard pages off, also run
                          both tools with one guard page per stack, SMPI's own default
                          (default yes)
  --tools "progsim smpi"  which tools to run (default both)
  --privatize "on off"    which privatization modes (default both)
  --no-baseline           skip the 1-rank runs used for the marginal KiB/rank column
  --no-check              skip the placement check (both tools at the smallest N,
                          output kept, rank -> host compared with the expected one)
  --build-dir DIR         progsim build tree to use (default <repo>/build)
  --build tree|REV        build progsim first into <out>/build from a snapshot of the
                          working tree (tracked and untracked, not ignored, files) or
                          of a git revision (HEAD, a commit); the snapshot keeps the
                          measurement stable while the repository changes
                          (default: no build, use --build-dir as it is)
  --out DIR               output directory (default <repo>/bench/out/hello_scale-DATE)
  --tmpdir DIR            where both tools put their per-rank program copies
                          (default ${TMPDIR:-/tmp}); each run gets a fresh subdirectory
  --progsim-cfg K=V       extra --cfg for every progsim run (repeatable)
  --smpi-cfg K:V          extra --cfg for every smpirun run (repeatable)
  -h, --help              this text

Output: the table on stdout and in <out>/table.txt, one line per run in
<out>/results.tsv, each run's stderr in <out>/logs/.
USAGE
}


root=$BENCH_ROOT
ranks_list="1000 10000"
time_limit=600
hosts=128
stacks="default 256"
guard_rows=yes
tools="progsim smpi"
privs="on off"
baseline=yes
check=yes
build_dir="$root/build"
build_mode=""
out=""
tmp_base="${TMPDIR:-/tmp}"
progsim_extra=()
smpi_extra=()

while [ $# -gt 0 ]; do
  case "$1" in
    --ranks) ranks_list="$2"; shift ;;
    --time-limit) time_limit="$2"; shift ;;
    --hosts) hosts="$2"; shift ;;
    --stack-sizes) stacks="$2"; shift ;;
    --guard-rows) guard_rows="$2"; shift ;;
    --tools) tools="$2"; shift ;;
    --privatize) privs="$2"; shift ;;
    --no-baseline) baseline=no ;;
    --no-check) check=no ;;
    --build-dir) build_dir="$2"; shift ;;
    --build) build_mode="$2"; shift ;;
    --out) out="$2"; shift ;;
    --tmpdir) tmp_base="$2"; shift ;;
    --progsim-cfg) progsim_extra+=(--cfg "$2"); shift ;;
    --smpi-cfg) smpi_extra+=("--cfg=$2"); shift ;;
    -h|--help) usage; exit 0 ;;
    *) bench_die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

[[ "$time_limit" =~ ^[0-9]+$ && "$time_limit" -gt 0 ]] || bench_die "--time-limit: not a positive integer"
[[ "$hosts" =~ ^[0-9]+$ && "$hosts" -gt 0 ]] || bench_die "--hosts: not a positive integer"
for n in $ranks_list; do [[ "$n" =~ ^[0-9]+$ && "$n" -gt 0 ]] || bench_die "--ranks: '$n' is not a positive integer"; done
for s in $stacks; do [[ "$s" == default || "$s" =~ ^[0-9]+$ ]] || bench_die "--stack-sizes: '$s'"; done
for p in $privs; do [[ "$p" == on || "$p" == off ]] || bench_die "--privatize: '$p' (on or off)"; done
case "$build_mode" in
  ""|tree) ;;
  *) git -C "$root" rev-parse --verify --quiet "$build_mode^{commit}" >/dev/null ||
       bench_die "--build: '$build_mode' is neither 'tree' nor a git revision" ;;
esac

[ -n "$out" ] || out="$root/bench/out/hello_scale-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs" || bench_die "cannot create $out"
out=$(cd "$out" && pwd)

# ---------------------------------------------------------------- tools
bench_require_time "$out/logs"

# ---------------------------------------------------------------- progsim build
if [ -n "$build_mode" ]; then
  src="$out/src"
  rm -rf "$src" && mkdir -p "$src"
  if [ "$build_mode" != tree ]; then
    rev=$(git -C "$root" rev-parse "$build_mode^{commit}")
    git -C "$root" archive --format=tar "$rev" | tar -x -C "$src" || bench_die "git archive $rev failed"
    echo "$rev ($(git -C "$root" log -1 --format='%cs %s' "$rev" | cut -c1-100))" >"$out/source.txt"
  else
    (cd "$root" && git ls-files -z --cached --others --exclude-standard | grep -zv '^bench/out/' |
      tar --null -T - -cf -) | tar -x -C "$src" || bench_die "snapshot of the working tree failed"
    { git -C "$root" rev-parse HEAD; echo "working tree snapshot at $(date -Is):"; git -C "$root" status --short; } >"$out/source.txt"
  fi
  bench_note "building progsim ($build_mode snapshot) in $out/build"
  build_dir="$out/build"
  { cmake -S "$src" -B "$build_dir" -DBUILD_TESTING=OFF &&
    cmake --build "$build_dir" -j"$(nproc)" --target progsim_cli; } >"$out/logs/build.log" 2>&1 ||
    bench_die "progsim build failed (see $out/logs/build.log)"
else
  if [ -f "$build_dir/../source.txt" ] && [ "$(cd "$build_dir/.." && pwd)" != "$out" ]; then
    cp "$build_dir/../source.txt" "$out/source.txt"  # a build made by an earlier --build
  else
    echo "build tree as found (repository HEAD is $(git -C "$root" rev-parse --short HEAD 2>/dev/null), plus any uncommitted changes built into it)" >"$out/source.txt"
  fi
fi
progsim="$build_dir/bin/progsim"
progsim_cc="$build_dir/bin/progsim-cc"
want_progsim=0; want_smpi=0
[[ " $tools " == *" progsim "* ]] && want_progsim=1
[[ " $tools " == *" smpi "* ]] && want_smpi=1
if [ $want_progsim = 1 ] && { [ ! -x "$progsim" ] || [ ! -x "$progsim_cc" ]; }; then
  bench_die "no progsim in $build_dir/bin: build it (cmake -S $root -B $root/build && cmake --build $root/build -j2), or use --build tree|REV"
fi
smpi_missing=""
if [ $want_smpi = 1 ]; then
  command -v smpicc >/dev/null || smpi_missing="smpicc not found"
  command -v smpirun >/dev/null || smpi_missing="smpirun not found"
fi

# ---------------------------------------------------------------- programs
hello_src="$root/bench/programs/hello.c"
hello_progsim="$out/hello.progsim"
hello_smpi="$out/hello.smpi"
if [ $want_progsim = 1 ]; then
  "$progsim_cc" -O2 -o "$hello_progsim" "$hello_src" >"$out/logs/progsim-cc.log" 2>&1 ||
    bench_die "progsim-cc failed (see $out/logs/progsim-cc.log)"
fi
if [ $want_smpi = 1 ] && [ -z "$smpi_missing" ]; then
  smpicc -O2 -o "$hello_smpi" "$hello_src" >"$out/logs/smpicc.log" 2>&1 || smpi_missing="smpicc failed (see logs/smpicc.log)"
fi

# Fingerprint of the runtime, to notice a rebuild of the build tree mid-benchmark.
runtime_sum() { [ $want_progsim = 1 ] && bench_build_sum "$build_dir"; }
runtime_before=$(runtime_sum)
started=$(date -Is)

# ---------------------------------------------------------------- platform
if [ "$hosts" = 128 ]; then
  platform="$root/platforms/cluster-128.xml"
  [ -r "$platform" ] || bench_die "$platform is missing"
else
  platform="$out/platform-$hosts.xml"
  bench_flat_platform "$platform" "$hosts" 32  # the links of cluster-128.xml, 32 cores per host
fi

# Rank r runs on node-(r / K) in both tools: progsim places K ranks per host in
# host order (--ranks-per-node); smpirun takes the hostfile's lines in order.
write_hostfile() { bench_hostfile "$3" "$1" "$2"; }  # N K FILE

# ---------------------------------------------------------------- system
{
  echo "date: $(date -Is)"
  echo "host: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
  echo "cpu: $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
  echo "vm.max_map_count: $(cat /proc/sys/vm/max_map_count)"
  echo "vm.overcommit_memory: $(cat /proc/sys/vm/overcommit_memory)"
  echo "open files (ulimit -n): $(ulimit -n); stack (ulimit -s): $(ulimit -s)"
  echo "tmpdir: $tmp_base ($(df -PT "$tmp_base" | awk 'NR==2 {print $2}'))"
  echo "platform: $platform"
  echo "progsim: $progsim"
  echo "smpi: $(smpirun -version 2>/dev/null | head -1 || echo none)${smpi_missing:+ ($smpi_missing)}"
  echo "source: $(head -1 "$out/source.txt")"
} >"$out/system.txt"
cat "$out/system.txt" >&2

if [ ! -d "$tmp_base" ] || [ ! -w "$tmp_base" ]; then bench_die "--tmpdir: $tmp_base is not a writable directory"; fi
run_dir=""
trap '[ -n "$run_dir" ] && rm -rf "$run_dir"' EXIT

# ---------------------------------------------------------------- one run
results="$out/results.tsv"
printf 'tool\tpriv\tranks\tper_host\tstack_kib\tguard\twall_s\tuser_s\tsys_s\tmaxrss_kib\texit\tstatus\tload1\tleftover\tlog\tnote\n' >"$results"
run_index=0

# run_one TOOL PRIV N K STACK GUARD OUTPUT -- COMMAND...
# Prints one TSV line to $results (unless OUTPUT is "check:FILE", then only runs).
run_one() {
  local tool=$1 priv=$2 n=$3 k=$4 stack=$5 guard=$6 output=$7
  shift 8
  run_index=$((run_index + 1))
  local id
  id=$(printf '%03d-%s-%s-n%s-s%s-g%s' "$run_index" "$tool" "$priv" "$n" "$stack" "$guard")
  local log="$out/logs/$id.stderr" tf="$out/logs/$id.time"
  # A fresh, short TMPDIR per run: the dynamic linker compares the full path
  # of every copy with those of all loaded objects (strcmp), so a long
  # directory name would slow privatized runs of both tools down artificially.
  local dir
  dir=$(mktemp -d "$tmp_base/pb.XXXXXX") || bench_die "cannot create a directory in $tmp_base"
  run_dir=$dir
  local load1
  load1=$(cut -d' ' -f1 /proc/loadavg)
  local stdout_target=/dev/null
  [[ "$output" == check:* ]] && stdout_target=${output#check:}
  echo "$*" >"$out/logs/$id.cmd"
  bench_note "$id: $*"
  # Both tools put their per-rank program copies in $TMPDIR (smpirun's -tmpdir
  # option is broken in SimGrid 3.32: it shifts one word instead of two, so the
  # directory is taken for the program).
  # timeout puts the command in its own process group and signals all of it;
  # /usr/bin/time reports the peak RSS of the largest process in the tree.
  TMPDIR="$dir" /usr/bin/time -f '%e %M %U %S %x' -o "$tf" \
    timeout -k 10 "$time_limit" "$@" >"$stdout_target" 2>"$log" </dev/null
  local rc=$?
  local wall="" rss="" user="" sys="" status
  if [ -s "$tf" ]; then
    read -r wall rss user sys _ < <(tail -1 "$tf")
  fi
  local sig
  sig=$(sed -n 's/^Command terminated by signal \([0-9]*\).*/\1/p' "$tf" 2>/dev/null)
  if [ "$rc" = 124 ] || { [ "$rc" = 137 ] && [ "${wall%.*}" -ge "$time_limit" ] 2>/dev/null; }; then
    status="TIMEOUT(${time_limit}s)"
  elif [ -n "$sig" ]; then
    status="KILLED(SIG$(kill -l "$sig" 2>/dev/null || echo "$sig"))"; rc=$((128 + sig))
  elif [ "$rc" = 0 ]; then
    status=ok
  elif [ "$rc" -gt 128 ]; then
    status="FAILED(SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))))"
  else
    status="FAILED"
  fi
  local leftover
  leftover=$(find "$dir" -mindepth 1 2>/dev/null | wc -l)
  rm -rf "$dir"
  run_dir=""
  local why=""
  if [ "$status" != ok ]; then
    why=$(grep -m1 -E 'CRITICAL|error:|Error|deadlock|failed|Failed|cannot|Cannot' "$log" | sed 's/^\[[^]]*\] //' | tr '\t' ' ' | cut -c1-240)
    [ -n "$why" ] || why=$(grep -v INFO "$log" | head -1 | tr '\t' ' ' | cut -c1-240)
  fi
  bench_note "$id: $status wall=${wall}s rss=${rss}KiB${why:+ -- $why}"
  [[ "$output" == check:* ]] && return 0
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$tool" "$priv" "$n" "$k" "$stack" "$guard" "${wall:-?}" "${user:-?}" "${sys:-?}" "${rss:-?}" \
    "$rc" "$status" "$load1" "$leftover" "logs/$id.stderr" "$why" >>"$results"
}

# run_tool TOOL PRIV N K STACK GUARD OUTPUT: builds the command line of one tool.
run_tool() {
  local tool=$1 priv=$2 n=$3 k=$4 stack=$5 guard=$6 output=$7 hostfile="$out/hostfile-$3.txt"
  if [ "$tool" = progsim ]; then
    local cfg=() g=${guard#auto}
    [ "$stack" != default ] && cfg+=(--cfg "stack-size=$stack")
    # autoG: progsim decides, unless its rule gives another G at this N (the
    # 1-rank baseline of a large run): then G is passed explicitly.
    if [[ "$guard" != auto* ]] || [ "$(guard_for "$n")" != "$g" ]; then cfg+=(--cfg "guard-pages=$g"); fi
    run_one "$tool" "$priv" "$n" "$k" "$stack" "$guard" "$output" -- \
      "$progsim" run -n "$n" --platform "$platform" --ranks-per-node "$k" --privatize="$priv" \
      "${cfg[@]}" "${progsim_extra[@]}" "$hello_progsim"
  else
    local cfg=() smpi_priv=no g=${guard#auto}
    [ "$priv" = on ] && smpi_priv=dlopen
    [ "$stack" != default ] && cfg+=("--cfg=contexts/stack-size:$stack")
    # SMPI's default is one guard page: pass only other values.
    [ "$g" != 1 ] && cfg+=("--cfg=contexts/guard-size:$g")
    run_one "$tool" "$priv" "$n" "$k" "$stack" "$guard" "$output" -- \
      smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" \
      "--cfg=smpi/privatization:$smpi_priv" "${cfg[@]}" "${smpi_extra[@]}" "$hello_smpi"
  fi
}

skip_row() {  # TOOL PRIV N K STACK GUARD REASON
  printf '%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t-\t-\t-\tSKIPPED\t-\t-\t-\t%s\n' "$@" >>"$results"
}

# progsim's own rule (sim/Simulation.cpp, start_engine): guard pages on below 4096 ranks.
guard_for() { if [ "$1" -lt 4096 ]; then echo 1; else echo 0; fi; }

# ---------------------------------------------------------------- placement check
check_result="not run"
if [ "$check" = yes ]; then
  n=$(tr -s ' ' '\n' <<<"$ranks_list" | sed '/^$/d' | sort -n | head -1)
  k=$(((n + hosts - 1) / hosts))
  write_hostfile "$n" "$k" "$out/hostfile-$n.txt"
  awk -v n="$n" -v k="$k" 'BEGIN { for (r = 0; r < n; r++) printf "%d node-%d\n", r, int(r / k) }' >"$out/placement-expected.txt"
  check_result=""
  for tool in $tools; do
    [ "$tool" = smpi ] && [ -n "$smpi_missing" ] && continue
    run_tool "$tool" off "$n" "$k" default "auto$(guard_for "$n")" "check:$out/placement-$tool.out"
    sed -n 's/^hello rank \([0-9]*\) of [0-9]* on \(.*\)$/\1 \2/p' "$out/placement-$tool.out" | sort -n >"$out/placement-$tool.txt"
    if cmp -s "$out/placement-$tool.txt" "$out/placement-expected.txt"; then
      check_result+="$tool: OK ($n ranks, $k per host); "
    else
      check_result+="$tool: MISMATCH (see $out/placement-$tool.txt); "
    fi
  done
fi

# ---------------------------------------------------------------- the runs
cd "$out" || bench_die "cannot enter $out"
for n in $ranks_list; do
  k=$(((n + hosts - 1) / hosts))
  write_hostfile "$n" "$k" "$out/hostfile-$n.txt"
  write_hostfile 1 1 "$out/hostfile-1.txt"
  g=$(guard_for "$n")
  configs=()
  for stack in $stacks; do
    for tool in $tools; do
      for priv in $privs; do configs+=("$tool $priv $stack auto$g"); done
    done
  done
  if [ "$guard_rows" = yes ] && [ "$g" = 0 ]; then
    for tool in $tools; do
      for priv in $privs; do configs+=("$tool $priv default 1"); done
    done
  fi
  for c in "${configs[@]}"; do
    read -r tool priv stack guard <<<"$c"
    if [ "$tool" = smpi ] && [ -n "$smpi_missing" ]; then
      skip_row "$tool" "$priv" "$n" "$k" "$stack" "$guard" "$smpi_missing"
      continue
    fi
    if [ "$baseline" = yes ] && ! grep -qP "^$tool\t$priv\t1\t1\t$stack\t$guard\t" "$results"; then
      # 1 rank, same settings (the automatic guard rule gives 1 page at 1 rank:
      # keep the guard setting of the large run explicit instead).
      run_tool "$tool" "$priv" 1 1 "$stack" "$guard" measure
    fi
    run_tool "$tool" "$priv" "$n" "$k" "$stack" "$guard" measure
  done
done
cd "$out" || true

runtime_after=$(runtime_sum)

# ---------------------------------------------------------------- the table
{
  echo "hello_scale: $started to $(date -Is) on $(uname -n): $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); platform $(basename "$platform") ($hosts hosts); time limit ${time_limit}s per run"
  echo "progsim: $(head -1 "$out/source.txt") ($build_dir); SMPI: $(smpirun -version 2>/dev/null | head -1 || echo none)"
  echo "placement check: ${check_result:-skipped}"
  echo
  awk -F'\t' '
    NR == 1 { next }
    $3 == 1 { base[$1 FS $2 FS $5 FS $6] = $10; next }
    { rows[++m] = $0 }
    END {
      fmt = "%-8s %-5s %7s %6s %6s %6s %8s %8s %7s %9s %9s %9s %5s %-22s %5s\n"
      printf fmt, "tool", "priv", "ranks", "/host", "stack", "guard", "wall s", "user s", "sys s", "RSS MiB", "KiB/rank", "dKiB/rank", "exit", "status", "load"
      for (i = 1; i <= m; i++) {
        split(rows[i], f, "\t")
        priv = f[2]
        if (f[1] == "smpi") priv = (f[2] == "on") ? "dlopen" : "no"
        rss = f[10]; per = "-"; marg = "-"; mib = "-"
        if (rss ~ /^[0-9]+$/) {
          mib = sprintf("%.1f", rss / 1024)
          per = sprintf("%.1f", rss / f[3])
          b = base[f[1] FS f[2] FS f[5] FS f[6]]
          if (b ~ /^[0-9]+$/ && f[3] > 1 && f[12] == "ok") marg = sprintf("%.1f", (rss - b) / (f[3] - 1))
        }
        st = f[12]; if (f[16] != "" && st != "ok") { notes[++nn] = f[16]; st = st " [" nn "]" }
        printf fmt, f[1], priv, f[3], f[4], f[5], f[6], f[7], f[8], f[9], mib, per, marg, f[11], st, f[13]
      }
      for (i = 1; i <= nn; i++) printf "[%d] %s\n", i, notes[i]
    }' "$results"
  awk -F'\t' 'NR > 1 && $14 ~ /^[0-9]+$/ && $14 > 0 {
      printf "note: %s left %s file(s)/dir(s) in its TMPDIR (%s %s, %s ranks)\n", $15, $14, $1, $2, $3 }' "$results"
  echo
  echo "stack: KiB per rank stack ('default' = 8192 in both tools); guard: guard pages per stack"
  echo "('autoG' = progsim's automatic rule, on below 4096 ranks, SMPI given the same G)."
  echo "KiB/rank = peak RSS / ranks; dKiB/rank = (peak RSS - peak RSS of the same"
  echo "configuration at 1 rank) / (ranks - 1). load = 1-min load average when the run started."
  if [ -n "$runtime_before" ] && [ "$runtime_before" != "$runtime_after" ]; then
    echo "WARNING: $build_dir changed during the benchmark (progsim or libprogsim.so was rebuilt):"
    echo "the progsim rows may mix two versions. Use --build tree|REV for a private snapshot."
  fi
} | tee "$out/table.txt"
echo "results: $out" >&2
