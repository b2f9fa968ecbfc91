#!/usr/bin/env bash
# tests/cli/test-decode_fields.sh - `decode --fields` prints exactly the
# columns asked for, in the order asked for (doc/listing.md):
#  - on the built-in sample, for every single field and several lists
#    (orders, repeats), each instruction line equals the line built from the
#    hand derivation below (the program table and executed sequence of
#    examples/sample/README.txt; offsets and cycle counts: the packet that
#    ends each range in `etmtrace packets`, one atom or branch packet per
#    range by the PTM rules; disassembly written in objdump's form), padded
#    to the documented widths; '-- ' event lines are those of the default
#    listing;
#  - sym and src on a program compiled here with -g: func+0xoff from
#    arm-linux-gnueabihf-nm, file:line from arm-linux-gnueabihf-addr2line;
#  - the same lines with --jobs 1 and 2 (TC2); bad lists are usage errors
#    that name the fields.
. "$(dirname "$0")/lib.sh"
need_disasm
TC2=${ETM_SHARED:?}/snapshots/TC2
[ -f "$TC2/cstrace.bin" ] || { echo "SKIP: $TC2 missing (tests/data unpacked at configure)"; exit 77; }

# addr isa opcode atom offset cycles insn: by hand, from README.txt
cat > "$tmp/hand" << 'EOF'
00008000 A32 e3a00000 - 26 - mov r0, #0
00008004 A32 e3a04003 - 26 - mov r4, #3
00008008 A32 fa00003c E 26 5 blx 8100
00008100 T32 3001 - 27 - adds r0, #1
00008102 T32 2802 - 27 - cmp r0, #2
00008104 T32 d001 N 27 6 beq 810a
00008106 T32 2100 - 28 - movs r1, #0
00008108 T32 4770 E 28 3 bx lr
0000800c A32 e2544001 - 30 - subs r4, r4, #1
00008010 A32 1afffffc E 30 4 bne 8008
00008008 A32 fa00003c E 32 2 blx 8100
00008100 T32 3001 - 33 - adds r0, #1
00008102 T32 2802 - 33 - cmp r0, #2
00008104 T32 d001 E 33 6 beq 810a
0000810a T32 2101 - 34 - movs r1, #1
0000810c T32 4770 E 34 4 bx lr
0000800c A32 e2544001 - 36 - subs r4, r4, #1
00008010 A32 1afffffc E 36 5 bne 8008
00008008 A32 fa00003c E 37 1 blx 8100
00008100 T32 3001 - 38 - adds r0, #1
00008102 T32 2802 - 38 - cmp r0, #2
00008104 T32 d001 N 38 6 beq 810a
00008106 T32 2100 - 39 - movs r1, #0
00008108 T32 4770 E 39 5 bx lr
0000800c A32 e2544001 - 41 - subs r4, r4, #1
00008010 A32 1afffffc N 41 3 bne 8008
00008014 A32 ef000000 - 42 ? svc #0
00000008 A32 ea00003c E 52 1 b 100
00000100 A32 e92d4001 - 53 - push {r0, lr}
00000104 A32 e2811001 - 53 - add r1, r1, #1
00000108 A32 e8bd4001 - 53 - pop {r0, lr}
0000010c A32 e1b0f00e E 53 8 movs pc, lr
00008018 A32 eafffffe E 58 3 b 8018
00008018 A32 eafffffe E 59 1 b 8018
EOF
# The SVC's range ends at the waypoint update (offset 42), a packet
# without a cycle count: '?' accepts an empty field or 0.

# sym and src against nm and addr2line
cat > "$tmp/symsrc.py" << 'PY'
import re, sys
fn = []
for l in open(sys.argv[2]):
    p = l.split()
    if len(p) == 4 and p[2] in 'tT':
        fn.append((int(p[0], 16), int(p[1], 16), p[3]))
a2l, lines = {}, open(sys.argv[3]).read().split('\n')
for i in range(0, len(lines) - 1, 2):
    a2l[int(lines[i], 16)] = lines[i + 1].split(' ')[0]
