#!/usr/bin/env bash
# The README's first command: install what is missing, build progsim, and run
# a bundled example (hello world on 4 simulated nodes, with a JSON report).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
mkdir -p build/examples
build/bin/progsim-cc -g examples/hello/hello.c -o build/examples/hello
echo "+ build/bin/progsim run -n 4 --report build/examples/hello.json build/examples/hello"
build/bin/progsim run -n 4 --report build/examples/hello.json build/examples/hello
echo "report: build/examples/hello.json"
