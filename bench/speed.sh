#!/usr/bin/env bash
# Speed of progsim next to SimGrid's SMPI in the same run (issue 17): ping-pong,
# MPI_Allreduce at 1,024 and 4,096 ranks (one rank per host, both tools'
# defaults, privatized or not), the old favourable placements of
# bench/allreduce.sh as extra rows, a 2-D stencil with nonblocking halo
# exchange at up to 10,000 ranks, and a rank spinning on a shared-memory flag.
# Per run: host CPU and wall time, peak memory (per rank), the CPU ratio to
# SMPI, and SimGrid simcalls and context switches per message and per
# collective call per rank, counted with perf uprobes in separate runs.
# See bench/README.md ("Speed against SMPI").
set -uo pipefail

BENCH_NAME=speed.sh
# shellcheck source=bench/lib/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
root=$BENCH_ROOT

usage() {
  cat <<'USAGE'
Usage: bench/speed.sh [options]        (long runs: nice -n 10 bench/speed.sh ...)

Cases (--cases, in this order by default):
  pingpong[-N]      N ranks (default 2, even) in pairs, R round trips of 8 bytes
                    (bench/programs/pingpong.c), flat cluster of N hosts, one rank per host
  allreduce-N       N ranks x R MPI_Allreduce of one double (bench/programs/allreduce.c),
                    flat cluster of N single-core hosts, one rank per host, both tools'
                    defaults (progsim: MPICH's algorithm choice; SMPI: its default selector)
  same-N            as allreduce-N, but progsim forced to SMPI's default algorithm
                    (--fav-algorithm, reduce_bcast): the same messages on both sides. Its
                    CPU/SMPI is against allreduce-N's SMPI row (no SMPI run of its own:
                    run allreduce-N in the same invocation). FAVOURABLE to progsim: not
                    MPICH's choice, which progsim models by default
  fav-N:K           FAVOURABLE configuration of bench/allreduce.sh: N ranks, K per host on
                    platforms/cluster-128.xml, privatization off in both, SMPI without
                    computation benchmarking, progsim forced to SMPI's algorithm
                    (--fav-algorithm); not what users run
  stencil-N         bench/programs/stencil.c: 2-D Jacobi, nonblocking halo exchange and one
                    MPI_Allreduce per step, flat cluster of N hosts, one rank per host
  spin              bench/programs/shared_flag_spin.c: 2 ranks on one host, rank 0 spins on a
                    shared-window flag (a plain loop, no MPI call) for about 3 simulated s
                    (progsim only: under SMPI 3.32 the spin never yields, with or without
                    MPI_Wtime in the loop); weak deadlocks by design
  spin-wtime        the same spin bounded by MPI_Wtime (one local MPI call per poll)
  default:  "pingpong allreduce-1024 same-1024 allreduce-4096 same-4096 fav-1024:8 fav-4096:32
             stencil-10000 spin spin-wtime"
  --quick:  "pingpong allreduce-64 fav-64:8 stencil-256 spin spin-wtime", fewer rounds
            (a few minutes)

Options:
  --cases "C ..."          cases to run (above)
  --policies "P ..."       progsim policies (default "weak thread offload ideal")
  --tools "T ..."          progsim and/or smpi (default both)
  --privatize "on off"     privatization modes for pingpong, allreduce and stencil cases, both
                           tools (progsim --privatize=on|off; smpirun's default = dlopen, or
                           -no-privatize). Default per case: pingpong on; allreduce on off;
                           stencil on. fav-N:K is always off, spin always on.
  --rounds R               MPI_Allreduce calls per run (default 100; quick 20)
  --pingpong-rounds R      round trips per pair (default 100000; quick 20000)
  --stencil-steps S        stencil steps (default 20; quick 10)
  --spin-seconds S         how long rank 1 sleeps before its send (default 3)
  --count first|all|none   uprobe counting runs: for the first privatization mode of each
                           case and tool/policy (default), for every row, or none
  --count-rounds R         MPI_Allreduce calls in a counting run (default 20; quick 5)
  --count-pingpong-rounds R  round trips in a counting run (default 20000; quick 5000)
  --time-limit S           wall-clock limit per run, seconds (default 1800; quick 300)
  --spin-time-limit S      the same for the spin cases (default 60, quick 20; the target is 5 s)
  --fav-algorithm A        progsim's coll-allreduce in fav and same rows (default reduce_bcast, SMPI's
                           default's message pattern; 'default' forces nothing)
  --fav-platform FILE      platform of the fav rows (default platforms/cluster-128.xml)
  --progsim-cfg K=V        extra --cfg for every progsim run (repeatable)
  --smpi-cfg K:V           extra --cfg for every smpirun run (repeatable)
  --build-dir DIR          progsim build tree (default <repo>/build)
  --out DIR                output directory (default <repo>/bench/out/speed-DATE)
  --quick                  smoke version (cases and counts above; explicit options still win)
  -h, --help               this text

Output: table.txt (aligned) and table.md (Markdown) in DIR and on stdout, results.tsv
(one line per row), system.txt (machine facts), logs/ (every run's command, stdout,
stderr, /usr/bin/time output, progsim report, perf counts).

Counting: each counted row runs twice more under `perf stat` with uprobes on
libsimgrid (bench/lib/common.sh): once with 0 rounds, once with the counting
rounds; per message and per call are the differences (start-up and shutdown
cancel out). Without perf or uprobes the columns show '-' and the table says why.
USAGE
}

