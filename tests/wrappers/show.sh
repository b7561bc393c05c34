#!/usr/bin/env bash
# wrappers.show: what progsim-cc and progsim-cxx print with -show,
# -compile-info and -link-info (mpicc's options), --help, the error without
# input files, and that the printed command and a -v build give real programs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
cd "$SCRATCH"

cache_value() {
  sed -n "s/^$1:[A-Z]*=//p" "$BUILD/CMakeCache.txt"
}
c_compiler=$(cache_value CMAKE_C_COMPILER)
cxx_compiler=$(cache_value CMAKE_CXX_COMPILER)
[ -n "$c_compiler" ] && [ -n "$cxx_compiler" ] || fail "no CMAKE_C_COMPILER/CMAKE_CXX_COMPILER in $BUILD/CMakeCache.txt"
incdir=$BUILD/include/progsim
libdir=$BUILD/lib

# one_line FILE: the single line of FILE (fails on anything else).
one_line() {
  [ "$(wc -l <"$1")" = 1 ] || { show_output; fail "expected one line of output in $1"; }
  cat "$1"
}

note "compile only: -show -c x.c"
must show_compile "$BIN/progsim-cc" -show -c x.c
line=$(one_line "$OUT")
[ "${line%% *}" = "$c_compiler" ] || fail "progsim-cc should run the C compiler $c_compiler: $line"
for w in "-I$incdir" -fPIC -c x.c; do expect_word "$line" "$w"; done
expect_no_substring "$line" -shared
expect_no_substring "$line" -lprogsim
[ ! -e x.c ] && [ ! -e x.o ] || fail "-show must not run the compiler"

note "compile and link: -show x.c -o x"
must show_link "$BIN/progsim-cc" -show x.c -o x
line=$(one_line "$OUT")
[ "${line%% *}" = "$c_compiler" ] || fail "progsim-cc should link with $c_compiler: $line"
for w in "-I$incdir" -fPIC x.c -o x -shared -Wl,-Bsymbolic "$libdir/libprogsim_program.a" \
  "-L$libdir" "-Wl,-rpath,$libdir" -lprogsim; do
  expect_word "$line" "$w"
done
for fn in sleep usleep nanosleep exit gettimeofday clock_gettime time; do
  expect_word "$line" "-Wl,--wrap=$fn"
done
# Build systems parse this output (CMake's FindMPI among them): plain words,
# no shell escapes such as -Wl\,-rpath\,DIR.
expect_no_substring "$line" '\'

note "mpicc-style -compile-info, -link-info and bare -show"
must compile_info "$BIN/progsim-cc" -compile-info
line=$(one_line "$OUT")
[ "${line%% *}" = "$c_compiler" ] || fail "-compile-info: $line"
expect_word "$line" "-I$incdir"
expect_no_substring "$line" -shared
expect_no_substring "$line" -lprogsim
for query in -link-info -show; do
  must "link_info$query" "$BIN/progsim-cc" "$query"
  line=$(one_line "$OUT")
  for w in "-I$incdir" -shared -lprogsim "-Wl,-rpath,$libdir" -Wl,--wrap=sleep; do expect_word "$line" "$w"; done
done

note "progsim-cxx uses the C++ compiler $cxx_compiler"
[ "$cxx_compiler" != "$c_compiler" ] || fail "the build's C and C++ compilers are the same ($c_compiler)"
must show_cxx "$BIN/progsim-cxx" -show x.cpp -o x
line=$(one_line "$OUT")
[ "${line%% *}" = "$cxx_compiler" ] || fail "progsim-cxx should run $cxx_compiler: $line"
for w in "-I$incdir" -fPIC x.cpp -shared -lprogsim -Wl,--wrap=sleep; do expect_word "$line" "$w"; done
must show_cxx_compile "$BIN/progsim-cxx" -show -c x.cpp
line=$(one_line "$OUT")
[ "${line%% *}" = "$cxx_compiler" ] || fail "progsim-cxx -c should run $cxx_compiler: $line"
expect_no_substring "$line" -shared
PROGSIM_CXX=/opt/other/g++ must show_cxx_env "$BIN/progsim-cxx" -show x.cpp
line=$(one_line "$OUT")
[ "${line%% *}" = /opt/other/g++ ] || fail "PROGSIM_CXX should select the compiler: $line"

note "--help"
for wrapper in progsim-cc progsim-cxx; do
  run "help_$wrapper" "$BIN/$wrapper" --help
  [ "$RC" = 0 ] || { show_output; fail "$wrapper --help exited with $RC"; }
  expect_file_contains "$OUT" "Usage: $wrapper" "$wrapper --help"
  expect_file_contains "$OUT" "-show" "$wrapper --help"
done

note "no input files"
run no_input "$BIN/progsim-cc"
[ "$RC" != 0 ] || { show_output; fail "progsim-cc without arguments exited with 0"; }
expect_file_contains "$ERR" "no input files" "the stderr of progsim-cc without arguments"

note "--version asks the compiler"
must version "$BIN/progsim-cc" --version
[ -s "$OUT" ] || fail "progsim-cc --version printed nothing"
"$c_compiler" --version >"$SCRATCH/compiler_version.out"
cmp -s "$OUT" "$SCRATCH/compiler_version.out" || fail "progsim-cc --version differs from $c_compiler --version"

note "the command -show prints is the one that builds the program"
cp "$FIXTURES/hello.c" .
must show_hello "$BIN/progsim-cc" -show -O1 hello.c -o hello_shown
command=$(one_line "$OUT")
must build_shown bash -c "$command"
expect_progsim_program hello_shown
must run_shown "$BIN/progsim" run -n 2 ./hello_shown
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"

note "-v with a source file is a verbose progsim build, not a plain compile"
must verbose "$BIN/progsim-cc" -v hello.c -o hello_verbose
expect_progsim_program hello_verbose
expect_file_contains "$ERR" "libprogsim_program.a" "the -v output of the link"
must run_verbose "$BIN/progsim" run -n 2 ./hello_verbose
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"

note "PASS"
