#!/usr/bin/python3
# tests/snapshot/profile_check.py - independent checks of `etmtrace profile`
# outputs. Function ranges come from readelf -sW / -SW output parsed here
# (not from etmtrace's symbol code): FUNC symbols, and global/weak NOTYPE
# symbols in executable sections; ARM mapping symbols ($a $t $d $x) skipped;
# Thumb bit cleared; at one address the sized, then global, then weak, then
# FUNC symbol wins; a sized symbol covers its size, an unsized one runs to
# its section end; each range is cut at the next start.
import collections
import json
import re
import subprocess
import sys


def elf_functions(elf):
    sec = {}
    for line in subprocess.run(["readelf", "-SW", elf], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
        if m:
            idx, addr, size, flags = int(m[1]), int(m[4], 16), int(m[5], 16), m[6]
            sec[idx] = (addr, addr + size, "X" in flags, "A" in flags)
    syms = []
    seq = 0
    for line in subprocess.run(["readelf", "-sW", elf], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0][:-1].isdigit() or f[6] in ("UND", "ABS"):
            continue
        val, size, typ, bind, ndx, name = int(f[1], 16), int(f[2]), f[3], f[4], f[6], f[7]
        if not ndx.isdigit():
            continue
        if re.match(r"^\$[atdx](\.|$)", name):
            continue
        ndx = int(ndx)
        if typ == "FUNC":
            kind = 0
        elif typ == "NOTYPE" and bind != "LOCAL" and sec.get(ndx, (0, 0, False))[2]:
            kind = 1
        else:
            continue
        start = val & ~1
        rank = (0 if size else 8) + {"GLOBAL": 0, "WEAK": 1}.get(bind, 2) + 4 * kind
        end = start + size if size else (sec[ndx][1] if ndx in sec and sec[ndx][3] else start + 4096)
        syms.append((start, rank, seq, end, name))
        seq += 1
    syms.sort()
    out = []
    for s in syms:
        if out and out[-1][0] == s[0]:
            continue
        out.append(s)
    ranges = []
    for i, (start, _, _, end, name) in enumerate(out):
        nxt = out[i + 1][0] if i + 1 < len(out) else None
        if nxt is not None and end > nxt:
            end = nxt
        ranges.append((start, end, name))
    return ranges


def canon_addresses(path):
    with open(path) as f:
        for line in f:
            if line.startswith("GAP"):
                continue
            yield int(line.split()[0], 16)


def bin_counts(elf, canon):
    import bisect
    ranges = elf_functions(elf)
    starts = [r[0] for r in ranges]
    counts = collections.Counter()
    total = 0
    for a in canon_addresses(canon):
        total += 1
        i = bisect.bisect_right(starts, a) - 1
        name = ranges[i][2] if i >= 0 and a < ranges[i][1] else "[unknown]"
        counts[name] += 1
    return counts, total


def flat_counts(path):
    counts = collections.Counter()
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            f5 = line.split(None, 5)
            counts[f5[5].rstrip("\n")] += int(f5[2])
    return counts


def cmd_flat(elf, canon, flat):
    want, total = bin_counts(elf, canon)
    got = flat_counts(flat)
    bad = [(n, want[n], got[n]) for n in set(want) | set(got) if want[n] != got[n]]
    for b in sorted(bad)[:10]:
        print("  differs: %s independent %d profile %d" % b)
    print("  %d instructions, %d functions, %d differ" % (total, len(want), len(bad)))
    return 0 if not bad and sum(got.values()) == total else 1


def cmd_folded(folded, total):
    n = 0
    with open(folded) as f:
        for line in f:
            n += int(line.rsplit(" ", 1)[1])
    print("  folded total %d, instructions %s" % (n, total))
    return 0 if n == int(total) else 1


def cmd_perfetto(path, total):
    with open(path) as f:
        doc = json.load(f)
    tracks = collections.defaultdict(list)
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            tracks[e["tid"]].append(e)
    root_sum = 0
    for tid, evs in tracks.items():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []   # [end, children_dur, dur]
        for e in evs:
            s, d = e["ts"], e["dur"]
            while stack and s >= stack[-1][0] - 1e-6:
                top = stack.pop()
                if top[1] > top[2] + 1e-6:
                    print("  children longer than parent on", tid)
                    return 1
            if stack:
                if s + d > stack[-1][0] + 1e-6:
                    print("  slice at", s, "overlaps its parent on track", tid)
                    return 1
                stack[-1][1] += d
            else:
                root_sum += d
            stack.append([s + d, 0.0, d])
        while stack:
            top = stack.pop()
            if top[1] > top[2] + 1e-6:
                print("  children longer than parent on", tid)
                return 1
    print("  %d tracks, %d slices, root durations %.0f, instructions %s" %
          (len(tracks), sum(len(v) for v in tracks.values()), root_sum, total))
    return 0 if abs(root_sum - int(total)) < 1e-3 else 1


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "flat":
        sys.exit(cmd_flat(*sys.argv[2:5]))
    if cmd == "folded":
        sys.exit(cmd_folded(*sys.argv[2:4]))
    if cmd == "perfetto":
        sys.exit(cmd_perfetto(*sys.argv[2:4]))
    sys.exit(2)
