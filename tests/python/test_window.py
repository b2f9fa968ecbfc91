"""tests/python/test_window.py - open(..., start=, stop=, last=, at=) keeps
the window's elements, applied in the library: counts and first/last
addresses derived from the FULL decode (the CLI's canonical list, or the
full decode's own records) without the window code."""
import os

import numpy as np
import pytest

import etmtrace
from conftest import SRC, run_cli, snapshot

SAMPLE = os.path.join(SRC, "examples", "sample")


def records(d):
    return np.concatenate([np.asarray(b) for b in d])


def canon(path, *opts):
    """The full decode's instruction addresses (CLI canonical list)."""
    out = run_cli("decode", path, "--format", "canon", *opts)
    return [int(ln.split()[0], 16) for ln in out.splitlines() if ln != "GAP"]


def check_window(a, want):
    """The window's ranges hold len(want) instructions, from want[0] to
    want[-1] (the last range ends 2 or 4 bytes after it)."""
    r = a[a["kind"] == etmtrace.KINDS.index("range")]
    assert int(r["ninsn"].sum()) == len(want)
    assert int(r["address"][0]) == want[0]
    assert 2 <= int(r["end"][-1]) - want[-1] <= 4


def test_sample_start_address_stop_index():
    # by hand (examples/sample/README.txt): 0x8100 is instruction #3, so
    # #3..#13 = 11 instructions, 0x8100 .. 0x8104
    a = records(etmtrace.open(SAMPLE, start="0x8100", stop="#14"))
    check_window(a, canon(SAMPLE)[3:14])
    assert len(canon(SAMPLE)[3:14]) == 11


@pytest.mark.parametrize("opts,cut", [
    ({"start": "#100", "stop": "#2000"}, slice(100, 2000)),
    ({"last": 777}, slice(-777, None)),
    ({"stop": "#1500", "last": 10}, slice(1490, 1500)),
])
def test_tc2_windows(opts, cut):
    full = canon(snapshot("TC2"), "--id", "13")
    a = records(etmtrace.open(snapshot("TC2"), ids=[0x13], **opts))
    check_window(a, full[cut])


def test_tc2_address_window_is_one_trip():
    full = canon(snapshot("TC2"), "--id", "10")
    x = full[len(full) // 2]
    i = full.index(x)
    j = full.index(x, i + 1) if x in full[i + 1:] else len(full)
    a = records(etmtrace.open(snapshot("TC2"), ids=[0x10],
                              start="0x%x" % x, stop="0x%x" % x))
    check_window(a, full[i:j])


def test_am243x_last_at_halt():
    """The N instructions before each of the 3 Debug Halts: from the
    full decode's records, instructions between halts, at most N each."""
    path = snapshot("am243x-freertos-1")
    full = records(etmtrace.open(path))
    want, n = [], 0
    for k, c, e in zip(full["kind"], full["ninsn"], full["exc_num"]):
        if k == 1:
            n += int(c)
        if k == 2 and e == 1:
            want.append(min(n, 4))
            n = 0
    assert want == [4, 1, 4]
    a = records(etmtrace.open(path, last=4, at="halt"))
    got, n = [], 0
    for k, c, e in zip(a["kind"], a["ninsn"], a["exc_num"]):
        if k == 1:
            n += int(c)
        if k == 2 and e == 1:
            got.append(n)
            n = 0
    assert got == want
    assert list(a["kind"]).count(etmtrace.KINDS.index("window")) == 1


def test_window_matches_cli():
    path = snapshot("TC2")
    a = records(etmtrace.open(path, ids=[0x13], start="#50", last=300))
    out = run_cli("decode", path, "--id", "13", "--start", "#50",
                  "--last", "300", "--format", "jsonl")
    assert len(a) == len(out.splitlines())


def test_bad_window_options():
    with pytest.raises(ValueError):
        etmtrace.open(SAMPLE, start="8100")
    with pytest.raises(ValueError):
        etmtrace.open(SAMPLE, last=0)
    with pytest.raises(ValueError):
        etmtrace.open(SAMPLE, last=3, at="middle")
    with pytest.raises(ValueError):
        etmtrace.open(SAMPLE, start="#3", packets=True)
    with pytest.raises(ValueError):
        etmtrace.open(SAMPLE, at="halt")
