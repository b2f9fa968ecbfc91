"""tests/cli/realign.py - damage a CoreSight-framed snapshot (1-15 bytes lost
or inserted at given offsets) and measure the recovery of one trace ID.

Recovered: after the first sync that follows the frame layer's report
(a frame_align error from one realignment window - 33 frames - before the
damaged frame on, else the first error from the damaged frame on),
every decoded instruction is the expected one in order (the expected list
is the generator's own, or the undamaged decode of a real capture): the
decoded list is a prefix of the expected, then (after the damage) a suffix
of it, and nothing after that sync lies outside that suffix. Prints one
line per failing damage and a summary; exits 0.
usage: realign.py ETMTRACE SNAPDIR TRACEFILE EXPECTED|- ID OFFSET..."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

etm, snap, tf, exp, tid = sys.argv[1:6]
offsets = [int(x) for x in sys.argv[6:]]
WINDOW = 33 * 16    # bytes a realignment looks at (src/source/dfmt.c)


def run(d, fmt):
    return subprocess.run([etm, 'decode', d, '--id', tid, '--format', fmt,
                           '--jobs', '1'], capture_output=True,
                          text=True).stdout


def canon(d):
    return [l for l in run(d, 'canon').splitlines() if not l.startswith('GAP')]


def resync_index(d, pos):
    """Instructions before the first sync after the frame layer's report."""
    n = 0
    err = fa = None
    for line in run(d, 'jsonl').splitlines():
        e = json.loads(line)
        if e.get('error') == 'frame_align' and fa is None and \
           e['offset'] >= pos - WINDOW:
            fa = e['offset']
            err = n
        elif e['offset'] >= pos - 32 and err is None and \
                e.get('kind') in ('error', 'nosync'):
            err = n
        if e.get('kind') == 'trace_on' and err is not None and \
           e['offset'] > (fa if fa is not None else -1):
            return n, fa
        if e.get('kind') == 'range':
            n += e['n']
    return None, fa


orig = open(os.path.join(snap, tf), 'rb').read()
work = tempfile.mkdtemp()
dmg = os.path.join(work, 'd')
shutil.copytree(snap, dmg)
want = canon(snap) if exp == '-' else \
    [l.rstrip('\n') for l in open(exp) if not l.startswith('GAP')]
total = ok = reported = lost = 0
dist = []
for pos in offsets:
    for mode in ('lose', 'insert'):
        for n in range(1, 16):
            b = orig[:pos] + orig[pos + n:] if mode == 'lose' else \
                orig[:pos] + bytes((0x5a + 37 * i) & 0xff
                                   for i in range(n)) + orig[pos:]
            open(os.path.join(dmg, tf), 'wb').write(b)
            got = canon(dmg)
            k, fa = resync_index(dmg, pos)
            h = 0
            while h < min(len(want), len(got)) and want[h] == got[h]:
                h += 1
            t = 0
            while t < min(len(want), len(got)) - h and \
                    want[-1 - t] == got[-1 - t]:
                t += 1
            good = k is not None and len(got) - max(h, k) - t <= 0
            total += 1
            ok += good
            lost += len(want) - h - t
            if fa is not None:
                reported += 1
                dist.append((fa - (pos - pos % 16)) // 16)
            if not good:
                print("  not recovered: %s %d bytes at %d (%d of %d "
                      "instructions after the sync differ)" %
                      (mode, n, pos, len(got) - max(h, k or 0) - t,
                       len(got) - (k or 0)))
shutil.rmtree(work)
print("recovered %d/%d damages; frame_align reported for %d, from %d to "
      "at most %d frames after the damaged frame; %d of %d instructions "
      "lost per damage on average" % (ok, total, reported, min(dist or [0]),
                                      max(dist or [0]),
                                      lost // max(total, 1), len(want)))
