#!/usr/bin/python3
# tests/snapshot/listing_check.py - independent checks of the annotated
# `etmtrace decode` listing: func+0xoff and jsonl sym/off against readelf's
# ranges (profile_check.elf_functions), source lines against addr2line,
# --offsets against the packet listing, and times recomputed from the
# timestamps and cycle counts of the listing itself (t = (timestamp +
# cycles since it) / clock).
import bisect
import json
import re
import subprocess
import sys

from profile_check import elf_functions

INSN = re.compile(r"^(?:@(\d+)\s+)?\s+([0-9a-f]{8})\s+(A32|T32)\s")


def lookup(ranges, starts, a):
    i = bisect.bisect_right(starts, a) - 1
    if i >= 0 and a < ranges[i][1]:
        return ranges[i][2], a - ranges[i][0]
    return None, None


def cmd_syms(elf, listing):
    ranges = elf_functions(elf)
    starts = [r[0] for r in ranges]
    n = bad = 0
    for line in open(listing):
        m = INSN.match(line)
        if not m:
            continue
        n += 1
        name, off = lookup(ranges, starts, int(m[2], 16))
        want = "%s+0x%x" % (name, off) if name else None
        got = line.rstrip("\n").split()[-1]
        ok = got == want if want else "+0x" not in got
        if not ok:
            bad += 1
            if bad < 5:
                print("  %s: want %s" % (line.rstrip(), want))
    print("  %d instruction lines, %d wrong" % (n, bad))
    return 0 if n and not bad else 1


def cmd_jsonl(elf, listing):
    ranges = elf_functions(elf)
    starts = [r[0] for r in ranges]
    n = bad = 0
    for line in open(listing):
        e = json.loads(line)
        if e["kind"] != "range":
            continue
        n += 1
        name, off = lookup(ranges, starts, int(e["start"], 16))
        if e.get("sym") != name or (name and e.get("off") != off):
            bad += 1
    print("  %d ranges, %d wrong sym/off" % (n, bad))
    return 0 if n and not bad else 1


def norm(p):
    return p.replace("\\", "/")


def cmd_source(elf, listing, every):
    """The last source position printed before an instruction is
    addr2line's for it (path suffix; addr2line's ?? not compared)."""
    cur = None
    sample = []
    k = 0
    for line in open(listing):
        m = INSN.match(line)
        if m:
            k += 1
            if k % int(every) == 0 and cur:
                sample.append((int(m[2], 16), cur))
            continue
        s = line.strip()
        if s and not s.startswith("--") and not s.startswith("@"):
            pos = s.split("  ")[0]
            f, _, ln = pos.rpartition(":")
            cur = (norm(f), int(ln))
    out = subprocess.run(["addr2line", "-e", elf] + ["0x%x" % a for a, _ in sample],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    bad = unknown = 0
    for (a, (f, ln)), o in zip(sample, out):
        af, _, al = o.rpartition(":")
        if af == "??" or not al.split()[0].isdigit():
            unknown += 1
            continue
        if int(al.split()[0]) != ln or not norm(af).endswith(f):
            bad += 1
            if bad < 5:
                print("  0x%x: listing %s:%d addr2line %s" % (a, f, ln, o))
    print("  %d sampled, %d unknown to addr2line, %d differ" % (len(sample), unknown, bad))
    return 0 if len(sample) - unknown > 100 and not bad else 1


def cmd_offsets(listing, packets):
    offs = set(int(l.split()[0]) for l in open(packets) if l.strip())
    n = bad = 0
    for line in open(listing):
        m = re.match(r"^@(\d+)", line)
        if m:
            n += 1
            bad += int(m[1]) not in offs
    print("  %d lines with offsets, %d not a packet's" % (n, bad))
    return 0 if n and not bad else 1


def cmd_time(listing, hz):
    hz = float(hz)
    ts = at = None
    cyc = 0
    n = bad = 0
    for line in open(listing):
        m = re.search(r"-- timestamp (\d+) \(([0-9.]+) s\)", line)
        if m:
            ts, at = int(m[1]), cyc
            bad += abs(float(m[2]) - ts / hz) > 1e-9
            continue
        m = re.search(r"-- cycle count (\d+)", line)
        if m:
            cyc += int(m[1])
            continue
        m = re.search(r"cyc=(\d+) \((\d+)\) t=([0-9.]+)", line)
        if m:
            cyc += int(m[1])
            n += 1
            want = (ts + cyc - at) / hz if ts is not None else cyc / hz
            bad += int(m[2]) != cyc or abs(float(m[3]) - want) > 1e-9 * max(1, want)
    print("  %d timed ranges, %d wrong" % (n, bad))
    return 0 if n and not bad else 1


if __name__ == "__main__":
    fn = {"syms": cmd_syms, "jsonl": cmd_jsonl, "source": cmd_source,
          "offsets": cmd_offsets, "time": cmd_time}[sys.argv[1]]
    sys.exit(fn(*sys.argv[2:]))
