#!/usr/bin/env bash
# wrappers.not_built_with_progsim_cc: progsim run refuses, with exit status 2
# and a message naming progsim-cc, programs built without our wrappers:
# ordinary executables (PIE and non-PIE, plain or linked against
# libprogsim.so) and shared objects built with cc -shared -fPIC.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
cp "$FIXTURES/not_progsim/plain.c" "$FIXTURES/hello.c" "$SCRATCH/"
cd "$SCRATCH"
cc=cc  # the system compiler, as a user would call it

# expect_refused PROGRAM: progsim run -n 2 PROGRAM exits 2, says the program
# is not built with progsim-cc, and runs nothing of it.
expect_refused() {
  run "refuse-$1" "$BIN/progsim" run -n 2 "./$1"
  [ "$RC" = 2 ] || { show_output; fail "progsim run ./$1 exited with $RC, expected 2"; }
  grep -qE "not (a program )?built with progsim-cc" "$ERR" ||
    { show_output; fail "progsim run ./$1 does not say that it is not built with progsim-cc"; }
  expect_file_contains "$ERR" "rebuild it with progsim-cc" "the error for ./$1"
  [ ! -s "$OUT" ] || { show_output; fail "progsim run ./$1 ran the program"; }
}

note "ordinary executables built with $cc"
must cc-pie "$cc" plain.c -o plain
expect_refused plain
must cc-no-pie "$cc" -no-pie plain.c -o plain_no_pie
grep -q "EXEC (Executable file)" <<<"$(readelf -h plain_no_pie)" || fail "plain_no_pie is not a non-PIE executable"
expect_refused plain_no_pie
# The usual mistake: compiled against our mpi.h, linked to libprogsim.so,
# but as an executable.
must cc-mpi-exe "$cc" "-I$BUILD/include/progsim" hello.c -o hello_exe "-L$BUILD/lib" "-Wl,-rpath,$BUILD/lib" -lprogsim
expect_refused hello_exe

note "shared objects built with $cc -shared -fPIC"
must cc-shared "$cc" -shared -fPIC plain.c -o plain.so
expect_refused plain.so
must cc-mpi-shared "$cc" -shared -fPIC "-I$BUILD/include/progsim" hello.c -o hello_nomarker.so \
  "-L$BUILD/lib" "-Wl,-rpath,$BUILD/lib" -lprogsim
expect_refused hello_nomarker.so
expect_file_contains "$ERR" "progsim_program_abi" "the error for ./hello_nomarker.so"

note "the same hello built with progsim-cc runs"
must progsim-cc "$BIN/progsim-cc" hello.c -o hello
must run-hello "$BIN/progsim" run -n 2 ./hello
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"

note "PASS"
