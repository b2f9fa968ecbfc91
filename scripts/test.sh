#!/usr/bin/env bash
# scripts/test.sh - check the formatting, then build and run every test:
# once in a normal build, once under AddressSanitizer + UndefinedBehavior-
# Sanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# the C tree is formatted as .clang-format says (one clang-format run)
scripts/format.sh --check
jobs=$(nproc 2>/dev/null || echo 2)
# ctest, then fail if any test was skipped (exit 77: missing data or tool):
# the test data is in tests/data (unpacked by CMake); CI has capstone and
# every tool scripts/deps.sh installs
run_ctest() {
	local log rc=0
	log=$(mktemp)
	"$@" 2>&1 | tee "$log" || rc=$?
	if grep -q -e '\*\*\*Skipped' -e '(Skipped)' "$log"; then
		echo "test.sh: tests were skipped (see above): CI runs every test" >&2
		rc=1
	fi
	rm -f "$log"
	return "$rc"
}
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
run_ctest ctest --test-dir build --output-on-failure -j"$jobs"
# -O1, as the sanitizers' own documentation advises: every access is still
# checked, and the ASan suite runs about 5x faster than at -O0 (the
# damaged-input --jobs test: 92 s -> 16 s)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
	-DETM_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	run_ctest ctest --test-dir build-asan --output-on-failure -j"$jobs"
