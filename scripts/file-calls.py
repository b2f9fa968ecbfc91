#!/usr/bin/python3
"""scripts/file-calls.py - which file of a static library calls which (by
the symbols one object file uses and another defines: `nm`), and the cycles
among them. A call through a function pointer is seen only where a file
names a function of another (takes its address).

usage: file-calls.py LIB.a [--quiet]
Prints "a.c -> b.c: symbols" per edge (unless --quiet), then each cycle
(a group of files that call each other, directly or not). Exit status: 0
no cycle, 1 a cycle, 2 usage or nm failed."""
import subprocess
import sys


def graph(lib):
    out = subprocess.run(['nm', '-A', lib], capture_output=True, text=True,
                         check=True).stdout
    defs, uses = {}, {}
    for line in out.splitlines():
        # LIB.a:OBJ.c.o:VALUE TYPE NAME, or LIB.a:OBJ.c.o:  U NAME
        parts = line.split(':', 2)
        if len(parts) < 3:
            continue
        obj = parts[1].replace('.c.o', '.c')
        p = parts[2].split()
        if len(p) == 2 and p[0] == 'U':
            uses.setdefault(obj, set()).add(p[1])
        elif len(p) == 3 and p[1] in 'TDBRW':
            defs[p[2]] = obj
    edges = {}
    for obj, syms in uses.items():
        for s in syms:
            if s in defs and defs[s] != obj:
                edges.setdefault(obj, {}).setdefault(defs[s], []).append(s)
    return edges


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = set(edges) | {b for a in edges for b in edges[a]}

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        edges = graph(argv[1])
    except (OSError, subprocess.CalledProcessError) as e:
        print(f'file-calls.py: {e}', file=sys.stderr)
        return 2
    if '--quiet' not in argv:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print(f'{a} -> {b}: {" ".join(sorted(edges[a][b]))}')
    cyc = cycles(edges)
    for c in cyc:
        print('cycle: ' + ' '.join(c))
    return 1 if cyc else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
