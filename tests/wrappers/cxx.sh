#!/usr/bin/env bash
# wrappers.cxx: a C++17 program (templates, std::vector, iostream) compiled
# and linked in two steps with progsim-cxx, run on 3 ranks.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
cp "$FIXTURES/cxx/templates.cpp" "$SCRATCH/"
cd "$SCRATCH"

note "progsim-cxx -std=c++17 -c, then link"
must compile "$BIN/progsim-cxx" -std=c++17 -O2 -Wall -Wextra -c templates.cpp -o templates.o
grep -q "REL (Relocatable file)" <<<"$(readelf -h templates.o)" || fail "templates.o is not an object file"
must link "$BIN/progsim-cxx" -O2 templates.o -o templates
expect_progsim_program templates
grep -q 'NEEDED.*\[libstdc++\.so' <<<"$(readelf -d templates)" || fail "templates was not linked with the C++ runtime"

note "progsim run -n 3 ./templates"
must run "$BIN/progsim" run -n 3 ./templates
# names=3 on every rank: each rank has its own copy of the global registry.
expect_lines "$OUT" \
  "rank 0 of 3: sum=1 [1..1] real 0.500000, integer 3, names=3" \
  "rank 1 of 3: sum=3 [1..2] real 1.500000, integer 3, names=3" \
  "rank 2 of 3: sum=6 [1..3] real 3.000000, integer 3, names=3"
[ ! -s "$ERR" ] || { show_output; fail "unexpected output on stderr"; }

note "PASS"
