#!/usr/bin/env bash
# tests/cli/test-circular_am243x.sh - the am243x-freertos-1 ETB dump (64 KiB,
# read from the write pointer) is three pieces (doc/circular.md): the
# previous run's tail at bytes 0..7216 (ends in a debug halt and the
# formatter's padding), that run's older lap at 7216..64816 (a frame with
# data and no ID byte after the padding), the newest run at 64816..65536
# (an A-sync and a debug-exit I-sync at a frame start). Listed in time
# order: older lap, tail, newest run. The instruction counts are those of
# each byte range decoded alone (measured with the decoder before pieces
# existed: 249,121, 30,954 and 2,322), checked here again from the slices.
. "$(dirname "$0")/lib.sh"
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
[ -d "$am" ] || { echo "SKIP: $am missing"; exit 77; }
"$ETMTRACE" decode "$am" > "$tmp/l" 2> "$tmp/e"
check "[ $? -eq 0 ]" "exit status 0"
grep '^-- piece\|^-- gap' "$tmp/l" > "$tmp/h"
cat > "$tmp/hw" <<'END'
-- piece 1 of 3: older lap of the previous run, bytes 7216..64816
-- gap: overwritten
-- piece 2 of 3: tail of the previous run, bytes 0..7216
-- gap: between runs
-- piece 3 of 3: newest run, bytes 64816..65536
END
check "diff -q '$tmp/h' '$tmp/hw' > /dev/null" "three pieces in time order"
check "grep -q 'note: ETB_0: a circular buffer in 3 pieces, listed in time order' '$tmp/e'" "the note"
# instructions per piece
awk '/^-- piece/{k++} /^  [0-9a-f]+  (A32|T32)/{n[k]++} END{print n[1]+0, n[2]+0, n[3]+0}' "$tmp/l" > "$tmp/n"
check "[ \"\$(cat '$tmp/n')\" = '249121 30954 2322' ]" "instructions per piece: 249121 30954 2322 (got $(cat "$tmp/n"))"
# each piece as the byte range decoded alone, with pieces off
for r in "7216 57600" "0 7216" "64816 720"; do
	set -- $r
	d="$tmp/s$1"
	mkdir "$d" && cp "$am"/* "$d"/ && chmod u+w "$d"/*
	dd if="$am/etb.bin" of="$d/etb.bin" bs=1 skip=$1 count=$2 status=none
	"$ETMTRACE" decode "$d" --pieces off 2>/dev/null | grep -v '^--' >> "$tmp/alone"
done
grep -v '^--' "$tmp/l" > "$tmp/listed"
check "cmp -s '$tmp/alone' '$tmp/listed'" "each piece's instructions are its bytes' alone"
# the halt at the tail's end does not join the newest run (return
# 0x700a53e2, the run resumes at 0x700a53ee)
check "grep -q 'return 0x700a53e2' '$tmp/l' && grep -q 'debug exit) at 0x700a53ee' '$tmp/l'" "halt and debug exit do not join"
# file order, and off
"$ETMTRACE" decode "$am" --order file 2>/dev/null | grep '^-- piece' | cut -d, -f2 > "$tmp/f"
check "[ \"\$(tr '\n' ' ' < '$tmp/f')\" = ' bytes 0..7216 (file order; 2 of 3 in time)  bytes 7216..64816 (file order; 1 of 3 in time)  bytes 64816..65536 (file order; 3 of 3 in time) ' ]" "--order file"
"$ETMTRACE" decode "$am" --pieces off > "$tmp/o" 2>/dev/null
check "! grep -q '^-- piece' '$tmp/o' && [ \$(grep -vc '^--' '$tmp/o') -eq 282397 ]" "--pieces off: one input (282397 instructions)"
finish
