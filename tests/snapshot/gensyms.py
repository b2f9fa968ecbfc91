#!/usr/bin/python3
# tests/snapshot/gensyms.py - a symbol file for an image without one (TC2's
# Thumb-2 kernel dump): every T32 "push {..., lr}" (16-bit 0xB5xx, or
# STMDB sp!, {...lr}: 0xE92D 0x4xxx) at a halfword boundary starts an
# unsized function "f_ADDR", written as `nm` prints one.
# usage: gensyms.py DUMP ADDR > syms.txt
import struct
import sys

data = open(sys.argv[1], "rb").read()
base = int(sys.argv[2], 0)
hw = struct.unpack_from("<%dH" % (len(data) // 2), data)
for i, h in enumerate(hw):
    if (h & 0xFF00) == 0xB500 or (h == 0xE92D and i + 1 < len(hw) and hw[i + 1] & 0x4000):
        print("%08x T f_%08x" % (base + 2 * i, base + 2 * i))