# ---------------------------------------------------------------- options
command_line="bench/speed.sh $*"
quick=no
for a in "$@"; do [ "$a" = --quick ] && quick=yes; done
if [ $quick = yes ]; then
  cases="pingpong allreduce-64 fav-64:8 stencil-256 spin spin-wtime"
  rounds=20; pingpong_rounds=20000; stencil_steps=10; count_rounds=5; count_pp_rounds=5000; time_limit=300
  spin_time_limit=20
else
  spin_time_limit=60
  cases="pingpong allreduce-1024 same-1024 allreduce-4096 same-4096 fav-1024:8 fav-4096:32 stencil-10000 spin spin-wtime"
  rounds=100; pingpong_rounds=100000; stencil_steps=20; count_rounds=20; count_pp_rounds=20000; time_limit=1800
fi
policies="weak thread offload ideal"
tools="progsim smpi"
privatize=""
spin_seconds=3
count=first
fav_algorithm=reduce_bcast
fav_platform="$root/platforms/cluster-128.xml"
build_dir="$root/build"
out=""
progsim_extra=()
smpi_extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick|-h|--help) ;;
    -*) [ $# -ge 2 ] || bench_die "$1: needs a value (see --help)" ;;
  esac
  case "$1" in
    --cases) cases=$2; shift ;;
    --policies) policies=$2; shift ;;
    --tools) tools=$2; shift ;;
    --privatize) privatize=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --pingpong-rounds) pingpong_rounds=$2; shift ;;
    --stencil-steps) stencil_steps=$2; shift ;;
    --spin-seconds) spin_seconds=$2; shift ;;
    --count) count=$2; shift ;;
    --count-rounds) count_rounds=$2; shift ;;
    --count-pingpong-rounds) count_pp_rounds=$2; shift ;;
    --time-limit) time_limit=$2; shift ;;
    --spin-time-limit) spin_time_limit=$2; shift ;;
    --fav-algorithm) fav_algorithm=$2; shift ;;
    --fav-platform) fav_platform=$2; shift ;;
    --progsim-cfg) progsim_extra+=(--cfg "$2"); shift ;;
    --smpi-cfg) smpi_extra+=("--cfg=$2"); shift ;;
    --build-dir) build_dir=$2; shift ;;
    --out) out=$2; shift ;;
    --quick) ;;
    -h|--help) usage; exit 0 ;;
    *) bench_die "unknown option '$1' (see --help)" ;;
  esac
  shift
done

for v in rounds pingpong_rounds stencil_steps spin_seconds count_rounds count_pp_rounds time_limit spin_time_limit; do
  bench_positive "--${v//_/-}" "${!v}"
