#!/usr/bin/python3
"""bench/py_bench.py - speed of the Python binding against the C CLI on
TC2's buffer replicated N times (default 512 = 16 MiB): `etmtrace decode
--stats` (one job, and the default of one per CPU) against etmtrace.open()
iterating batches into numpy (np.asarray and a sum over ninsn per batch),
runs alternating in one invocation; medians. The C figure is the decode
time the CLI reports itself (`elapsed`: no process start, no snapshot
loading); the Python figure includes etmtrace.open() (snapshot and
images) and every batch turned into a numpy array and reduced.

    PYTHONPATH=build/python bench/py_bench.py [--copies 512] [--runs 5]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import etmtrace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=512)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cli", default=os.path.join(HERE, "..", "build", "etmtrace"))
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "build", "testdata"))
    a = ap.parse_args()
    os.environ["ETM_SHARED"] = a.shared
    import conftest
    tmp = tempfile.mkdtemp()
    try:
        snap = conftest.replicate(tmp, a.copies)
        mib = os.path.getsize(os.path.join(snap, "cstrace.bin")) / 2**20
        t = {"c1": [], "cN": [], "py": []}
        insns = None
        for _ in range(a.runs):
            for key, jobs in (("c1", ["--jobs", "1"]), ("cN", [])):
                out = subprocess.run([a.cli, "decode", snap, "--stats", *jobs],
                                     capture_output=True, text=True).stdout
                t[key].append(float([l.split()[1] for l in out.splitlines()
                                     if l.startswith("elapsed")][0]))
            t0 = time.perf_counter()
            n = 0
            for b in etmtrace.open(snap).batches():
                n += int(np.asarray(b)["ninsn"].sum())
            t["py"].append(time.perf_counter() - t0)
            want = int([l.split()[1] for l in out.splitlines()
                        if l.startswith("instructions")][0])
            assert n == want, (n, want)
            insns = n
        med = {k: statistics.median(v) for k, v in t.items()}
        print("TC2 x%d: %.1f MiB, %d instructions, %d runs each (medians)"
              % (a.copies, mib, insns, a.runs))
        for k, label in (("c1", "C decode --stats --jobs 1"),
                         ("cN", "C decode --stats (one job per CPU)"),
                         ("py", "Python batches -> numpy")):
            print("  %-36s %7.3f s  %7.1f MiB/s  %6.1f M insn/s"
                  % (label, med[k], mib / med[k], insns / med[k] / 1e6))
        print("  Python / C one job: %.2f   Python / C per CPU: %.2f"
              % (med["c1"] / med["py"], med["cN"] / med["py"]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
