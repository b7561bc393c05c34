#!/usr/bin/env bash
# abi.exports: libprogsim defines every procedure mpi.h declares, as MPI_name
# and PMPI_name, so that any program written against mpi.h links (procedures
# not modelled yet report MPI_ERR_UNSUPPORTED_OPERATION when called).
set -euo pipefail
build=$1
header=$build/include/progsim/mpi.h
lib=$build/lib/libprogsim.so
declared=$(grep -oE '^PROGSIM_DECL\([a-zA-Z_ ]+\*?, [A-Za-z0-9_]+' "$header" | sed -E 's/.*, //' | sort -u)
[ "$(echo "$declared" | wc -l)" -gt 400 ] || { echo "FAIL: found too few declarations in $header"; exit 1; }
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
missing=0
for name in $declared; do
  for prefix in MPI_ PMPI_; do
    if ! grep -qx "$prefix$name" <<<"$exported"; then
      echo "FAIL: $lib does not export $prefix$name"
      missing=$((missing + 1))
    fi
  done
done
[ "$missing" = 0 ] || exit 1
echo "PASS: $(echo "$declared" | wc -l) procedures exported as MPI_ and PMPI_"
