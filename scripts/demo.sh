#!/usr/bin/env bash
# scripts/demo.sh - install what is missing, build, and decode the built-in
# sample (examples/sample) into an annotated instruction listing.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "== etmtrace info examples/sample"
build/etmtrace info examples/sample
echo
echo "== etmtrace decode examples/sample"
build/etmtrace decode examples/sample
