#!/bin/bash
# Every collective algorithm of the registry (mpi_model/coll/Registry.hpp),
# read from `progsim run --cfg help`, so that a new row is tested without
# editing this file:
#   coll_registry.sh DRIVER PROGSIM PROGRAM DOCS blocking|nonblocking|persistent
#       forces each algorithm in turn (--cfg coll-<name>=<algorithm>) on 4
#       ranks; PROGRAM (coll_algorithms) checks the results of every
#       collective in that form, with the calls every algorithm serves.
#   ... n7      the same on 7 ranks (nonblocking), where a forced algorithm
#       may not apply (recursive_doubling allgather): such a run must end
#       with the error that says so (exit status 2), any other must complete.
#   ... docs    DOCS (docs/design/collectives.md) lists exactly the
#       registry's algorithms, one table row each: | `coll-<name>` | `<algorithm>` | ...
set -u
driver=$1 progsim=$2 program=$3 docs=$4 what=$5
failures=0
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT && cd "$work" || exit 1
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# "coll-allreduce recursive_doubling" per line, in the registry's order.
rows=$("$progsim" run --cfg help | awk '
  /^  coll-/ { key = $1; next }
  key != "" && key != "coll-sync" && match($0, /\[[^]]*\]$/) {
    n = split(substr($0, RSTART + 1, RLENGTH - 2), c, "|")
    for (i = 1; i <= n; ++i) if (c[i] != "auto") print key, c[i]
  }
  { key = "" }')
[ "$(echo "$rows" | wc -l)" -ge 20 ] || { echo "FAIL: too few algorithms read from --cfg help:"; echo "$rows"; exit 1; }

case $what in
  blocking|nonblocking|persistent)
    while read -r key algorithm; do
      "$driver" --progsim "$progsim" --expect-outcome completed --expect-exit 0 \
        --stdout-regex "rank 0: coll_algorithms ok" --stdout-regex "rank 3: coll_algorithms ok" \
        -- -n 4 --cfg "$key=$algorithm" "$program" "$what" every-algorithm > out.txt 2>&1 \
        || { cat out.txt; fail "$key=$algorithm, $what, 4 ranks"; }
    done <<< "$rows"
    ;;
  n7)
    while read -r key algorithm; do
      "$progsim" run -n 7 --cfg "$key=$algorithm" "$program" nonblocking every-algorithm > out.txt 2> err.txt
      status=$?
      if [ $status -eq 2 ] && grep -q "^progsim: rank [0-9]*: MPI_[A-Za-z_]* at .*: --cfg $key=$algorithm does not apply to this call: " err.txt; then
        echo "not applicable on 7 ranks: $key=$algorithm: $(grep -o 'does not apply to this call: [^(]*' err.txt | head -1)"
      elif [ $status -ne 0 ] || ! grep -q "rank 6: coll_algorithms ok" out.txt; then
        cat out.txt err.txt
        fail "$key=$algorithm, 7 ranks: exit status $status"
      fi
    done <<< "$rows"
    ;;
  docs)
    listed=$(sed -n 's/^| `\(coll-[a-z-]*\)` | `\([a-z_]*\)` |.*/\1 \2/p' "$docs")
    [ "$listed" = "$rows" ] || { diff <(echo "$rows") <(echo "$listed"); fail "$docs does not list the registry's algorithms (< registry, > docs)"; }
    ;;
  *) echo "unknown test $what"; exit 2 ;;
esac
echo "$(echo "$rows" | wc -l) algorithms, $failures failure(s)"
[ $failures -eq 0 ]
