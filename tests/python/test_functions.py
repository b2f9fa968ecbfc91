"""tests/python/test_functions.py - per-function counts: the function table
read from an ELF file equals readelf's FUNC symbols (binutils, an
independent reader), and the instructions per function of the decoded
am243x FreeRTOS capture equal those computed here from the CLI's jsonl
ranges and readelf's table (a range counts for the function that holds it
whole; "(crossing)" / "(none)" otherwise); chunk counts merge to them."""
import bisect
import json
import os
import subprocess

import etmtrace
from etmtrace import elf
from conftest import run_cli, snapshot

SNAP = snapshot("am243x-freertos-1")
ELF = os.path.join(SNAP, "freertos.out")


def readelf_functions():
    out = subprocess.run(["readelf", "-sW", ELF], capture_output=True,
                         text=True, check=True).stdout
    first = {}
    for line in out.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[3] == "FUNC" and f[6] != "UND" and int(f[2], 0):
            start = int(f[1], 16) & ~1
            first.setdefault(start, []).append((start + int(f[2], 0), f[7]))
    # the table keeps one entry per start: the least (end, name)
    return {s: min(v) for s, v in first.items()}


def test_function_table_equals_readelf():
    fn = elf.functions(ELF)
    want = readelf_functions()
    got = {s: (e, n) for s, e, n in zip(fn.starts.tolist(), fn.ends.tolist(),
                                        fn.names)}
    assert len(got) > 500 and got == want


def test_counts_per_function():
    table = readelf_functions()
    starts = sorted(table)
    want = {}
    for line in run_cli("decode", SNAP, "--format", "jsonl").splitlines():
        j = json.loads(line)
        if j["kind"] != "range":
            continue
        s, e = int(j["start"], 16), int(j["end"], 16)
        k = bisect.bisect_right(starts, s) - 1
        fend, name = table[starts[k]] if k >= 0 else (0, None)
        key = "(none)" if k < 0 or s >= fend else (
            name if e <= fend else "(crossing)")
        want[key] = want.get(key, 0) + j["n"]
    fn = elf.functions(ELF)
    c = etmtrace.count(etmtrace.open(SNAP), fn)
    assert c.funcs == want and sum(want.values()) == c.insns
    assert len([k for k in want if not k.startswith("(")]) > 20
    # chunks: the ETB read as one input (in pieces, doc/circular.md, it is
    # one chunk); the same instructions, per function, as in pieces
    c1 = etmtrace.count(etmtrace.open(SNAP, pieces=False), fn)
    assert c1.funcs == c.funcs and c1.insns == c.insns
    plan = etmtrace.plan_chunks(SNAP, chunk_size=16384, pieces=False)
    res = [etmtrace.chunk_counts(SNAP, o, n, fn, chunk_size=16384, pieces=False)
           for o, n, _ in plan]
    assert len(plan) > 2
    assert sum((r[2] for r in etmtrace.stitch(plan, res)), etmtrace.Counts()) == c1
    assert len(etmtrace.plan_chunks(SNAP, chunk_size=16384)) == 1