n = bad = 0
for l in open(sys.argv[1]):
    if l.startswith('--'):
        continue
    a, sym, src = l.split()
    a = int(a, 16)
    want = ['%s+0x%x' % (nm, a - s) for s, z, nm in fn if s <= a < s + z]
    f, ln = a2l[a].rsplit(':', 1)
    n += 1
    if sym not in want or not src.endswith(':' + ln) or \
            src.rsplit('/', 1)[-1].split(':')[0] != f.rsplit('/', 1)[-1]:
        bad += 1
        print('  %x: %s %s; nm %s, addr2line %s' % (a, sym, src, want, a2l[a]))
print('  %d lines' % n)
sys.exit(bad != 0 or n < 100)
PY
# ctx: the context ID of the last '-- context' line before the line
cat > "$tmp/ctx.py" << 'PY'
import re, sys
ctx, n, bad = '', 0, 0
for l in open(sys.argv[1]):
    m = re.search(r'-- context .*ctxid=(0x[0-9a-f]{8})', l)
    if m:
        ctx = m.group(1)
    elif not l.startswith('--'):
        n += 1
        bad += l.split()[0] != ctx
print('  %d lines, %d with another ctx' % (n, bad))
sys.exit(bad != 0 or n < 100)
PY
cat > "$tmp/fields.py" << 'PY'
# the lines the hand table gives for a field list, against the listing
import sys
W = dict(offset=10, id=4, addr=8, isa=3, opcode=9, insn=44, atom=1, sym=32,
         src=32, cycles=6, ts=14, ctx=10)  # doc/listing.md
fields, hand, got = sys.argv[1].split(','), sys.argv[2], sys.argv[3]
rows = []
for l in open(hand):
    a, isa, op, atom, off, cyc, insn = l.rstrip('\n').split(' ', 6)
    rows.append(dict(addr=a, isa=isa, opcode=op, atom='' if atom == '-' else atom,
                     offset=off, cycles='' if cyc == '-' else cyc, insn=insn,
                     id='0x13', ts='1000', ctx='', sym='', src=''))
lines = [l.rstrip('\n') for l in open(got) if not l.startswith('-- ')]
bad = len(lines) != len(rows)
for r, g in zip(rows, lines):
    alts = [r]
    if r['cycles'] == '?':
        alts = [dict(r, cycles=''), dict(r, cycles='0')]
    want = []
    for a in alts:
        parts = [a[f].ljust(W[f]) if i + 1 < len(fields) else a[f]
                 for i, f in enumerate(fields)]
        want.append('  '.join(parts).rstrip())
    if g not in want:
        bad += 1
        print('  want %r\n  got  %r' % (want[0], g))
sys.exit(bad != 0)
PY
grep '^-- ' <("$ETMTRACE" decode "$S" 2> /dev/null) > "$tmp/events"
for f in offset id addr isa opcode insn atom cycles ts ctx \
	addr,isa,opcode,insn,atom atom,addr id,offset,addr,isa,opcode,atom,cycles,ts \
	insn,addr addr,addr cycles,atom,opcode offset,ctx,addr; do
	"$ETMTRACE" decode "$S" --fields $f > "$tmp/got" 2> /dev/null
	check "$PY '$tmp/fields.py' $f '$tmp/hand' '$tmp/got' && diff <(grep '^-- ' '$tmp/got') '$tmp/events' > /dev/null" "--fields $f: exactly those columns"
done
"$ETMTRACE" decode "$S" --fields offset,addr --offsets hex > "$tmp/got" 2> /dev/null
check "grep -q '^0x0000001a  00008000$' '$tmp/got'" "--fields offset with --offsets hex: 0x0000001a (26)"

# sym and src against binutils on a program compiled here
cc=arm-linux-gnueabihf-gcc
if command -v $cc > /dev/null && [ -x "${ETM_BUILD:-}/mkcovtrace" ]; then
	cat > "$tmp/p.c" << 'EOF'
