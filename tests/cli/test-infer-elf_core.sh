#!/usr/bin/env bash
# tests/cli/test-infer-elf_core.sh - a trace file's configuration is
# inferred from what the ELF's build attributes say of the core before any
# probing (doc/inference.md): PTM is never tried for an R- or M-profile
# core, nor ETMv1 for ARMv7; ETMv1 is the only choice for ARMv4T; the ETMIDR
# is one the core can report. ELFs are compiled here for several cores;
# `arm-none-eabi-readelf -A` tells their profile and architecture (the
# oracle), synthetic PTM and ETMv3 traces (etmtrace synth --expect) are
# decoded with each.
. "$(dirname "$0")/lib.sh"
: "${ETMTRACE:?}"
for t in arm-none-eabi-gcc arm-none-eabi-readelf; do
	command -v $t > /dev/null || { echo "skip: $t missing"; exit 77; }
done
echo 'int f(int a) { return a + 1; }' > "$tmp/t.c"
for p in ptm etmv3; do
	synth_snap "$tmp/$p" --protocol $p --seed 4 --insns 30000 --isync-period 1000
done
# decode_with TRACE ELF: stderr of decoding the trace file of snapshot
# TRACE with its memory and the ELF (listing in $tmp/out), status in $rc
decode_with() {
	"$ETMTRACE" decode "$tmp/$1/trace.bin" $(images "$tmp/$1") --elf "$2" \
		--format canon > "$tmp/out" 2> "$tmp/err"
	rc=$?
}
# the protocol the note says was inferred ("" if none)
inferred() { sed -n 's/.*configuration inferred .*: \(etmv3\|ptm\) ETMCR=.*/\1/p' "$tmp/err"; }
idr() { sed -n 's/.*configuration inferred .* ETMIDR=0x\([0-9a-f]*\).*/\1/p' "$tmp/err"; }
for c in cortex-r5 cortex-m3 cortex-m4 arm926ej-s cortex-a15 arm7tdmi; do
	elf=$tmp/$c.elf
	arm-none-eabi-gcc -mcpu=$c -O1 -nostdlib -Wl,-Ttext=0x80000000 -Wl,-ef \
		"$tmp/t.c" -o "$elf" || { echo "FAIL: cannot compile for $c"; fail=$((fail + 1)); continue; }
	arm-none-eabi-readelf -A "$elf" > "$tmp/ra"
	arch=$(sed -n 's/^ *Tag_CPU_arch: //p' "$tmp/ra")
	prof=$(sed -n 's/^ *Tag_CPU_arch_profile: //p' "$tmp/ra")
	name=$(sed -n 's/^ *Tag_CPU_name: "\(.*\)"/\1/p' "$tmp/ra")
	echo "     $c: readelf -A: Tag_CPU_name $name, Tag_CPU_arch $arch, profile ${prof:-none}"
	for p in ptm etmv3; do
		decode_with $p "$elf"
		got=$(inferred)
		case "$arch/$prof" in
		v7*/Realtime | v7*/Microcontroller)
			check '[ "$got" = etmv3 ]' "$c ($arch $prof), $p trace: inferred '$got', never ptm"
			check 'grep -q "core, $name " "$tmp/err"' "$c: the note names the ELF's core '$name'"
			if [ $p = ptm ]; then # the only candidate the core can have fits badly
				check 'grep -q "uncertain: etmv3 .* errors" "$tmp/err" && [ $rc -eq 1 ]' \
					"$c, ptm trace: uncertain, exit status 1 ($rc)"
				check '! grep -q "protocol ptm" "$tmp/err"' "$c, ptm trace: no hint of a protocol the core has not"
			fi ;;
		v7/Application)
			check '[ "$got" = $p ] && [ $rc -eq 0 ] && canon_eq "$tmp/out" "$tmp/$p.exp"' \
				"$c ($arch $prof), $p trace: inferred '$got' (both tried), instructions as synth --expect"
			check '! grep -q uncertain "$tmp/err"' "$c, $p trace: a clear choice" ;;
		v5*)
			check '[ "$got" = etmv3 ]' "$c ($arch), $p trace: inferred '$got', never ptm" ;;
		v4T/)
			check '[ -z "$got" ] && [ $rc -ne 0 ] && grep -q "read as ETMv1 samples.*core, $name " "$tmp/err"' \
				"$c ($arch), $p trace: read as ETMv1 samples only, never etmv3/ptm (exit $rc)" ;;
		*) echo "FAIL: $c: unexpected readelf -A: $arch/$prof"; fail=$((fail + 1)) ;;
		esac
	done
	# the ETMIDR: an R core's ETM is ETMv3.3 (IHI 0014Q Table 1.1), an M
	# core's ETMv3.5 with the alternative branch encoding (DDI 0337I)
	decode_with etmv3 "$elf"
	case "$prof" in
	Realtime) check '[ "$(idr | cut -c6-7)" = 23 ] && [ $rc -eq 0 ] && canon_eq "$tmp/out" "$tmp/etmv3.exp"' \
		"$c: ETMIDR 0x$(idr) is ETMv3.3, instructions as synth --expect" ;;
	Microcontroller) check '[ "$(idr | cut -c3)" = 1 ] && [ "$(idr | cut -c6-7)" = 25 ]' \
		"$c: ETMIDR 0x$(idr) is ETMv3.5, alternative branch encoding" ;;
	esac
done
finish
