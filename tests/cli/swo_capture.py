#!/usr/bin/env python3
"""tests/cli/swo_capture.py - a synthetic Cortex-M style SWO capture: the
raw ETMv3 bytes of `etmtrace synth` on trace ID 2 and a hand-made ITM/DWT
stream on trace ID 1, interleaved into 16-byte TPIU frames (formatter
protocol, shared/docs/coresight-formatter.md section 3), written with or
without FSYNC and optionally cut at its start (a capture begun mid-frame).

usage: swo_capture.py ETM_RAW OUT [--fsync N] [--cut K] [--itm OUT_ITM]
  --fsync N  an FSYNC (FF FF FF 7F) before the first frame and after every
             N frames (default: none, as an SWO capture)
  --cut K    drop the first K bytes of the frames (K < 16)
  --itm F    also write the ITM/DWT byte stream alone to F
The formatter here is written from the protocol, independently of the
project's encoder."""
import sys

ETM_ID, ITM_ID = 2, 1

# The ITM/DWT stream, by hand (ARMv7-M ARM appendix D4, "ITM and DWT packet
# protocol"). Header byte encodings:
#   sync            >= 47 zero bits, then a 1: 00 00 00 00 00 80
#   overflow        0x70
#   local timestamp format 2: 0b0TTT0000, TTT 1..6 (no payload)
#   local timestamp format 1: 0b11TC0000, 1-4 payload bytes, bit 7 = more
#   global timestamp 1: 0x94, payload bytes, bit 7 = more
#   extension       0bCEEE1S00 (C = a payload byte follows)
#   instrumentation 0bAAAAA0SS: stimulus port A, SS = 01/10/11 -> 1/2/4 bytes
#   hardware source 0bDDDDD1SS: discriminator D (0 event counter, 1
#                   exception trace, 2 PC sample), SS as above
def itm_groups():
    g = []
    g.append(b'\x00\x00\x00\x00\x00\x80')      # sync
    for n in range(48):
        text = ('tick %d\n' % n).encode()
        # stimulus port 0, 1-byte writes: header 0b00000_0_01 = 0x01
        g.append(b''.join(b'\x01' + bytes([c]) for c in text[:3]))
        # stimulus port 0, 4-byte write: header 0b00000_0_11 = 0x03
        g.append(b'\x03' + (text[3:] + b'    ')[:4])
        # stimulus port 1, 2-byte write: header 0b00001_0_10 = 0x0A
        g.append(b'\x0a' + bytes([0x30 + n % 10, 0x0a]))
        # local timestamp format 2, TTT = 3: 0b0_011_0000 = 0x30
        g.append(b'\x30')
        # DWT periodic PC sample: discriminator 2, 4 bytes:
        # 0b00010_1_11 = 0x17, PC 0x00010004 + 2n little-endian
        g.append(b'\x17' + (0x00010004 + 2 * n).to_bytes(4, 'little'))
        # local timestamp format 1, TC = 0: 0xC0; payload 0x85 0x03 =
        # 5 + 3 * 128 = 389 cycles
        g.append(b'\xc0\x85\x03')
        # exception trace: discriminator 1, 2 bytes: 0b00001_1_10 = 0x0E;
        # exception 15 (SysTick), FN = 01 (entered) in byte 1 bits 5:4
        g.append(b'\x0e\x0f\x10')
        if n % 4 == 1:
            # event counter: discriminator 0, 1 byte: 0x05; CPI wrapped
            g.append(b'\x05\x01')
            # global timestamp 1: 0x94, payload 0x81 (more) 0x02
            g.append(b'\x94\x81\x02')
            # extension: stimulus port page 1: 0b0_001_1_0_00 = 0x18
            g.append(b'\x18')
        if n == 7:
            g.append(b'\x70')                   # overflow
    return g


def frames(items):
    """Items (id, byte) -> 16-byte frames. Even bytes: an ID byte (bit 0
    set, ID in bits 7:1) or data with its bit 0 in the aux byte 15 (bit k
    for byte 2k); an ID byte's aux bit: 0 = the next byte is the new ID's,
    1 = still the old ID's. Byte 14 holds data or the next frame's ID."""
    out, cur, i = bytearray(), -1, 0
    while i < len(items):
        fr, aux = bytearray(16), 0
        for k in range(7):
            a = items[i] if i < len(items) else None
            b = items[i + 1] if i + 1 < len(items) else None
            if a is None:                       # NULL padding (ID 0)
                fr[2 * k], fr[2 * k + 1], cur = 0x01, 0, 0
            elif a[0] != cur:                   # new ID, its data next
                fr[2 * k], fr[2 * k + 1], cur = a[0] << 1 | 1, a[1], a[0]
                i += 1
            elif b is not None and b[0] == cur:  # two data bytes
                fr[2 * k] = a[1] & 0xfe
                aux |= (a[1] & 1) << k
                fr[2 * k + 1] = b[1]
                i += 2
            else:                               # the old ID's byte, then b's ID
                nid = b[0] if b is not None else 0
                fr[2 * k], fr[2 * k + 1] = nid << 1 | 1, a[1]
                aux |= 1 << k
                cur = nid
                i += 1
        a = items[i] if i < len(items) else None
        if a is not None and a[0] == cur:
            fr[14] = a[1] & 0xfe
            aux |= (a[1] & 1) << 7
            i += 1
        elif a is not None:
            fr[14], cur = a[0] << 1 | 1, a[0]
        else:
            fr[14], cur = 0x01, 0
        fr[15] = aux
        out += fr
    return bytes(out)


def main():
    args = sys.argv[1:]
    etm = open(args[0], 'rb').read()
    out, fsync, cut, itm_out = args[1], 0, 0, None
    for j in range(2, len(args), 2):
        if args[j] == '--fsync':
            fsync = int(args[j + 1])
        elif args[j] == '--cut':
            cut = int(args[j + 1])
        elif args[j] == '--itm':
            itm_out = args[j + 1]
    groups = itm_groups()
    # ITM first (a capture cut mid-frame loses ITM bytes only), then ETM
    # in runs of varying length with an ITM packet group after each
    items = [(ITM_ID, c) for c in b''.join(groups[:5])]
    runs, p, g = [5, 17, 2, 31, 9, 64, 3, 12], 0, 5
    while p < len(etm):
        n = runs[g % len(runs)]
        items += [(ETM_ID, c) for c in etm[p:p + n]]
        p += n
        if g < len(groups):
            items += [(ITM_ID, c) for c in groups[g]]
        g += 1
    for gr in groups[g:]:
        items += [(ITM_ID, c) for c in gr]
    fr = frames(items)
    if fsync:
        fs, data = b'\xff\xff\xff\x7f', bytearray()
        for f in range(0, len(fr), 16):
            if f % (16 * fsync) == 0:
                data += fs
            data += fr[f:f + 16]
        fr = bytes(data)
    open(out, 'wb').write(fr[cut:])
    if itm_out:
        open(itm_out, 'wb').write(b''.join(groups))


main()