done
for c in $cases; do
  [[ "$c" =~ ^(pingpong(-[0-9]+)?|allreduce-[0-9]+|same-[0-9]+|fav-[0-9]+:[0-9]+|stencil-[0-9]+|spin|spin-wtime)$ ]] ||
    bench_die "--cases: unknown case '$c' (see --help)"
  if [[ "$c" =~ ^pingpong-([0-9]+)$ ]]; then
    n=${BASH_REMATCH[1]}
    if [ "$n" -lt 2 ] || [ $((n % 2)) != 0 ]; then bench_die "--cases: $c: an even number of ranks, at least 2"; fi
  fi
done
for p in $policies; do
  case "$p" in weak|thread|offload|ideal) ;; *) bench_die "--policies: unknown policy '$p'" ;; esac
done
for t in $tools; do
  case "$t" in progsim|smpi) ;; *) bench_die "--tools: progsim and/or smpi, not '$t'" ;; esac
done
for p in $privatize; do
  case "$p" in on|off) ;; *) bench_die "--privatize: on and/or off, not '$p'" ;; esac
done
case "$count" in first|all|none) ;; *) bench_die "--count: first, all or none" ;; esac
[ -r "$fav_platform" ] || bench_die "--fav-platform: cannot read $fav_platform"
fav_platform=$(cd "$(dirname "$fav_platform")" && pwd)/$(basename "$fav_platform")

[ -n "$out" ] || out="$root/bench/out/speed-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out/logs" || bench_die "cannot create $out"
out=$(cd "$out" && pwd)
bench_require_time "$out/logs"

want() { [[ " $tools " == *" $1 "* ]]; }
progsim="$build_dir/bin/progsim"
if want progsim; then
  if [ ! -x "$progsim" ] || [ ! -x "$build_dir/bin/progsim-cc" ]; then
    bench_die "no progsim in $build_dir/bin: build it (cmake -S $root -B $root/build && cmake --build $root/build) or pass --build-dir"
  fi
  command -v jq >/dev/null || bench_die "jq is needed to read progsim's reports (apt-get install jq)"
fi
smpi_missing=""
if want smpi; then
  command -v smpicc >/dev/null || smpi_missing="smpicc not found"
  command -v smpirun >/dev/null || smpi_missing="smpirun not found"
fi

# ---------------------------------------------------------------- programs
declare -A prog_progsim=() prog_smpi=()
build_program() {  # NAME: bench/programs/NAME.c for both tools
  local name=$1 src="$root/bench/programs/$1.c"
  if want progsim && [ -z "${prog_progsim[$name]:-}" ]; then
    "$build_dir/bin/progsim-cc" -O2 -o "$out/$name.progsim" "$src" >"$out/logs/progsim-cc-$name.log" 2>&1 ||
      bench_die "progsim-cc $src failed (see $out/logs/progsim-cc-$name.log)"
    prog_progsim[$name]="$out/$name.progsim"
  fi
  if want smpi && [ -z "$smpi_missing" ] && [ -z "${prog_smpi[$name]:-}" ]; then
    if smpicc -O2 -o "$out/$name.smpi" "$src" >"$out/logs/smpicc-$name.log" 2>&1; then
      prog_smpi[$name]="$out/$name.smpi"
    else
      smpi_missing="smpicc failed on $name.c (see logs/smpicc-$name.log)"
    fi
  fi
}
for c in $cases; do
  case "$c" in
    pingpong*) build_program pingpong ;;
    allreduce-*|fav-*) build_program allreduce ;;
    stencil-*) build_program stencil ;;
    spin*) build_program shared_flag_spin ;;
  esac
done

# ---------------------------------------------------------------- machine facts, probes
counting_why=""
if [ "$count" != none ]; then
  if bench_uprobes_init "$out/logs/uprobes.log"; then
    counting_why=""
  else
    counting_why="counting skipped: $BENCH_UPROBES_WHY"
    bench_note "$counting_why"
  fi
