#!/usr/bin/env python3
"""scripts/gen-frames-tab.py - writes src/source/frames_tab.c, the constant
tables of the CoreSight frames fast path (source/frames.h): fill[], spread[]
and aux[] depend on nothing but their index, so they are data, not work
each decoder repeats at set-up. Usage: gen-frames-tab.py > src/source/frames_tab.c
"""


def fill(i):
    # pairs in order; a change to the single ID makes its bytes current,
    # a change to another ID ends that; bit 8 of the index: current before
    st, out = i >> 8 & 1, 0
    for k in range(4):
        out |= st << (2 * k)
        if i >> (2 * k) & 1:
            st = i >> (2 * k + 1) & 1
    return out | st << 8


def spread(i):
    # bit k of the byte -> bit 2k
    return sum((i >> k & 1) << (2 * k) for k in range(8))


def aux(i):
    # bit k of the auxiliary byte -> bit 0 of even byte 2k of the frame, as
    # the two 64-bit halves of a little-endian load
    h = [0, 0]
    for k in range(8):
        h[k // 4] |= (i >> k & 1) << (16 * (k % 4))
    return h


def rows(vals, per, fmt):
    out = []
    for i in range(0, len(vals), per):
        out.append("\t" + ", ".join(fmt % v for v in vals[i:i + per]) + ",")
    return "\n".join(out)


print("""/* source/frames_tab.c - constant tables of the CoreSight frames fast path
 * (source/frames.h), written by scripts/gen-frames-tab.py: they depend on
 * their index only, so no decoder computes them at set-up. */
#include "source/frames.h"

/* clang-format off */
const uint16_t etm_fr_fill[512] = {""")
print(rows([fill(i) for i in range(512)], 8, "0x%03x"))
print("};\n\nconst uint16_t etm_fr_spread[256] = {")
print(rows([spread(i) for i in range(256)], 8, "0x%04x"))
print("};\n\nconst uint64_t etm_fr_aux[256][2] = {")
print("\n".join("\t{ 0x%xull, 0x%xull }," % tuple(aux(i)) for i in range(256)))
print("};")
print("/* clang-format on */")
