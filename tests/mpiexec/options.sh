#!/usr/bin/env bash
# mpiexec.CASE: one option (or one group of spellings of an option) of the
# mpiexec drop-in: progsim-mpiexec, mpiexec.progsim, `progsim -n N`, and
# `progsim run`, which reads the same options. Called as
#   options.sh BUILD_DIR SCRATCH_DIR CASE
# Placement is checked through what each rank prints: "rank R of N on HOST".
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../wrappers/common.sh"
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR SCRATCH_DIR CASE" >&2; exit 2; }
CASE=$3
setup "$1" "$2"
TEST_NAME=mpiexec.$CASE
unset PROGSIM_PROGRESS PROGSIM_PLATFORM PROGSIM_CFG MPIEXEC_TIMEOUT FOO BAZ
cd "$SCRATCH"
must compile "$BIN/progsim-cc" "$HERE/where.c" -o where
SMALL=$BUILD/share/progsim/platforms/small-cluster.xml  # node-0..node-3, 4 cores each

# fails_with LABEL STATUS TEXT COMMAND...: COMMAND exits with STATUS and
# says TEXT on stderr.
fails_with() {
  local label=$1 status=$2 text=$3
  shift 3
  run "$label" "$@"
  [ "$RC" = "$status" ] || { show_output; fail "'$*' exited with $RC, expected $status"; }
  expect_file_contains "$ERR" "$text" "the stderr of '$*'"
}

# ranks_on N HOST... : the lines "rank R of N on HOST_R" for R = 0 .. N-1.
ranks_on() {
  local n=$1 r=0 host
  shift
  for host in "$@"; do
    echo "rank $r of $n on $host"
    r=$((r + 1))
  done
}

# placed LABEL "HOST..." COMMAND...: COMMAND runs ./where and rank R runs on
# the R-th host of the list.
placed() {
  local label=$1
  local -a hosts
  read -r -a hosts <<<"$2"
  shift 2
  must "$label" "$@"
  mapfile -t lines < <(ranks_on "${#hosts[@]}" "${hosts[@]}")
  expect_lines "$OUT" "${lines[@]}"
}

case_n_forms() {
  local i=0 form
  for form in "progsim -n 3" "progsim -np 3" "progsim -n3" "progsim -np3" "progsim --np 3" "progsim -n=3" \
              "progsim run -n 3" "progsim run -np3" "progsim-mpiexec -n 3"; do
    read -r -a words <<<"$form"
    placed "form$i" "node-0 node-1 node-2" "$BIN/${words[0]}" "${words[@]:1}" ./where
    i=$((i + 1))
  done
  fails_with zero 2 "-n must be at least 1" "$BIN/progsim" -n 0 ./where
  fails_with bad 2 "-n: 'x' is not a valid number" "$BIN/progsim" -n x ./where
}

case_launcher_names() {
  local name
  for name in progsim-mpiexec mpiexec.progsim; do
    [ -x "$BIN/$name" ] || fail "$BIN/$name is missing"
    placed "$name" "node-0 node-1" "$BIN/$name" -n 2 ./where
  done
  must version "$BIN/progsim-mpiexec" --version
  expect_file_contains "$OUT" "progsim-mpiexec (progsim "
  fails_with no-program 2 "no program to run" "$BIN/progsim" -n 2
}

case_x() {
  FOO=outer BAZ=kept must x "$BIN/progsim" -n 2 -x FOO=bar -x BAZ -x QUX=a=b ./where FOO BAZ QUX
  expect_lines "$OUT" "rank 0 of 2 on node-0 FOO=bar BAZ=kept QUX=a=b" "rank 1 of 2 on node-1 FOO=bar BAZ=kept QUX=a=b"
  # Only the ranks' environment: progsim itself keeps its TMPDIR (for the
  # ranks' program copies); the later setting of a name wins.
  must ranks-only "$BIN/progsim" -n 2 -x TMPDIR=/nonexistent -x FOO=1 -genv FOO 2 ./where TMPDIR FOO
  expect_lines "$OUT" "rank 0 of 2 on node-0 TMPDIR=/nonexistent FOO=2" "rank 1 of 2 on node-1 TMPDIR=/nonexistent FOO=2"
  fails_with bad-name 2 "-x 1BAD: not an environment variable name" "$BIN/progsim-mpiexec" -n 2 -x 1BAD=2 ./where
  fails_with no-value 2 "-x needs a value" "$BIN/progsim-mpiexec" -n 2 -x
}

