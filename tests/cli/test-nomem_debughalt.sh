#!/usr/bin/env bash
# tests/cli/test-nomem_debughalt.sh - "memory not
# accessible" says what it means (was a bare "(?)"), and a debug halt is
# shown without a vector (it has none: the core halts; ETMv3 exception 1 on
# A/R profiles).
. "$(dirname "$0")/lib.sh"
"$ETMTRACE" decode "$S/trace.bin" --protocol ptm --etmcr 0x10001000 --etmccer 0x34C01AC2 --image "$S/vectors.bin@0" > "$tmp/t" 2>/dev/null   # no code image
check "grep -q '^-- memory not accessible at 0x00008000 (.*): no image there, resuming at the next address' '$tmp/t' && ! grep -q '(?)' '$tmp/t'" "nomem line explained"
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
if [ -d "$am" ]; then
	"$ETMTRACE" decode "$am" > "$tmp/a" 2>/dev/null
	check "grep -q '^-- exception DebugHalt (1) cancels last instruction: core halted in debug state, return 0x700a53e2' '$tmp/a' && ! grep -q 'DebugHalt.*->' '$tmp/a'" "debug halt: no vector shown"
fi
finish
