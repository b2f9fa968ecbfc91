"""tests/cli/window_expect.py - what a window (decode --start/--stop/--last
[--at halt]) must list, derived from a FULL decode without the window code:
the full canonical list (one instruction per line, GAP lines ignored) and
the full JSON lines (element order, offsets, timestamps, instruction counts
per range, Debug Halts). Prints the expected instructions, one per line.

usage: window_expect.py CANON JSONL [--start B] [--stop B] [--last N]
                        [--at halt]
B: 0xADDR (first executed instruction there), @OFF (first element of input
offset >= OFF), ts:V (first timestamp element >= V), #N (instruction index,
0 = first). The stop is searched from the start on; an address stop is not
matched by the window's first instruction. The window is [start, stop).
--last N: the last N instructions of it; with --at halt, the last N before
each Debug Halt (exception 1), each trace-on of reason enable and the end,
never reaching back past the previous one.
"""
import json
import sys


def load(canon, jsonl):
    insns = [ln.split()[0] for ln in open(canon) if ln.strip() and not ln.startswith("GAP")]
    els, idx = [], 0          # (offset, first insn index, kind, element)
    for ln in open(jsonl):
        e = json.loads(ln)
        els.append((e["offset"], idx, e["kind"], e))
        if e["kind"] == "range":
            idx += e["n"]
    assert idx == len(insns), "canon and jsonl disagree: %d vs %d" % (idx, len(insns))
    return insns, els


def elem_of(els, i):
    """Position of the range holding instruction i."""
    for p, (_, first, kind, e) in enumerate(els):
        if kind == "range" and first <= i < first + e["n"]:
            return p
    return len(els)


def find(bound, insns, els, p0, i0, first):
    """(element position, instruction index) of bound B from element p0 /
    instruction i0 on; None if it never comes."""
    k, v = bound
    if k == "#":
        return (elem_of(els, v), v) if v >= i0 else (p0, i0)
    if k == "0x":
        for i in range(i0 + (0 if first else 1), len(insns)):
            if int(insns[i], 16) == v:
                return elem_of(els, i), i
        return None
    for p in range(p0, len(els)):
        off, idx, kind, e = els[p]
        if k == "@" and off >= v:
            return p, max(idx, i0)
        if k == "ts" and kind == "timestamp" and e["timestamp"] >= v:
            return p, max(idx, i0)
    return None


def parse(s):
    if s.startswith("0x"):
        return ("0x", int(s, 16))
    if s.startswith("@"):
        return ("@", int(s[1:], 0))
    if s.startswith("#"):
        return ("#", int(s[1:], 0))
    if s.startswith("ts:"):
        return ("ts", int(s[3:], 0))
    raise SystemExit("bad bound " + s)


def groups_at_halt(els, lo, hi):
    """Instruction indexes in [lo, hi) where a group ends: each Debug
    Halt, each trace-on of reason enable, and hi."""
    ends = []
    for _, idx, kind, e in els:
        halt = kind == "exception" and e.get("exception") == 1
        stop = kind == "trace_on" and e.get("reason_name") == "enable"
        if (halt or stop) and lo <= idx <= hi:
            ends.append(idx)
    return ends + [hi]


def main(argv):
    insns, els = load(argv[0], argv[1])
    opts = dict(zip(argv[2::2], argv[3::2]))
    p0, i0 = 0, 0
    if "--start" in opts:
        r = find(parse(opts["--start"]), insns, els, 0, 0, True)
        p0, i0 = r if r else (len(els), len(insns))
    hi = len(insns)
    if "--stop" in opts:
        r = find(parse(opts["--stop"]), insns, els, p0, i0, False)
        hi = r[1] if r else len(insns)
    hi = max(hi, i0)
    n = int(opts.get("--last", "0"))
    if not n:
        out = insns[i0:hi]
    elif opts.get("--at") == "halt":
        out, prev = [], i0
        for end in groups_at_halt(els, i0, hi):
            out += insns[max(prev, end - n):end]
            prev = end
    else:
        out = insns[max(i0, hi - n):hi]
    sys.stdout.write("".join(a + "\n" for a in out))


if __name__ == "__main__":
    main(sys.argv[1:])
