#!/usr/bin/env bash
# tests/cli/test-tpiu_nofsync.sh - TPIU streams
# with FSYNC (between frames, off the 16-byte grid) and without (an SWO
# capture: frames from byte 0, HSYNC halfwords only) are detected and decode
# as generated; --help says what the formats mean.
. "$(dirname "$0")/lib.sh"
synth_snap "$tmp/s" --protocol ptm --format coresight --seed 9 --insns 3000
# From the frames: (a) 3 junk bytes, an FSYNC, then an FSYNC after every
# third frame; (b) no FSYNC, an HSYNC (FF 7F) at byte 6 of every fifth frame
# (IHI 0029 D4.2: HSYNC only at even positions, dropped by the receiver).
$PY - "$tmp/s/trace.bin" "$tmp/a.bin" "$tmp/b.bin" <<'EOT'
import sys
d = open(sys.argv[1], 'rb').read()
fr = [d[i:i + 16] for i in range(0, len(d), 16)]
fs = b'\xff\xff\xff\x7f'
a = b'\x12\x34\x56' + fs
for i, f in enumerate(fr):
    a += f + (fs if i % 3 == 2 else b'')
b = b''
for i, f in enumerate(fr):
    b += f[:6] + b'\xff\x7f' + f[6:] if i % 5 == 1 else f
open(sys.argv[2], 'wb').write(a)
open(sys.argv[3], 'wb').write(b)
EOT
"$ETMTRACE" decode "$tmp/a.bin" $(images "$tmp/s") --format canon > "$tmp/ga" 2> "$tmp/ea"; rc=$?
check "[ $rc -eq 0 ] && canon_eq '$tmp/ga' '$tmp/s.exp' && grep -q 'input format tpiu detected (TPIU frames: FSYNC at offset 3' '$tmp/ea'" "TPIU with FSYNC: detected, decodes as generated"
"$ETMTRACE" decode "$tmp/b.bin" $(images "$tmp/s") --format canon > "$tmp/gb" 2> "$tmp/eb"; rc=$?
check "[ $rc -eq 0 ] && canon_eq '$tmp/gb' '$tmp/s.exp' && grep -q 'input format tpiu-nofsync detected (TPIU frames without FSYNC' '$tmp/eb'" "TPIU without FSYNC: detected, decodes as generated"
"$ETMTRACE" decode "$tmp/b.bin" $(images "$tmp/s") --input-format tpiu-nofsync --format canon > "$tmp/gc" 2>/dev/null; rc=$?
check "[ $rc -eq 0 ] && canon_eq '$tmp/gc' '$tmp/s.exp'" "--input-format tpiu-nofsync given: the same"
"$ETMTRACE" decode --help > "$tmp/h"
check "grep -q 'coresight: 16-byte' '$tmp/h' && grep -q 'tpiu: frames found by FSYNC' '$tmp/h' && grep -q 'tpiu-nofsync: TPIU frames from byte 0' '$tmp/h'" "--help says what raw/coresight/tpiu mean"
finish
