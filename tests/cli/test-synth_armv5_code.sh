#!/bin/bash
# tests/cli/test-synth_armv5_code.sh - `etmtrace synth --protocol etmv1`
# claims an ARM926EJ-S (ARMv5TE): its program must be code that core runs.
# armv5_check.py disassembles the memory dumps with arm-none-eabi-objdump
# (-m armv5te) and rejects 32-bit Thumb other than the BL/BLX pair, IT,
# CBZ/CBNZ, hints, MOVW/MOVT, barriers (ARM ARM encodings, listed there):
# every word of A32-only and T32-only programs, the executed instructions
# of mixed ones. The decode still equals the generator's expected list.
# Exit 77 (skip) when objdump is missing.
set -u
: "${ETMTRACE:?}" "${ETM_SRCDIR:?}"
command -v arm-none-eabi-objdump > /dev/null || { echo "objdump missing: skip"; exit 77; }
. "$ETM_SRCDIR/tests/cli/lib.sh"
cd "$tmp"
for seed in 1 2 3 4 5; do
	for m in "thumb thumb" "arm arm,exc" "mixed arm,thumb,exc,ctx" "thumb thumb,ctx,gaps" \
		"thumb thumb,long"; do
		mode=${m% *} feat=${m#* }
		d=s$seed-$mode-${feat//,/_}
		synth_snap $d --protocol etmv1 --seed $seed --features $feat --ctxid-bytes 1 \
			--insns 4000 || { echo "FAIL: synth $d"; fail=$((fail + 1)); continue; }
		$PY "$ETM_SRCDIR/tests/cli/armv5_check.py" $d $mode $d.exp > $d.chk
		rc=$?
		check '[ $rc -eq 0 ]' "seed $seed, $feat: ARMv5TE only ($(tail -1 $d.chk))"
		grep -v "instructions checked" $d.chk | head -3
		check '"$ETMTRACE" decode $d --format canon 2>/dev/null | cmp -s - $d.exp' \
			"seed $seed, $feat: decode equals the expected list"
	done
done
finish
