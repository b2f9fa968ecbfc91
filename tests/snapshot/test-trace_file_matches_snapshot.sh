#!/usr/bin/env bash
# tests/snapshot/test-trace_file_matches_snapshot.sh - every shared capture
# decoded three ways gives the same for each trace ID: as a snapshot, as its
# trace file with --id and the registers of its .ini files, and as its trace
# file with --id and only the core's memory as image (tests/cli/
# same_as_snapshot.sh). Before, TC2's cstrace.bin with --id decoded 3666 of
# 0x10's 7205 instructions with errors, and listed 33 packets for 0x14, a
# source with no data: every frame of the other sources was taken for lost
# alignment.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cli/same_as_snapshot.sh"
SH=${ETM_SHARED:-}/snapshots
if [ ! -d "$SH/TC2" ] || [ ! -d "$SH/trace_cov_a15" ] || [ ! -d "$SH/am243x-freertos-1" ]; then
	echo "shared snapshots missing: skip"
	exit 77
fi
same_as_snapshot "$SH/TC2" "TC2"
check "[ '$sources' = ' 10 11 12 13 14' ]" "TC2: the five sources 0x10-0x14 compared"
"$ETMTRACE" packets "$SH/TC2/cstrace.bin" --id 14 > "$tmp/p14" 2> /dev/null
check "[ ! -s '$tmp/p14' ] || ! grep -q '0x14' '$tmp/p14'" "TC2 cstrace.bin --id 14: no packet for a source without data"
same_as_snapshot "$SH/trace_cov_a15" "trace_cov_a15"
check "[ '$sources' = ' 02' ]" "trace_cov_a15: its one decoded source compared"
same_as_snapshot "$SH/am243x-freertos-1" "am243x-freertos-1"
check "[ '$sources' = ' 10' ]" "am243x-freertos-1: its source compared"
finish