else
  counting_why="counting skipped: --count none"
fi
{
  bench_machine_facts "$root"
  echo "nice: $(nice)"
  echo "progsim build: $build_dir ($(bench_build_sum "$build_dir"))"
  echo "smpi: ${smpi_missing:-smpirun with its defaults (privatization dlopen, raw contexts) unless a row says otherwise}"
  echo "counting: ${counting_why:-perf uprobes on $BENCH_SIMGRID_LIB ($BENCH_UPROBES_EVENTS)}"
  echo "command: $command_line"
} >"$out/system.txt"
cat "$out/system.txt" >&2
build_before=$(bench_build_sum "$build_dir")

# ---------------------------------------------------------------- one row
results="$out/results.tsv"
printf '%s\n' "case	tool	policy	priv	ranks	per_host	rounds	wall_s	cpu_s	rss_kib	status	load1	sim_s	messages	msg_per_call_rank	simcalls_per_msg	ctxsw_per_msg	simcalls_per_call_rank	ctxsw_per_call_rank	count_note	detail	log" >"$results"
run_index=0
CMD=()

# case_setup CASE: sets kind, n (ranks), k (per host), platform, hostfile, priv_modes.
case_setup() {
  local c=$1
  k=1
  case "$c" in
    pingpong) kind=pingpong; n=2 ;;
    pingpong-*) kind=pingpong; n=${c#pingpong-} ;;
    allreduce-*) kind=allreduce; n=${c#allreduce-} ;;
    same-*) kind=same; n=${c#same-} ;;
    stencil-*) kind=stencil; n=${c#stencil-} ;;
    fav-*) kind=fav; n=${c#fav-}; k=${n#*:}; n=${n%%:*} ;;
    spin) kind=spin; n=2; k=2; spin_loop=plain ;;
    spin-wtime) kind=spin; n=2; k=2; spin_loop=wtime ;;
  esac
  case "$kind" in
    fav) platform=$fav_platform; priv_modes=off ;;
    spin) platform="$out/platform-1x2.xml"; bench_flat_platform "$platform" 1 2; priv_modes=on ;;
    *) platform="$out/platform-$n.xml"; [ -f "$platform" ] || bench_flat_platform "$platform" "$n" 1
       case "$kind" in
         allreduce) priv_modes=${privatize:-on off} ;;
         *) priv_modes=${privatize:-on} ;;
       esac ;;
  esac
  hostfile="$out/hostfile-$n-$k.txt"
  [ -f "$hostfile" ] || bench_hostfile "$hostfile" "$n" "$k"
}

# make_cmd TOOL POLICY PRIV ROUNDS REPORT [count]: sets CMD for the current case.
# Counting runs of SMPI turn off its computation benchmarking (see count_row).
make_cmd() {
  local tool=$1 policy=$2 priv=$3 r=$4 report=$5 counting=${6:-} prog args=() cfg=()
  case "$kind" in
    pingpong) prog=pingpong; args=("$r") ;;
    allreduce|fav|same) prog=allreduce; args=("$r") ;;
    stencil) prog=stencil; args=("$r") ;;
    spin) prog=shared_flag_spin; args=("$spin_seconds" "$spin_loop") ;;
  esac
  if [ "$tool" = progsim ]; then
    case "$kind" in fav|same) [ "$fav_algorithm" != default ] && cfg+=(--cfg "coll-allreduce=$fav_algorithm") ;; esac
    CMD=("$progsim" run -n "$n" --platform "$platform" --ranks-per-node "$k" --progress "$policy"
         "--privatize=$priv" --report "$report" "${cfg[@]}" "${progsim_extra[@]}" "${prog_progsim[$prog]}" "${args[@]}")
  else
    [ "$priv" = off ] && cfg+=(-no-privatize)
    if [ "$kind" = fav ]; then
      cfg+=(--cfg=smpi/simulate-computation:no --log=root.thres:critical)
    elif [ "$counting" = count ]; then
      cfg+=(--cfg=smpi/simulate-computation:no)
    fi
    CMD=(smpirun -np "$n" -platform "$platform" -hostfile "$hostfile" "${cfg[@]}" "${smpi_extra[@]}"
         "${prog_smpi[$prog]}" "${args[@]}")
  fi
}