case_genv() {
  must genv "$BIN/progsim-mpiexec" -n 2 -genv FOO "two words" -env BAZ 3 ./where FOO BAZ
  expect_lines "$OUT" "rank 0 of 2 on node-0 FOO=two words BAZ=3" "rank 1 of 2 on node-1 FOO=two words BAZ=3"
  fails_with missing 2 "-genv needs a variable and a value" "$BIN/progsim-mpiexec" -n 2 -genv FOO
}

case_host() {
  placed H "node-3 node-3 node-1 node-1" "$BIN/progsim" -n 4 -H node-3:2,node-1:2 ./where
  placed host "node-5 node-7" "$BIN/progsim-mpiexec" -n 2 --host node-5,node-7 ./where
  placed hosts "node-2 node-2 node-4" "$BIN/progsim-mpiexec" -n 3 -hosts node-2:2 -host node-4 ./where
  placed host-rpn "node-6 node-6 node-6" "$BIN/progsim-mpiexec" -n 3 --host node-6 -N 3 ./where
  fails_with unknown 2 "--host nosuch:2: host 'nosuch' is not in the platform" "$BIN/progsim" -n 2 -H nosuch:2 ./where
  fails_with slots 2 "--host node-0:x: 'node-0:x': invalid slot count" "$BIN/progsim" -n 2 -H node-0:x ./where
  fails_with too-few 2 "4 ranks do not fit: the host list offers 2 slots" "$BIN/progsim" -n 4 -H node-0:2 ./where
}

case_hostfile() {
  printf '# two hosts\nnode-2:2\nnode-0 slots=1\n' >hosts.txt
  local option
  for option in --hostfile -hostfile -f -machinefile --machinefile; do
    placed "hostfile$option" "node-2 node-2 node-0" "$BIN/progsim-mpiexec" -n 3 "$option" hosts.txt ./where
  done
  fails_with both 2 "--host and --hostfile both list hosts: give one of them" \
    "$BIN/progsim" -n 2 -f hosts.txt -H node-1 ./where
  fails_with missing 2 "nofile.txt: cannot read the hostfile" "$BIN/progsim" -n 2 -f nofile.txt ./where
}

case_npernode() {
  local option
  for option in -N --npernode -npernode -ppn --ranks-per-node; do
    placed "npernode$option" "node-0 node-0 node-1 node-1 node-2" "$BIN/progsim-mpiexec" -n 5 "$option" 2 ./where
  done
  fails_with zero 2 "--ranks-per-node must be at least 1" "$BIN/progsim" -n 2 -N 0 ./where
}

case_map_by() {
  placed node "node-0 node-1 node-0 node-1" "$BIN/progsim" -n 4 -H node-0:2,node-1:2 --map-by node ./where
  placed node-upper "node-0 node-1 node-0 node-1" "$BIN/progsim" -n 4 -H node-0:2,node-1:2 -map-by NODE ./where
  placed slot "node-0 node-0 node-1 node-1" "$BIN/progsim" -n 4 -H node-0:2,node-1:2 --map-by slot ./where
  placed core "node-0 node-0 node-0 node-0 node-1 node-1" "$BIN/progsim" -n 6 --platform "$SMALL" --map-by core ./where
  placed node-rpn "node-0 node-1 node-2 node-3 node-0" "$BIN/progsim" -n 5 --platform "$SMALL" -N 2 --map-by node ./where
  fails_with ppr 2 "--map-by ppr:2:node: progsim maps by slot, node or core only (no modifiers" \
    "$BIN/progsim" -n 4 --map-by ppr:2:node ./where
  fails_with socket 2 "--map-by socket: progsim maps by slot, node or core only" "$BIN/progsim" -n 4 --map-by socket ./where
  fails_with core-and-N 2 "--map-by core gives each host one rank per core; -N/--ranks-per-node gives it K: choose one" \
    "$BIN/progsim" -n 4 --map-by core -N 2 ./where
}

