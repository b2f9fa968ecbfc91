"""tests/python/test_binding.py - the Python binding against the C
library's own output: every element field of every shared snapshot (and
the built-in sample) equals what `etmtrace decode --format jsonl` prints,
packets equal `etmtrace packets`; batches are views without copies;
errors raise etmtrace.Error with the library's messages; opening and
closing does not leak; decoding releases the GIL."""
import gc
import hashlib
import json
import os
import threading

import numpy as np
import pytest

import etmtrace
from conftest import SNAPSHOTS, SRC, run_cli, snapshot

# enum etm_elem_kind, etm_isa, etm_insn_class (include/etmtrace/flow.h,
# config.h, insn.h), by the names the CLI's jsonl uses for them.
KIND = {n: i for i, n in enumerate(
    ["invalid", "range", "exception", "exc_return", "trace_on", "nosync",
     "context", "timestamp", "cycle_count", "event", "nomem", "error",
     "buffer_end", "piece", "itm_sw", "itm_ts", "itm_overflow", "dwt_pc",
     "dwt_exc", "dwt_cmp", "dwt_counter"])}
ISA = {"?": 0, "A32": 1, "T32": 2, "TEE": 3, "Jazelle": 4}
# enum etm_isync_reason (packet.h) by the CLI's names
ISYNC = {"periodic": 0, "trace enabled": 1, "overflow": 2, "debug exit": 3}
CLS = {"unknown": 0, "other": 1, "branch": 2, "ibranch": 3, "isb": 4,
       "barrier": 5, "exception": 6, "undefined": 7}
ERRCODE = {etmtrace.errname(c): c for c in range(1, 40)}


def record_of_json(j):
    """The element record (ELEM_DTYPE field order) of a jsonl line: the
    kind's fields as the record documents them, the others zero."""
    h = lambda s: int(s, 16)
    k = KIND[j["kind"]]
    addr = end = ts = ninsn = cyc = ctx = exc = isa = fl = err = rsn = cls = 0
    isy = 0
    if j["kind"] == "range":
        addr, end, ninsn = h(j["start"]), h(j["end"]), j["n"]
        isa, cls = ISA[j["isa"]], CLS[j["last_class"]]
        if "atom" in j:
            fl |= etmtrace.F_ATOM | (etmtrace.F_EXEC if j["atom"] == "E" else 0)
        if "cycles" in j:
            fl |= etmtrace.F_CYCLES
            cyc = j["cycles"]
    elif j["kind"] == "exception":
        exc, addr = j["exception"], h(j["addr"])
        fl |= etmtrace.F_CANCEL if j.get("cancel") else 0
    elif j["kind"] == "trace_on":
        rsn, addr, isy = j["reason"], h(j["addr"]), ISYNC[j["isync"]]
    elif j["kind"] == "context":
        # no "ns"/"hyp" for a core without the Security Extensions: the
        # elements carry 0 (etm_cfg_security_ext())
        fl |= (etmtrace.F_NS if j.get("ns") else 0) | (etmtrace.F_HYP if j.get("hyp") else 0)
        if "ctxid" in j:
            fl |= etmtrace.F_CTXID
            ctx = h(j["ctxid"])
    elif j["kind"] == "timestamp":
        ts = j["timestamp"]
    elif j["kind"] == "cycle_count":
        cyc = j["cycles"]
    elif j["kind"] == "nomem":
        addr = h(j["addr"])
    elif j["kind"] == "error":
        err = ERRCODE[j["error"]]
    elif j["kind"] == "buffer_end":
        err = ERRCODE[j["reason"]]
    return (j["offset"], addr, end, ts, ninsn, cyc, ctx, exc, k, isa,
            h(j["id"]), fl, err, rsn, cls, isy, 0)   # buffer 0: one each


def digest(records):
    n, s = 0, hashlib.sha256()
    for r in records:
        s.update(repr(tuple(int(x) for x in r)).encode())
        n += 1
    return n, s.hexdigest()


def cli_elements(path):
    return digest(record_of_json(json.loads(line))
                  for line in run_cli("decode", path, "--format", "jsonl").splitlines())


def py_elements(path, size=65536):
    def recs():
        with etmtrace.open(path) as d:
            for b in d.batches(size):
                yield from np.asarray(b).tolist()
    return digest(recs())


