#!/usr/bin/env bash
# tests/cli/test-info_sources.sh - `info` names each source once (a trace
# file's sources by their trace ID, no "source source", no "(?)"), counts
# only the trace IDs that carry data (an ID byte with no data byte after
# it is no source; ID 0 is padding), and lists ETMv1 sources, which
# `decode` decodes, as decoded.
. "$(dirname "$0")/lib.sh"
[ -x "$PY" ] || { echo "SKIP: no $PY"; exit 77; }
synth_snap "$tmp/v3" --protocol etmv3 --seed 5 --insns 4000
"$ETMTRACE" info "$tmp/v3/trace.bin" > "$tmp/info" 2> /dev/null
check "grep -q '^source: trace ID 0x10, etmv3, buffer ' $tmp/info && ! grep -q 'source source\\|(?)' $tmp/info" \
	"a trace file's source: one name, no '(?)' ($(grep '^source' "$tmp/info"))"

# CoreSight frames (IHI 0029 D4.2) of the raw ETMv3 bytes under ID 0x10;
# every 8th frame names ID 0x11 in byte 14, and the next frame switches
# back to 0x10 at once (aux bit 0 clear), so 0x11 carries no byte; the
# last frame is padded with ID 0.
cat > "$tmp/frame.py" << 'PYEOF'
import sys
d = open(sys.argv[1], 'rb').read()
out, pos, k = b'', 0, 0
while pos < len(d):
    k += 1
    f, aux = [0x21], 0           # ID 0x10, at once
    room = 13 if k % 8 == 0 else 14
    chunk = d[pos:pos + room]
    pos += len(chunk)
    for i, b in enumerate(chunk, 1):
        if i % 2 == 0:           # even byte: bit 0 goes to the aux byte
            aux |= (b & 1) << (i // 2)
            b &= 0xfe
        f.append(b)
    if len(chunk) == 13 and room == 13:
        f.append(0x23)           # ID 0x11 in byte 14, no data follows
    elif len(f) < 15:            # the end: ID 0 pads the frame
        if len(f) % 2 == 1:      # the last byte is at an even position:
            p = len(f) - 1       # ID 0 there, after the next byte (aux
            x = f[p] | (aux >> (p // 2) & 1)  # bit set), the byte next
            f[p] = 0x01
            aux |= 1 << (p // 2)
            f.append(x)
        else:
            f.append(0x01)
        f += [0] * (15 - len(f))
    out += bytes(f) + bytes([aux])
open(sys.argv[2], 'wb').write(out)
PYEOF
"$PY" "$tmp/frame.py" "$tmp/v3/trace.bin" "$tmp/framed.bin"
# shellcheck disable=SC2046
"$ETMTRACE" decode "$tmp/framed.bin" --input-format coresight --id 10 $(images "$tmp/v3") \
	--protocol etmv3 --format canon > "$tmp/got" 2> /dev/null
check "canon_eq $tmp/got $tmp/v3.exp" "the framed file decodes to the generated list (the framing is right)"
"$ETMTRACE" info "$tmp/framed.bin" > "$tmp/info" 2> "$tmp/err"
check "grep -q 'CoreSight 16-byte frames, 1 trace ID,' $tmp/err && [ \$(grep -c '^source' $tmp/info) -eq 1 ]" \
	"ID 0x11 named without data is no trace ID: 1 counted ($(grep -o 'frames, [0-9]* trace IDs*' "$tmp/err"))"

synth_snap "$tmp/v1" --protocol etmv1 --seed 5 --insns 2000
"$ETMTRACE" info "$tmp/v1" > "$tmp/info" 2> /dev/null
check "grep -q 'etmv1' $tmp/info && ! grep -q 'not decoded' $tmp/info && grep -q '^  decoded from its ETMv1 samples' $tmp/info" \
	"an ETMv1 snapshot source is listed as decoded"
"$ETMTRACE" decode "$tmp/v1" --format canon > "$tmp/got1" 2> /dev/null
check "canon_eq $tmp/got1 $tmp/v1.exp" "and decode does decode it (the generated list)"
finish
