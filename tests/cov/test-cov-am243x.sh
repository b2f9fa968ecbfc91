#!/bin/bash
# tests/cov/test-cov-am243x.sh - coverage of a real capture
# (tests/data/snapshots-am243x-freertos-1.tar.xz: Cortex-R5, ETMv3.3, ARM + Thumb,
# TI clang DWARF in freertos.out), checked against the canonical decode and
# binutils (independent of our symbols layer):
#  - per-address executed counts (--format insns) equal the number of times
#    each address appears in `decode --format canon`;
#  - lcov: every line holding an executed instruction (llvm-addr2line; binutils'
#    addr2line misses the CUs that lack .debug_aranges)
#    has DA = the largest count of its instructions, no other line is hit;
#    the failed-condition counts of each line's BRDA records add up to the
#    canon's N instructions on that line; every executed function (nm -S;
#    one of the names of aliased addresses) has an FN record, and FNDA =
#    the count of its first instruction, or 1 where the capture began
#    inside it (entry count 0; a function that ran was called);
#  - lcov --summary reads it; ranges and the text listing are produced.
# Exit 77 when the shared data or a tool is missing.
set -u
: "${ETMTRACE:?}" "${ETM_SRCDIR:?}"
S=${ETM_SHARED:-}/snapshots/am243x-freertos-1
[ -f "$S/freertos.out" ] || { echo "shared data missing: skip"; exit 77; }
for t in llvm-addr2line-19 arm-none-eabi-nm lcov; do
	command -v $t >/dev/null || { echo "$t missing: skip"; exit 77; }
done
[ -x /usr/bin/python3 ] || { echo "no /usr/bin/python3: skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$ETMTRACE" decode "$S" --format canon > "$tmp/canon" || fail=1
"$ETMTRACE" coverage "$S" --format insns > "$tmp/insns" || fail=1
"$ETMTRACE" coverage "$S" --symbols "$S/freertos.out" --format lcov > "$tmp/lcov" || fail=1
"$ETMTRACE" coverage "$S" --symbols "$S/freertos.out" --format text > "$tmp/text" || fail=1
"$ETMTRACE" coverage "$S" --symbols "$S/freertos.out" > "$tmp/ranges" || fail=1
lcov --summary "$tmp/lcov" --rc lcov_branch_coverage=1 2>&1 | tail -3
grep -q "^" "$tmp/text" && tail -1 "$tmp/ranges"
grep -v GAP "$tmp/canon" | awk '{ print "0x" $1 }' | sort -u |
	llvm-addr2line-19 -a -e "$S/freertos.out" > "$tmp/a2l"
arm-none-eabi-nm -S --defined-only "$S/freertos.out" > "$tmp/nm"
/usr/bin/python3 - "$tmp" <<'PY' || fail=1
import collections, re, sys
t = sys.argv[1]
bad = 0
def key(path, line):
    p = path.replace("\\", "/").split("/")
    return ("/".join(p[-2:]), int(line))
canon = collections.Counter()
fails = collections.Counter()
for l in open(t + "/canon"):
    f = l.split()
    if f[0] != "GAP":
        canon[int(f[0], 16)] += 1
        fails[int(f[0], 16)] += len(f) > 2 and f[2] == "N"
got = {int(l.split()[0], 16): int(l.split()[2]) for l in open(t + "/insns")}
print("insns: %d addresses, %d executed instructions; canon %d, %d" %
      (len(got), sum(got.values()), len(canon), sum(canon.values())))
if got != dict(canon):
    print("FAIL: per-address counts differ from the canonical decode"); bad = 1
# address -> line (addr2line -a: address line, then file:line)
a2l = open(t + "/a2l").read().split("\n")
want_da, want_fail = {}, collections.Counter()
for i in range(0, len(a2l) - 1, 2):
    a = int(a2l[i], 16)
    path, _, ln = a2l[i + 1].rpartition(":")
    ln = ln.split()[0] if ln else "?"
    if not ln.isdigit() or ln == "0":
        continue
    k = key(path, ln)
    want_da[k] = max(want_da.get(k, 0), canon[a])
    want_fail[k] += fails[a]
da, brfail, fn, fnda, sf = {}, collections.Counter(), set(), {}, None
for l in open(t + "/lcov"):
    k, _, v = l.strip().partition(":")
    if k == "SF": sf = v
    elif k == "DA":
        ln, c = v.split(","); da[key(sf, ln)] = int(c)
    elif k == "BRDA":
        ln, b, br, c = v.split(",")
        if br == "1" and c != "-": brfail[key(sf, ln)] += int(c)
    elif k == "FN": fn.add(v.split(",", 1)[1])
    elif k == "FNDA":
        c, name = v.split(","); fnda.setdefault(name, []).append(int(c))
hit = {k: c for k, c in da.items() if c}
print("lcov: %d lines hit (addr2line: %d), %d functions hit, %d failed conditions"
      % (len(hit), len(want_da), sum(1 for c in fnda.values() if any(c)),
         sum(brfail.values())))
if hit != want_da:
    bad = 1
    for k in sorted(set(hit) | set(want_da)):
        if hit.get(k) != want_da.get(k):
            print("FAIL DA %s: want %s got %s" % (k, want_da.get(k), hit.get(k)))
            break
want_fail = {k: c for k, c in want_fail.items() if c}
brfail = {k: c for k, c in brfail.items() if c}
if brfail != want_fail:
    print("FAIL: failed-condition counts per line differ"); bad = 1
    for k in sorted(set(brfail) | set(want_fail)):
        if brfail.get(k) != want_fail.get(k):
            print("  %s: want %s got %s" % (k, want_fail.get(k), brfail.get(k)))
if not brfail:
    print("FAIL: no branch data"); bad = 1
funcs = collections.defaultdict(list)
for l in open(t + "/nm"):
    f = l.split()
    if len(f) == 4 and f[2] in "Tt" and not f[3].startswith("$"):
        funcs[(int(f[0], 16) & ~1, int(f[1], 16))].append(f[3])
nf = inside = 0
for (start, size), names in sorted(funcs.items()):
    if not any(canon[a] for a in range(start, start + size, 2)):
        continue
    nf += 1
    want = canon[start] or 1
    inside += not canon[start]
    if not any(n in fn and want in fnda.get(n, []) for n in names):
        print("FAIL function %s: entry count %d, FNDA %s" %
              (names, canon[start], [fnda.get(n) for n in names])); bad = 1
print("executed functions (nm -S): %d, %d of them entered before the capture"
      % (nf, inside))
sys.exit(bad)
PY
exit $fail
