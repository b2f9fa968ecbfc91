#!/usr/bin/env python3
"""tests/cli/armv5_check.py - is a synth snapshot's program ARMv5TE code?

usage: armv5_check.py SNAPSHOT-DIR MODE [EXPECTED-CANON]
MODE: arm (every word of the code dumps is A32), thumb (the code region
is T32 only; the vector table is A32), mixed (only the executed
instructions of EXPECTED-CANON, in the ISA it gives).

Disassembles the dumps with arm-none-eabi-objdump -m armv5te (-M
force-thumb for T32) and rejects, from the ARM ARM encodings:
  T32: any 32-bit encoding but the BL/BLX pair of ARMv4T/v5 (first
       halfword 11110, second 11x1x with J1 = J2 = 1: BL 0xF800, BLX
       0xE800); IT and the hints (0xBFxx), CBZ/CBNZ (1011 x0x1)
  A32: MOVW/MOVT (cond 0011 0x00), hints NOP/YIELD/WFE/WFI/SEV (cond
       0011 0010 0000 1111 0000), barriers and CLREX (0xF57FF0xx), and
       any word objdump calls UNDEFINED for ARMv5TE except the
       permanently undefined UDF 0xE7F000F0 the generator uses.
Prints one line per violation, a summary; exits 1 on any."""
import re
import subprocess
import sys


def dumps(snap):
    out, f = [], None
    for line in open(snap + "/cpu_0.ini"):
        line = line.strip()
        if line.startswith("file="):
            f = line[5:]
        elif line.startswith("address=") and f:
            out.append((int(line[8:], 16), snap + "/" + f))
            f = None
    return out


def disasm(path, base, thumb, at=None):
    cmd = ["arm-none-eabi-objdump", "-D", "-b", "binary", "-m", "armv5te",
           "--adjust-vma=0x%x" % base, path]
    if at is not None:  # from @at on: in step with its instructions
        cmd[1:1] = ["--start-address=0x%x" % at, "--stop-address=0x%x" % (at + 4)]
    if thumb:
        cmd[1:1] = ["-M", "force-thumb"]
    txt = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    out = {}
    for line in txt.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]{4,8})(?: ([0-9a-f]{4}))?\s+(.*)$", line)
        if m:
            a = int(m.group(1), 16)
            out[a] = (m.group(2), m.group(3), m.group(4).strip())
    return out


def bad_t32(hw1, hw2, text):
    h = int(hw1, 16)
    if hw2 is not None:
        g = int(hw2, 16)
        if h >> 11 == 0x1E and (g & 0xE800) in (0xE800, 0xF800) and \
                text.split()[0] in ("bl", "blx"):
            return None
        return "32-bit Thumb encoding (ARMv6T2+)"
    if h & 0xFF00 == 0xBF00:
        return "IT or hint (ARMv6T2+/v7)"
    if h & 0xF500 == 0xB100:
        return "CBZ/CBNZ (ARMv6T2+)"
    return None


def bad_a32(word, text):
    w = int(word, 16)
    if w & 0x0FB00000 == 0x03000000:
        return "MOVW/MOVT (ARMv6T2+)"
    if w & 0x0FFFFF00 == 0x0320F000:
        return "hint (ARMv6K/T2+)"
    if w & 0xFFF00000 == 0xF5700000:
        return "barrier/CLREX (ARMv6K+/v7)"
    if "UNDEFINED" in text and w != 0xE7F000F0:
        return "undefined in ARMv5TE"
    return None


def main():
    snap, mode = sys.argv[1], sys.argv[2]
    regions = dumps(snap)
    code_base = max(b for b, _ in regions)
    arm, thumb = {}, {}
    for base, path in regions:
        arm.update(disasm(path, base, False))
        if base == code_base:
            thumb.update(disasm(path, base, True))
    if mode == "mixed":
        todo = []
        for line in open(sys.argv[3]):
            f = line.split()
            if len(f) >= 2 and f[0] != "GAP":
                todo.append((int(f[0], 16), f[1] == "T"))
        todo = sorted(set(todo))
    elif mode == "thumb":
        todo = [(a, False) for a in arm if a < code_base]
        todo += [(a, True) for a in thumb]
    else:
        todo = [(a, False) for a in arm]
    bad = n = 0
    for a, t in todo:
        d = (thumb if t else arm).get(a)
        if d is None and t:  # the whole-region listing is out of step here
            path = [p for b, p in regions if b == code_base][0]
            d = disasm(path, code_base, True, a).get(a)
        if d is None:
            print("%08x: no %s instruction here" % (a, "T32" if t else "A32"))
            bad += 1
            continue
        n += 1
        why = bad_t32(d[0], d[1], d[2]) if t else bad_a32(d[0], d[2])
        if why:
            bad += 1
            print("%08x: %s %s  %s: %s" % (a, d[0], d[1] or "", d[2], why))
    print("%s: %d instructions checked, %d not ARMv5TE" % (mode, n, bad))
    sys.exit(1 if bad or not n else 0)


main()