case_oversubscribe() {
  fails_with without 2 "6 ranks do not fit: the host list offers 2 slots (1 host; --oversubscribe places more ranks than slots)" \
    "$BIN/progsim-mpiexec" -n 6 --platform "$SMALL" -H node-0:2 ./where
  placed with "node-0 node-0 node-0 node-0 node-0 node-0" \
    "$BIN/progsim-mpiexec" -n 6 --platform "$SMALL" -H node-0:2 --oversubscribe --display-map ./where
  expect_file_contains "$ERR" "  node-0 (4 cores): ranks 0-5 (oversubscribed: 6 ranks share 4 cores)"
  placed by-node "node-0 node-1 node-0 node-1 node-0" \
    "$BIN/progsim-mpiexec" -n 5 --platform "$SMALL" -H node-0,node-1 -oversubscribe --map-by node ./where
}

case_bind_to() {
  placed core "node-0 node-1" "$BIN/progsim-mpiexec" -n 2 --bind-to core ./where
  expect_file_contains "$ERR" "progsim: note: --bind-to core has no effect: progsim does not bind ranks"
  placed hydra "node-0 node-1" "$BIN/progsim-mpiexec" -n 2 -bind-to hwthread ./where
  expect_file_contains "$ERR" "progsim: note: --bind-to hwthread has no effect"
  placed none "node-0 node-1" "$BIN/progsim-mpiexec" -n 2 --bind-to none ./where
  [ ! -s "$ERR" ] || { show_output; fail "--bind-to none should say nothing"; }
}

case_platform() {
  must smpirun "$BIN/progsim-mpiexec" -np 16 -N 4 -platform "$SMALL" ./where
  expect_file_contains "$OUT" "rank 15 of 16 on node-3"
  [ "$(wc -l <"$OUT")" = 16 ] || fail "expected 16 lines"
  placed long "node-0 node-1" "$BIN/progsim" -n 2 --platform="$SMALL" ./where
  fails_with too-many 2 "17 ranks do not fit: the platform offers 16 slots (4 hosts x 4 ranks per node" \
    "$BIN/progsim-mpiexec" -np 17 -N 4 -platform "$SMALL" ./where
}

case_display_map() {
  placed slot "node-0 node-0 node-1 node-1 node-2" "$BIN/progsim-mpiexec" -n 5 -N 2 --display-map ./where
  expect_lines "$ERR" "progsim: placement of 5 ranks on 3 hosts (map by slot):" "  node-0 (32 cores): ranks 0-1" \
    "  node-1 (32 cores): ranks 2-3" "  node-2 (32 cores): rank 4"
  placed node "node-3 node-1 node-3" "$BIN/progsim" run -n 3 -H node-3:2,node-1:2 --map-by node -display-map ./where
  expect_lines "$ERR" "progsim: placement of 3 ranks on 2 hosts (map by node):" "  node-3 (32 cores): ranks 0,2" \
    "  node-1 (32 cores): rank 1"
  placed without "node-0 node-1" "$BIN/progsim-mpiexec" -n 2 ./where
  [ ! -s "$ERR" ] || { show_output; fail "no placement is printed without --display-map"; }
}

# report_value FILE KEY...: the JSON value at that path.
report_value() {
  python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v[k]
print(v)' "$@"
}

case_environment_defaults() {
  PROGSIM_PROGRESS=ideal must progress "$BIN/progsim-mpiexec" -n 2 --report progress.json ./where
  [ "$(report_value progress.json policy)" = ideal ] || fail "PROGSIM_PROGRESS=ideal: policy $(report_value progress.json policy)"
  PROGSIM_PROGRESS=ideal must run-form "$BIN/progsim" run -n 2 --report run.json ./where
  [ "$(report_value run.json policy)" = ideal ] || fail "progsim run ignores PROGSIM_PROGRESS"
  PROGSIM_PROGRESS=ideal must wins "$BIN/progsim-mpiexec" -n 2 --progress thread --report wins.json ./where
  [ "$(report_value wins.json policy)" = thread ] || fail "--progress does not win over PROGSIM_PROGRESS"
  PROGSIM_PLATFORM=$SMALL must platform "$BIN/progsim" -n 2 --report platform.json ./where
  [ "$(report_value platform.json platform)" = "$SMALL" ] || fail "PROGSIM_PLATFORM: platform $(report_value platform.json platform)"
  PROGSIM_CFG="eager-threshold=0  coll-sync=always" must cfg "$BIN/progsim" -n 2 --cfg coll-sync=never --report cfg.json ./where
  [ "$(report_value cfg.json parameters eager-threshold)" = 0 ] || fail "PROGSIM_CFG: eager-threshold not 0"
  [ "$(report_value cfg.json parameters coll-sync)" = never ] || fail "--cfg does not win over PROGSIM_CFG"
  fails_with bad-policy 2 "PROGSIM_PROGRESS=fast: unknown progress policy 'fast'" env PROGSIM_PROGRESS=fast "$BIN/progsim" -n 2 ./where
  fails_with bad-platform 2 "PROGSIM_PLATFORM=/nonexistent.xml: cannot read the platform file" \
    env PROGSIM_PLATFORM=/nonexistent.xml "$BIN/progsim" -n 2 ./where
  fails_with bad-cfg 2 "PROGSIM_CFG garbage: expected KEY=VALUE" env PROGSIM_CFG="eager-threshold=0 garbage" "$BIN/progsim" -n 2 ./where
  fails_with bad-cfg-value 2 "eager-threshold" env PROGSIM_CFG="eager-threshold=-1" "$BIN/progsim" -n 2 ./where
}

