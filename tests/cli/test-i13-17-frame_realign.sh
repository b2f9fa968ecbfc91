#!/usr/bin/env bash
# tests/cli/test-i13-17-frame_realign.sh - issue 13 item 17 (part): in
# CoreSight-framed input, a frame naming a reserved ID hands the buffer to
# the deformatter, which looks for the 16-byte alignment again (the shift of
# 0-15 bytes whose next eight frames name no reserved ID and most live
# sources) and reports the lost alignment with an error element. Asserted:
# every odd-length damage of 1-15 bytes lost or inserted is reported by the
# frame layer. NOT solved (the rate is only printed): an even-length damage
# keeps the ID bytes in place (a data byte and the aux byte trade places)
# and is not detected by the frame layer, and shifts of the same parity as
# the true one are not told apart, so recovery is rare (measured: 8 of 30
# damages at offset 20005, 0 of 30 at 5005, 12005 and 30005).
. "$(dirname "$0")/i13-lib.sh"
synth_snap "$tmp/s" --protocol ptm --format coresight --sources 2 --seed 3 \
	--insns 20000 --async-period 256 --isync-period 256
cp -r "$tmp/s" "$tmp/d"
damage() {   # POS LEN lose|insert
	$PY - "$tmp/s/trace.bin" "$tmp/d/trace.bin" "$@" <<'EOT'
import sys
src, dst, pos, n, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
b = open(src, 'rb').read()
b = b[:pos] + b[pos + n:] if mode == 'lose' else b[:pos] + bytes((0x5a + 37 * i) & 0xff for i in range(n)) + b[pos:]
open(dst, 'wb').write(b)
EOT
}
tail_same() {   # how many instructions at the end agree with the generated list
	"$ETMTRACE" decode "$tmp/d" --id 10 --format canon 2>/dev/null | grep -v '^GAP' > "$tmp/got"
	$PY - "$tmp/s.exp.0x10" "$tmp/got" <<'EOT'
import sys
a = [l for l in open(sys.argv[1]) if not l.startswith('GAP')]; b = open(sys.argv[2]).readlines()
n = 0
while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]: n += 1
print(n)
EOT
}
total=$(grep -vc '^GAP' "$tmp/s.exp.0x10")
ok=0; all=0; odd=0; oddmarked=0
for mode in lose insert; do for n in $(seq 1 15); do
	damage 20005 $n $mode; all=$((all + 1))
	if [ $((n % 2)) -eq 1 ]; then
		odd=$((odd + 1))
		"$ETMTRACE" decode "$tmp/d" --id 10 --format jsonl 2>/dev/null |
			grep -q '"error":"bad_frame"\|"error":"bad_id"' && oddmarked=$((oddmarked + 1))
	fi
	[ "$(tail_same)" -gt $((total / 3)) ] && ok=$((ok + 1))
done; done
echo "measured: the rest of the trace decodes as generated after $ok of $all damages (1-15 bytes lost or inserted at offset 20005)"
check "[ $oddmarked -eq $odd ]" "odd-length damages (byte parity changes, IDs turn random): a frame-layer error element each ($oddmarked of $odd)"
finish
