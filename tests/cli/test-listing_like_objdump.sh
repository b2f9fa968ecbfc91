#!/usr/bin/env bash
# tests/cli/test-listing_like_objdump.sh - listings that read like objdump
# (doc/listing.md):
#  - no line of the decode listing (plain, --elf, --source, --offsets, several
#    sources), of `coverage --format text` or of `packets` ends in whitespace;
#  - direct branch targets are printed (decode, coverage --format text) as
#    `arm-linux-gnueabihf-objdump -d` prints them ("bl 8014 <f>", "cbz r5, 803c <f+0x2e>"), checked operand by
#    operand against objdump on a program compiled here (A32 and T32), whose
#    execution is made by tests/cov/mkcovtrace and encoded as ETMv3;
#  - a function name longer than the disassembly column does not move the
#    columns: the E/N column and the func+0xoff column start at the same
#    place on every line (the long target name is cut, ending in "..", and
#    what is kept is the start of objdump's name);
#  - packets: the type column starts at one place on every line;
#  - --offsets hex: every line's offset is the same number as with --offsets
#    (decimal), and `packets --offsets hex` lists the same offsets as
#    `packets`.
# Exit 77 (skip) when the cross compiler or objdump is missing.
. "$(dirname "$0")/lib.sh"
need_disasm
cc=arm-linux-gnueabihf-gcc od=arm-linux-gnueabihf-objdump nm=arm-linux-gnueabihf-nm
for t in $cc $od $nm; do
	command -v $t > /dev/null || { echo "SKIP: $t missing (scripts/deps.sh)"; exit 77; }
done
MK=${ETM_BUILD:?}/mkcovtrace
[ -x "$MK" ] || { echo "SKIP: $MK not built"; exit 77; }
AM=${ETM_SHARED:?}/snapshots/am243x-freertos-1
TC2=$ETM_SHARED/snapshots/TC2
[ -f "$AM/freertos.out" ] || { echo "SKIP: $AM missing (tests/data unpacked at configure)"; exit 77; }

# the checkers
cat > "$tmp/targets.py" << 'PY'
# ours vs objdump: the operands of every line with a symbolized target
import re, sys
od = {}  # '    8012:	dd12      	ble.n	803a <f+0x2c>'
for l in open(sys.argv[2]):
    m = re.match(r'^\s+([0-9a-f]+):\t[0-9a-f ]+\t(\S+)\t(.*)$', l.rstrip('\n'))
    if m:
        od[int(m.group(1), 16)] = m.group(3)
n = bad = 0
for l in open(sys.argv[1]):
    m = re.match(r'^  ([0-9a-f]{8})  [AT]32  [0-9a-f ]{9}  (\S+) (.*?<[^>]*>)', l) or \
        re.match(r'^ *(?:\d+|#####)?  ([0-9a-f]{8}):  (\S+) (.*?<[^>]*>)', l)  # coverage
    if not m:
        continue
    a, ours = int(m.group(1), 16), m.group(3)
    want = od.get(a, '?')
    cut = re.match(r'^(.* <)([^>]*)\.\.(\+0x[0-9a-f]+)?>$', ours)
    if cut:  # a cut name: the start of objdump's, the same offset
        w = re.match(r'^(.* <)([^>+]*)(\+0x[0-9a-f]+)?>$', want)
        ok = bool(w) and w.group(1) == cut.group(1) and \
            w.group(2).startswith(cut.group(2)) and \
            len(cut.group(2)) < len(w.group(2)) and w.group(3) == cut.group(3)
    else:
        ok = ours == want
    n += 1
    if not ok:
        bad += 1
        print('  %x: ours %r, objdump %r' % (a, ours, want))
print('  %d symbolized branch lines, %d differ from objdump' % (n, bad))
sys.exit(bad != 0 or n < 5)
PY
cat > "$tmp/cols.py" << 'PY'
# where func+0xoff begins on instruction lines: one place
import sys
cols = set()
for l in open(sys.argv[1]):
    if l.startswith('  ') and '+0x' in l.split()[-1]:
        cols.add(l.rstrip('\n').rfind('  '))
print('  func+0xoff column at', sorted(cols))
sys.exit(len(cols) != 1)
PY
cat > "$tmp/encol.py" << 'PY'
# where E/N stands on the last line of each range: one place
import re, sys
cols = set()
for l in open(sys.argv[1]):
    m = re.search(r' ([EN])  \S+$', l.rstrip('\n'))
    if l.startswith('  ') and m:
        cols.add(m.start(1))
print('  E/N column at', sorted(cols))
sys.exit(len(cols) != 1)
PY
cat > "$tmp/offs.py" << 'PY'
# --offsets hex and --offsets: the same lines, the same numbers
import re, sys
d = open(sys.argv[1]).read().split('\n')
h = open(sys.argv[2]).read().split('\n')
bad = len(d) != len(h)
for x, y in zip(d, h):
    if not x:
        continue
    m = re.match(r'^@(\d+) +(.*)$', x)
    k = re.match(r'^@0x([0-9a-f]{8}) (.*)$', y)
    if not m or not k or int(m.group(1)) != int(k.group(1), 16) or \
            m.group(2) != k.group(2):
        bad += 1
