#!/usr/bin/env bash
# tests/oracle/test-qemu.sh - the QEMU oracle: six small programs (progs/,
# A32 and T32 with IT blocks, interworking, LDM/POP pc, switch tables,
# recursion, setjmp/longjmp), built with Debian's arm-linux-gnueabihf-gcc
# (freestanding, -static: the cross compiler ships no libc), run under
# qemu-arm logging every executed instruction; oracle-qemu encodes each
# execution as ETMv3 and PTM trace, decodes it and requires QEMU's
# sequence back exactly. Exits 77 without the compiler or QEMU.
set -u
d=$(cd "$(dirname "$0")" && pwd)
cc=arm-linux-gnueabihf-gcc
command -v $cc >/dev/null && command -v qemu-arm >/dev/null || {
	echo "SKIP: needs $cc and qemu-arm (scripts/deps.sh)"; exit 77; }
# one line per executed instruction: -one-insn-per-tb from QEMU 8.1,
# -singlestep before
step=-singlestep
qemu-arm -h | grep -q one-insn-per-tb && step=-one-insn-per-tb
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail=0 total=0
for p in arm_switch:-marm thumb_it:-mthumb interwork:-mthumb setjmp:-marm \
	 ldm_pop:-marm ldm_pop:-mthumb; do
	n=${p%%:*} isa=${p#*:}
	exe=$t/$n$isa
	if ! $cc -O2 $isa -static -nostdlib -ffreestanding -fno-stack-protector \
		-o "$exe" "$d/progs/$n.c" -lgcc; then
		echo "FAIL: cannot build $n $isa"; fail=1; continue
	fi
	out=$(qemu-arm $step -d exec,nochain "$exe" 2>&1 >/dev/null | "$ORACLE" "$exe")
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || fail=1
	k=$(sed -n 's/.* etmv3 \([0-9]*\) instructions identical.*/\1/p' <<<"$out")
	total=$((total + ${k:-0}))
done
echo "$total executed instructions, ETMv3 and PTM (4 configurations)"
if [ $total -lt 1000000 ]; then
	echo "FAIL: fewer than 10^6 instructions"; fail=1
fi
exit $fail
