"""tests/python/test_chunks.py - plan_chunks() and decode_chunk() from
Python: the plan covers the buffer in contiguous chunks starting at sync
points; the chunks, each decoded on its own and stitched by stitch(), give
exactly the elements of one decode of the whole buffer (every field), and
their Counts add up to the whole decode's; and the Dask example on two
local workers merges to the single-process counts."""
import json
import os
import subprocess
import sys

import numpy as np

import etmtrace
from conftest import SNAPSHOTS, SRC, run_cli, snapshot
from test_binding import digest


def chunk_records(path, off, length, size):
    d = etmtrace.decode_chunk(path, off, length, chunk_size=size)
    recs = [r for b in d.batches() for r in np.asarray(b).tolist()]
    return off, d.next_chunk, recs


def test_plan_and_stitch(tc2_x64):
    size = 256 << 10
    buf = os.path.join(tc2_x64, "cstrace.bin")
    total = os.path.getsize(buf)
    plan = etmtrace.plan_chunks(tc2_x64, chunk_size=size)
    assert len(plan) >= 8
    assert plan == etmtrace.plan_chunks(tc2_x64, chunk_size=size)
    with open(buf, "rb") as f:
        data = f.read()
    pos = 0
    for off, length, ids in plan:
        assert off == pos and length > 0
        pos += length
        # after the first: a frame whose first byte is an ID change
        # (CoreSight formatter: odd byte at an even position, not 0xFF)
        assert off % 16 == 0
        assert off == 0 or (data[off] & 1 and data[off] != 0xff)
        assert set(ids) <= {0x10, 0x11, 0x12, 0x13} and ids
    assert pos == total
    res = [chunk_records(tc2_x64, off, n, size) for off, n, _ in plan]
    used = etmtrace.stitch(plan, res)
    assert 1 < len(used) <= len(plan)
    whole = digest(r for b in etmtrace.open(tc2_x64) for r in np.asarray(b).tolist())
    assert digest(r for u in used for r in u[2]) == whole


def test_chunk_counts_merge(tc2_x64):
    size = 96 << 10   # small heads: chunk 0 runs through the rest
    plan = etmtrace.plan_chunks(tc2_x64, chunk_size=size, trace_ids=False)
    res = [etmtrace.chunk_counts(tc2_x64, off, n, chunk_size=size)
           for off, n, _ in plan]
    merged = sum((r[2] for r in etmtrace.stitch(plan, res)), etmtrace.Counts())
    whole = etmtrace.count(etmtrace.open(tc2_x64))
    assert merged == whole and merged.insns > 1000000


def test_small_capture_is_one_chunk():
    p = snapshot("trace_cov_a15")
    plan = etmtrace.plan_chunks(p)
    assert len(plan) == 1 and plan[0][0] == 0
    off, nxt, c = etmtrace.chunk_counts(p, 0, plan[0][1])
    assert nxt == plan[0][1] and c == etmtrace.count(etmtrace.open(p))


def test_dask_two_local_workers(tc2_x64):
    ex = os.path.join(SRC, "examples", "dask_decode.py")
    paths = [tc2_x64] + [snapshot(s) for s in SNAPSHOTS]
    p = subprocess.run([sys.executable, ex, "--workers", "2", "--chunk-size",
                        str(256 << 10), "--json", "--check", *paths],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout)
    assert out["check"] == "equal" and out["workers"] == 2
    assert out["tasks"] > len(paths)       # TC2 x64 went in chunks
    # the single-process reference, in this process too
    for path in paths:
        want = etmtrace.count(etmtrace.open(path)).summary()
        assert out["captures"][path] == want


def test_plan_and_stitch_etmv1(tmp_path):
    # ETMv1 samples are cut at a BE/BD record (flow/etm1_run.c), not at
    # A-syncs: 4-byte aligned chunks whose stitched elements are the whole
    # decode's, on the 4-bit port with cycle counts and on the 16-bit one
    # with data packets (synth --protocol etmv1)
    size = 64 << 10
    for n, extra in ((1, ["--port", "4", "--cycle-accurate"]),
                     (2, ["--port", "16", "--data-trace", "both"])):
        snap = str(tmp_path / ("e1_%d" % n))
        run_cli("synth", snap, "--protocol", "etmv1", "--seed", str(n),
                "--insns", "60000", *extra)
        plan = etmtrace.plan_chunks(snap, chunk_size=size)
        assert len(plan) >= 4
        assert all(off % 4 == 0 for off, _, _ in plan)
        res = [chunk_records(snap, off, m, size) for off, m, _ in plan]
        used = etmtrace.stitch(plan, res)
        whole = digest(r for b in etmtrace.open(snap)
                       for r in np.asarray(b).tolist())
        assert digest(r for u in used for r in u[2]) == whole