print('  %d lines, %d differ' % (len(d), bad))
sys.exit(bad != 0)
PY
cat > "$tmp/hexdec.py" << 'PY'
import sys
for l in open(sys.argv[1]):
    print(int(l.split()[0], 16))
PY

# no trailing whitespace anywhere
notrail() { ! grep -q '[[:space:]]$' "$1"; }
"$ETMTRACE" decode "$S" > "$tmp/sample" 2> /dev/null
"$ETMTRACE" decode "$AM" --elf "$AM/freertos.out" > "$tmp/am" 2> /dev/null
"$ETMTRACE" decode "$AM" --elf "$AM/freertos.out" --source --offsets > "$tmp/am-src" 2> /dev/null
"$ETMTRACE" decode "$TC2" > "$tmp/tc2" 2> /dev/null
"$ETMTRACE" coverage "$AM" --symbols "$AM/freertos.out" --format text > "$tmp/cov" 2> /dev/null
"$ETMTRACE" packets "$TC2" > "$tmp/pk-tc2" 2> /dev/null
"$ETMTRACE" packets "$AM" > "$tmp/pk-am" 2> /dev/null
for f in sample am am-src tc2 cov pk-tc2 pk-am; do
	check "[ -s '$tmp/$f' ] && notrail '$tmp/$f'" "no trailing whitespace: $f ($(wc -l < "$tmp/$f") lines)"
done
# packets: the type column at one place (32-byte NOTSYNC runs cut to the
# 36-character bytes column with ' ...', their count is in the line)
for f in pk-tc2 pk-am; do
	check "[ \$(awk 'substr(\$0, 55, 1) != \" \" || substr(\$0, 56, 1) == \" \"' '$tmp/$f' | wc -l) -eq 0 ]" "$f: the packet type column does not move"
done

cat > "$tmp/p.c" << 'EOF'
int a_function_with_a_name_much_longer_than_the_disassembly_column_of_the_listing(int x)
{
	return x * 3 + 1;
}
static int sq(int x) { return x * x; }
int f(int n)
{
	int s = 0, i;
	for (i = 0; i < n; i++) {
		if (i & 1)
			s += sq(i);
		else
			s -= a_function_with_a_name_much_longer_than_the_disassembly_column_of_the_listing(i);
		if (s == 0)
			break;
	}
	return s;
}
void _start(void)
{
	volatile int r;
	for (;;)
		r = f(r);
}
EOF
for isa in marm mthumb; do
	elf=$tmp/p-$isa.elf
	$cc -O1 -$isa -fno-inline -ffreestanding -nostdlib -static -Wl,-Ttext=0x8000 \
		-Wl,-e,_start -o "$elf" "$tmp/p.c" || { echo "FAIL: cannot build ($isa)"; fail=$((fail + 1)); continue; }
	e=$((0x$($nm "$elf" | awk '$3 == "_start" { print $1 }')))
	[ $isa = mthumb ] && e=$((e | 1))
	"$MK" "$elf" $e etmv3 1 2000 "$tmp/$isa.bin" - > /dev/null
	"$ETMTRACE" decode "$tmp/$isa.bin" --protocol etmv3 --elf "$elf" > "$tmp/$isa.txt" 2> /dev/null
	$od -d "$elf" > "$tmp/$isa.od"
	check "$PY '$tmp/targets.py' '$tmp/$isa.txt' '$tmp/$isa.od'" "$isa: branch targets as objdump -d prints them"
	"$ETMTRACE" coverage "$tmp/$isa.bin" --protocol etmv3 --elf "$elf" --format text > "$tmp/$isa.cov" 2> /dev/null
	check "$PY '$tmp/targets.py' '$tmp/$isa.cov' '$tmp/$isa.od' && notrail '$tmp/$isa.cov'" "$isa: coverage --format text: branch targets as objdump -d prints them"
	check "grep -q '<a_function_with_a_name_[a-z_]*\\.\\.>' '$tmp/$isa.txt'" "$isa: the long target name is cut"
	check "$PY '$tmp/cols.py' '$tmp/$isa.txt'" "$isa: the func+0xoff column does not move after a long <symbol>"
	check "$PY '$tmp/encol.py' '$tmp/$isa.txt'" "$isa: the E/N column does not move"
	check "notrail '$tmp/$isa.txt'" "$isa: no trailing whitespace"
done
# --offsets hex: the same offsets as --offsets, in hex
"$ETMTRACE" decode "$TC2" --offsets > "$tmp/dec" 2> /dev/null
"$ETMTRACE" decode "$TC2" --offsets hex > "$tmp/hex" 2> /dev/null
check "$PY '$tmp/offs.py' '$tmp/dec' '$tmp/hex'" "decode --offsets hex = --offsets (decimal), line by line"
"$ETMTRACE" packets "$TC2" --offsets hex > "$tmp/pk-hex" 2> /dev/null
check "diff <(awk '{ print \$1 }' '$tmp/pk-tc2') <($PY '$tmp/hexdec.py' '$tmp/pk-hex') > /dev/null" "packets --offsets hex = packets, offset by offset"
check "'$ETMTRACE' decode '$S' --offsets=oct > /dev/null 2> '$tmp/err'; [ \$? -eq 2 ] && grep -q 'expected dec or hex' '$tmp/err'" "--offsets=oct: a usage error naming the forms"
finish
