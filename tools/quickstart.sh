#!/usr/bin/env bash
# The README's first command: install what is missing, build progsim, and run
# the bundled examples: hello world on 4 simulated nodes, then the
# Bsend-then-sleep example of the MPI progress rules under the weak and the
# ideal progress policies, with JSON reports.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
mkdir -p build/examples
build/bin/progsim-cc -g examples/hello/hello.c -o build/examples/hello
build/bin/progsim-cc -g examples/bsend_then_sleep/bsend_sleep.c -o build/examples/bsend_sleep
set -x
build/bin/progsim run -n 4 --report build/examples/hello.json build/examples/hello
build/bin/progsim run -n 2 --progress weak --report build/examples/bsend_weak.json build/examples/bsend_sleep
build/bin/progsim run -n 2 --progress ideal --report build/examples/bsend_ideal.json build/examples/bsend_sleep
