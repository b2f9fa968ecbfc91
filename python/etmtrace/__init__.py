"""etmtrace: ARM CoreSight ETMv3 / PTM program-flow trace decoding.

A thin layer over libetmtrace's C extension (etmtrace._etmtrace)::

    import etmtrace, numpy as np
    for batch in etmtrace.open("examples/sample").batches():
        a = np.asarray(batch)            # structured array, no copy
        print(a["ninsn"].sum())

``open(path, **options)`` opens a snapshot directory or a trace file;
its ``batches()`` yields :class:`Batch` objects whose records have the
dtype :data:`ELEM_DTYPE` (packets with ``packets=True``:
:data:`PACKET_DTYPE`). ``plan_chunks`` and ``decode_chunk`` split one
trace buffer into chunks that decode independently (on other processes
or machines); :func:`decode_stream` decodes a socket or pipe as its bytes
arrive (live input); :func:`stitch` puts their results back in order so that the
union is exactly the whole decode. :class:`Counts` are mergeable
counters over elements.
"""
import os as _os
import select as _select
import socket as _socket
import time as _time

from ._etmtrace import (CHUNK_SIZE, ELEM_FORMAT, VERSION, Batch, Decoder,
                        Error, Stream, coverage, decode_chunk, errname, errstr,
                        listing, open, open_stream, plan_chunks)

__all__ = ["open", "decode_stream", "open_stream", "Stream", "plan_chunks", "decode_chunk", "stitch", "count",
           "chunk_counts", "listing", "coverage", "Counts", "Batch", "Decoder", "Error", "errstr", "errname",
           "ELEM_DTYPE", "PACKET_DTYPE", "KINDS", "ISAS", "CLASSES",
           "CHUNK_SIZE", "STREAM_PROBE", "VERSION"]
__version__ = VERSION

#: Element kinds (the record's ``kind`` field indexes this tuple). A
#: ``data`` record (ETMv3 data trace): ``address`` = its instruction,
#: ``end`` = data address, ``ninsn`` = value, ``exc_num`` = ETM_DATA_* flags
#: (etmtrace/flow.h), ``reason`` = size, ``isync`` = out-of-order tag.
KINDS = ("invalid", "range", "exception", "exc_return", "trace_on",
         "nosync", "context", "timestamp", "cycle_count", "event", "nomem",
         "error", "buffer_end", "piece", "window", "itm_sw", "itm_ts",
         "itm_overflow", "dwt_pc", "dwt_exc", "dwt_cmp", "dwt_counter", "data")
#: Instruction sets (``isa``).
ISAS = ("unknown", "A32", "T32", "TEE", "Jazelle")
#: Class of a range's last instruction (``last_class``).
CLASSES = ("unknown", "other", "branch", "ibranch", "isb", "barrier",
           "exception", "undefined")
#: ``flags`` bits.
F_ATOM, F_EXEC, F_CYCLES, F_CANCEL, F_CTXID, F_NS, F_HYP = (
    0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40)

K_RANGE = 1

_ELEM_FIELDS = [("offset", "<u8"), ("address", "<u8"), ("end", "<u8"),
                ("timestamp", "<u8"), ("ninsn", "<u4"), ("cycles", "<u4"),
                ("ctxid", "<u4"), ("exc_num", "<u2"), ("kind", "u1"),
                ("isa", "u1"), ("trace_id", "u1"), ("flags", "u1"),
                ("error", "u1"), ("reason", "u1"), ("last_class", "u1"),
                ("isync", "u1"), ("buffer", "u1")]
_PACKET_FIELDS = [("offset", "<u8"), ("value", "<u4"), ("type", "u1"),
                  ("trace_id", "u1"), ("size", "u1"), ("count", "u1")]


def _dtype(fields, itemsize):
    try:
        import numpy as np
    except ImportError:          # numpy is optional: batches still work
        return None
    names = [n for n, _ in fields]
    fmts = [f for _, f in fields]
    offs, o = [], 0
    for f in fmts:
        offs.append(o)
        o += np.dtype(f).itemsize
    return np.dtype({"names": names, "formats": fmts, "offsets": offs,
                     "itemsize": itemsize})


