#!/bin/bash
# The MPI model's folders depend downwards only: nothing below the bindings
# includes them (the layers take a core/CallContext instead), and the pure
# engines include nothing of the model around them (datatype/ nothing,
# ops/ only datatype/). The
# rank runtime (sim/) not knowing MPI is enforced by the build itself
# (progsim_sim's include root, sim/CMakeLists.txt).
# Usage: model_layers.sh SOURCE_DIR
set -u
cd "$1/mpi_model" || exit 2
status=0
report() { echo "$1"; status=1; }
while IFS= read -r hit; do
  report "below the bindings, includes a binding header: $hit"
done < <(grep -rn '#include "bindings/' --include=*.cpp --include=*.hpp . | grep -v '^\./bindings/')
engine_includes() {  # ENGINE ALLOWED_PATTERN
  while IFS= read -r hit; do
    report "$1/ is a pure engine, but includes the model: $hit"
  done < <(grep -rn '#include "' "$1" | grep -Ev "#include \"($2)/")
}
engine_includes datatype datatype
engine_includes ops 'ops|datatype'
[ $status = 0 ] && echo "mpi_model layers: bindings on top, engines self-contained"
exit $status
