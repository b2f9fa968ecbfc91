#!/usr/bin/python3
"""examples/dask_decode.py - decode many captures, and large captures in
chunks, on a Dask cluster, and merge the counts.

    examples/dask_decode.py PATH... [--workers N | --scheduler ADDR]
                            [--chunk-size BYTES] [--elf FILE[@BIAS]]
                            [--json] [--check]

Each PATH is a capture (snapshot directory or, with options, a trace
file) or a directory of captures. Every trace buffer is planned into
chunks with etmtrace.plan_chunks() (cut at sync points; the plan depends
on the bytes and the chunk size only, not on the number of workers); each
chunk is one task, etmtrace.chunk_counts(path, offset, length), run where
Dask puts it. A task ships only (path, offset, length) out and mergeable
counters back: workers read their own byte ranges from storage they can
see, so raw trace never travels. etmtrace.stitch() keeps the chunks whose
outputs make up the whole decode (the stitching rule of parallel decode)
and their counters are summed per capture and over all of them.

With --workers N a LocalCluster of N single-threaded worker processes is
started; with --scheduler the run goes to an existing dask-distributed
cluster (workers on other machines need the same paths, e.g. a shared
file system, and the etmtrace package). --elf counts instructions per
function of that ELF file's symbols too (the table travels with the
tasks; it is small). --check also decodes every
capture in this process and fails unless the counts are equal.
"""
import argparse
import json
import os
import sys
import time

import dask.bag as db
from dask.distributed import Client, LocalCluster

import etmtrace
from etmtrace import elf


def captures(paths):
    """Snapshot directories and trace files under @paths."""
    for p in paths:
        if os.path.isdir(p) and not os.path.exists(os.path.join(p, "snapshot.ini")):
            yield from captures(sorted(os.path.join(p, q) for q in os.listdir(p)))
        else:
            yield p


def plan(paths, chunk_size):
    """Tasks (path, buffer, offset, length) and the plans to stitch by."""
    tasks, plans = [], {}
    for path in captures(paths):
        with etmtrace.open(path) as d:
            bufs = [i for i, b in enumerate(d.buffers) if b["decoded"]]
        for b in bufs:
            p = etmtrace.plan_chunks(path, buffer=b, chunk_size=chunk_size,
                                     trace_ids=False)
            plans[(path, b)] = p
            tasks += [(path, b, off, length) for off, length, _ in p]
    return tasks, plans


def run_task(task, chunk_size, functions):
    """On a worker: decode one chunk, return its key and counters."""
    path, b, off, length = task
    _, nxt, counts = etmtrace.chunk_counts(path, off, length, functions,
                                           buffer=b, chunk_size=chunk_size)
    return (path, b), (off, nxt, counts)


def merge(results, plans):
    """Per capture: the stitched chunks' counters, summed."""
    by = {}
    for key, r in results:
        by.setdefault(key, []).append(r)
    per = {}
    for key, p in plans.items():
        used = etmtrace.stitch(p, by.get(key, []))
        c = sum((r[2] for r in used), etmtrace.Counts())
        per[key[0]] = per.get(key[0], etmtrace.Counts()) + c
    return per


def single(paths, functions):
    """The reference: each capture decoded whole in this process."""
    return {p: etmtrace.count(etmtrace.open(p), functions)
            for p in captures(paths)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", help="address of a running scheduler")
    ap.add_argument("--chunk-size", type=int, default=etmtrace.CHUNK_SIZE)
    ap.add_argument("--elf", help="FILE[@BIAS]: count per function too")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--check", action="store_true",
                    help="compare with a single-process decode")
    a = ap.parse_args(argv)

    functions = None
    if a.elf:
        path, _, bias = a.elf.partition("@")
        functions = elf.functions(path, int(bias, 0) if bias else 0)
    t0 = time.monotonic()
    tasks, plans = plan(a.paths, a.chunk_size)
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    t1 = time.monotonic()
    bag = db.from_sequence(tasks, npartitions=max(1, len(tasks)))
    results = bag.map(run_task, a.chunk_size, functions).compute()
    per = merge(results, plans)
    t2 = time.monotonic()
    client.close()
    if not a.scheduler:
        cluster.close()
    total = sum(per.values(), etmtrace.Counts())
    out = {"captures": {p: c.summary() for p, c in per.items()},
           "total": total.summary(), "tasks": len(tasks),
           "workers": a.workers if not a.scheduler else None,
           "seconds": {"plan_and_start": round(t1 - t0, 3),
                       "decode_and_merge": round(t2 - t1, 3)}}
    ok = True
    if a.check:
        ref = single(a.paths, functions)
        ok = all(per[p] == ref[p] for p in ref) and set(per) == set(ref)
        out["check"] = "equal" if ok else "DIFFERENT"
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        for p, c in per.items():
            print("%-50s %s" % (p, c.summary()))
        print("total: %s" % total.summary())
        print("%d tasks on %s workers: %.2f s decode and merge"
              % (len(tasks), out["workers"], t2 - t1))
        if a.check:
            print("check against a single-process decode: %s" % out["check"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
