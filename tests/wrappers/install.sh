#!/usr/bin/env bash
# wrappers.install: `cmake --install BUILD --prefix PREFIX` gives a tree that
# works without the build tree: PREFIX/bin/progsim-cc compiles against
# PREFIX/include/progsim and links against PREFIX/lib (RUNPATH), and
# PREFIX/bin/progsim runs the program with PREFIX's library and platforms;
# the mpiexec drop-in and FindMPI's names are relative links in PREFIX/bin,
# with the man pages and the bash completion; DESTDIR stages the same tree.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
prefix=$SCRATCH/prefix
cp "$FIXTURES/hello.c" "$SCRATCH/"
cd "$SCRATCH"
unset LD_LIBRARY_PATH

# Directories of the build tree that the install tree must not refer to (the
# scratch directory may itself lie in the build tree, under tests/).
build_dirs=()
for root in "$BUILD" "$(cd "$BUILD" && pwd -P)"; do
  for sub in bin lib include share; do build_dirs+=("$root/$sub"); done
done
# expect_no_build_tree FILE WHAT
expect_no_build_tree() {
  local dir
  for dir in "${build_dirs[@]}"; do
    if grep -qF -- "$dir" "$1"; then
      grep -nF -- "$dir" "$1" | head -5 >&2
      fail "$2 refers to the build tree ($dir)"
    fi
  done
}

note "cmake --install"
must install "$CMAKE" --install "$BUILD" --prefix "$prefix"
for f in bin/progsim bin/progsim-cc bin/progsim-cxx; do
  [ -x "$prefix/$f" ] || fail "$prefix/$f was not installed (or is not executable)"
done
for f in include/progsim/mpi.h share/progsim/platforms/cluster-128.xml lib/libprogsim_program.a lib/libprogsim.so; do
  [ -f "$prefix/$f" ] || fail "$prefix/$f was not installed"
done
prefix_real=$(cd "$prefix" && pwd -P)

note "the mpiexec drop-in, FindMPI's names, man pages and completion"
# expect_relative_link FILE TARGET
expect_relative_link() {
  [ -L "$1" ] || fail "$1 is not a link"
  [ "$(readlink "$1")" = "$2" ] || fail "$1 points to '$(readlink "$1")', expected '$2' (relative)"
  [ -e "$1" ] || fail "$1 is a dangling link"
}
expect_relative_link "$prefix/bin/progsim-mpiexec" progsim
expect_relative_link "$prefix/bin/mpiexec.progsim" progsim
expect_relative_link "$prefix/bin/mpicc.progsim" progsim-cc
expect_relative_link "$prefix/bin/mpicxx.progsim" progsim-cxx
expect_relative_link "$prefix/libexec/progsim/mpi/bin/mpiexec" ../../../../bin/progsim
expect_relative_link "$prefix/libexec/progsim/mpi/bin/mpirun" ../../../../bin/progsim
expect_relative_link "$prefix/libexec/progsim/mpi/bin/mpicc" ../../../../bin/progsim-cc
expect_relative_link "$prefix/libexec/progsim/mpi/bin/mpicxx" ../../../../bin/progsim-cxx
for f in progsim progsim-mpiexec progsim-cc progsim-cxx; do
  [ -f "$prefix/share/man/man1/$f.1" ] || fail "share/man/man1/$f.1 was not installed"
done
[ -f "$prefix/share/bash-completion/completions/progsim" ] || fail "the bash completion was not installed"
expect_relative_link "$prefix/share/bash-completion/completions/progsim-mpiexec" progsim

note "DESTDIR=STAGE cmake --install --prefix /opt/progsim: everything under STAGE/opt/progsim"
stage=$SCRATCH/stage
DESTDIR=$stage must install-destdir "$CMAKE" --install "$BUILD" --prefix /opt/progsim
for f in bin/progsim bin/progsim-cc bin/progsim-mpiexec bin/mpicc.progsim share/man/man1/progsim-mpiexec.1 \
         share/bash-completion/completions/progsim lib/libprogsim.so include/progsim/mpi.h; do
  [ -e "$stage/opt/progsim/$f" ] || fail "DESTDIR install: $stage/opt/progsim/$f is missing"
