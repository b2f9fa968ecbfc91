#!/usr/bin/python3
"""Check an `etmtrace decode --format calls` call trace on its own terms and
against independent sources (used by test-calls_trace.sh).

usage: calls_check.py CALLS FOLDED OBJDUMP

CALLS   the call trace;
FOLDED  `etmtrace profile --format folded` of the same capture;
OBJDUMP `arm-none-eabi-objdump -d` of the ELF (the instructions at the call
        sites, an independent disassembler).

What is checked (each failure printed, exit status 1 if any):
 * the stack the lines describe, rebuilt here from the events alone: the
   DEPTH column equals the number of open calls and exceptions after every
   line, and never goes below zero (a return with no open frame);
 * every call site (`<- ADDR`) of a call line is a BL/BLX instruction in
   objdump's listing, and every `ret` goes to the address right after the
   call it closes (call site + the size objdump gives it); every `eret` to
   the preferred return address of the exception it closes;
 * every call is matched by its return, or else an exception or a trace
   gap came while it was open (a task switch, a debug halt, a lost trace:
   its return cannot be seen or was not traced);
 * the calling contexts: each line's indentation and function give the
   path of functions now running (the indentation is its level); the
   instructions between two lines of a source (INSNS) ran in the path of
   the first: summed per path they must equal the folded stacks, path for
   path (each stack reached in the call trace is in folded and vice versa).
"""
import collections
import re
import sys

LINE = re.compile(r'^([0-9a-f]{2}) +(\d+) +(\d+) (\S+) +(\S+) ( *)(.*)$')


def objdump_insns(path):
    """address -> (size in bytes, mnemonic) from objdump -d."""
    insns = {}
    pat = re.compile(r'^ *([0-9a-f]+):\t((?:[0-9a-f]+ )+)\s*\t?(\S+)')
    with open(path) as f:
        for ln in f:
            m = pat.match(ln)
            if m:
                size = sum(len(w) for w in m.group(2).split()) // 2
                insns[int(m.group(1), 16)] = (size, m.group(3))
    return insns


def parse(path):
    out = []
    with open(path) as f:
        for ln in f:
            if ln.startswith('#'):
                continue
            m = LINE.match(ln.rstrip('\n'))
            if not m:
                raise SystemExit('unparsed line: ' + ln)
            rest = m.group(7)
            name = rest.split('  ')[0]
            site = re.search(r'  <- ([0-9a-f]+)\b', rest)
            unw = re.search(r'\((\d+) frames? unwound\)', rest)
            addr = m.group(5)
            out.append(dict(id=m.group(1), insns=int(m.group(2)),
                            depth=int(m.group(3)), ev=m.group(4),
                            addr=None if addr.startswith('-') else int(addr, 16),
                            level=len(m.group(6)) // 2,
                            func=re.sub(r'\+0x[0-9a-f]+$', '', name),
                            site=int(site.group(1), 16) if site else None,
                            unwound=int(unw.group(1)) if unw else 0))
    return out


