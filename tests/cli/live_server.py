#!/usr/bin/python3
"""tests/cli/live_server.py - a TCP server that replays a capture to
`etmtrace ... tcp://HOST:PORT` the way a probe's server does (OpenOCD's
`tpiu create ... -output :PORT`, orbuculum): in random pieces with pauses.

    live_server.py FILE OUT [--first N] [--seed S] [--interrupt]
                   [--fifo PATH | --stdin] -- CMD...

CMD is the etmtrace command line; its argument `{url}` is replaced by the
server's tcp://127.0.0.1:PORT (with --fifo: by PATH, a FIFO the server
makes and writes; with --stdin the server writes the client's standard
input, a pipe). The server sends the first N bytes of FILE
(default: a third), then holds the rest until the client has written at
least one line of output - proof that output comes while the stream is
still open; no timing is measured. Then it sends the rest and closes the
connection (or, with --interrupt, sends the client SIGINT instead and
sends nothing more). The client's stdout goes to OUT, its stderr to
OUT.err; the server prints what it saw and exits with the client's exit
status (3 if the client wrote nothing while the rest was held, 4 if the
client died of a signal, 5 if it exited before it connected).
"""
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

# A guard against a hang (a broken client), not a measured threshold.
GUARD = 60


class Stream:
    """A socket, a FIFO or a pipe, written the same way."""

    def __init__(self, f):
        self.f = f

    def write(self, b):
        if isinstance(self.f, socket.socket):
            self.f.sendall(b)
        else:
            self.f.write(b)
            self.f.flush()

    def close(self):
        if self.f is None:
            return
        if isinstance(self.f, socket.socket):
            self.f.shutdown(socket.SHUT_WR)
        self.f.close()
        self.f = None


def connect(p, srv, fifo):
    """The client's connection (a socket, or the FIFO opened for writing
    once the client has opened it), or None if the client exits first."""
    deadline = time.monotonic() + GUARD
    if srv:
        srv.settimeout(0.1)
    while p.poll() is None and time.monotonic() < deadline:
        try:
            if srv:
                return srv.accept()[0]
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            os.set_blocking(fd, True)
            return os.fdopen(fd, "wb")
        except (socket.timeout, BlockingIOError):
            pass
        except OSError:  # ENXIO: no reader yet
            time.sleep(0.05)
    return None


def send_pieces(conn, data, rng):
    """@data in random pieces of 1-700 bytes, some after a short pause."""
    i = 0
    while i < len(data):
        k = rng.randint(1, 700)
        conn.write(data[i:i + k])
        i += k
        if rng.random() < 0.3:
            time.sleep(rng.random() * 0.01)


def main():
    argv = sys.argv[1:]
    cut = argv.index("--")
    opts, cmd = argv[:cut], argv[cut + 1:]
    path, out = opts[0], opts[1]
    first, seed, interrupt, fifo, stdin = None, 1, False, None, False
    i = 2
    while i < len(opts):
        if opts[i] == "--fifo":
            fifo = opts[i + 1]
            i += 1
        elif opts[i] == "--stdin":
            stdin = True
        elif opts[i] == "--first":
            first = int(opts[i + 1])
            i += 1
        elif opts[i] == "--seed":
            seed = int(opts[i + 1])
            i += 1
        elif opts[i] == "--interrupt":
            interrupt = True
        i += 1
    data = open(path, "rb").read()
    first = len(data) // 3 if first is None else min(first, len(data))
    rng = random.Random(seed)

    if fifo:
        os.mkfifo(fifo)
        url = fifo
    elif not stdin:
        srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)
        url = "tcp://127.0.0.1:%d" % srv.getsockname()[1]
    cmd = [url if a == "{url}" else a for a in cmd] if not stdin else cmd
    err = open(out + ".err", "wb")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err,
                         stdin=subprocess.PIPE if stdin else None)
    got = []
    first_line = threading.Event()

    def reader():
        while True:
            b = p.stdout.read1(65536)
            if not b:
                break
            got.append(b)
            if b"\n" in b:
                first_line.set()
        first_line.set()  # the client ended: let the server go on

    t = threading.Thread(target=reader)
    t.start()
    peer = p.stdin if stdin else connect(p, srv if not fifo else None, fifo)
    if peer is None:
        print("live_server: the client exited (%d) before it connected"
              % p.wait())
        t.join()
        return 5
    conn = Stream(peer)
    send_pieces(conn, data[:first], rng)
    if not first_line.wait(GUARD):  # it waits for the rest: it would hang
        p.kill()
    held = sum(len(b) for b in got)
    early = held > 0 and p.poll() is None
    if interrupt:
        p.send_signal(signal.SIGINT)
    else:
        send_pieces(conn, data[first:], rng)
        conn.close()
    rc = p.wait(GUARD)
    conn.close()
    t.join()
    with open(out, "wb") as f:
        f.write(b"".join(got))
    print("live_server: sent %d of %d bytes, held the rest; the client wrote "
          "%d bytes meanwhile; exit %d"
          % (first, len(data), held, rc))
    if rc < 0 and early:
        return 4
    return rc if early else 3


if __name__ == "__main__":
    sys.exit(main())