case_mpiexec_timeout() {
  MPIEXEC_TIMEOUT=2 run stuck "$BIN/progsim-mpiexec" -n 2 ./where sleep=10
  [ "$RC" = 4 ] || { show_output; fail "MPIEXEC_TIMEOUT=2 with a 10 s sleep: exit $RC, expected 4 (stuck)"; }
  expect_file_contains "$ERR" "simulated time limit of t=2.000000000 s (MPIEXEC_TIMEOUT) reached"
  MPIEXEC_TIMEOUT=20 must enough "$BIN/progsim" -n 2 ./where sleep=10
  MPIEXEC_TIMEOUT=0 must zero "$BIN/progsim" -n 2 ./where sleep=10
  # `progsim run` is not mpiexec: it keeps to --time-limit.
  MPIEXEC_TIMEOUT=2 must run-form "$BIN/progsim" run -n 2 ./where sleep=10
  MPIEXEC_TIMEOUT=2 run option-wins "$BIN/progsim-mpiexec" -n 2 --time-limit 1 ./where sleep=10
  [ "$RC" = 4 ] || { show_output; fail "exit $RC, expected 4"; }
  expect_file_contains "$ERR" "simulated time limit of t=1.000000000 s reached"
  fails_with bad 2 "MPIEXEC_TIMEOUT=soon: not a number of seconds" env MPIEXEC_TIMEOUT=soon "$BIN/progsim-mpiexec" -n 2 ./where
}

case_refused() {
  fails_with mca 2 "--mca: MCA parameters belong to Open MPI; progsim's model parameters are --cfg KEY=VALUE" \
    "$BIN/progsim-mpiexec" -n 2 --mca btl self ./where
  fails_with wdir 2 "-wdir: progsim runs the ranks in its own working directory" "$BIN/progsim-mpiexec" -n 2 -wdir /tmp ./where
  fails_with rankfile 2 "--rankfile: rank files are not supported" "$BIN/progsim-mpiexec" -n 2 --rankfile r.txt ./where
  fails_with mpmd 2 "':' starts another program (MPMD); progsim runs one program on every rank" \
    "$BIN/progsim-mpiexec" -n 2 ./where : -n 2 ./where
  fails_with unknown 2 "unknown option '--frobnicate'" "$BIN/progsim" -n 2 --frobnicate ./where
  [ ! -s "$OUT" ] || fail "a refused launch ran the program"
}

case_help() {
  must mpiexec-help "$BIN/progsim-mpiexec" --help
  local text
  for text in "Usage: progsim-mpiexec [options] PROGRAM" "progsim -n N" "-H, --host LIST" "--hostfile FILE" "-machinefile" \
              "-N, --npernode, -ppn" "--map-by slot|node|core" "--oversubscribe" "--display-map" "-x VAR[=VALUE]" "-genv" \
              "--bind-to" "-platform" "PROGSIM_PROGRESS" "PROGSIM_PLATFORM" "PROGSIM_CFG" "MPIEXEC_TIMEOUT" \
              "MPI_EXECUTABLE_SUFFIX=.progsim"; do
    expect_file_contains "$OUT" "$text" "progsim-mpiexec --help"
  done
  must progsim-help "$BIN/progsim" --help
  expect_file_contains "$OUT" "progsim -n N [options] PROGRAM"
}

declare -F "case_$CASE" >/dev/null || fail "no case '$CASE'"
"case_$CASE"
note "PASS"
