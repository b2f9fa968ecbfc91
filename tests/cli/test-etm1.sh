#!/usr/bin/env bash
# tests/cli/test-etm1.sh - ETMv1 through the CLI: `synth --protocol etmv1`
# snapshots decode back to the generated instruction list on every port
# width; the same samples written as an OpenOCD `etm dump` file (by the
# small writer below, which follows OpenOCD's layout: big-endian u32
# capture status, ETMCR shadow, depth, then pipestat / packet / flags per
# sample with TR resolved to its real status and flag 2, TRACESYNC flag 1)
# and as our text format decode to the same list; `info` describes an
# ETMv1 configuration; ETMv2 and bad input are refused or reported.
set -u
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=$((fail + 1)); else echo "ok   $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
PY=/usr/bin/python3
[ -x "$PY" ] || { echo "SKIP: no $PY"; exit 77; }

norm() {
	awk '/^GAP$/ { if (n) gap = 1; next }
	     { if (gap) print "GAP"; gap = 0; n++; print }' "$1"
}

# Our binary sample file (doc/etmv1.md): 32-byte header, 4-byte records.
# Writes the OpenOCD dump and the text form of it.
cat > "$tmp/conv.py" <<'PYEOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'ETM1TRC\0'
etmcr, n = struct.unpack_from('<II', b, 16)
port = b[12]
recs = [b[32 + 4 * i: 36 + 4 * i] for i in range(n)]
out = [struct.pack('>III', 0, etmcr, n)]
for r in recs:
    ps, sync, pkt = r[0] & 15, (r[0] >> 4) & 1, r[1] | r[2] << 8
    flags = sync
    if ps == 6:                  # TR: OpenOCD stores the replaced status
        ps, flags = pkt & 7, flags | 2
    out.append(struct.pack('>III', ps, pkt, flags))
