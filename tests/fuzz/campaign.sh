#!/usr/bin/env bash
# tests/fuzz/campaign.sh - run the libFuzzer targets one after the other
# (one job: the machine is shared), each for a number of executions, growing
# a work corpus seeded from tests/fuzz/corpus. Crashes land in OUT/crashes.
# Usage: campaign.sh BUILD_DIR OUT_DIR [target[:runs[:max_len[:seconds]]] ...]
# (seconds: -max_total_time as well, whichever ends first; runs -1: no limit).
# ASAN_EXTRA is appended to ASAN_OPTIONS (e.g. quarantine_size_mb=32).
set -euo pipefail
build=${1:?build dir (configured with CC=clang -DETM_FUZZ=ON -DETM_SANITIZE=ON)}
out=${2:?output dir}
shift 2
src=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	targets=(dfmt:10000000:256 etm3_pkt:30000000:256 ptm_pkt:30000000:256
		 flow_etm3:10000000:512 flow_ptm:10000000:512 ini:10000000:512
		 elf:10000000:512)
fi
mkdir -p "$out/crashes"
for spec in "${targets[@]}"; do
	IFS=: read -r t runs maxlen secs <<<"$spec"
	runs=${runs:-10000000}
	maxlen=${maxlen:-512}
	secs=${secs:-0}
	mkdir -p "$out/work-$t"
	echo "== $t: $runs runs, max_len $maxlen, ${secs}s ($(date +%T))"
	rc=0
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1${ASAN_EXTRA:+:$ASAN_EXTRA} \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$build/tests/fuzz/fuzz-$t" -runs="$runs" -max_len="$maxlen" \
		-max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$out/crashes/$t-" \
		"$out/work-$t" "$src/corpus/$t" >"$out/$t.log" 2>&1 || rc=$?
	grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec" \
		"$out/$t.log" || true
	echo "   exit $rc"
done