static int sq(int x) { return x * x; }
int f(int n)
{
	int s = 0, i;
	for (i = 0; i < n; i++)
		s += (i & 1) ? sq(i) : -i;
	return s;
}
void _start(void)
{
	volatile int r;
	for (;;)
		r = f(r);
}
EOF
	$cc -O1 -g -marm -fno-inline -ffreestanding -nostdlib -static -Wl,-Ttext=0x8000 \
		-Wl,-e,_start -o "$tmp/p.elf" "$tmp/p.c"
	e=$((0x$(arm-linux-gnueabihf-nm "$tmp/p.elf" | awk '$3 == "_start" { print $1 }')))
	"$ETM_BUILD/mkcovtrace" "$tmp/p.elf" $e etmv3 1 500 "$tmp/p.bin" - > /dev/null
	"$ETMTRACE" decode "$tmp/p.bin" --protocol etmv3 --elf "$tmp/p.elf" \
		--fields addr,sym,src > "$tmp/sym" 2> /dev/null
	arm-linux-gnueabihf-nm -S --defined-only "$tmp/p.elf" > "$tmp/nm"
	grep -v '^--' "$tmp/sym" | awk '{ print "0x" $1 }' | sort -u |
		arm-linux-gnueabihf-addr2line -a -e "$tmp/p.elf" > "$tmp/a2l"
	check "$PY '$tmp/symsrc.py' '$tmp/sym' '$tmp/nm' '$tmp/a2l'" "--fields addr,sym,src = nm and addr2line"
else
	echo "FAIL: $cc or mkcovtrace missing"; fail=$((fail + 1))
fi

# the same lines on 1 and 2 threads (TC2's buffer 16 times: several
# chunks; ts and ctx are formatted on one thread); usage errors
mkdir "$tmp/x16" && cp "$TC2"/*.ini "$TC2/kernel_dump.bin" "$tmp/x16/"
for i in $(seq 16); do cat "$TC2/cstrace.bin"; done > "$tmp/x16/cstrace.bin"
for sel in offset,id,addr,opcode,insn,atom,cycles ts,ctx,addr; do
	"$ETMTRACE" decode "$tmp/x16" --fields $sel --jobs 1 > "$tmp/j1" 2>&1
	"$ETMTRACE" decode "$tmp/x16" --fields $sel --jobs 2 > "$tmp/j2" 2>&1
	check "[ \$(grep -c . '$tmp/j1') -gt 100000 ] && cmp -s '$tmp/j1' '$tmp/j2'" "--fields $sel: --jobs 2 = --jobs 1 (TC2 x16)"
done
check "grep -Eq '^[0-9]{12} +[0-9a-f]{8}$' <('$ETMTRACE' decode '$TC2' --fields ts,ctx,addr 2> /dev/null)" "--fields ts,ctx on TC2: timestamps (no context IDs)"
"$ETMTRACE" synth "$tmp/syn" --ctxid-bytes 4 --features arm,thumb,ctx --seed 3 > /dev/null 2>&1
"$ETMTRACE" decode "$tmp/syn" > "$tmp/syn.txt" 2> /dev/null
"$ETMTRACE" decode "$tmp/syn" --fields ctx,addr > "$tmp/syn.ctx" 2> /dev/null
check "$PY '$tmp/ctx.py' '$tmp/syn.ctx' && diff <(grep -v '^--' '$tmp/syn.ctx' | awk '{ print \$2 }') <(grep -v '^--' '$tmp/syn.txt' | awk '{ print \$1 }') > /dev/null" "--fields ctx,addr (synth, 4-byte context IDs): the last context ID, every address"
for bad in "addr,bogus" "addr,,insn" "" "addr,"; do
	check "'$ETMTRACE' decode '$S' --fields '$bad' > /dev/null 2> '$tmp/err'; [ \$? -eq 2 ] && grep -q 'fields: offset,id,addr' '$tmp/err'" "--fields '$bad': usage error naming the fields"
done
check "'$ETMTRACE' decode '$S' --fields addr --format jsonl > /dev/null 2> '$tmp/err'; [ \$? -eq 2 ] && grep -q 'text listing' '$tmp/err'" "--fields with --format jsonl: usage error"
finish
