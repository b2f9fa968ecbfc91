#!/usr/bin/python3
"""check_cov.py - expected coverage and profile counts of the test program,
derived from the execution the generator made (mkcovtrace's .ev files), the
program's disassembly (arm-none-eabi-objdump) and its DWARF
(llvm-dwarfdump): never from our decoder. Compares them with
`etmtrace coverage --format lcov` and with the sample profiles that
llvm-profgen and create_llvm_prof made from `etmtrace fdo`.

usage: check_cov.py --elf ELF --proto etmv3|ptm --ev E1 [--ev E2 ...]
                    [--lcov FILE] [--sample-profile FILE ...]
Prints one line per check; exit 1 on any mismatch.
"""
import argparse
import re
import subprocess
import sys

COND = "eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le"


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def execution(paths):
    """Per address: [executed, failed] summed over the .ev files."""
    ex = {}
    for p in paths:
        for line in open(p):
            a, _, e = line.split()
            c = ex.setdefault(int(a, 16), [0, 0])
            c[0] += 1
            c[1] += e == "0"
    return ex


def disassembly(elf):
    """[(addr, opcode, mnemonic, operands, function)] of the A32 code."""
    out, fn = [], None
    for line in run("arm-none-eabi-objdump", "-d", elf).splitlines():
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m:
            fn = m.group(2)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+([0-9a-f]{8}|[0-9a-f]{4} [0-9a-f]{4}|"
                     r"[0-9a-f]{4})\s+(\S+)\s*(.*)$", line)
        if m and fn:
            out.append((int(m.group(1), 16), int(m.group(2).replace(" ", ""), 16),
                        m.group(3), m.group(4), fn))
    return out


def is_branch(mn, ops):
    """A32 instruction that writes the pc (objdump spelling)."""
    if re.match(r"^b(l|x|lx)?(%s)?(\.w|\.n)?$" % COND, mn):
        return True
    if mn in ("cbz", "cbnz"):
        return True
    if mn.startswith(("pop", "ldm")) and "pc" in ops:
        return True
    return ops.split(",")[0].strip() == "pc"


def line_table(elf):
    """address -> (line, discriminator): the last row at or before it."""
    rows = []
    for line in run("llvm-dwarfdump-19", "--debug-line", elf).splitlines():
        m = re.match(r"^0x([0-9a-f]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)"
                     r"\s+(\d+)\s*(.*)$", line)
        if m:
            rows.append((int(m.group(1), 16), int(m.group(2)),
                         int(m.group(6)), "end_sequence" in m.group(8)))
    return rows


def line_of(rows, addr):
    best = None
    for a, ln, disc, end in rows:
        if a <= addr and not end:
            best = (ln, disc)
        elif a > addr:
            break
    return best


def decl_lines(elf):
    out, name = {}, None
    for line in run("llvm-dwarfdump-19", "--debug-info", elf).splitlines():
        m = re.search(r'DW_AT_name\s+\("(.+)"\)', line)
        if m:
            name = m.group(1)
        m = re.search(r"DW_AT_decl_line\s+\((\d+)\)", line)
        if m and name and name not in out:
            out[name] = int(m.group(1))
    return out


def conditional(insns, thumb):
    """Addresses of the conditional instructions: A32 condition field not
    AL; T32: B<c>, CBZ/CBNZ and the members of IT blocks (an IT's length
    is the number of letters after its "i": it, itt, ite, ittee, ...)."""
    out, left = set(), 0
    for a, op, mn, ops, fn in insns:
        if not thumb:
            if (op >> 28) not in (0xE, 0xF):
                out.add(a)
            continue
        if left:
            out.add(a)
            left -= 1
        elif re.match(r"^b(%s)(\.w|\.n)?$" % COND, mn) or mn in ("cbz", "cbnz"):
            out.add(a)
        if re.match(r"^it[te]{0,3}$", mn):
            left = len(mn) - 1
    return out


def expected_lcov(insns, rows, ex, proto, thumb):
    da, brda, fnda = {}, {}, {}
    cond = conditional(insns, thumb)
    for a, op, mn, ops, fn in insns:
        if fn not in fnda:
            fnda[fn] = ex.get(a, [0, 0])[0]
        elif not fnda[fn] and ex.get(a, [0, 0])[0]:
            fnda[fn] = 1  # ran, its entry not traced: called at least once
        lt = line_of(rows, a)
        if not lt or not lt[0]:
            continue
        ln = lt[0]
        n, f = ex.get(a, [0, 0])
        da[ln] = max(da.get(ln, 0), n)
        if a not in cond:
            continue
        br = is_branch(mn, ops)
        if n and (br or proto == "etmv3"):
            brda.setdefault(ln, []).append((str(n - f), str(f)))
        elif not n and br:
            brda.setdefault(ln, []).append(("-", "-"))
    return da, brda, fnda