#: numpy dtype of an element record (what ``numpy.asarray(batch)`` gives).
ELEM_DTYPE = _dtype(_ELEM_FIELDS, 56)
#: numpy dtype of a packet record.
PACKET_DTYPE = _dtype(_PACKET_FIELDS, 16)


class Counts:
    """Mergeable counters over decoded elements: instructions, elements
    per kind, taken branches (ranges whose last instruction is a branch
    that executed), errors, executions per address range
    ``{(start, end): n}`` and, given a function table
    (:func:`etmtrace.elf.functions`), instructions per function ``funcs``
    (a range that is not inside one function counts under "(crossing)",
    one outside every function under "(none)": never guessed).
    ``a + b`` merges; so does ``sum(counts)``."""

    __slots__ = ("insns", "kinds", "taken", "ranges", "funcs")

    def __init__(self):
        self.insns = 0
        self.kinds = [0] * len(KINDS)
        self.taken = 0
        self.ranges = {}
        self.funcs = {}

    def _add_functions(self, r, fn):
        import numpy as np
        n = r["ninsn"].astype(np.int64)
        get = self.funcs.get
        inside = within = np.zeros(len(r), dtype=bool)
        if len(fn):
            i = np.searchsorted(fn.starts, r["address"], side="right") - 1
            end = fn.ends[np.maximum(i, 0)]
            inside = (i >= 0) & (r["address"] < end)
            within = inside & (r["end"] <= end)
            w = np.bincount(i[within], weights=n[within], minlength=len(fn))
            for k in np.nonzero(w)[0].tolist():
                self.funcs[fn.names[k]] = get(fn.names[k], 0) + int(w[k])
        for key, m in (("(crossing)", inside & ~within), ("(none)", ~inside)):
            if m.any():
                self.funcs[key] = get(key, 0) + int(n[m].sum())

    def add_batch(self, batch, functions=None):
        """Count the elements of one batch (an element Batch or array);
        per function too with a function table."""
        import numpy as np
        a = np.asarray(batch)
        for k, n in enumerate(np.bincount(a["kind"], minlength=len(KINDS))):
            self.kinds[k] += int(n)
        r = a[a["kind"] == K_RANGE]
        if not len(r):
            return self
        self.insns += int(r["ninsn"].sum(dtype=np.uint64))
        if functions is not None:
            self._add_functions(r, functions)
        br = (r["last_class"] == 2) | (r["last_class"] == 3)
        ex = (r["flags"] & (F_ATOM | F_EXEC)) == (F_ATOM | F_EXEC)
        self.taken += int(np.count_nonzero(br & ex))
        get = self.ranges.get
        if int(r["end"].max()) < 1 << 32:
            # 32-bit addresses (ETMv3 / PTM): one 64-bit key per range
            keys = (r["address"] << np.uint64(32)) | r["end"]
            uk, cnt = np.unique(keys, return_counts=True)
            pairs = ((k >> 32, k & 0xffffffff) for k in uk.tolist())
        else:
            keys = np.stack((r["address"], r["end"]), axis=1)
            uk, cnt = np.unique(keys, axis=0, return_counts=True)
            pairs = map(tuple, uk.tolist())
        for key, c in zip(pairs, cnt.tolist()):
            self.ranges[key] = get(key, 0) + c
        return self

    @property
    def errors(self):
        return self.kinds[KINDS.index("error")]

    def __iadd__(self, other):
        self.insns += other.insns
        self.taken += other.taken
        self.kinds = [a + b for a, b in zip(self.kinds, other.kinds)]
        for mine, theirs in ((self.ranges, other.ranges),
                             (self.funcs, other.funcs)):
            get = mine.get
            for k, c in theirs.items():
                mine[k] = get(k, 0) + c
        return self

    def __add__(self, other):
        out = Counts()
        out += self
        out += other
        return out

    __radd__ = __add__        # sum() starts with 0

    def __eq__(self, other):
        return (isinstance(other, Counts) and self.insns == other.insns and
                self.kinds == other.kinds and self.taken == other.taken and
                self.ranges == other.ranges and self.funcs == other.funcs)

    def summary(self):
        """A dict of the totals (no ranges)."""
        d = {"instructions": self.insns, "taken_branches": self.taken,
             "ranges": len(self.ranges)}
        if self.funcs:
            d["functions"] = len(self.funcs)
        d.update({k: n for k, n in zip(KINDS, self.kinds) if n})
        return d

    def __repr__(self):
        return "Counts(%r)" % (self.summary(),)


