#!/usr/bin/env bash
# tests/cli/test-etmv1_detected.sh - ETMv1 sample files that say what they
# are are read as ETMv1 without --protocol: our binary file (ETM1TRC magic,
# written by `synth --protocol etmv1`) and an OpenOCD `etm dump` (its depth
# word gives the file size; written below from OpenOCD's layout,
# doc/etmv1.md §1.1). `info` describes them as sample files and `decode`
# gives the generator's own instruction list, the same as with --protocol
# etmv1. Files that do not say it (our text format, an ETB image) get a
# note naming --protocol etmv1; ETMv3/PTM trace files get none.
. "$(dirname "$0")/lib.sh"
[ -x "$PY" ] || { echo "SKIP: no $PY"; exit 77; }
d="$tmp/e1"
"$ETMTRACE" synth "$d" --protocol etmv1 --port 8 --seed 7 --insns 3000 --expect "$d.exp" > /dev/null 2>&1
# the samples of our binary file (32-byte header, 4-byte records: status
# [3:0], TRACESYNC [4], packet [23:8]) as an OpenOCD dump (big-endian
# status, ETMCR, depth; pipestat, packet, flags per sample; a trigger is
# stored with its replaced status) and as an ETB image of an 8-bit port
# (two samples per little-endian word: PIPESTAT [2:0], TRACEPKT [10:3],
# TRACESYNC [11] of each 12 bits)
cat > "$tmp/conv.py" << 'PYEOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
assert b[:8] == b'ETM1TRC\0' and b[12] == 8
etmcr, n = struct.unpack_from('<II', b, 16)
recs = [(b[32 + 4 * i] & 15, (b[32 + 4 * i] >> 4) & 1,
         b[33 + 4 * i] | b[34 + 4 * i] << 8) for i in range(n)]
ocd = [struct.pack('>III', 0, etmcr, n)]
for ps, sync, pkt in recs:
    flags = sync
    if ps == 6:
        ps, flags = pkt & 7, flags | 2
    ocd.append(struct.pack('>III', ps, pkt, flags))
open(sys.argv[2], 'wb').write(b''.join(ocd))
recs += [(3, 0, 0)] * (len(recs) % 2)  # WT pads the last word
etb = b''
for i in range(0, len(recs), 2):
    w = 0
    for k in (0, 1):
        ps, sync, pkt = recs[i + k]
        w |= (ps | (pkt & 0xff) << 3 | sync << 11) << (12 * k)
    etb += struct.pack('<I', w)
open(sys.argv[3], 'wb').write(etb)
PYEOF
"$PY" "$tmp/conv.py" "$d/trace.bin" "$tmp/dump.ocd" "$tmp/etb.bin"
# shellcheck disable=SC2046
img=$(images "$d")
norm() { grep -v '^GAP' "$1"; }

"$ETMTRACE" info "$d/trace.bin" > "$tmp/info" 2>&1
check "grep -q '^sample file .*(etmtrace binary)' $tmp/info && grep -q 'architecture ETMv1.3' $tmp/info && ! grep -q 'CoreSight' $tmp/info" \
	"info: our ETM1TRC file is a sample file ($(head -1 "$tmp/info"))"
# shellcheck disable=SC2086
"$ETMTRACE" decode "$d/trace.bin" $img --format canon > "$tmp/bin.got" 2> "$tmp/err"; rc=$?
check "[ $rc -eq 0 ] && diff -q <(norm $d.exp) <(norm $tmp/bin.got) > /dev/null" \
	"decode of the ETM1TRC file without --protocol: the generated list (exit $rc)"
# shellcheck disable=SC2086
"$ETMTRACE" decode "$d/trace.bin" $img --protocol etmv1 --format canon > "$tmp/bin.opt" 2> /dev/null
check "cmp -s $tmp/bin.got $tmp/bin.opt" "decode of the ETM1TRC file: the same as with --protocol etmv1"
check "grep -q 'ETMv1 samples detected' $tmp/err" "decode says the samples were detected"

"$ETMTRACE" info "$tmp/dump.ocd" > "$tmp/info" 2>&1
check "grep -q '^sample file .*(OpenOCD etm dump)' $tmp/info" \
	"info: an OpenOCD etm dump is a sample file ($(head -1 "$tmp/info"))"
# shellcheck disable=SC2086
"$ETMTRACE" decode "$tmp/dump.ocd" $img --format canon > "$tmp/ocd.got" 2> /dev/null; rc=$?
# shellcheck disable=SC2086
"$ETMTRACE" decode "$tmp/dump.ocd" $img --protocol etmv1 --format canon > "$tmp/ocd.opt" 2> /dev/null
check "[ $rc -eq 0 ] && diff -q <(norm $d.exp) <(norm $tmp/ocd.got) > /dev/null && cmp -s $tmp/ocd.got $tmp/ocd.opt" \
	"decode of the OpenOCD dump without --protocol: the generated list, as with --protocol etmv1"

# shellcheck disable=SC2086
"$ETMTRACE" decode "$tmp/etb.bin" $img --format canon > /dev/null 2> "$tmp/err"
check "grep -q 'look like ETMv1 pipestat samples (an ETB image.*give --protocol etmv1' $tmp/err" \
	"an ETB image of ETMv1: the note names --protocol etmv1"
# shellcheck disable=SC2086
"$ETMTRACE" decode "$tmp/etb.bin" $img --protocol etmv1 --samples etb --etmcr 0x$(printf '%x' 16) --format canon > "$tmp/etb.got" 2> /dev/null
check "diff -q <(norm $d.exp) <(norm $tmp/etb.got) > /dev/null" \
	"the ETB image with --protocol etmv1 decodes to the generated list (the conversion is right)"
printf '# samples\n@etm 1.3\n@port 8\n0 IE 1 00\n1 IN 0 00\n' > "$tmp/s.txt"
"$ETMTRACE" decode "$tmp/s.txt" > /dev/null 2> "$tmp/err"
check "grep -q 'look like ETMv1 pipestat samples (the etmtrace text sample format).*give --protocol etmv1' $tmp/err" \
	"our text sample format: the note names --protocol etmv1"

# ETMv3 and PTM trace files: no ETMv1 note, no sample file
for p in etmv3 ptm; do
	"$ETMTRACE" synth "$tmp/$p" --protocol $p --seed 3 > /dev/null 2>&1
	"$ETMTRACE" info "$tmp/$p/trace.bin" > "$tmp/info" 2>&1
	check "! grep -q 'ETMv1\\|sample file' $tmp/info && grep -q '^trace file' $tmp/info" "a $p trace file is not taken for ETMv1"
done
"$ETMTRACE" info "$S/trace.bin" > "$tmp/info" 2>&1
check "! grep -q 'ETMv1\\|sample file' $tmp/info" "the example's ETMv3 trace file is not taken for ETMv1"
finish
