#!/usr/bin/env bash
# The README's second command (and what CI runs): build progsim with
# warnings as errors and run the whole test suite (unit tests, program
# tests, wrapper tests).
#   --sanitize   also build and run the same suite under AddressSanitizer +
#                UndefinedBehaviorSanitizer (build-asan/)
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    *) echo "run-tests: unknown option $arg (only --sanitize)" >&2; exit 2 ;;
  esac
done
tools/install-deps.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROGSIM_WERROR=ON
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "$sanitize" = 1 ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPROGSIM_SANITIZE=ON -DPROGSIM_WERROR=ON
  cmake --build build-asan -j"$jobs"
  # detect_leaks=0: SimGrid keeps its global state until exit. log_path:
  # ASan warns once per process about the coroutine stacks it cannot track
  # (with its pid: runs would differ); reports go to build-asan/sanitizer-logs/
  # and an error still fails its test (non-zero exit). verify_asan_link_order=0:
  # a progsim program run directly (wrappers.run_directly) loads the
  # instrumented libprogsim before re-executing itself under progsim.
  mkdir -p build-asan/sanitizer-logs
  ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0:verify_asan_link_order=0:log_path=$PWD/build-asan/sanitizer-logs/asan \
  UBSAN_OPTIONS=print_stacktrace=1:log_path=$PWD/build-asan/sanitizer-logs/ubsan \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi
