"""tests/python/test_stream.py - live input in Python: etmtrace.decode_stream
over a TCP socket (and a pipe) fed a capture in random pieces with pauses
yields the records of the file decode, the same in every field and order,
and yields its first batch while the sender still holds the rest of the
stream (the sender waits for it: no timing)."""
import os
import random
import socket
import threading
import time

import numpy as np

import etmtrace
from conftest import snapshot

AM = snapshot("am243x-freertos-1")
# the snapshot's registers as options; the ETMv3 source alone
OPTS = dict(protocol="etmv3", etmcr=0xc40, etmidr=0x4104f230, ids=[0x10],
            elfs=[os.path.join(AM, "freertos.out")])


def file_records(path, **opts):
    with etmtrace.open(path, pieces=False, **opts) as d:
        return np.concatenate([np.asarray(b).copy() for b in d])


class Sender(threading.Thread):
    """Writes @data to @write in random pieces with pauses: the first third,
    then nothing more until @go is set, then the rest; then @done()."""

    def __init__(self, data, write, done, seed):
        super().__init__()
        self.data, self.write, self.done = data, write, done
        self.rng = random.Random(seed)
        self.go = threading.Event()
        self.holding = True

    def pieces(self, b):
        i = 0
        while i < len(b):
            k = self.rng.randint(1, 700)
            self.write(b[i:i + k])
            i += k
            if self.rng.random() < 0.3:
                time.sleep(self.rng.random() * 0.01)

    def run(self):
        cut = len(self.data) // 3
        self.pieces(self.data[:cut])
        self.go.wait(60)  # a guard against a hang, not a threshold
        self.holding = False
        self.pieces(self.data[cut:])
        self.done()


def consume(src, sender, **opts):
    """The stream's records; asserts the first batch came while the
    sender held the rest."""
    out, early = [], None
    for b in etmtrace.decode_stream(src, **opts):
        if early is None:
            early = sender.holding
            sender.go.set()
        out.append(np.asarray(b).copy())
    assert early, "the first batch came only after the whole stream"
    return np.concatenate(out)


def test_socket_elements():
    data = open(os.path.join(AM, "etb.bin"), "rb").read()
    want = file_records(os.path.join(AM, "etb.bin"), **OPTS)
    a, b = socket.socketpair()
    s = Sender(data, a.sendall, lambda: a.shutdown(socket.SHUT_WR), 1)
    s.start()
    got = consume(b, s, **OPTS)
    s.join()
    a.close()
    b.close()
    assert len(want) > 10000
    assert got.dtype == want.dtype and len(got) == len(want)
    assert (got == want).all()


def test_pipe_packets():
    data = open(os.path.join(AM, "etb.bin"), "rb").read()
    want = file_records(os.path.join(AM, "etb.bin"), packets=True, **OPTS)
    r, w = os.pipe()

    def write(b):
        while b:
            b = b[os.write(w, b):]
    s = Sender(data, write, lambda: os.close(w), 2)
    s.start()
    got = consume(r, s, packets=True, probe_wait=0, input_format="coresight",
                  **OPTS)
    s.join()
    os.close(r)
    assert len(got) == len(want) and (got == want).all()


def test_stream_refusals():
    try:
        etmtrace.open_stream("s", b"", protocol="etmv3")
        assert False, "an empty stream opened"
    except etmtrace.Error as e:
        assert "empty trace stream" in str(e)
    with etmtrace.open_stream("s", b"\x00" * 64, protocol="etmv3",
                              input_format="raw") as st:
        st.finish()
        try:
            st.push(b"\x00")
            assert False, "push after finish"
        except ValueError:
            pass