open(sys.argv[2], 'wb').write(b''.join(out))
names = ['IE', 'ID', 'IN', 'WT', 'BE', 'BD', 'TR', 'TD']
with open(sys.argv[3], 'w') as f:
    f.write('@etm 1.%d\n@port %d\n@etmcr 0x%x\n' % (b[11], port, etmcr))
    for i, r in enumerate(recs):
        f.write('%d %s %d %0*X\n' % (i, names[r[0] & 7], (r[0] >> 4) & 1,
                                     port // 4, r[1] | r[2] << 8))
PYEOF

images() {  # --image options from the synth core ini
	awk -F= -v d="$1" '/^file=/ { f = $2 } /^address=/ { printf "--image %s/%s@%s ", d, f, $2 }' "$1/cpu_0.ini"
}

for port in 4 8 16; do
	for extra in "" "--cycle-accurate --ctxid-bytes 2" "--branch-broadcast --features arm,thumb,exc,b2b,ctx,gaps,cycles"; do
		d="$tmp/p$port"
		rm -rf "$d"
		"$ETMTRACE" synth "$d" --protocol etmv1 --port $port --seed $port \
			--insns 3000 --expect "$d.exp" $extra 2> "$tmp/err" ||
			echo "synth failed: $(cat "$tmp/err")"
		"$ETMTRACE" decode "$d" --format canon > "$d.got" 2> "$tmp/err"
		check "diff -q <(norm $d.exp) <(norm $d.got) > /dev/null" \
			"synth etmv1 port $port $extra: snapshot decodes to the generated list"
		"$PY" "$tmp/conv.py" "$d/trace.bin" "$d.ocd" "$d.txt"
		# shellcheck disable=SC2046
		"$ETMTRACE" decode "$d.ocd" --protocol etmv1 --samples openocd \
			--etmccr 0x30000000 $(images "$d") --format canon > "$d.ocd.got" 2> "$tmp/err"
		check "diff -q <(norm $d.exp) <(norm $d.ocd.got) > /dev/null" \
			"port $port $extra: the OpenOCD etm dump decodes end to end"
		# shellcheck disable=SC2046
		"$ETMTRACE" decode "$d.txt" --protocol etmv1 $(images "$d") \
			--format canon > "$d.txt.got" 2> "$tmp/err"
		check "diff -q <(norm $d.exp) <(norm $d.txt.got) > /dev/null" \
			"port $port $extra: the text sample file decodes the same"
	done
done

"$ETMTRACE" info "$tmp/p16.ocd" --samples openocd --etmccr 0x30000000 > "$tmp/info" 2>&1
check "grep -q 'architecture ETMv1.3 (protocol number 3), port 16-bit' $tmp/info" \
	"info describes an OpenOCD dump's configuration"
"$ETMTRACE" info "$tmp/p16" > "$tmp/info2" 2>&1
check "grep -q 'etmv1 (ETM1.3)' $tmp/info2 && grep -q 'branch output on' $tmp/info2" \
	"info describes an ETMv1 snapshot source"

# coverage and profiles count every traced instruction
n=$(grep -vc '^GAP$' "$tmp/p8.exp")
"$ETMTRACE" coverage "$tmp/p8" > "$tmp/cov" 2>&1
check "grep -q '^# coverage: $n instructions executed' $tmp/cov" \
	"coverage of an ETMv1 snapshot counts its $n instructions"
"$ETMTRACE" profile "$tmp/p8" > "$tmp/prof" 2>&1
check "grep -q '^# etmtrace profile: $n instructions' $tmp/prof" \
	"profile of an ETMv1 snapshot counts its $n instructions"

# the wrong port width (16 for an 8-bit capture): errors, exit 1, no crash
# shellcheck disable=SC2046
"$ETMTRACE" decode "$tmp/p8.ocd" --protocol etmv1 --samples openocd --etmcr 0x20 \
	$(images "$tmp/p8") --stats > "$tmp/out" 2>&1
rc=$?
check "[ $rc -eq 1 ] && grep -q '^errors' $tmp/out" "the wrong port width gives errors, no crash (exit $rc)"

"$ETMTRACE" packets "$tmp/p8" > /dev/null 2> "$tmp/err"
rc=$?
check "[ $rc -eq 2 ] && grep -q 'ETMv1 trace has no packets' $tmp/err" \
	"packets on ETMv1 says to use decode"

# ETMv2 is recognised and refused with the reason
sed -i 's/^type=ETM1.3/type=ETM2.0/' "$tmp/p16/source_0.ini"
"$ETMTRACE" decode "$tmp/p16" > /dev/null 2> "$tmp/err"
rc=$?
check "[ $rc -eq 2 ] && grep -q 'ETMv2 (ETM10) is not decoded' $tmp/err" \
	"an ETMv2 source is refused with a clear message"

# bad input: garbage as a binary sample file, random samples
head -c 1000 /dev/urandom > "$tmp/junk"
"$ETMTRACE" decode "$tmp/junk" --protocol etmv1 --samples bin > /dev/null 2> "$tmp/err"
rc=$?
check "[ $rc -eq 2 ] && grep -q 'ETM1TRC' $tmp/err" "garbage is refused as a binary sample file"
"$PY" -c "
import random, struct, sys
random.seed(7)
n = 20000
sys.stdout.buffer.write(b'ETM1TRC\0' + struct.pack('<HBBBBBBII8x', 1, 1, 3, 8, 0, 0, 0, 0x10, n) +
                        bytes(random.getrandbits(8) & (0x1f if i % 4 == 0 else 0xff) if i % 4 != 3 else 0 for i in range(4 * n)))
" > "$tmp/rand.etm1"
# shellcheck disable=SC2046
"$ETMTRACE" decode "$tmp/rand.etm1" --protocol etmv1 $(images "$tmp/p8") --stats > "$tmp/out" 2>&1
rc=$?
check "[ $rc -le 1 ] && grep -q '^errors' $tmp/out" "random samples decode with error elements, no crash (exit $rc)"

[ $fail -eq 0 ] || { echo "$fail failed"; exit 1; }
echo "all passed"
