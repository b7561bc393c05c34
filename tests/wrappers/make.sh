#!/usr/bin/env bash
# wrappers.make: a plain Makefile project (two .c files and a header; compile
# with -c, then link with -lm; -O2 -g -DFOO=3 -I.) built with
# `make CC=progsim-cc`, then run on 2 ranks.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
cp -R "$FIXTURES/make_project" "$SCRATCH/project"
cd "$SCRATCH/project"

note "make CC=progsim-cc"
must make make CC="$BIN/progsim-cc"
cat "$OUT"
expect_file_contains "$OUT" "$BIN/progsim-cc -O2 -g -Wall -DFOO=3 -I. -c main.c -o main.o" "make's output"
grep -qE -- "progsim-cc .*-c -o stats.o stats.c" "$OUT" || fail "stats.o was not compiled by make's built-in rule with progsim-cc"
expect_file_contains "$OUT" "-o stats_demo main.o stats.o -lm" "make's output"
for o in main.o stats.o; do
  grep -q "REL (Relocatable file)" <<<"$(readelf -h "$o")" || fail "$o is not an object file"
done
expect_progsim_program stats_demo
grep -q 'NEEDED.*\[libm\.so' <<<"$(readelf -d stats_demo)" || fail "stats_demo was not linked with -lm"

note "make again: everything is up to date"
run make_q make -q CC="$BIN/progsim-cc"
[ "$RC" = 0 ] || { show_output; fail "make -q says stats_demo is out of date right after make (status $RC)"; }

note "progsim run -n 2 ./stats_demo"
must run "$BIN/progsim" run -n 2 ./stats_demo
expect_lines "$OUT" \
  "rank 0 of 2: FOO=3 mean=1.00 cbrt=3.00 calls=1" \
  "rank 1 of 2: FOO=3 mean=2.00 cbrt=6.00 calls=1"
expect_lines "$ERR" "rank 0 done" "rank 1 done"

note "PASS"
