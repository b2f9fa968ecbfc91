#!/usr/bin/env bash
# tests/cli/test-buffer_end_cut.sh - a packet cut by the end of the trace
# buffer is a note, not an error (doc/robustness.md "The end of a trace
# buffer"): synthetic captures cut with head -c at several offsets decode
# (and list their packets) with exit 0, one `buffer_end` note for each source whose last packet the
# cut splits (none for a source whose last packet is whole), no error, and
# the instructions before the cut a prefix of the generator's expected
# list. Which packets a cut splits is derived here, independently of the
# decoder: packet offsets and sizes from `packets` of the whole file, the
# bytes of each source from a deformatter written below (the CoreSight
# frame format, shared/docs/coresight-formatter.md). A cut followed by
# more data of that source (bytes taken out of the middle) is still an
# error (exit 1).
. "$(dirname "$0")/lib.sh"
synth_snap "$tmp/e3" --protocol etmv3 --full-addr --async-period 256 --insns 3000
synth_snap "$tmp/pc" --protocol ptm --format coresight --sources 3 --insns 3000
synth_snap "$tmp/ec" --protocol etmv3 --format coresight --sources 2 --insns 3000 --full-addr
$PY - "$ETMTRACE" "$tmp" <<'EOT'
import json, os, shutil, subprocess, sys
E, tmp = sys.argv[1], sys.argv[2]
fails = 0

def check(ok, what):
    global fails
    print(("ok   " if ok else "FAIL: ") + what)
    fails += not ok

