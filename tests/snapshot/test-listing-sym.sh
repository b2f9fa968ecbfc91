#!/usr/bin/env bash
# tests/snapshot/test-listing-sym.sh - the annotated decode listing checked
# independently (listing_check.py): func+0xoff on every instruction line
# and jsonl sym/off of every range of am243x-freertos-1 against readelf's
# ranges; --source positions against addr2line on a sample; --offsets
# are offsets of packets in `etmtrace packets`; on TC2 0x10 (cycle-accurate,
# timestamps) --clock times recomputed from the listed timestamps and
# cycles. Then the annotated listings are identical for --jobs 1 and 2 on
# TC2 x48 with a generated symbol file (func+0xoff: formatted on the
# workers; --source, --clock: on one thread).
. "$(dirname "$0")/symtest.sh"
if [ "${ETM_DISASM:-1}" = 0 ]; then # branch targets are in the disassembly
	echo "SKIP: built without capstone"; exit 77
fi
if [ ! -f "$elf" ] || [ ! -f "$tc2/cstrace.bin" ] || ! command -v addr2line > /dev/null; then
	echo "skip: snapshots or addr2line missing"; exit 77
fi

"$ETMTRACE" decode "$snap" --elf "$elf" > "$tmp/text"
check "$py '$here/listing_check.py' syms '$elf' '$tmp/text'" "func+0xoff of every instruction = readelf ranges"
check "grep -q 'bl [0-9a-f]* <[A-Za-z_]' '$tmp/text'" "branch targets symbolized"
"$ETMTRACE" decode "$snap" --elf "$elf" --format jsonl > "$tmp/jsonl"
check "$py '$here/listing_check.py' jsonl '$elf' '$tmp/jsonl'" "jsonl sym/off of every range = readelf ranges"
check "grep -q '\"file\":\"[^\"]*\",\"line\":[0-9]' '$tmp/jsonl'" "jsonl file/line"
"$ETMTRACE" decode "$snap" --elf "$elf" --source > "$tmp/source"
check "$py '$here/listing_check.py' source '$elf' '$tmp/source' 97" "--source positions = addr2line (sample)"
"$ETMTRACE" decode "$snap" --offsets > "$tmp/offsets"
"$ETMTRACE" packets "$snap" > "$tmp/packets"
check "$py '$here/listing_check.py' offsets '$tmp/offsets' '$tmp/packets'" "--offsets are packet offsets"
"$ETMTRACE" decode "$tc2" --id 0x10 --clock 1e9 > "$tmp/time"
check "$py '$here/listing_check.py' time '$tmp/time' 1e9" "--clock times = (timestamp + cycles since) / clock"

tc2_x48 "$tmp/tc2"
for args in "" "--format jsonl" "--source --offsets --clock 1e9"; do
	ref=$("$ETMTRACE" decode "$tmp/tc2" --symbols "$tmp/tc2/syms.txt" $args --jobs 1 2> /dev/null | md5sum)
	for j in 2; do
		got=$("$ETMTRACE" decode "$tmp/tc2" --symbols "$tmp/tc2/syms.txt" $args --jobs $j 2> /dev/null | md5sum)
		check "[ '$ref' = '$got' ]" "tc2 decode --symbols $args --jobs $j = --jobs 1"
	done
done
check "'$ETMTRACE' decode '$tmp/tc2' --symbols '$tmp/tc2/syms.txt' 2> /dev/null | grep -q 'f_c00[0-9a-f]*+0x'" "symbol-file names in the listing"
echo "$fail failed"
[ $fail -eq 0 ]