jqr() { jq -r "$2" "$1" 2>/dev/null || echo '?'; }  # FILE FILTER

# The simulated time a run printed, by program.
sim_time_of() {  # STDOUT-FILE
  case "$kind" in
    pingpong|allreduce|fav|same) grep -E '^[0-9]+\.[0-9]+$' "$1" | tail -1 ;;
    stencil) sed -n 's/.* time=\([0-9.]*\)$/\1/p' "$1" | tail -1 ;;
    spin) sed -n 's/^spin: \(flag seen\|deadline reached\) at \([0-9.]*\) s.*/\2/p' "$1" | tail -1 ;;
  esac
}

# Counting runs of one row (0 rounds and the counting rounds); sets the
# c_* variables (per message, per call per rank, messages per call).
# SMPI's counting runs add smpi/simulate-computation:no: with its default
# (yes) every stretch of user code longer than smpi/cpu-threshold (1 us of
# host time) becomes a simulated execution (one simcall, two context
# switches), and the probes' own cost lengthens those stretches, so the
# counts would vary with the probes and the load (ping-pong: 3.0 simcalls per
# message without, 3.8 to 9.8 with). The counts are SMPI's MPI work alone, a
# lower bound of what its timing run (defaults) does.
count_row() {  # TOOL POLICY PRIV ID
  local tool=$1 policy=$2 priv=$3 id=$4 rc r0 log0 logc s0 sc w0 wc m0 mc
  c_simcalls_msg='-'; c_ctxsw_msg='-'; c_simcalls_call='-'; c_ctxsw_call='-'; c_msgs_call='-'; c_note=""
  if [ "$kind" = pingpong ]; then rc=$count_pp_rounds; else rc=$count_rounds; fi
  for r0 in 0 "$rc"; do
    local log="$out/logs/$id-count$r0"
    make_cmd "$tool" "$policy" "$priv" "$r0" "$log.report.json" count
    bench_note "$id: counting run, $r0 rounds"
    bench_counted_run "$log" "$time_limit" "${CMD[@]}"
    if [ "$BT_STATUS" != ok ]; then c_note="counting run ($r0 rounds): $BT_STATUS"; return; fi
  done
  log0="$out/logs/$id-count0"; logc="$out/logs/$id-count$rc"
  local v name
  declare -A got=()
  for v in 0 c; do
    for name in simcall sw_boost sw_raw sw_ucontext smpi_start; do
      if [ $v = 0 ]; then got[$v$name]=$(bench_count_of "$log0.perf" $name); else got[$v$name]=$(bench_count_of "$logc.perf" $name); fi
      [[ "${got[$v$name]}" =~ ^[0-9]+$ ]] || { c_note="perf did not count $name (see $log0.perf)"; return; }
    done
  done
  s0=${got[0simcall]}; sc=${got[csimcall]}
  w0=$((got[0sw_boost] + got[0sw_raw] + got[0sw_ucontext]))
  wc=$((got[csw_boost] + got[csw_raw] + got[csw_ucontext]))
  if [ "$tool" = progsim ]; then
    m0=$(jqr "$log0.report.json" '.messages.count'); mc=$(jqr "$logc.report.json" '.messages.count')
  else  # one send and one receive request started per message
    m0=$((got[0smpi_start] / 2)); mc=$((got[csmpi_start] / 2))
  fi
  read -r c_simcalls_msg c_ctxsw_msg c_simcalls_call c_ctxsw_call c_msgs_call < <(
    awk -v s0="$s0" -v sc="$sc" -v w0="$w0" -v wc="$wc" -v m0="$m0" -v mc="$mc" -v calls="$rc" -v n="$n" -v kind="$kind" '
      function r(x) { return sprintf(x >= 100 ? "%.0f" : "%.2f", x) }
      BEGIN {
        dm = mc - m0
        a = (dm > 0) ? r((sc - s0) / dm) : "-"; b = (dm > 0) ? r((wc - w0) / dm) : "-"
        if (kind == "pingpong") { c = "-"; d = "-"; e = "-" }
        else { c = r((sc - s0) / (calls * n)); d = r((wc - w0) / (calls * n)); e = r(dm / (calls * n)) }
        print a, b, c, d, e
      }')
  c_note="counted: $rc rounds minus 0 rounds"
}

# measure CASE TOOL POLICY PRIV COUNT(yes|no): the timing run, then the counting runs.
measure() {
  local c=$1 tool=$2 policy=$3 priv=$4 want_count=$5
  run_index=$((run_index + 1))
  local id r limit
  id=$(printf '%03d-%s-%s-%s-%s' "$run_index" "$c" "$tool" "$policy" "$priv" | tr ':' 'x')
  local log="$out/logs/$id"
  case "$kind" in
    pingpong) r=$pingpong_rounds ;;
    stencil) r=$stencil_steps ;;
    spin) r=$spin_seconds ;;
    *) r=$rounds ;;
  esac
  limit=$time_limit; [ "$kind" = spin ] && limit=$spin_time_limit
  make_cmd "$tool" "$policy" "$priv" "$r" "$log.report.json"
  bench_note "$id: ${CMD[*]}"
  bench_timed_run "$log" "$limit" "${CMD[@]}"
  local status=$BT_STATUS sim messages='-' detail=""
  sim=$(sim_time_of "$log.stdout"); sim=${sim:--}
  if [ "$tool" = progsim ] && [ -s "$log.report.json" ]; then
    local outcome
    outcome=$(jqr "$log.report.json" '.outcome')
    [ "$status" != ok ] && status="$status:$outcome"
    messages=$(jqr "$log.report.json" '.messages.count')
  fi
  [ "$status" = ok ] && [ "$sim" = - ] && status="FAILED(no output)"
  if [ "$status" != ok ]; then
    detail=$(grep -m1 -E 'deadlock|error|Error|CRITICAL|failed|Failed|cannot|Cannot|abort' "$log.stderr" 2>/dev/null |
      sed 's/^\[[^]]*\] //' | tr '\t' ' ' | cut -c1-200)
  fi
  local said=""
  case "$kind" in
    stencil) said=$(grep -m1 '^stencil ' "$log.stdout" | cut -d' ' -f2-6) ;;
    spin) said=$(grep -m1 '^spin: ' "$log.stdout" | cut -c7-); messages='-' ;;
  esac
  [ -n "$said" ] && detail="${detail:+$detail; }$said"
  [ "$kind" = pingpong ] && [ "$tool" = smpi ] && messages=$((r * n))  # 2 x R x n/2
  local rowc=("$BT_WALL" "$BT_CPU" "$BT_RSS" "$BT_LOAD1")  # the counting runs overwrite BT_*
  # counting
  c_simcalls_msg='-'; c_ctxsw_msg='-'; c_simcalls_call='-'; c_ctxsw_call='-'; c_msgs_call='-'; c_note=""
  if [ "$want_count" = yes ]; then
    if [ -n "$counting_why" ]; then c_note=$counting_why
    elif [ "$BT_STATUS" != ok ]; then c_note="not counted: the timing run failed"
    else count_row "$tool" "$policy" "$priv" "$id"
    fi
  fi
  if [ "$tool" = smpi ] && [ "$kind" != pingpong ] && [ "$c_msgs_call" != - ]; then
    messages="~$(awk -v m="$c_msgs_call" -v r="$r" -v n="$n" 'BEGIN { printf "%.0f", m * r * n }')"
  fi
  if [ "$kind" != pingpong ] && [ "$tool" = progsim ] && [ "$c_msgs_call" = - ] && [[ "$messages" =~ ^[0-9]+$ ]] &&
     [ "$kind" != spin ]; then
    c_msgs_call=$(awk -v m="$messages" -v r="$r" -v n="$n" 'BEGIN { printf "%.2f", m / (r * n) }')
  fi
  bench_note "$id: $status wall=${rowc[0]}s cpu=${rowc[1]}s rss=${rowc[2]}KiB sim=$sim msgs=$messages simcalls/msg=$c_simcalls_msg ctxsw/msg=$c_ctxsw_msg"
  printf '%s\t' "$c" "$tool" "$policy" "$priv" "$n" "$k" "$r" "${rowc[0]}" "${rowc[1]}" "${rowc[2]}" "$status" "${rowc[3]}" \
    "$sim" "$messages" "$c_msgs_call" "$c_simcalls_msg" "$c_ctxsw_msg" "$c_simcalls_call" "$c_ctxsw_call" "$c_note" \
    "$detail" >>"$results"
  printf '%s\n' "logs/$id" >>"$results"
}