done
(cd "$stage" && find . -type f -o -type l) | grep -v '^\./opt/progsim/' && fail "DESTDIR install wrote outside STAGE/opt/progsim"

note "installed files do not refer to the build tree"
for f in bin/progsim-cc bin/progsim-cxx share/man/man1/progsim-mpiexec.1 share/man/man1/progsim-cc.1; do
  expect_no_build_tree "$prefix/$f" "$f"
done
[ "$(runpath "$prefix/bin/progsim")" = '$ORIGIN/../lib' ] ||
  fail "bin/progsim has RUNPATH '$(runpath "$prefix/bin/progsim")', expected \$ORIGIN/../lib"
for f in bin/progsim lib/libprogsim.so; do
  runpath "$prefix/$f" >"$SCRATCH/runpath.txt"
  expect_no_build_tree "$SCRATCH/runpath.txt" "the RUNPATH of $f"
done

note "PREFIX/bin/progsim-cc"
must show "$prefix/bin/progsim-cc" -show hello.c -o hello
line=$(cat "$OUT")
expect_word "$line" "-I$prefix/include/progsim"
expect_word "$line" "$prefix/lib/libprogsim_program.a"
expect_word "$line" "-Wl,-rpath,$prefix/lib"
expect_no_build_tree "$OUT" "progsim-cc -show"
must compile "$prefix/bin/progsim-cc" -O1 hello.c -o hello
expect_progsim_program hello
[ "$(runpath hello)" = "$prefix/lib" ] || fail "hello has RUNPATH '$(runpath hello)', expected $prefix/lib"
must ldd ldd ./hello
grep -q "not found" "$OUT" && { show_output; fail "hello has unresolved libraries"; }
grep -qE "libprogsim\.so\.0 => ($prefix|$prefix_real)/lib/libprogsim\.so\.0 " "$OUT" ||
  { show_output; fail "hello does not resolve libprogsim.so.0 in $prefix/lib"; }
expect_no_build_tree "$OUT" "ldd ./hello"

note "PREFIX/bin/progsim run -n 2"
LD_DEBUG=libs must run "$prefix/bin/progsim" run -n 2 --report report.json ./hello
# With LD_DEBUG=libs the dynamic loader logs to stderr what it searched and
# loaded: nothing may come from the build tree.
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"
expect_no_build_tree "$ERR" "the loader log of progsim run"
loaded=$(sed -n 's/.*calling init: \(.*libprogsim\.so[.0-9]*\)$/\1/p' "$ERR" | head -1)
[ -n "$loaded" ] || { show_output; fail "the loader log does not show libprogsim.so being loaded"; }
[ "$(realpath "$loaded")" = "$(realpath "$prefix/lib/libprogsim.so")" ] ||
  fail "progsim loaded $loaded, not the installed $prefix/lib/libprogsim.so"
platform=$(grep -o '"platform": *"[^"]*"' report.json | sed 's/.*: *"\(.*\)"/\1/')
[ -n "$platform" ] || fail "no platform in report.json"
[ "$(realpath "$platform")" = "$prefix_real/share/progsim/platforms/cluster-128.xml" ] ||
  fail "progsim used the platform $platform, not the installed one"

note "PREFIX/bin/progsim-mpiexec -n 2 and PREFIX/bin/mpiexec.progsim"
must mpiexec "$prefix/bin/progsim-mpiexec" -n 2 ./hello
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"
must mpiexec-suffix "$prefix/bin/mpiexec.progsim" -n 2 ./hello
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"

note "PREFIX/libexec/progsim/mpi/bin: mpicc and mpiexec by their plain names"
must plain-show "$prefix/libexec/progsim/mpi/bin/mpicc" -show hello.c -o hello
expect_word "$(cat "$OUT")" "-I$prefix/include/progsim"
must plain-mpiexec "$prefix/libexec/progsim/mpi/bin/mpiexec" -n 2 ./hello
expect_lines "$OUT" "hello from rank 0 of 2" "hello from rank 1 of 2"

note "./hello run directly: the installed progsim (PREFIX/lib/../bin) runs it on one rank"
LD_DEBUG=libs must direct env PATH=/nonexistent ./hello
expect_lines "$OUT" "hello from rank 0 of 1"
expect_no_build_tree "$ERR" "the loader log of ./hello"

note "PASS"