def main():
    calls, folded, objdump = sys.argv[1:4]
    lines = parse(calls)
    insns = objdump_insns(objdump)
    errors = []
    stacks = collections.defaultdict(list)  # id -> open frames
    fate = collections.Counter()
    unexplained = 0

    def err(i, what):
        if len(errors) < 20:
            errors.append('line %d: %s' % (i + 1, what))
        else:
            errors.append(None)

    def close(fr, how):
        nonlocal unexplained
        if fr['kind'] == 'call':
            fate[how] += 1
            if how != 'ret' and not fr['interrupted']:
                unexplained += 1
                err(fr['line'], 'call closed by %s with no exception or gap '
                    'while it was open' % how)

    for i, l in enumerate(lines):
        st = stacks[l['id']]
        ev = l['ev']
        if ev in ('exc', 'gap'):
            marked = [st] if l['id'] != '00' else list(stacks.values())
            for s in marked:
                for fr in s:
                    fr['interrupted'] = True
        if ev == 'call':
            site = l['site']
            ins = insns.get(site)
            if ins is None or not ins[1].startswith('bl'):
                err(i, 'call site %x is not a BL/BLX in objdump: %s' % (site, ins))
                ret = None
            else:
                ret = site + ins[0]
            st.append(dict(kind='call', line=i, ret=ret, interrupted=False))
            fate['calls'] += 1
        elif ev == 'exc':
            st.append(dict(kind='exc', line=i, ret=l['addr'], interrupted=True))
        elif ev in ('ret', 'eret'):
            if len(st) < l['unwound'] + 1:
                err(i, 'return with %d open frames: depth below zero' % len(st))
                st.clear()
            else:
                for _ in range(l['unwound']):
                    close(st.pop(), 'unwound')
                fr = st.pop()
                want = 'call' if ev == 'ret' else 'exc'
                if fr['kind'] != want:
                    err(i, '%s closes a %s frame' % (ev, fr['kind']))
                if fr['ret'] is not None and fr['ret'] != l['addr']:
                    err(i, '%s to %x, expected %x (frame of line %d)' %
                        (ev, l['addr'], fr['ret'], fr['line'] + 1))
                close(fr, ev)
        elif ev == 'reset':
            while st:
                close(st.pop(), 'reset')
        if l['id'] != '00' and l['depth'] != len(st):
            err(i, 'DEPTH %d, but %d frames open' % (l['depth'], len(st)))
        if ev == 'end':
            while st:
                close(st.pop(), 'open at the end')

    # calling contexts: instructions per path of functions
    paths = collections.defaultdict(list)  # id -> path now running
    last = {}  # id -> (insns at the last line, path then)
    mine = collections.Counter()
    for i, l in enumerate(lines):
        if l['id'] == '00':
            continue
        sid = l['id']
        if sid in last and l['insns'] > last[sid][0]:
            mine[';'.join(last[sid][1])] += l['insns'] - last[sid][0]
        p = paths[sid]
        if l['ev'] == 'reset':
            p.clear()
        elif l['level'] > len(p) + 1:
            err(i, 'level %d under a path of %d' % (l['level'], len(p)))
        elif l['level'] > 0:
            del p[l['level'] - 1:]
            p.append(l['func'])
        else:
            p.clear()
        last[sid] = (l['insns'], list(p))
    theirs = collections.Counter()
    with open(folded) as f:
        for ln in f:
            stack, n = ln.rstrip('\n').rsplit(' ', 1)
            theirs[stack] += int(n)
    only_mine = set(mine) - set(theirs)
    only_theirs = set(theirs) - set(mine)
    differ = [k for k in set(mine) & set(theirs) if mine[k] != theirs[k]]
    for k in sorted(only_mine)[:5]:
        errors.append('stack only in the call trace: %s %d' % (k, mine[k]))
    for k in sorted(only_theirs)[:5]:
        errors.append('stack only in folded: %s %d' % (k, theirs[k]))
    for k in sorted(differ)[:5]:
        errors.append('stack %s: %d instructions in the call trace, %d in '
                      'folded' % (k, mine[k], theirs[k]))

    print('calls %d: closed by their return %d, unwound %d, reset %d, '
          'open at the end %d; not matched and not interrupted %d'
          % (fate['calls'], fate['ret'], fate['unwound'], fate['reset'],
             fate['open at the end'], unexplained))
    print('stacks: call trace %d, folded %d, in both %d with the same '
          'instructions %d; instructions %d / %d'
          % (len(mine), len(theirs), len(set(mine) & set(theirs)),
             len(set(mine) & set(theirs)) - len(differ),
             sum(mine.values()), sum(theirs.values())))
    bad = [e for e in errors if e]
    for e in bad:
        print('FAIL', e)
    if len(errors) > len(bad):
        print('... %d more' % (len(errors) - len(bad)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
