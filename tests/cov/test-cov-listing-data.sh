#!/bin/bash
# tests/cov/test-cov-listing-data.sh - `coverage --format text` lists the
# literal pools the ELF's mapping symbols ($d) mark as data as `.word`
# words, and steps through $a / $t code in its own instruction set, as
# `arm-none-eabi-objdump -d` does.
#
# The program (ARMv5TE, -O1: constants come from literal pools) has an A32
# function, a T32 function and _start; the linker adds an A32 veneer
# to the T32 one. The coverage is a saved file written here by hand: the
# first instruction of each function executed once (from `nm`: arm_fn
# 0x8000, thumb_fn 0x8020 (T32), _start 0x8040, the veneer 0x8060). For
# every sized function of `nm -S`, the addresses objdump lists in it must
# be exactly those of our listing, the `.word 0xVALUE` lines identical.
# Exit 77 (skip) when a tool is missing.
set -u
: "${ETMTRACE:?}"
for t in arm-none-eabi-gcc arm-none-eabi-objdump arm-none-eabi-nm; do
	command -v $t >/dev/null || { echo "$t missing: skip"; exit 77; }
done
PY=/usr/bin/python3
[ -x $PY ] || { echo "no $PY: skip"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > p.c <<'C'
volatile int sink;
__attribute__((noinline)) int arm_fn(int x) { sink = x; return x * 0x12345 + sink; }
__attribute__((noinline, target("thumb"))) int thumb_fn(int x) { sink = x + 0x5678; return sink * 0x9abcd; }
void _start(void) { for (;;) sink = arm_fn(thumb_fn(sink)); }
C
arm-none-eabi-gcc -marm -mcpu=arm926ej-s -O1 -g -ffreestanding -nostdlib \
	-nostartfiles -Wl,-Ttext=0x8000 -Wl,-e,_start -o p.elf p.c || exit 1
arm-none-eabi-nm p.elf | awk '$2 ~ /[Tt]/ && $1 < "00009000" { print $1, $3 }' | sort > layout
printf '%s\n' "00008000 arm_fn" "00008020 thumb_fn" "00008040 _start" \
	"00008060 __thumb_fn_from_arm" > want_layout
if ! cmp -s layout want_layout; then
	echo "FAIL: the compiler laid the program out differently:"; cat layout
	exit 1
fi
# INFO: bit 0 valid, 1 size 4, 2 T32 (doc/coverage.md, saved form)
printf 'etmtrace-coverage 1\ni 8000 3 1 0 0\ni 8020 5 1 0 0\ni 8040 3 1 0 0\ni 8060 3 1 0 0\nend\n' > p.cov
"$ETMTRACE" coverage --merge p.cov --elf p.elf --format text > list || { echo "FAIL: coverage"; exit 1; }
arm-none-eabi-objdump -d p.elf > dis
arm-none-eabi-nm -S p.elf > nm
$PY - <<'PY'
import re, sys
obj, ours = {}, {}
for l in open("dis"):
    m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]+)(?: [0-9a-f]{4})?\s+(\.word\s+(0x[0-9a-f]+))?", l)
    if m:
        obj[int(m.group(1), 16)] = int(m.group(4), 16) if m.group(3) else None
for l in open("list"):
    m = re.match(r"^\s*(?:\d+|#####)?\s+([0-9a-f]{8}):\s+(\.word (0x[0-9a-f]+))?", l)
    if m:
        ours[int(m.group(1), 16)] = int(m.group(3), 16) if m.group(2) else None
bad = nw = nf = 0
for l in open("nm"):
    f = l.split()
    if len(f) != 4 or f[2] not in "Tt":
        continue
    lo = int(f[0], 16) & ~1
    hi = lo + int(f[1], 16)
    nf += 1
    o = {a: v for a, v in obj.items() if lo <= a < hi}
    u = {a: v for a, v in ours.items() if lo <= a < hi}
    nw += sum(v is not None for v in o.values())
    if o != u:
        bad = 1
        print("FAIL %s:" % f[3])
        for a in sorted(set(o) | set(u)):
            if o.get(a, "-") != u.get(a, "-"):
                print("  %08x objdump %s, ours %s" % (a, o.get(a, "-"), u.get(a, "-")))
print("%d functions, %d data words; %s" % (nf, nw, "FAIL" if bad else "ok: as objdump"))
sys.exit(bad)
PY
