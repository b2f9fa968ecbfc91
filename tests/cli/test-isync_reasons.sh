#!/usr/bin/env bash
# tests/cli/test-isync_reasons.sh - the first sync
# shows the I-sync's own reason (it was always "trace on (start)"), and
# jsonl names the reasons. The sample's first I-sync is a trace-on I-sync
# (examples/sample/README.txt: I-sync reason 01); the am243x capture starts
# at a periodic I-sync and restarts after a debug halt with a debug-exit
# I-sync (doc/design.md, tests/snapshot/test-decode-etm3.sh).
. "$(dirname "$0")/lib.sh"
"$ETMTRACE" decode "$S" > "$tmp/t"
check "grep -q '^-- trace on (start, I-sync: trace enabled) at 0x00008000' '$tmp/t'" "sample: first sync names the I-sync reason"
"$ETMTRACE" decode "$S" --format jsonl > "$tmp/j"
check "grep -q '\"kind\":\"trace_on\",\"reason\":0,\"reason_name\":\"start\",\"isync\":\"trace enabled\"' '$tmp/j'" "jsonl names both reasons"
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
if [ -d "$am" ]; then
	"$ETMTRACE" decode "$am" > "$tmp/a" 2>/dev/null
	check "grep -q '^-- trace on (start, I-sync: periodic)' '$tmp/a' && grep -q '^-- trace on (debug exit, I-sync: debug exit)' '$tmp/a'" "am243x: periodic first sync, debug-exit restart"
fi
finish