def run(*a):
    p = subprocess.run([E] + list(a), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

def source_bytes(data, formatted):
    """id -> file offsets of that source's bytes, in order."""
    if not formatted:
        return {None: list(range(len(data)))}
    out, cur = {}, None
    for f in range(0, len(data) - 15, 16):
        fr, aux = data[f:f + 16], data[f + 15]
        for k in range(8):
            b = fr[2 * k]
            if b & 1:                         # an ID byte
                new, late = b >> 1, (aux >> k) & 1
                if k < 7 and late:            # 2k+1 is the old ID's
                    out.setdefault(cur, []).append(f + 2 * k + 1)
                cur = new
                if k < 7 and not late:
                    out.setdefault(cur, []).append(f + 2 * k + 1)
            else:
                out.setdefault(cur, []).append(f + 2 * k)
                if k < 7:
                    out.setdefault(cur, []).append(f + 2 * k + 1)
    return out

def packets(snap, formatted):
    """id -> [(first offset, last offset)] of every packet of the file."""
    data = open(os.path.join(snap, "trace.bin"), "rb").read()
    src = source_bytes(data, formatted)
    pos = {i: {o: n for n, o in enumerate(l)} for i, l in src.items()}
    rc, out, _ = run("packets", snap, "--format", "jsonl")
    res = {}
    for line in out.splitlines():
        p = json.loads(line)
        i = int(p["id"], 16)
        key = i if formatted else None
        n = len(p["bytes"]) // 2
        at = pos[key][p["offset"]]
        res.setdefault(i, []).append((p["offset"], src[key][at + n - 1]))
    return res

def cut_notes(pk, c):
    """The notes a cut at @c must give: id -> offset of the packet it splits."""
    want = {}
    for i, l in pk.items():
        before = [p for p in l if p[0] < c]
        if before and before[-1][1] >= c:
            want[i] = before[-1][0]
    return want

def try_cut(name, snap, pk, c, formatted, ids):
    d = os.path.join(tmp, "cut")
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(snap, d)
    data = open(os.path.join(snap, "trace.bin"), "rb").read()
    open(os.path.join(d, "trace.bin"), "wb").write(data[:c])
    whole = c - c % 16 if formatted else c
    want = cut_notes(pk, whole)
    if formatted and c % 16:
        want[0] = whole                       # the partial last frame
    rc, out, err = run("decode", d, "--format", "jsonl")
    els = [json.loads(x) for x in out.splitlines()]
    got = {int(e["id"], 16): e["offset"] for e in els if e["kind"] == "buffer_end"}
    nerr = sum(e["kind"] == "error" for e in els)
    check(rc == 0 and nerr == 0 and got == want and "incomplete" not in err,
          "%s cut at %d: exit %d, %d errors, notes %s (derived %s)" % (name, c, rc, nerr, got, want))
    rc, out, err = run("packets", d)
    check(rc == 0 and "malformed" not in err, "%s cut at %d: packets exit %d" % (name, c, rc))
    rc, out, _ = run("decode", d)
    check(all(("the trace ends at offset %d in a packet" % o) in out for o in want.values()),
          "%s cut at %d: the note in the text listing" % (name, c))
    for i in ids:
        args = ["--id", "%x" % i] if formatted else []
        rc, out, _ = run("decode", d, "--format", "canon", *args)
        exp = open(os.path.join(tmp, name + ".exp" + ("." + "0x%02x" % i if formatted else ""))).read().splitlines()
        got = out.splitlines()
        check(rc == 0 and len(got) > 1 and got == exp[:len(got)],
              "%s cut at %d: ID 0x%02x %d lines, a prefix of the %d expected" % (name, c, i, len(got), len(exp)))
    return len(want)

# raw ETMv3: cuts inside multi-byte packets spread over the file, and at a
# packet boundary (no note)
pk = packets(os.path.join(tmp, "e3"), False)
multi = [p for p in pk[0x10] if p[1] - p[0] >= 2]
for k in (len(multi) // 10, len(multi) // 3, 2 * len(multi) // 3, len(multi) - 1):
    f, l = multi[k]
    for c in (f + 1, l):
        check(f < c <= l, "e3: hand check: %d inside the packet at %d-%d" % (c, f, l))
        try_cut("e3", os.path.join(tmp, "e3"), pk, c, False, [0x10])
try_cut("e3", os.path.join(tmp, "e3"), pk, multi[len(multi) // 2][0], False, [0x10])

# formatted: frame boundaries (each source's last packet may be cut) and
# partial frames; enough of them split a packet
for name, ids in (("pc", [0x10, 0x11, 0x12]), ("ec", [0x10, 0x11])):
    snap = os.path.join(tmp, name)
    pk = packets(snap, True)
    size = os.path.getsize(os.path.join(snap, "trace.bin"))
    split = 0
    for c in list(range(16 * 7, size - 16, 16 * 23))[:24] + [size // 2 + 5, size - 16 - 9]:
        split += try_cut(name, snap, pk, c, True, ids) > (1 if c % 16 else 0)
    check(split >= 8, "%s: %d cuts split a source's packet" % (name, split))

# a cut followed by more data of that source: the 5-byte branch address cut
# after 4 bytes, then the file from a later A-sync (its 0x00 is read as the
# branch's 5th byte, which no instruction set has): an error, exit 1
snap = os.path.join(tmp, "e3")
pk = packets(snap, False)
rc, out, _ = run("packets", snap, "--format", "jsonl")
pl = [json.loads(x) for x in out.splitlines()]
b = next(p for p in pl if p["type"] == "BRANCH_ADDRESS" and len(p["bytes"]) == 10 and p["offset"] > 300)
a = next(p for p in pl if p["type"] == "A_SYNC" and p["offset"] > b["offset"] + 300)
data = open(os.path.join(snap, "trace.bin"), "rb").read()
d = os.path.join(tmp, "mid")
shutil.copytree(snap, d)
open(os.path.join(d, "trace.bin"), "wb").write(data[:b["offset"] + 4] + data[a["offset"]:])
rc, out, err = run("decode", d)
check(rc == 1 and ("-- error at offset %d" % b["offset"]) in out and "listing is incomplete" in err,
      "branch at %d cut, more data from %d: exit %d, the error at the cut" % (b["offset"], a["offset"], rc))
rc, out, _ = run("decode", d, "--format", "jsonl")
check('"buffer_end"' not in out, "the cut in the middle is no buffer_end note")
sys.exit(fails != 0)
EOT
r=$?
[ $r -eq 0 ] && echo "all passed"
exit $r
