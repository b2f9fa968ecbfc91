"""tests/python/test_outputs.py - the library's parallel outputs from Python:
listing() gives the same text on 1 and 3 jobs, and its canonical list of
one source is the CLI's `decode --format canon --id 10` byte for byte (the
CLI drives its own formatter); coverage() gives the same saved coverage on
1 and 3 jobs, equal to the CLI's `coverage --format save`. On TC2's buffer
replicated 64 times (cut into chunks by the runner), text and jsonl on
TC2 itself."""
import os

import pytest

import etmtrace
from conftest import run_cli, snapshot


def test_listing_jobs_and_cli(tc2_x64):
    one = etmtrace.listing(tc2_x64, format="canon", ids=[0x10], jobs=1)
    assert one.count("\n") > 100000
    assert etmtrace.listing(tc2_x64, format="canon", ids=[0x10], jobs=3) == one
    assert run_cli("decode", "--format", "canon", "--id", "10", tc2_x64) == one
    tc2 = snapshot("TC2")
    text = etmtrace.listing(tc2, jobs=1)
    assert text.startswith("[0x10] ") and etmtrace.listing(tc2, jobs=3) == text
    jsonl = etmtrace.listing(tc2, format="jsonl", jobs=2)
    assert jsonl == etmtrace.listing(tc2, format="jsonl", jobs=1)


def test_listing_perf_data_piece(tmp_path):
    # a perf.data file's AUX piece, read from the file's middle (the
    # library's file range: etm_capture_range()), listed on 1 and 2 jobs
    # as the CLI lists it
    d = str(tmp_path / "pd")
    run_cli("synth", d, "--protocol", "ptm", "--seed", "4", "--insns",
            "3000", "--perf-data")
    p = os.path.join(d, "perf.data")
    one = etmtrace.listing(p, format="canon", jobs=1)
    assert one.count("\n") > 1000
    assert etmtrace.listing(p, format="canon", jobs=2) == one
    assert run_cli("decode", "--format", "canon", p) == one


def test_coverage_jobs_and_cli(tc2_x64):
    one = etmtrace.coverage(tc2_x64, jobs=1)
    assert one and etmtrace.coverage(tc2_x64, jobs=3) == one
    assert run_cli("coverage", "--format", "save", tc2_x64) == one


def test_bad_arguments(tc2_x64):
    with pytest.raises(ValueError):
        etmtrace.listing(tc2_x64, format="html")
    with pytest.raises(ValueError):
        etmtrace.listing(tc2_x64, buffer=5)
