#!/usr/bin/python3
"""scripts/ir-asm.py - one function's machine code with the instructions
each executed (callgrind Ir per instruction): where in a hot loop the
count goes, which source-line totals (callgrind_annotate) cannot show
once the compiler has interleaved the lines.

usage: ir-asm.py CALLGRIND.OUT FUNCTION BINARY [--min N]
  CALLGRIND.OUT: from valgrind --tool=callgrind --dump-instr=yes (for
  example a run of scripts/bench-ir.sh's command line with that option
  added; etm_bench decodes in a child: take its file, the larger one);
  FUNCTION: the symbol as objdump names it (etm_e3_run); BINARY: the
  program callgrind ran (build/bench/etm_bench).
Prints every instruction of FUNCTION (objdump -d) after its Ir (0: never
run), then the total and the instructions run N times or more (--min,
default 1) with what they add up to. Only the costs of BINARY's own object
are counted (ob= lines); a call's inclusive cost is left out."""
import os
import re
import subprocess
import sys

POS = re.compile(r'^(0x[0-9a-fA-F]+|[+-]\d+|\*)\s+\S+\s+(\d+)')
NAMED = re.compile(r'^(?:c?ob)=(?:\((\d+)\))?\s*(.*)$')


def costs(path, binary):
    """Ir per instruction address of BINARY's object in callgrind file
    PATH (name compression and relative positions resolved)."""
    want = os.path.realpath(binary)
    names, cnt = {}, {}
    addr, mine, skip = 0, False, False
    with open(path) as f:
        for line in f:
            if line.startswith(('ob=', 'cob=')):
                # (a name is given once, on either, then only its number)
                m = NAMED.match(line.rstrip('\n'))
                key, name = m.group(1), m.group(2)
                if name:
                    names[key] = name
                if line.startswith('ob='):
                    name = names.get(key, name)
                    mine = bool(name) and os.path.realpath(name) == want
                continue
            if line.startswith('calls='):
                skip = True  # the next line is the call's own cost
                continue
            m = POS.match(line)
            if not m:
                continue
            p = m.group(1)
            if p.startswith('0x'):
                addr = int(p, 16)
            elif p[0] in '+-':
                addr += int(p)
            if skip:
                skip = False
                continue
            if mine:
                cnt[addr] = cnt.get(addr, 0) + int(m.group(2))
    return cnt


def listing(binary, fn):
    """(address, text) of each instruction of FN in BINARY."""
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary],
                         capture_output=True, text=True, check=True).stdout
    rows, inside = [], False
    for line in out.splitlines():
        if line.endswith('<%s>:' % fn):
            inside = True
            continue
        if inside and not line.strip():
            break
        m = re.match(r'\s*([0-9a-f]+):\s*(.*)', line) if inside else None
        if m:
            rows.append((int(m.group(1), 16), m.group(2).strip()))
    return rows


def main(argv):
    args = [a for a in argv if not a.startswith('--min')]
    low = 1
    for i, a in enumerate(argv):
        if a.startswith('--min'):
            v = a.split('=', 1)[1] if '=' in a else argv[i + 1]
            low = int(v)
            if v in args:
                args.remove(v)
    if len(args) != 3:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    path, fn, binary = args
    cnt = costs(path, binary)
    rows = listing(binary, fn)
    if not rows:
        print('ir-asm.py: no function %s in %s' % (fn, binary),
              file=sys.stderr)
        return 2
    total = hot = nhot = 0
    for a, text in rows:
        n = cnt.get(a, 0)
        total += n
        if n >= low:
            hot += n
            nhot += 1
        print('%10d  %x: %s' % (n, a, text))
    print('total %d Ir in %d instructions; %d Ir in the %d run >= %d times'
          % (total, len(rows), hot, nhot, low))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
