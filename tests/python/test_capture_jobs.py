"""tests/python/test_capture_jobs.py - etmtrace.open(path, jobs=N): the
Decoder reads and decodes through the library's capture run
(etm_capture_next_elems(), etmtrace/caprun.h), on N worker threads for a
regular file; the elements (every field, in order, with their buffer) are
those of jobs=1, on a synthetic two-source CoreSight capture large enough
for the runner to cut it into chunks, whatever the batch size."""
import os

import numpy as np
import pytest

import etmtrace
from conftest import run_cli
from test_binding import digest


@pytest.fixture(scope="module")
def synth_cs(tmp_path_factory):
    d = os.path.join(str(tmp_path_factory.mktemp("jobs")), "snap")
    run_cli("synth", d, "--protocol", "etmv3", "--format", "coresight",
            "--sources", "2", "--insns", "300000", "--async-period", "4096")
    return d


def records(path, batch, **kw):
    with etmtrace.open(path, **kw) as d:
        return digest(r for b in d.batches(batch)
                      for r in np.asarray(b).tolist())


def test_jobs_two_equals_one(synth_cs):
    one = records(synth_cs, 65536)
    assert one[0] > 100000
    assert records(synth_cs, 65536, jobs=2) == one
    assert records(synth_cs, 1000, jobs=2) == one
    assert records(synth_cs, 7, jobs=3) == records(synth_cs, 7)


def test_jobs_refused():
    with pytest.raises(ValueError):
        etmtrace.open("unused", jobs=0)
