#!/usr/bin/env bash
# wrappers.cmake_mpi_c_compiler: CMake projects that use progsim like any MPI:
#   1. find_package(MPI REQUIRED COMPONENTS C) + MPI::MPI_C, configured with
#      -DMPI_C_COMPILER=progsim-cc (FindMPI interrogates the wrapper);
#   2. -DCMAKE_C_COMPILER=progsim-cc, no find_package;
#   3. -DCMAKE_C_COMPILER=progsim-cc with find_package(MPI) (FindMPI sees
#      that the compiler itself builds MPI programs).
# Each built program must be a progsim program that runs on 2 ranks.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
cd "$SCRATCH"

# configure_and_build NAME SOURCE_DIR CMAKE_OPTIONS...: into $SCRATCH/NAME.
configure_and_build() {
  local name=$1 source=$2
  shift 2
  cp -R "$source" "$SCRATCH/$name-src"
  must "$name-configure" "$CMAKE" -S "$SCRATCH/$name-src" -B "$SCRATCH/$name" "$@"
  must "$name-build" "$CMAKE" --build "$SCRATCH/$name" --verbose
}

# The sleep(2) in app.c is simulated: 2.0 s of simulated time per rank.
check_find_mpi_programs() {
  local dir=$1
  expect_progsim_program "$dir/app"
  expect_progsim_program "$dir/app_stdio"
  [[ ":$(runpath "$dir/app"):" == *":$BUILD/lib:"* ]] || fail "$dir/app: RUNPATH '$(runpath "$dir/app")' lacks $BUILD/lib"
  must "$(basename "$dir")-run-app" "$BIN/progsim" run -n 2 "$dir/app"
  expect_lines "$OUT" "rank 0 of 2 slept 2.0 s" "rank 1 of 2 slept 2.0 s"
  must "$(basename "$dir")-run-app_stdio" "$BIN/progsim" run -n 2 "$dir/app_stdio"
  expect_lines "$OUT" "rank 0 on stdout" "rank 1 on stdout"
  expect_lines "$ERR" "rank 0 on stderr" "rank 1 on stderr"
}

note "1. find_package(MPI) with -DMPI_C_COMPILER=progsim-cc"
configure_and_build find_mpi "$FIXTURES/cmake_find_mpi" -DMPI_C_COMPILER="$BIN/progsim-cc"
log=$SCRATCH/find_mpi-configure.out
expect_file_contains "$log" "Found MPI_C:" "the configure log"
expect_file_contains "$log" "MPI_C_COMPILER=$BIN/progsim-cc MPI_C_VERSION=4.1" "the configure log"
cache=$SCRATCH/find_mpi/CMakeCache.txt
grep -q "^CMAKE_C_COMPILER:.*=$BIN/progsim-cc$" "$cache" && fail "variant 1 should compile with the plain compiler"
check_find_mpi_programs "$SCRATCH/find_mpi"

note "2. -DCMAKE_C_COMPILER=progsim-cc, no find_package"
configure_and_build compiler "$FIXTURES/cmake_compiler" -DCMAKE_C_COMPILER="$BIN/progsim-cc"
expect_file_contains "$SCRATCH/compiler-build.out" "$BIN/progsim-cc" "the build log"
expect_progsim_program "$SCRATCH/compiler/app"
must compiler-run "$BIN/progsim" run -n 2 "$SCRATCH/compiler/app"
expect_lines "$OUT" "greetings from rank 0 of 2" "greetings from rank 1 of 2"
expect_lines "$ERR" "rank 0 on stderr" "rank 1 on stderr"

note "3. -DCMAKE_C_COMPILER=progsim-cc with find_package(MPI)"
configure_and_build compiler_find_mpi "$FIXTURES/cmake_find_mpi" -DCMAKE_C_COMPILER="$BIN/progsim-cc"
expect_file_contains "$SCRATCH/compiler_find_mpi-configure.out" "Found MPI_C:" "the configure log"
check_find_mpi_programs "$SCRATCH/compiler_find_mpi"

note "PASS"
