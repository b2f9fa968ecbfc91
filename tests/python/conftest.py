"""tests/python/conftest.py - shared fixtures of the Python binding's tests:
the CLI (the C library's own output to compare with), the shared snapshots,
TC2's buffer replicated as a larger snapshot. Without the shared data or
the CLI the whole suite exits 77 (ctest: skipped, which CI fails on)."""
import os
import shutil
import subprocess
import sys

import pytest

SRC = os.environ.get("ETM_SRCDIR",
                     os.path.dirname(os.path.dirname(os.path.dirname(
                         os.path.abspath(__file__)))))
SHARED = os.environ.get("ETM_SHARED", os.path.join(SRC, "..", "shared"))
CLI = os.environ.get("ETMTRACE", os.path.join(SRC, "build", "etmtrace"))
SNAPSHOTS = ["TC2", "am243x-freertos-1", "trace_cov_a15"]


def pytest_configure(config):
    missing = [s for s in SNAPSHOTS
               if not os.path.exists(os.path.join(SHARED, "snapshots", s))]
    if missing or not os.access(CLI, os.X_OK):
        sys.stderr.write("skip: shared snapshots %s or CLI %s missing\n"
                         % (missing, CLI))
        pytest.exit("missing test data", returncode=77)


def snapshot(name):
    return os.path.join(SHARED, "snapshots", name)


def run_cli(*args):
    """stdout of the etmtrace CLI (exit status 0 or 1: decode errors)."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    assert p.returncode in (0, 1), p.stderr
    return p.stdout


def replicate(tmpdir, copies):
    """A copy of TC2 whose buffer is TC2's cstrace.bin @copies times."""
    src = snapshot("TC2")
    dst = os.path.join(str(tmpdir), "TC2x%d" % copies)
    os.mkdir(dst)
    for f in os.listdir(src):
        if f.endswith(".ini") or f.endswith("_dump.bin"):
            # copies: the loader does not follow links out of a snapshot
            shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    with open(os.path.join(src, "cstrace.bin"), "rb") as f:
        one = f.read()
    with open(os.path.join(dst, "cstrace.bin"), "wb") as f:
        for _ in range(copies):
            f.write(one)
    return dst


@pytest.fixture(scope="session")
def tc2_x64(tmp_path_factory):
    d = replicate(tmp_path_factory.mktemp("tc2"), 64)
    yield d
    shutil.rmtree(d, ignore_errors=True)
