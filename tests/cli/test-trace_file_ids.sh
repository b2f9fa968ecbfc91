#!/usr/bin/env bash
# tests/cli/test-trace_file_ids.sh - a trace file's sources are the trace
# IDs that carry data however many times each is named: am243x-freertos-1's
# etb.bin names ID 0x6F (an ITM counter byte) in exactly 256 runs of one
# byte, so a count of runs kept in a byte would wrap to 0 and lose it. The
# IDs are derived here by deformatting the frames independently (IHI 0029
# D4.2: an even byte with bit 0 set is an ID change, the aux byte 15 gives
# the even data bytes' bit 0 and says whether an ID change takes effect
# after the next byte). 0x6F's bytes (03 04 05 ...) hold no A-sync (five
# zeros, then 0x80), so it is listed as not decoded (not ETM/PTM trace).
# Decoded as a trace file, also with 0x6F selected and so decoded (inferred
# ETMv3 with --id, or --protocol etmv3), the buffer is the three pieces of the snapshot (0x6F never syncs, so it
# never starts a run: doc/circular.md), with the instructions of each byte
# range alone (249,121, 30,954, 2,322; measured before pieces existed,
# tests/cli/test-circular_am243x.sh).
. "$(dirname "$0")/lib.sh"
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
[ -d "$am" ] || { echo "SKIP: $am missing"; exit 77; }
[ -x "$PY" ] || { echo "SKIP: no $PY"; exit 77; }
"$PY" - "$am/etb.bin" > "$tmp/ids" << 'PYEOF'
import sys, collections
d = open(sys.argv[1], 'rb').read()
cur, n = -1, collections.Counter()
for o in range(0, len(d) - len(d) % 16, 16):
    f, aux = d[o:o + 16], d[o + 15]
    for i in range(8):
        x, later = f[2 * i], -1
        if x & 1:
            if aux >> i & 1:
                later = x >> 1
            else:
                cur = x >> 1
        else:
            n[cur] += 1
        if i < 7:
            n[cur] += 1
        if later >= 0:
            cur = later
for i in sorted(k for k in n if 0 < k < 0x70):
    print('0x%02x %d' % (i, n[i]))
PYEOF
check "[ \"\$(tr '\n' ' ' < '$tmp/ids')\" = '0x10 60541 0x6f 256 ' ]" \
	"the frames carry data of IDs 0x10 and 0x6f (256 bytes) ($(tr '\n' ' ' < "$tmp/ids"))"
"$ETMTRACE" info "$am/etb.bin" > "$tmp/info" 2> /dev/null
grep -o '^source: trace ID 0x[0-9a-f]*' "$tmp/info" | awk '{print $4}' > "$tmp/src"
check "[ \"\$(tr '\n' ' ' < '$tmp/src')\" = '0x10 0x6f ' ]" \
	"info lists exactly those IDs as sources ($(tr '\n' ' ' < "$tmp/src"))"
check "grep -A1 '^source: trace ID 0x6f' '$tmp/info' | grep -q 'not decoded: no A-sync'" \
	"0x6f: not decoded, no A-sync in its data"
check "! grep -A1 '^source: trace ID 0x10' '$tmp/info' | grep -q 'not decoded'" "0x10: decoded"
pieces() { # the instructions of each piece of a text listing ([ID] prefixes)
	sed 's/^\[0x[0-9a-f]*\] //' "$1" | awk '/^-- piece/{k++} /^  [0-9a-f]+  (A32|T32)/{n[k]++} END{print k+0, n[1]+0, n[2]+0, n[3]+0}'
}
"$ETMTRACE" decode "$am/etb.bin" --elf "$am/freertos.out" > "$tmp/l" 2> /dev/null
check "[ \"\$(pieces '$tmp/l')\" = '3 249121 30954 2322' ]" \
	"as a trace file: 3 pieces, 249121 30954 2322 instructions (got $(pieces "$tmp/l"))"
"$ETMTRACE" decode "$am/etb.bin" --elf "$am/freertos.out" --id 10 --id 6f > "$tmp/l1" 2> /dev/null
check "[ \"\$(pieces '$tmp/l1')\" = '3 249121 30954 2322' ]" \
	"0x6f decoded too (--id 10 --id 6f): the same 3 pieces (got $(pieces "$tmp/l1"))"
"$ETMTRACE" decode "$am/etb.bin" --elf "$am/freertos.out" --id 10 --id 6f \
	--protocol etmv3 > "$tmp/l2" 2> /dev/null
check "[ \"\$(pieces '$tmp/l2')\" = '3 249121 30954 2322' ]" \
	"0x6f decoded too (--id 10 --id 6f --protocol etmv3): the same 3 pieces (got $(pieces "$tmp/l2"))"
finish