skip_row() {  # CASE TOOL POLICY PRIV WHY
  printf '%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t-\t-\tSKIPPED\t-\t-\t-\t-\t-\t-\t-\t-\t\t%s\t-\n' "$1" "$2" "$3" "$4" "$n" "$k" "$5" >>"$results"
}

# ---------------------------------------------------------------- the runs
for c in $cases; do
  case_setup "$c"
  first_priv=${priv_modes%% *}
  for priv in $priv_modes; do
    do_count=no
    if [ "$count" = all ] || { [ "$count" = first ] && [ "$priv" = "$first_priv" ]; }; then
      case "$kind" in pingpong|allreduce|fav|same) do_count=yes ;; esac
    fi
    if want progsim; then
      for policy in $policies; do measure "$c" progsim "$policy" "$priv" "$do_count"; done
    fi
    if want smpi; then
      if [ "$kind" = same ]; then
        skip_row "$c" smpi - "$priv" "SMPI's default is this algorithm: its row is allreduce-$n's"
      elif [ "$kind" = spin ]; then
        skip_row "$c" smpi - "$priv" "the spin never yields to SMPI's simulator (plain and wtime loops alike: 60 s timeout, no output)"
      elif [ -n "$smpi_missing" ]; then
        skip_row "$c" smpi - "$priv" "$smpi_missing"
      else
        measure "$c" smpi - "$priv" "$do_count"
      fi
    fi
  done
