#!/usr/bin/env bash
# tests/cli/test-exit_status_garbage.sh - garbage
# input never exits 0 silently. Random bytes of every size class, an empty
# file, all-zeros, all-0xFF, a text file and an ELF given as trace each exit
# 1 or 2 with one line of reason on stderr (notes and warnings aside), with
# and without an image; an empty trace buffer in a snapshot and a wrong ELF
# give exit 1; bit flips in a good trace give exit 1.
. "$(dirname "$0")/lib.sh"
img="$tmp/img.bin"
cp "$S/vectors.bin" "$img"
dd if="$S/code.bin" of="$img" bs=1 seek=$((0x8000)) conv=notrunc 2>/dev/null
# one_reason FILE: exactly one line that is not a note or a warning
one_reason() { [ "$(grep -vc '^etmtrace: \(note\|warning\):' "$1")" -eq 1 ]; }
garbage() {   # NAME FILE
	local rc
	for cmd in "decode" "decode --image $img@0" "packets"; do
		"$ETMTRACE" $cmd "$2" > /dev/null 2> "$tmp/err"; rc=$?
		check "[ $rc -eq 1 -o $rc -eq 2 ] && one_reason '$tmp/err'" "$1: $cmd -> exit $rc, $(grep -v 'note:\|warning:' "$tmp/err" | head -1)"
	done
}
for n in 1 3 15 16 17 255 4096 65536 1048576; do
	head -c $n /dev/urandom > "$tmp/rnd$n"
	garbage "random $n bytes" "$tmp/rnd$n"
done
: > "$tmp/empty"; garbage "empty file" "$tmp/empty"
head -c 65536 /dev/zero > "$tmp/zeros"; garbage "64 KiB of zeros" "$tmp/zeros"
head -c 65536 /dev/zero | tr '\0' '\377' > "$tmp/ff"; garbage "64 KiB of 0xFF" "$tmp/ff"
garbage "a text file" "$ETM_SRCDIR/README.md"
if [ -n "${ETM_BUILD:-}" ] && [ -x "$ETM_BUILD/mksample" ]; then
	garbage "an ELF as trace" "$ETM_BUILD/mksample"
fi
# an empty trace buffer in a snapshot
cp -r "$S" "$tmp/es"; chmod -R u+w "$tmp/es"; : > "$tmp/es/trace.bin"
"$ETMTRACE" decode "$tmp/es" > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'no instructions decoded from 0 bytes of trace (empty)' '$tmp/err'" "snapshot with an empty trace buffer -> exit 1"
# a wrong image: the sample's trace over a program of other bytes
head -c $((0x8200)) /dev/urandom > "$tmp/wrong.bin"
"$ETMTRACE" decode "$S/trace.bin" --protocol ptm --input-format coresight --etmcr 0x10001000 --etmccer 0x34C01AC2 --etmidr 0x411CF312 --image "$tmp/wrong.bin@0" > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc -eq 1 ] && tail -1 '$tmp/err' | grep -q 'no instructions decoded\|listing is incomplete'" "wrong image -> exit 1 ($(tail -1 "$tmp/err"))"
# bit flips in a good trace
synth_snap "$tmp/g" --protocol etmv3 --seed 5 --insns 20000
$PY - "$tmp/g/trace.bin" <<'EOT'
import sys, random
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); r = random.Random(10)
for _ in range(10):
    i = r.randrange(len(b)); b[i] ^= 1 << r.randrange(8)
open(p, 'wb').write(b)
EOT
"$ETMTRACE" decode "$tmp/g" > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc -eq 1 ] && tail -1 '$tmp/err' | grep -q 'listing is incomplete: [1-9][0-9]* errors'" "ten bit flips -> exit 1, the errors counted ($(tail -1 "$tmp/err"))"
finish
