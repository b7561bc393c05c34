# Helpers sourced by every wrapper test script (tests/wrappers/*.sh).
#
# Each script is called as: SCRIPT BUILD_DIR SCRATCH_DIR. It builds and runs
# MPI programs the way users do, in SCRATCH_DIR only (wiped at the start, kept
# afterwards for inspection), and exits non-zero with a FAIL line on error.
set -euo pipefail

TEST_NAME=wrappers.$(basename "$0" .sh)
FIXTURES=$(cd "$(dirname "${BASH_SOURCE[0]}")/fixtures" && pwd)
CMAKE=${CMAKE:-cmake}

fail() {
  echo "FAIL [$TEST_NAME]: $*" >&2
  exit 1
}

note() {
  echo "-- $*"
}

# setup BUILD_DIR SCRATCH_DIR: sets BUILD, SCRATCH, BIN, and a private TMPDIR
# (progsim run puts the per-rank program copies there).
setup() {
  if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR SCRATCH_DIR" >&2
    exit 2
  fi
  [ -d "$1" ] || fail "build directory '$1' does not exist"
  BUILD=$(cd "$1" && pwd)
  case "$2" in
    "" | / | "$BUILD" | "$BUILD/") fail "refusing to use '$2' as a scratch directory" ;;
  esac
  rm -rf "$2"
  mkdir -p "$2"
  SCRATCH=$(cd "$2" && pwd)
  BIN=$BUILD/bin
  export TMPDIR=$SCRATCH/tmp
  mkdir -p "$TMPDIR"
  # The tests pin the compilers the build was configured with, and nested
  # makes must not inherit a jobserver from a `make test` above them.
  unset PROGSIM_CC PROGSIM_CXX MAKEFLAGS MFLAGS MAKELEVEL
  local f
  for f in progsim progsim-cc progsim-cxx; do
    [ -x "$BIN/$f" ] || fail "$BIN/$f is missing: build progsim first"
  done
  note "$TEST_NAME in $SCRATCH"
}

# run LABEL COMMAND...: runs COMMAND with its stdout and stderr in
# $SCRATCH/LABEL.out and .err (also OUT and ERR), its status in RC.
run() {
  local label=$1
  shift
  OUT=$SCRATCH/$label.out
  ERR=$SCRATCH/$label.err
  echo "+ $*"
  set +e
  "$@" >"$OUT" 2>"$ERR"
  RC=$?
  set -e
}

show_output() {
  echo "---- stdout ($OUT):" >&2
  cat "$OUT" >&2
  echo "---- stderr ($ERR):" >&2
  cat "$ERR" >&2
  echo "----" >&2
}

# must LABEL COMMAND...: like run, and fails the test unless it exits 0.
must() {
  run "$@"
  if [ "$RC" != 0 ]; then
    show_output
    fail "'${*:2}' exited with status $RC"
  fi
}

# has_word TEXT WORD: TEXT, split on spaces, contains WORD.
has_word() {
  [[ " $1 " == *" $2 "* ]]
}

expect_word() {
  has_word "$1" "$2" || fail "expected the word '$2' in: $1"
}

expect_no_substring() {
  [[ "$1" != *"$2"* ]] || fail "did not expect '$2' in: $1"
}

# expect_file_contains FILE TEXT [WHAT]
expect_file_contains() {
  grep -qF -- "$2" "$1" || { show_output; fail "${3:-$1} does not contain '$2'"; }
}

# expect_lines FILE LINE...: FILE holds exactly these lines, in any order
# (ranks write concurrently as far as the test is concerned).
expect_lines() {
  local file=$1
  shift
  local expected actual
  expected=$(printf '%s\n' "$@" | LC_ALL=C sort)
  actual=$(LC_ALL=C sort "$file")
  if [ "$expected" != "$actual" ]; then
    echo "---- expected (sorted):" >&2
    echo "$expected" >&2
    echo "---- got (sorted, $file):" >&2
    echo "$actual" >&2
    [ -z "${ERR:-}" ] || { echo "---- stderr ($ERR):" >&2; cat "$ERR" >&2; }
    fail "unexpected output in $file"
  fi
}

# expect_progsim_program FILE: an ELF shared object (not a PIE) that carries
# the progsim_program_abi marker, i.e. what progsim-cc produces.
expect_progsim_program() {
  local file=$1 header dynamic symbols
  [ -f "$file" ] || fail "$file was not built"
  header=$(readelf -h "$file") || fail "$file is not an ELF file"
  [[ "$header" == *"DYN (Shared object file)"* ]] || fail "$file is not a shared object: $(grep Type: <<<"$header")"
  dynamic=$(readelf -d "$file")
  [[ "$dynamic" != *"FLAGS_1"*"PIE"* ]] || fail "$file is a position-independent executable, not a shared object"
  symbols=$(readelf --dyn-syms -W "$file")
  grep -qE ' progsim_program_abi$' <<<"$symbols" || fail "$file does not export the progsim_program_abi marker"
}

# runpath FILE: the DT_RUNPATH (or DT_RPATH) of FILE, empty if none.
runpath() {
  readelf -d "$1" | sed -n 's/.*(R\(UN\)\{0,1\}PATH)[^[]*\[\(.*\)\]$/\2/p'
}
