#!/usr/bin/env bash
# tests/cli/test-i13-17-frame_realign.sh - issue 13 item 17: in
# CoreSight-framed input, 1-15 bytes lost or inserted lose the 16-byte frame
# alignment. The frame layer notices (an ID change to an ID no source of the
# buffer has, a reserved ID, or packets of a source that stop parsing),
# scores every shift 0-15 by frame structure and a trial parse of each
# source's bytes, realigns with a frame_align error element at the place,
# and every parser resynchronises. Asserted (tests/cli/realign.py): for
# every damage of 1-15 bytes lost or inserted at two offsets, on synthetic
# PTM and ETMv3 CoreSight snapshots of two sources, the instructions after
# the next sync are exactly the generated ones (etmtrace synth --expect: the
# generator's own list), with a frame_align error within 5 frames of the
# damaged frame; on the real TC2 and am243x captures, damaged copies decode
# after the resync as the undamaged capture does (measured rate printed,
# asserted not below what was measured when this was written).
. "$(dirname "$0")/i13-lib.sh"
R="$ETM_SRCDIR/tests/cli/realign.py"

measure() {   # NAME ARGS... -> $tmp/NAME.out
	local name=$1; shift
	$PY "$R" "$ETMTRACE" "$@" > "$tmp/$name.out"
	cat "$tmp/$name.out"
}
rate() { sed -n 's/^recovered \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$tmp/$1.out"; }
near() { sed -n 's/.*at most \([0-9]*\) frames.*/\1/p' "$tmp/$1.out"; }
all_recovered() {   # NAME: every damage recovered, reported near it
	local r; r=$(rate "$1")
	[ -n "$r" ] && [ "${r% *}" = "${r#* }" ] && [ "$(near "$1")" -le 5 ] &&
		grep -q "frame_align reported for ${r#* }," "$tmp/$1.out"
}

synth_snap "$tmp/ptm" --protocol ptm --format coresight --sources 2 --seed 3 \
	--insns 20000 --async-period 256 --isync-period 256
synth_snap "$tmp/e3" --protocol etmv3 --format coresight --sources 2 --seed 5 \
	--insns 20000 --async-period 256 --isync-period 256
measure ptm "$tmp/ptm" trace.bin "$tmp/ptm.exp.0x10" 0x10 5005 20005
check "all_recovered ptm" "synthetic PTM: every damage recovered, frame_align near it"
measure ptm11 "$tmp/ptm" trace.bin "$tmp/ptm.exp.0x11" 0x11 12005
check "all_recovered ptm11" "synthetic PTM, the other source: every damage recovered"
measure e3 "$tmp/e3" trace.bin "$tmp/e3.exp.0x10" 0x10 5005 20005
check "all_recovered e3" "synthetic ETMv3: every damage recovered, frame_align near it"

tc2=${ETM_SHARED:-}/snapshots/TC2
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
if [ ! -f "$tc2/cstrace.bin" ] || [ ! -f "$am/etb.bin" ]; then
	echo "SKIP: shared captures missing"; exit 77
fi
mkdir "$tmp/tc2"   # copies: links leading out of a snapshot are refused
cp "$tc2"/*.ini "$tc2"/kernel_dump.bin "$tc2"/cstrace.bin "$tmp/tc2/"
cp -r "$am" "$tmp/am"
measure tc2 "$tmp/tc2" cstrace.bin - 0x10 5005 20005
r=$(rate tc2); check "[ ${r% *} -ge 59 ]" "TC2 ETMv3 0x10: recovered ${r% *} of ${r#* }"
measure am "$tmp/am" etb.bin - 0x10 40005
r=$(rate am); check "[ ${r% *} -ge 30 ]" "am243x: recovered ${r% *} of ${r#* }"
finish