CASES = [os.path.join(SRC, "examples", "sample")] + [snapshot(s) for s in SNAPSHOTS]


@pytest.mark.parametrize("path", CASES, ids=os.path.basename)
def test_elements_equal_c_library(path):
    n, h = py_elements(path)
    assert n > 0
    assert (n, h) == cli_elements(path)


def test_etmv1_snapshot_equals_c_library(tmp_path):
    # an ETMv1 snapshot (`synth --protocol etmv1`: our binary sample file,
    # streamed past its header) opens through the capture like the others
    d = str(tmp_path / "e1")
    run_cli("synth", d, "--protocol", "etmv1", "--seed", "3", "--insns", "3000")
    n, h = py_elements(d)
    assert n > 0
    assert (n, h) == cli_elements(d)
    with etmtrace.open(d) as dec:
        assert [s["protocol"] for s in dec.sources] == ["etmv1"]


def test_perf_data_equals_c_library(tmp_path):
    # a perf.data file (`synth --perf-data`: its AUX piece read from the
    # file's middle, the decoder made when read) decodes as the CLI
    # decodes it (one piece: the records' buffer index is 0)
    d = str(tmp_path / "pd")
    run_cli("synth", d, "--protocol", "ptm", "--seed", "4", "--insns",
            "3000", "--perf-data")
    p = os.path.join(d, "perf.data")
    n, h = py_elements(p)
    assert n > 0
    assert (n, h) == cli_elements(p)


