"""tests/cli/realign.py - damage a CoreSight-framed snapshot (1-15 bytes lost
or inserted at given offsets) and measure the recovery of every trace ID
against the undamaged decode (doc/robustness.md, "Frame realignment").

usage: realign.py [--realign MODE] ETMTRACE COMPARE_PY SNAPDIR TRACEFILE ID|all
                  SEED OFFSET...
(MODE: off, basic, precise; default: the decoder's default)

The undamaged decode is the reference (independent of the damage: the
decoder sees clean frames there). Per damage of the frame F holding the
first lost or inserted byte (damaged input coordinates), per trace ID:
- invented: decoded instructions that are not in the reference, counted
  as compare.py counts them (the decoded list minus its longest common
  subsequence with the reference; instructions are the lines of the
  listing: address, ISA, condition failed or not - the slots of jsonl
  ranges would count an instruction the trace did say as invented where a
  range began at it after the resynchronisation rather than before);
- on time: every reference instruction decoded from the second range
  after the first I-sync after the first A-sync that begins at or after
  frame F + 2 is decoded (the first may depend on state from before)
  (the end of the reference is a suffix of the decoded list): the trace
  is back within two frames of the damage, at the first point the packet
  protocol can be picked up again;
- reported: an error element (any kind) at an offset in frames F - 1 to
  F + 2; the histogram of the first frame_align error's frame - F.
Inserted bytes are random (SEED). Prints one line per damage that is not
clean, a summary per ID and the histogram; exits 0."""
import collections
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

argv = sys.argv[1:]
mode_args = []
if argv[:1] == ['--realign']:
    mode_args, argv = argv[:2], argv[2:]
etm, cmp_py, snap, tf, tid, seed = argv[:6]
offsets = [int(x) for x in argv[6:]]
spec = importlib.util.spec_from_file_location('compare', cmp_py)
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)
rnd = random.Random(int(seed))


def run(d, what):
    a = [etm, what, d, '--format', 'jsonl']
    # one input: the realignment, not a circular buffer's pieces
    # (doc/circular.md: am243x's first 16 KiB hold two)
    a += ['--jobs', '1', '--pieces', 'off'] if what == 'decode' else []
    a += ['--id', tid] if tid != 'all' else []
    out = subprocess.run(a, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


# a listing line with --offsets (the ID column only with several IDs)
INSN = re.compile(r'^@(\d+)\s+(?:\[(0x[0-9a-f]+)\]\s+)?([0-9a-f]+)\s+(A32|T32)\s')
ATOM = re.compile(r'\s([EN])(\s+cyc=\d+)?\s*$')
ELEM = re.compile(r'^@(\d+)\s+(?:\[0x[0-9a-f]+\] )?-- (error at|not synchronised)')


def decode(d):
    """Per ID: [(instruction, offset)] from the listing with --offsets (an
    instruction: address, ISA, condition failed); and [(offset, error)] of
    the error and nosync elements."""
    a = [etm, 'decode', d, '--offsets', '--jobs', '1', '--pieces', 'off']
    a += mode_args
    a += ['--id', tid] if tid != 'all' else []
    out = subprocess.run(a, capture_output=True, text=True).stdout
    insns = collections.defaultdict(list)
    errs = []
    for line in out.splitlines():
        m = INSN.match(line)
        if m:
            atom = ATOM.search(line, m.end())
            failed = atom is not None and atom.group(1) == 'N'
            insns[m.group(2) or tid].append(((m.group(3), m.group(4), failed),
                                             int(m.group(1))))
            continue
        m = ELEM.match(line)
        if m:
            errs.append((int(m.group(1)), 'frame_align'
                         if 'frame alignment lost' in line else 'error'))
    return insns, errs


def invented(rk, gk):
    """len(gk) - LCS(rk, gk); common ends stripped first (the LCS keeps
    them), the middles through compare.py's exact LCS."""
    m = min(len(rk), len(gk))
    t = 0   # the common end (all of it for an undamaged stream)
    while t < m and rk[-1 - t] == gk[-1 - t]:
        t += 1
    h = 0
    while h < m - t and rk[h] == gk[h]:
        h += 1
    mid_r, mid_g = rk[h:len(rk) - t], gk[h:len(gk) - t]
    return len(mid_g) - compare.lcs_length(mid_r, mid_g), t


orig = open(os.path.join(snap, tf), 'rb').read()
ref, _ = decode(snap)
syncs = collections.defaultdict(list)
for e in run(snap, 'packets'):
    if e['type'] in ('A_SYNC', 'I_SYNC'):
        syncs[e['id']].append((e['offset'], e['type']))
work = tempfile.mkdtemp()
dmg = os.path.join(work, 'd')
shutil.copytree(snap, dmg)
res = collections.Counter()
hist = collections.Counter()
for pos in offsets:
    for mode in ('lose', 'insert'):
        for n in range(1, 16):
            b = orig[:pos] + orig[pos + n:] if mode == 'lose' else \
                orig[:pos] + bytes(rnd.randrange(256) for _ in range(n)) + \
                orig[pos:]
            open(os.path.join(dmg, tf), 'wb').write(b)
            got, errs = decode(dmg)
            F = pos // 16
            # damaged offset -> undamaged offset
            back = 16 * (F + 2) + (n if mode == 'lose' else -n)
            fa = [o // 16 - F for o, e in errs
                  if e == 'frame_align' and o >= 16 * (F - 40)]
            hist[fa[0] if fa else None] += 1
            near = any(16 * (F - 1) <= o < 16 * (F + 3) for o, e in errs)
            res['reported'] += near
            bad = []
            for i, rs in sorted(ref.items()):
                rk = [k for k, o in rs]
                gk = [k for k, o in got.get(i, [])]
                inv, t = invented(rk, gk)
                a = next((o for o, ty in syncs[i]
                          if ty == 'A_SYNC' and o >= back), None)
                s = next((o for o, ty in syncs[i]
                          if ty == 'I_SYNC' and a is not None and o > a),
                         None)
                # the first range after the I-sync may need state from
                # before it (a periodic I-sync in the reference): from the
                # second one on
                after = sorted({o for k, o in rs if s is not None and o >= s})
                need = sum(1 for k, o in rs if after[1:] and o >= after[1])
                res['ids'] += 1
                res['invented'] += inv > 0
                res['late'] += t < need
                res['lost'] += len(rk) - len(gk) + inv
                if inv or t < need:
                    bad.append('%s invented %d, %d of the last %d missed' %
                               (i, inv, max(need - t, 0), need))
            res['damages'] += 1
            res['clean'] += not bad and near
            if bad or not near:
                print('  %s %2d at %d: frame_align %s; %s' %
                      (mode, n, pos, fa[:1] or 'none',
                       '; '.join(bad) or 'no error near'))
shutil.rmtree(work)
print('damages %d: clean %d, reported within two frames %d; ID decodes %d: '
      'with invented instructions %d, late %d; instructions lost per damage '
      '%d' % (res['damages'], res['clean'], res['reported'], res['ids'],
              res['invented'], res['late'],
              res['lost'] // max(res['damages'], 1)))
print('first frame_align, frames after the damaged frame: ' +
      ' '.join('%s:%d' % (k, v) for k, v in
               sorted(hist.items(), key=lambda x: (x[0] is None, x[0] or 0))))
