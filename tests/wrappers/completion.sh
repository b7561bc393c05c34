#!/usr/bin/env bash
# wrappers.completion: the bash completion (share/bash-completion/
# completions/progsim) completes subcommands, options (also mpirun's
# spellings), option values, progress policies and --cfg keys and values,
# asking the programs of the build tree.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
script=$BUILD/share/bash-completion/completions/progsim
[ -f "$script" ] || fail "$script was not installed in the build tree"
# shellcheck source=/dev/null
source "$script"
complete -p progsim progsim-mpiexec mpiexec.progsim >/dev/null || fail "the script does not register the commands"

# expect_completion LINE CANDIDATE...: completing at the end of LINE offers
# exactly these candidates (in any order).
expect_completion() {
  local line=$1
  shift
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMPREPLY=()
  _progsim
  local got expected
  got=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' ')
  expected=$(printf '%s\n' "$@" | LC_ALL=C sort | tr '\n' ' ')
  [ "$got" = "$expected" ] || fail "completing '$line': got '$got', expected '$expected'"
  echo "ok: '$line' -> $got"
}

# expect_offers LINE CANDIDATE...: the candidates are among those offered.
expect_offers() {
  local line=$1 c
  shift
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMPREPLY=()
  _progsim
  for c in "$@"; do
    grep -qxF -- "$c" <<<"$(printf '%s\n' "${COMPREPLY[@]}")" || fail "completing '$line' does not offer '$c' (offers: ${COMPREPLY[*]})"
  done
  echo "ok: '$line' offers $*"
}

P=$BIN/progsim
expect_completion "$P " run compare check replay examples calibrate sweep
expect_completion "$P r" run replay
expect_completion "$P run --pro" --progress
expect_completion "$P run --progress " weak thread offload ideal
expect_completion "$P run --progress=i" ideal
expect_completion "$P compare --policies " weak thread offload ideal
expect_completion "$P check --policies " weak thread offload ideal
expect_offers "$P check --" --policies --max-runs --json --platform --cfg
expect_completion "$P run --cfg eager-" eager-threshold-network= eager-threshold-shm= eager-threshold=
expect_completion "$P run --cfg user-time=" zero measured
expect_completion "$P run --cfg coll-sync=a" auto always
expect_offers "$P run --cfg " call-cost= watchdog= coll-allreduce= help
expect_completion "$P run --map-by " slot node core
expect_completion "$P run --privatize=" on off
expect_completion "$P run --timeline-format " chrome paje summary
expect_completion "$P -n 2 --ov" --oversubscribe
expect_offers "$BIN/progsim-mpiexec -" -n -np -H --host --hostfile -f -machinefile -N --npernode -ppn --map-by \
  --oversubscribe --bind-to --display-map -x -genv -platform --cfg --progress
expect_completion "$BIN/mpiexec.progsim --display" --display-map
expect_offers "$P compare --" --policies --html --platform --cfg
expect_offers "$P sweep --" --jobs --output --list --point --gather --slurm --wait --sbatch-args
# A program or a file: left to bash (complete -o default).
expect_completion "$P run -n 2 ./"
# Every --cfg key of `progsim run --cfg help` is offered.
must cfg-help "$P" run --cfg help
keys=$(sed -nE 's/^  ([a-z0-9][a-z0-9-]*) \(default.*/\1=/p' "$OUT")
[ "$(wc -l <<<"$keys")" -ge 20 ] || fail "too few keys in --cfg help"
# shellcheck disable=SC2086
expect_offers "$P run --cfg " $keys
note "PASS"