done
build_after=$(bench_build_sum "$build_dir")

# ---------------------------------------------------------------- the tables
# CPU/SMPI: against the SMPI row of the same case, privatized (smpirun's
# default) when it exists, else the case's only SMPI row (fav: not privatized);
# same-N rows against allreduce-N's.
make_table() {  # md|txt
  awk -F'\t' -v fmt="$1" '
    NR == 1 { next }
    {
      row[++m] = $0
      if ($2 == "smpi" && $11 == "ok" && (!($1 in ref) || $4 == "on")) { ref[$1] = $9; refp[$1] = $4 }
    }
    function cell(x) { return (x == "" || x == "?") ? "-" : x }
    END {
      split("case|tool|policy|priv|ranks|wall s|CPU s|CPU/SMPI|RSS MiB|KiB/rank|messages|msg/CPU s|msg/call/rank|simcalls/msg|ctxsw/msg|simcalls/call/rank|ctxsw/call/rank|simulated s|status|load", h, "|")
      nh = 20
      if (fmt == "md") {
        line = "|"; sep = "|"
        for (i = 1; i <= nh; i++) { line = line " " h[i] " |"; sep = sep "---|" }
        print line; print sep
      } else {
        f = "%-14s %-7s %-7s %-6s %6s %8s %8s %8s %8s %8s %11s %10s %8s %9s %9s %9s %9s %11s %-22s %s\n"
        printf f, h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11], h[12], "msg/call", "simcall", "ctxsw", "simcall", "ctxsw", h[18], h[19], h[20]
        printf f, "", "", "", "", "", "", "", "", "", "", "", "", "/rank", "/msg", "/msg", "/call/rk", "/call/rk", "", "", ""
      }
      for (i = 1; i <= m; i++) {
        split(row[i], x, "\t")
        ratio = "-"
        key = x[1]; sub(/^same-/, "allreduce-", key)
        if (x[9] ~ /^[0-9.]+$/ && (key in ref) && ref[key] > 0) ratio = sprintf("%.2f", x[9] / ref[key])
        rss = "-"; per = "-"
        if (x[10] ~ /^[0-9]+$/) { rss = sprintf("%.1f", x[10] / 1024); per = sprintf("%.1f", x[10] / x[5]) }
        msgs = x[14]; m2 = msgs; sub(/^~/, "", m2)
        rate = (m2 ~ /^[0-9]+$/ && x[9] ~ /^[0-9.]+$/ && x[9] > 0) ? sprintf("%s%.0f", (msgs ~ /^~/ ? "~" : ""), m2 / x[9]) : "-"
        priv = x[4]; if (x[2] == "smpi") priv = (x[4] == "on") ? "dlopen" : "no"
        v[1] = x[1]; v[2] = x[2]; v[3] = x[3]; v[4] = priv; v[5] = x[5]; v[6] = cell(x[8]); v[7] = cell(x[9])
        v[8] = ratio; v[9] = rss; v[10] = per; v[11] = cell(msgs); v[12] = rate; v[13] = cell(x[15]); v[14] = cell(x[16])
        v[15] = cell(x[17]); v[16] = cell(x[18]); v[17] = cell(x[19]); v[18] = cell(x[13]); v[19] = x[11]; v[20] = x[12]
        if (fmt == "md") {
          line = "|"; for (j = 1; j <= nh; j++) line = line " " v[j] " |"; print line
        } else {
          printf f, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19], v[20]
        }
      }
    }' "$results"
}
notes() {
  awk -F'\t' 'NR > 1 && $21 != "" { printf "  %s %s %s %s: %s\n", $1, $2, $3, $4, $21 }' "$results"
  awk -F'\t' 'NR > 1 && $20 != "" && $20 !~ /^counted:/ { printf "  %s %s %s %s: %s\n", $1, $2, $3, $4, $20 }' "$results"
}
{
  echo "bench/speed.sh: $(sed -n 's/^date: //p' "$out/system.txt") to $(date -Is)"
  sed 's/^/  /' "$out/system.txt"
  echo
  make_table txt
  echo
  echo "Notes (program output, failures):"
  notes
  cat <<'LEGEND'

CPU s = user + system (/usr/bin/time); CPU/SMPI = CPU s / CPU s of the SMPI row of the same case
(privatized, smpirun's default, when it ran; fav rows: SMPI not privatized). RSS = peak resident
set of the largest process. messages: progsim = its report's message count; SMPI = 2 x round trips
x pairs for ping-pong, else ~ estimated from the counting runs (started requests / 2). msg/CPU s =
messages / CPU s. simcalls and ctxsw (context switches) per message and per collective call per
rank: perf uprobes on libsimgrid's ActorImpl::simcall_handle and *Context::swap_into_for_real,
difference between a counting run with the counting rounds and one with 0 rounds (start-up and
shutdown cancel out); SMPI's counting runs turn its computation benchmarking off (with it, the
probes' own cost would add simulated executions). fav-N:K rows are FAVOURABLE configurations
(bench/allreduce.sh's): not what users run. priv: progsim --privatize=on|off; SMPI dlopen
(smpirun's default) or no. stencil rows: msg/call/rank = messages per step per rank. load =
1-min load average when the timing run started. SMPI rows that time out show the CPU time of
the smpirun script only (its smpimain is not waited for).
LEGEND
  if [ "$build_before" != "$build_after" ]; then
    echo "WARNING: $build_dir changed during the benchmark: the progsim rows may mix two versions."
  fi
} | tee "$out/table.txt"
{
  echo "bench/speed.sh, $(sed -n 's/^date: //p' "$out/system.txt"); $(sed -n 's/^progsim commit: /progsim /p' "$out/system.txt"); $(sed -n 's/^simgrid: //p' "$out/system.txt"); $(nproc) cores"
  echo
  make_table md
} >"$out/table.md"
echo "results: $out" >&2
