#!/usr/bin/env python3
"""tests/cli/circ-dump.py - an ETB dump of two runs made by the encoder, and
the check of its decode against the generator's expected instruction lists
(doc/circular.md).

  circ-dump.py make RUN1 RUN2 N OUT
      RUN1, RUN2: formatted trace of two runs (etmtrace synth --format
      coresight). Each is written into an N-byte circular buffer from its
      start, as a trace session does, followed by a frame of the
      formatter's ID-0 padding (its flush at the trace stop); the dump is
      read from the write pointer. Prints the byte ranges the pieces must
      have, in file order: "tail A B", "older A B", "newest A B".
  circ-dump.py check LISTING RANGES EXP1 EXP2 [--tail-may-be-empty]
      LISTING: `etmtrace decode --id ID` text of the dump; RANGES: what
      make printed; EXP1, EXP2: the generator's expected lists of that ID
      for the two runs (synth --expect). Checks the pieces' headers, their
      time order, and their instructions: the newest run's are all of run
      2's; the tail's are the end of run 1's; the older lap's are a stretch
      of run 1's before the tail's, not adjacent (the part between was
      overwritten by run 2). --tail-may-be-empty: the source's data in the
      tail holds no sync point (it stopped early), so it decodes to nothing.
"""
import re
import sys


def make(r1, r2, n, out):
    pad = bytes([1] + [0] * 15)  # ID 0 at once, zeros: padding
    a = open(r1, 'rb').read() + pad
    b = open(r2, 'rb').read() + pad
    assert len(a) % 16 == 0 and len(b) % 16 == 0
    assert len(b) < len(a) % n, "run 2 must not reach run 1's end"
    assert n < len(a) < 2 * n, "run 1 wraps once"
    buf = bytearray(n)
    for run in (a, b):
        for i, x in enumerate(run):
            buf[i % n] = x
    w = len(b)          # the write pointer after run 2
    p1 = len(a) % n     # where run 1 stopped
    # the rule's precondition: the older lap's first frame has data at byte
    # 0 (no ID byte) and is not padding
    assert buf[p1] & 1 == 0 and any(buf[p1:p1 + 16])
    open(out, 'wb').write(bytes(buf[w:] + buf[:w]))
    print("tail 0 %d" % (p1 - w))
    print("older %d %d" % (p1 - w, n - w))
    print("newest %d %d" % (n - w, n))


def expected(path):
    return [tuple(l.split()[:2]) for l in open(path) if not l.startswith('GAP')]


def pieces(path):
    out, cur = [], None
    for line in open(path):
        if line.startswith('-- piece '):
            cur = [line.rstrip('\n'), []]
            out.append(cur)
            continue
        m = re.match(r'^\s+([0-9a-f]{8})\s+(A32|T32)\s', line)
        if m:
            assert cur is not None, "instruction before the first piece"
            cur[1].append((m.group(1).upper(), m.group(2)[0]))
    return out


def find(seq, sub, before):
    for i in range(0, before - len(sub) + 1):
        if seq[i:i + len(sub)] == sub:
            return i
    return -1


def check(listing, ranges, exp1, exp2, tail_empty_ok=False):
    rg = dict((l.split()[0], (int(l.split()[1]), int(l.split()[2])))
              for l in open(ranges))
    e1, e2 = expected(exp1), expected(exp2)
    ps = pieces(listing)
    gaps = [l.rstrip('\n') for l in open(listing) if l.startswith('-- gap:')]
    want = ["-- piece 1 of 3: older lap of the previous run, bytes %d..%d" % rg['older'],
            "-- piece 2 of 3: tail of the previous run, bytes %d..%d" % rg['tail'],
            "-- piece 3 of 3: newest run, bytes %d..%d" % rg['newest']]
    bad = []
    if [p[0] for p in ps] != want:
        bad.append("headers %s, want %s" % ([p[0] for p in ps], want))
    if gaps != ['-- gap: overwritten', '-- gap: between runs']:
        bad.append("gaps %s" % gaps)
    if not bad:
        older, tail, newest = ps[0][1], ps[1][1], ps[2][1]
        if newest != e2:
            bad.append("newest run: %d instructions, run 2 has %d" % (len(newest), len(e2)))
        if (not tail and not tail_empty_ok) or e1[len(e1) - len(tail):] != tail:
            bad.append("tail: %d instructions, not the end of run 1" % len(tail))
        at = find(e1, older, len(e1) - len(tail)) if older else -1
        if at < 0:
            bad.append("older lap: %d instructions, not a stretch of run 1 before the tail" % len(older))
        elif at + len(older) >= len(e1) - len(tail):
            bad.append("older lap: adjacent to the tail, nothing overwritten?")
        else:
            print("older lap: run 1 [%d, %d), tail [%d, %d), newest: run 2's %d"
                  % (at, at + len(older), len(e1) - len(tail), len(e1), len(newest)))
    for b in bad:
        print("circ-dump check: " + b)
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1] == 'make':
        make(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
        sys.exit(0)
    sys.exit(check(*sys.argv[2:6], tail_empty_ok='--tail-may-be-empty' in sys.argv))
