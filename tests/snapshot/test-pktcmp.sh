#!/bin/bash
# tests/snapshot/test-pktcmp.sh - real-data check of the packet parsers: the
# CLI's jsonl packet listing vs OpenCSD's (TC2 0x10-0x13, trace_cov_a15).
set -u
: "${ETMTRACE:?set ETMTRACE to the etmtrace CLI}"
: "${ETM_SHARED:?set ETM_SHARED to the shared reference directory}"

S=$ETM_SHARED
for f in snapshots/TC2/snapshot.ini snapshots/trace_cov_a15/PTM_0_2.bin \
	 reference/TC2/0x10.decode.txt reference/trace_cov_a15/0x02.decode.txt \
	 tools/pktcmp.py; do
	[ -e "$S/$f" ] || { echo "skip: $S/$f missing"; exit 77; }
done
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

# check NAME SNAPSHOT ID REFERENCE [PKTCMP-ID]
check() {
	"$ETMTRACE" packets "$S/snapshots/$2" --id "$3" --format jsonl \
		>"$T/$1.jsonl"
	rc=$?
	# exit 1 only reports packet errors; anything else is a failure
	if [ $rc -gt 1 ] || [ ! -s "$T/$1.jsonl" ]; then
		echo "FAIL $1: etmtrace packets exit $rc"
		fail=1
		return
	fi
	python3 "$S/tools/pktcmp.py" "$S/reference/$4" "$T/$1.jsonl" \
		${5:+--id $5} >"$T/$1.cmp"
	rc=$?
	res=$(tail -n 1 "$T/$1.cmp")
	echo "$1: $res"
	case "$res" in
	"packets 1.000000 ("*"), extra 0") [ $rc -eq 0 ] || fail=1 ;;
	*) cat "$T/$1.cmp"; fail=1 ;;
	esac
}

check tc2-0x10 TC2 0x10 TC2/0x10.decode.txt 0x10
check tc2-0x11 TC2 0x11 TC2/0x11.decode.txt 0x11
check tc2-0x12 TC2 0x12 TC2/0x12.decode.txt 0x12
check tc2-0x13 TC2 0x13 TC2/0x13.decode.txt 0x13
check cov-0x02 trace_cov_a15 0x02 trace_cov_a15/0x02.decode.txt

exit $fail