def test_buffer_end_note(tmp_path):
    # a capture cut inside its last packet (head -c inside a 5-byte
    # branch address): the binding gives the note as the CLI does, kind
    # "buffer_end" with the reason truncated, and counts no error
    d = str(tmp_path / "cut")
    run_cli("synth", d, "--protocol", "etmv3", "--full-addr", "--insns", "3000")
    pk = [json.loads(l) for l in
          run_cli("packets", d, "--format", "jsonl").splitlines()]
    b = [p for p in pk if len(p["bytes"]) == 10][len(pk) // 40]
    with open(os.path.join(d, "trace.bin"), "rb") as f:
        data = f.read()
    with open(os.path.join(d, "trace.bin"), "wb") as f:
        f.write(data[:b["offset"] + 2])
    n, h = py_elements(d)
    assert (n, h) == cli_elements(d)
    with etmtrace.open(d) as dec:
        a = np.concatenate([np.asarray(x) for x in dec.batches()])
    assert etmtrace.KINDS[a["kind"][-1]] == "buffer_end"
    assert a["offset"][-1] == b["offset"]
    assert etmtrace.errname(int(a["error"][-1])) == "truncated"
    c = etmtrace.count(etmtrace.open(d))
    assert c.errors == 0 and c.kinds[etmtrace.KINDS.index("buffer_end")] == 1
    assert c.insns > 0


def test_batch_size_does_not_matter():
    p = snapshot("TC2")
    assert py_elements(p, 7) == py_elements(p, 1 << 20)


def test_instruction_count_tc2():
    # TC2's four decoded sources, by the CLI's --stats
    stats = run_cli("decode", snapshot("TC2"), "--stats")
    want = int([l.split()[1] for l in stats.splitlines()
                if l.startswith("instructions")][0])
    assert etmtrace.count(etmtrace.open(snapshot("TC2"))).insns == want


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_packets_equal_c_library(name):
    # size: the packet's bytes ("size" where the listing truncates them)
    want = [(j["offset"], int(j["id"], 16), j.get("size", len(j["bytes"]) // 2))
            for j in map(json.loads, run_cli("packets", snapshot(name),
                                             "--format", "jsonl").splitlines())
            if "id" in j]
    got = []
    with etmtrace.open(snapshot(name), packets=True) as d:
        assert d.packets
        for b in d.batches():
            assert b.packets
            a = np.asarray(b)
            assert a.dtype == etmtrace.PACKET_DTYPE
            a = a[a["trace_id"] != 0]        # deformatter errors: no id
            got += zip(a["offset"].tolist(), a["trace_id"].tolist(),
                       a["size"].tolist())
    assert len(got) == len(want) and got == want


def test_zero_copy():
    d = etmtrace.open(snapshot("TC2"))
    b = next(d.batches(1000))
    a = np.asarray(b)
    assert a.dtype == etmtrace.ELEM_DTYPE and len(a) == len(b) == 1000
    # the array is a view of the batch's own memory, kept alive by it
    assert a.base.obj is b
    assert np.shares_memory(a, np.asarray(b))
    assert a.ctypes.data == np.asarray(b).ctypes.data
    assert not a.flags.writeable and not a.flags.owndata
    m = memoryview(b)
    assert m.readonly and m.nbytes == 1000 * 56 and m.itemsize == 56
    copy = a.copy()
    del b, m
    gc.collect()                  # the view keeps the batch's memory alive
    assert (a == copy).all()


def test_errors_raise():
    with pytest.raises(etmtrace.Error) as e:
        etmtrace.open("/nonexistent/capture")
    assert "/nonexistent/capture" in str(e.value) and e.value.code > 0
    with pytest.raises(TypeError):
        etmtrace.open(snapshot("TC2"), no_such_option=1)
    with pytest.raises(ValueError):
        etmtrace.open(snapshot("TC2"), protocol="etmv9")
    with pytest.raises(ValueError):
        etmtrace.open(snapshot("TC2"), ids=[0x200])
    with pytest.raises(etmtrace.Error):
        etmtrace.open(snapshot("TC2"), ids=[0x6f])   # no such source
    size = os.path.getsize(os.path.join(snapshot("TC2"), "cstrace.bin"))
    with pytest.raises(ValueError):
        etmtrace.decode_chunk(snapshot("TC2"), 0, size + 16)
    d = etmtrace.open(snapshot("TC2"))
    d.close()
    with pytest.raises(ValueError):
        next(d)


def test_trace_file_with_options(tmp_path):
    # the sample's trace file on its own, configured by options as its
    # snapshot describes it (ptm_0.ini, cpu_0.ini, trace.ini)
    s = os.path.join(SRC, "examples", "sample")
    opts = dict(protocol="ptm", input_format="coresight", ids=[0x13],
                etmcr=0x10001000, etmidr=0x411CF312, etmccer=0x34C01AC2,
                images=[(os.path.join(s, "vectors.bin"), 0),
                        (os.path.join(s, "code.bin"), 0x8000)])
    d = etmtrace.open(os.path.join(s, "trace.bin"), **opts)
    assert [b["format"] for b in d.buffers] == ["coresight"]
    assert py_elements(s) == digest(
        r for b in d.batches() for r in np.asarray(b).tolist())


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_open_close_no_leak():
    p = snapshot("TC2")

    def cycle():
        d = etmtrace.open(p)
        next(d.batches(64))
        d.close()

    for _ in range(100):          # warm up allocator and caches
        cycle()
    gc.collect()
    before = rss_kib()
    for _ in range(1000):
        cycle()
    gc.collect()
    grown = rss_kib() - before
    # a leak of one image (TC2's 2 MiB kernel dump) or decoder per cycle
    # would be gigabytes; allow allocator noise only
    assert grown < 4096, "RSS grew by %d KiB over 1000 cycles" % grown


def test_gil_released(tc2_x64):
    """While one thread is inside a long next() (a single batch of all of
    TC2 x64), another thread gets to run Python code and finds the decoder
    busy; with the GIL held it could only run before or after."""
    d = etmtrace.open(tc2_x64).batches(1 << 24)
    started, seen, out = threading.Event(), [], []

    def work():
        started.set()
        out.append(next(d))

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    while t.is_alive() and not seen:
        try:
            next(d)
        except RuntimeError as e:
            seen.append(str(e))
        except StopIteration:
            break
    t.join()
    assert seen and "in use" in seen[0]
    assert len(out) == 1 and len(out[0]) > 300000


def test_read_error_raises(tmp_path):
    from conftest import replicate
    snap = replicate(tmp_path, 64)          # 2 MiB: read in 1 MiB steps
    d = etmtrace.open(snap).batches(10)
    assert len(next(d)) == 10
    os.truncate(os.path.join(snap, "cstrace.bin"), 0)
    with pytest.raises(etmtrace.Error) as e:
        for _ in d:
            pass
    assert str(e.value) == "decode: " + etmtrace.errstr(e.value.code)
    assert etmtrace.errname(e.value.code) == "io"