def parse_lcov(path):
    da, brda, fnda = {}, {}, {}
    for line in open(path):
        k, _, v = line.strip().partition(":")
        if k == "DA":
            ln, c = v.split(",")
            da[int(ln)] = int(c)
        elif k == "BRDA":
            ln, blk, br, t = v.split(",")
            brda.setdefault(int(ln), {}).setdefault(int(blk), {})[int(br)] = t
        elif k == "FNDA":
            c, name = v.split(",")
            fnda[name] = int(c)
    brda = {ln: [(b[k][0], b[k][1]) for k in sorted(b)] for ln, b in brda.items()}
    return da, brda, fnda


def compare(what, want, got):
    if want == got:
        print("ok   %s (%d entries)" % (what, len(want)))
        return 0
    print("FAIL %s" % what)
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            print("     %s: want %s, got %s" % (k, want.get(k), got.get(k)))
    return 1


def base_discriminator(d):
    """LLVM's reading of a DWARF discriminator (DILocation prefix encoding:
    low bit set = no base discriminator; else 6 bits, or 5 bits at bit 8
    when bit 7 is set), as both sample-profile tools print it."""
    if d & 1:
        return 0
    d >>= 1
    return (d >> 7) & 0x1f if d & 0x40 else d & 0x3f


def expected_profile(insns, rows, ex, decl):
    """function -> {"LINEOFFSET[.DISC]": max executed count}, and the
    function's entry count (head samples: the calls into it)."""
    out, head = {}, {}
    for a, op, mn, ops, fn in insns:
        lt = line_of(rows, a)
        n = ex.get(a, [0, 0])[0]
        if fn not in head:
            head[fn] = n
        if not lt or not lt[0] or fn not in decl or not n:
            continue
        d = base_discriminator(lt[1])
        key = str(lt[0] - decl[fn]) + ("." + str(d) if d else "")
        body = out.setdefault(fn, {})
        body[key] = max(body.get(key, 0), n)
    return out, head


def parse_profile(path):
    """Top-level functions of an LLVM text sample profile: body counts and
    head samples."""
    out, head, fn = {}, {}, None
    for line in open(path):
        if not line.startswith(" "):
            fn, _, h = line.strip().rsplit(":", 2)
            out[fn] = {}
            head[fn] = int(h)
            continue
        m = re.match(r"^ (\d+(?:\.\d+)?): (\d+)", line)
        if m and fn:
            out[fn][m.group(1)] = int(m.group(2))
    return out, head


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elf", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--ev", action="append", required=True)
    ap.add_argument("--lcov")
    ap.add_argument("--sample-profile", action="append", default=[])
    ap.add_argument("--entry", help="function the execution starts in")
    ap.add_argument("--thumb", action="store_true",
                    help="T32 program (conditions from mnemonics and IT blocks)")
    a = ap.parse_args()
    ex = execution(a.ev)
    insns = disassembly(a.elf)
    rows = line_table(a.elf)
    bad = 0
    if a.lcov:
        want = expected_lcov(insns, rows, ex, a.proto, a.thumb)
        got = parse_lcov(a.lcov)
        for i, what in enumerate(("DA line counts", "BRDA branch records",
                                  "FNDA function counts")):
            bad |= compare("%s %s" % (a.proto, what), want[i], got[i])
    decl = decl_lines(a.elf)
    for p in a.sample_profile:
        want, whead = expected_profile(insns, rows, ex, decl)
        got, ghead = parse_profile(p)
        for fn in sorted(set(want) | set(got)):
            w = want.get(fn, {})
            g = {k: v for k, v in got.get(fn, {}).items() if v}
            bad |= compare("%s %s body counts of %s" % (p, a.proto, fn), w, g)
        # head samples: calls into each function (the entry function,
        # reached by the start of the trace and not by a call, excepted)
        entry = a.entry or ""
        w = {fn: whead[fn] for fn in got if fn in whead and fn != entry}
        g = {fn: ghead[fn] for fn in got if fn in whead and fn != entry}
        bad |= compare("%s %s head samples" % (p, a.proto), w, g)
    return bad


if __name__ == "__main__":
    sys.exit(main())
