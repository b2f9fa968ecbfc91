#!/usr/bin/env bash
# tests/cli/test-resync_coalesce_marks.sh - in the
# text listing, (1) where the listing resumes after a loss of sync that no
# trace-on line ends, a "-- resynchronised at ADDR" line comes first, ADDR
# being the next instruction listed; (2) consecutive identical diagnostic
# lines of one source (errors with one reason, losses of sync) are one line
# with the count and the offsets; (3) an N atom on an instruction that cannot
# fail its condition is marked on its line. Every listing is the same for
# --jobs 1, 2 and 3 (runs are joined across the pieces formatted in
# parallel, src/listing/listing_par.c).
. "$(dirname "$0")/lib.sh"
tc2=${ETM_SHARED:-}/snapshots/TC2
[ -d "$tc2" ] || { echo "skip: $tc2 missing"; exit 77; }
# (1), (3): TC2 against its kernel image loaded 4 bytes too high: the flow
# disagrees with the image all the time
bad="--image $tc2/kernel_dump.bin@0xC0008004"
for j in 1 2 3; do "$ETMTRACE" decode "$tc2" $bad --jobs $j > "$tmp/t$j" 2>/dev/null; done
check "cmp -s '$tmp/t1' '$tmp/t2' && cmp -s '$tmp/t1' '$tmp/t3'" "wrong image: same listing for --jobs 1, 2, 3"
# after every bare loss of sync the source's next instruction line is
# preceded by a trace on or the marker, and the marker names its address
$PY - "$tmp/t1" > "$tmp/resync" <<'EOT'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
lost, marked, bad = {}, 0, 0
for i, l in enumerate(lines):
    m = re.match(r'\[(0x..)\] (.*)', l)
    if not m: continue
    sid, rest = m.groups()
    insn = re.match(r'\s+[0-9a-f]{8}\s', rest)
    if sid in lost and (insn or rest.startswith(('-- resynchronised at ', '-- trace on'))):
        # (events such as exceptions, timestamps may come between)
        del lost[sid]
        if rest.startswith('-- resynchronised at '):
            addr = rest.split()[3]
            nxt = next(x for x in lines[i + 1:] if x.startswith('[' + sid + ']'))
            marked += 1
            bad += int(nxt.split()[1], 16) != int(addr, 16)
        elif insn:
            bad += 1
    if rest.startswith('-- not synchronised: trace lost here'):
        lost[sid] = 1
print(marked, bad)
EOT
read marked unmarked < <(tail -1 "$tmp/resync")
check "[ $marked -gt 50 ] && [ $unmarked -eq 0 ]" "wrong image: the listing resumes after a marker ($marked markers, $unmarked resumptions unmarked)"
# (3) marks: hand rule for an instruction that can fail its condition: A32
# cond field (bits 31-28) not 0xE/0xF; T32 B<cond> (0xDxxx, cond != E/F),
# B<cond>.W (F0xx-F7xx 8xxx/9xxx/Axxx/Bxxx with cond != E/F), CBZ/CBNZ, or
# anything inside an IT block (not derivable from one line: only lines that
# cannot be conditional anywhere are asserted: BL/BLX imm and A32 cond 0xE)
$PY - "$tmp/t1" > "$tmp/marks" <<'EOT'
import re, sys
marked = wrong = must = 0
for l in open(sys.argv[1]):
    m = re.match(r'\[0x..\]\s+([0-9a-f]{8})\s+(A32|T32)\s+([0-9a-f]{4,8})( [0-9a-f]{4})?\s+(\S+)', l)
    if not m or not re.search(r'\sN(\s|$)', l): continue
    isa, op, op2, mn = m.group(2), m.group(3), m.group(4), m.group(5)
    is_mark = '!N-on-unconditional' in l
    marked += is_mark
    if isa == 'A32':
        cond = int(op, 16) >> 28
        wrong += is_mark and cond not in (0xe, 0xf)
    else:
        h = int(op, 16)
        condbr = (h >> 12) == 0xd and ((h >> 8) & 0xf) < 0xe or (h & 0xf500) == 0xb100
        if op2:
            h2 = int(op2, 16)
            condbr = (h >> 11) == 0x1e and (h2 & 0xd000) == 0x8000 and ((h >> 6) & 0xf) < 0xe
        wrong += is_mark and condbr
print(marked, wrong)
EOT
read nmarks wrong < <(tail -1 "$tmp/marks")
check "[ $nmarks -gt 100 ] && [ $wrong -eq 0 ]" "wrong image: N atoms on unconditional instructions marked in place ($nmarks, $wrong on conditional encodings)"
"$ETMTRACE" decode "$tc2" > "$tmp/good" 2>/dev/null
check "! grep -q '!N-on-unconditional\|^\[0x..\] -- resynchronised' '$tmp/good'" "right image: no marks, no loss of sync"
# (2) runs: CoreSight frames of a synthetic two-source trace overwritten
# with random bytes in their middle half (reserved IDs, corrupt frames)
synth_snap "$tmp/s" --protocol ptm --format coresight --sources 2 --seed 4 \
	--insns 100000 --async-period 256 --isync-period 256
$PY - "$tmp/s/trace.bin" <<'EOT'
import random, sys
r = random.Random(5); b = bytearray(open(sys.argv[1], 'rb').read()); n = len(b)
for i in range(n // 4, n // 2): b[i] = r.randrange(256)
open(sys.argv[1], 'wb').write(b)
EOT
for j in 1 2 3; do "$ETMTRACE" decode "$tmp/s" --jobs $j > "$tmp/s$j" 2>/dev/null; done
check "cmp -s '$tmp/s1' '$tmp/s2' && cmp -s '$tmp/s1' '$tmp/s3'" "damaged frames: same listing for --jobs 1, 2, 3"
"$ETMTRACE" decode "$tmp/s" --format jsonl --jobs 1 2>/dev/null > "$tmp/sj"
# JSON lines keep one object per element: the counts of the listing's lines
# add up to them, and no two neighbouring lines repeat one reason of one ID
$PY - "$tmp/s1" "$tmp/sj" > "$tmp/runs" <<'EOT'
import json, re, sys
tot, runs, adj, prev = 0, 0, 0, None
for l in open(sys.argv[1]):
    m = re.match(r'(\[0x..\] )?-- error at offsets? \S+: (.*?)( \((\d+) times\))?$', l.rstrip('\n'))
    key = (m.group(1), m.group(2)) if m else None
    if m and m.group(2) == 'reserved trace ID':
        tot += int(m.group(4) or 1); runs += 1
    adj += key is not None and key == prev
    prev = key
want = sum(1 for l in open(sys.argv[2]) if json.loads(l).get('error') == 'bad_id')
print(want, tot, runs, adj)
EOT
read want tot runs adj < <(tail -1 "$tmp/runs")
echo "reserved trace ID: $want elements in $runs lines"
check "[ $want -gt 100 ] && [ $tot -eq $want ] && [ $runs -lt $((want / 2)) ] && [ $adj -eq 0 ]" "damaged frames: repeated errors coalesced ($want in $runs lines, $adj neighbours repeat)"
finish
