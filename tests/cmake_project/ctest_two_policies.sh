#!/usr/bin/env bash
# cmake_project.ctest_two_policies: an unmodified CMake MPI project
# (project/: find_package(MPI), add_test with MPIEXEC_*) configured with
# progsim as its MPI, found by FindMPI: with -DMPI_EXECUTABLE_SUFFIX=.progsim
# it finds mpiexec.progsim in PATH (or in MPI_HOME) and mpicc.progsim next to
# it; with no option at all, mpiexec and mpicc in libexec/progsim/mpi/bin
# first in PATH. MPIEXEC_PREFLAGS carries a progsim option. Its test suite then runs
# under two policies chosen by PROGSIM_PROGRESS alone: under weak, ctest
# reports shared_flag failing (a deadlock that needs strong progress) and
# ring passing; under ideal both pass.
source "$(dirname "${BASH_SOURCE[0]}")/../wrappers/common.sh"
setup "$@"
TEST_NAME=cmake_project.ctest_two_policies
CTEST=$(dirname "$CMAKE")/ctest
[ -x "$CTEST" ] || CTEST=ctest
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/project" && pwd)
cp -R "$project" "$SCRATCH/src"
unset PROGSIM_PROGRESS PROGSIM_PLATFORM PROGSIM_CFG MPI_HOME

PLAIN=$BUILD/libexec/progsim/mpi/bin  # mpiexec, mpirun, mpicc, mpicxx

# cache_value DIR NAME: NAME's value in DIR/CMakeCache.txt.
cache_value() {
  sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"
}
# expect_found DIR MPIEXEC MPICC
expect_found() {
  local dir=$1
  [ "$(cache_value "$dir" MPIEXEC_EXECUTABLE)" = "$2" ] ||
    fail "$dir: MPIEXEC_EXECUTABLE is '$(cache_value "$dir" MPIEXEC_EXECUTABLE)', not $2"
  [ "$(cache_value "$dir" MPI_C_COMPILER)" = "$3" ] ||
    fail "$dir: MPI_C_COMPILER is '$(cache_value "$dir" MPI_C_COMPILER)', not $3"
}

note "FindMPI finds progsim's launcher next to its wrapper (MPI_HOME)"
must configure-home "$CMAKE" -S "$SCRATCH/src" -B "$SCRATCH/home" -DMPI_HOME="$BUILD" -DMPI_EXECUTABLE_SUFFIX=.progsim
expect_found "$SCRATCH/home" "$BIN/mpiexec.progsim" "$BIN/mpicc.progsim"

note "... and, with no option, the plain names of libexec/progsim/mpi/bin first in PATH"
PATH="$PLAIN:$PATH" must configure-plain "$CMAKE" -S "$SCRATCH/src" -B "$SCRATCH/plain"
expect_found "$SCRATCH/plain" "$PLAIN/mpiexec" "$PLAIN/mpicc"
PATH="$PLAIN:$PATH" must build-plain "$CMAKE" --build "$SCRATCH/plain"
expect_progsim_program "$SCRATCH/plain/ring"

note "... and in PATH, with progsim options in MPIEXEC_PREFLAGS"
PATH="$BIN:$PATH" must configure "$CMAKE" -S "$SCRATCH/src" -B "$SCRATCH/build" -DMPI_EXECUTABLE_SUFFIX=.progsim \
  "-DMPIEXEC_PREFLAGS=--ranks-per-node=2"
expect_found "$SCRATCH/build" "$BIN/mpiexec.progsim" "$BIN/mpicc.progsim"
expect_file_contains "$SCRATCH/build/CTestTestfile.cmake" "$BIN/mpiexec.progsim\" \"-n\" \"2\" \"--ranks-per-node=2\"" \
  "the project's test commands"
must build "$CMAKE" --build "$SCRATCH/build"

note "ctest under weak: shared_flag deadlocks (needs strong progress), ring passes"
cd "$SCRATCH/build"
PROGSIM_PROGRESS=weak run ctest-weak "$CTEST" --output-on-failure
[ "$RC" != 0 ] || { show_output; fail "ctest passed under weak; shared_flag must fail"; }
grep -qE "ring \.+ +Passed" "$OUT" || { show_output; fail "ring did not pass under weak"; }
grep -qE "shared_flag \.+\*+Failed" "$OUT" || { show_output; fail "shared_flag did not fail under weak"; }
expect_file_contains "$OUT" "1 tests failed out of 2"
expect_file_contains "$OUT" "class: needs strong progress" "ctest's output of shared_flag"

note "ctest under ideal: both pass"
PROGSIM_PROGRESS=ideal must ctest-ideal "$CTEST" --output-on-failure
expect_file_contains "$OUT" "100% tests passed, 0 tests failed out of 2"
note "PASS"
