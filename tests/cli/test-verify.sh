#!/bin/bash
# tests/cli/test-verify.sh - `etmtrace decode --verify` (verified output):
# on clean trace it changes nothing (TC2, every source and format); on
# damaged trace it gives the same elements as without it plus
# 'unverified' errors, at least one of them before the instructions that a
# later periodic I-sync check rejected.
set -u
ETM=${ETMTRACE:?path of the etmtrace binary}
SHARED=${ETM_SHARED:-build/testdata}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0 skipped=0
check() { if [ "$1" != "$2" ]; then echo "FAIL: $3"; fail=1; else echo "ok   $3"; fi; }

# clean trace: identical output
tc2=$SHARED/snapshots/TC2
if [ -d "$tc2" ]; then
	for id in 0x10 0x11 0x12 0x13; do
		a=$("$ETM" decode "$tc2" --id $id --format canon | md5sum)
		b=$("$ETM" decode "$tc2" --id $id --format canon --verify | md5sum)
		check "$a" "$b" "TC2 $id canon unchanged by --verify"
	done
	a=$("$ETM" decode "$tc2" --format jsonl --jobs 1 | md5sum)
	b=$("$ETM" decode "$tc2" --format jsonl --verify | md5sum)
	check "$a" "$b" "TC2 jsonl (all sources) unchanged by --verify"
	n=$("$ETM" decode "$tc2" --id 0x10 --format canon --verify | grep -vc GAP)
	[ "$n" -gt 0 ] || { echo "FAIL: TC2 0x10 decodes to nothing"; fail=1; }
else
	echo "SKIP TC2 part: $tc2 missing"
	skipped=1
fi

# damaged trace: a synthetic PTM trace with periodic I-syncs, one bit
# flipped at successive positions until the flow decoder reports a
# mismatch at a periodic I-sync
"$ETM" synth "$T/s" --protocol ptm --seed 7 --insns 20000 \
	--isync-period 128 --async-period 512 >/dev/null || {
	echo "FAIL: synth"; exit 1; }
trace="$T/s/trace.bin"
cp -r "$T/s" "$T/d"
dtrace="$T/d/$(basename "$trace")"
found=0
for pos in $(seq 200 37 6000); do
	cp "$trace" "$dtrace"
	python3 - "$dtrace" "$pos" <<'EOF'
import sys
p, pos = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, 'rb').read())
if pos < len(b):
    b[pos] ^= 0x04
open(p, 'wb').write(b)
EOF
	"$ETM" decode "$T/d" --format jsonl --jobs 1 > "$T/plain.j" 2>/dev/null
	if grep -q '"error":"mismatch"' "$T/plain.j"; then
		found=1
		break
	fi
done
check $found 1 "a bit flip that a periodic I-sync check rejects (position $pos)"
"$ETM" decode "$T/d" --format jsonl --verify > "$T/ver.j" 2>/dev/null
a=$(md5sum < "$T/plain.j")
b=$(grep -v '"error":"unverified"' "$T/ver.j" | md5sum)
check "$a" "$b" "damaged: the same elements with and without --verify"
m=$(grep -n '"error":"unverified"' "$T/ver.j" | head -1 | cut -d: -f1)
e=$(grep -n '"error":"mismatch"' "$T/ver.j" | head -1 | cut -d: -f1)
check "$([ -n "$m" ] && [ -n "$e" ] && [ "$m" -lt "$e" ] && echo yes)" yes \
	"damaged: an 'unverified' marker comes before the mismatch it announces"
# the marker is followed by ranges (the held, rejected instructions)
r=$(tail -n +"${m:-1}" "$T/ver.j" | head -n $(( ${e:-1} - ${m:-1} + 1 )) |
	grep -c '"kind":"range"')
check "$([ "$r" -gt 0 ] && echo yes)" yes \
	"damaged: $r ranges between the marker and the mismatch"
# text listing shows it too
"$ETM" decode "$T/d" --verify > "$T/ver.txt" 2>/dev/null
check "$(grep -c -i 'unverified\|rejected' "$T/ver.txt" | awk '$1>0{print "yes"}')" \
	yes "text listing names the rejected trace"
[ $fail = 0 ] || exit $fail
[ $skipped = 0 ] || exit 77