def count(decoder, functions=None):
    """Counts of every element of a Decoder (or any iterable of batches),
    per function too with a function table."""
    c = Counts()
    for b in decoder:
        c.add_batch(b, functions)
    return c


def chunk_counts(path, offset, length, functions=None, **options):
    """Decode one chunk of a plan and count it: ``(offset, next_chunk,
    Counts)``, small enough to send back from a worker. ``options`` as for
    :func:`decode_chunk` (pass the plan's ``chunk_size``)."""
    d = decode_chunk(path, offset, length, **options)
    with d:
        c = count(d.batches(), functions)
        return offset, d.next_chunk, c


def stitch(plan, results):
    """The results of the chunks whose outputs make up the whole decode,
    in input order. ``results`` are ``(offset, next_chunk, payload)``
    triples (any order, one per chunk of ``plan``). The rule of parallel
    decode: chunk 0's output comes first, then that of the chunk it names
    as next (normally its successor; further on where a chunk's decoder
    had to run through whole chunks that never converged), until the end
    of input. Raises ValueError if a needed chunk is missing."""
    by = {r[0]: r for r in results}
    end = plan[-1][0] + plan[-1][1] if plan else 0
    out, want = [], 0
    while want < end:
        if want not in by:
            raise ValueError("no result for the chunk at offset %d" % want)
        out.append(by[want])
        if by[want][1] <= want:
            raise ValueError("chunk at %d names no successor" % want)
        want = by[want][1]
    return out


#: Bytes of a stream's head that detection and inference see, at most.
STREAM_PROBE = 256 << 10


def _reader(src):
    """A function (n, timeout) -> bytes (b"" at the end) or None (nothing
    within @timeout seconds; None: wait) over a socket, a file descriptor
    or an unbuffered file object (its fileno())."""
    sock = src if isinstance(src, _socket.socket) else None
    fd = src if isinstance(src, int) else src.fileno()

    def read(n, timeout):
        while True:
            r, _, _ = _select.select([fd], [], [], timeout)
            if not r:
                return None
            try:
                return sock.recv(n) if sock is not None else _os.read(fd, n)
            except (BlockingIOError, InterruptedError):
                continue
            except ConnectionResetError:
                return b""
    return read


def decode_stream(src, *, probe_wait=1.0, name="stream", **options):
    """Decode a trace stream as it arrives: @src is a connected socket
    (OpenOCD's ``tpiu create ... -output :PORT``, orbuculum), a file
    descriptor or an unbuffered file object (a FIFO, a pipe). Yields a
    :class:`Batch` of elements (of packets with ``packets=True``) after
    each read that gives any, and the rest at the end of the stream (the
    peer closed it); no end of input is needed for the first ones.

    The stream's head - up to :data:`STREAM_PROBE` bytes, read until
    @probe_wait seconds after its first byte - is what format detection and
    inference see: give the configuration (``protocol``, ``etmcr``,
    ``input_format``, ``ids``) for short heads. Options as for :func:`open`
    (no ETMv1 sample files). What the decoder holds back until more input
    comes is in doc/live.md."""
    read = _reader(src)
    head = read(STREAM_PROBE, None) or b""
    eof = not head
    deadline = _time.monotonic() + probe_wait
    while not eof and len(head) < STREAM_PROBE:
        left = deadline - _time.monotonic()
        b = read(STREAM_PROBE - len(head), left) if left > 0 else None
        if b is None:
            break
        eof = not b
        head += b
    with open_stream(name, head, **options) as st:
        b = st.push(head)
        if b is not None:
            yield b
        while not eof:
            data = read(1 << 16, None)
            if not data:
                break
            b = st.push(data)
            if b is not None:
                yield b
        b = st.finish()
        if b is not None:
            yield b
