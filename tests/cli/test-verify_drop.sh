#!/usr/bin/env bash
# tests/cli/test-verify_drop.sh - --verify-drop
# leaves the rejected trace out: on a damaged capture, the output is the
# --verify output without the elements between each 'unverified' marker
# and the error of that source that rejected them (the marker and the
# error stay), and the count is said on stderr; clean trace is unchanged.
. "$(dirname "$0")/lib.sh"
"$ETMTRACE" synth "$tmp/s" --protocol ptm --seed 7 --insns 20000 \
	--isync-period 128 --async-period 512 > /dev/null 2>&1
"$ETMTRACE" decode "$tmp/s" --format jsonl --verify > "$tmp/cv" 2>/dev/null
"$ETMTRACE" decode "$tmp/s" --format jsonl --verify-drop > "$tmp/cd" 2>/dev/null; rc=$?
check "[ $rc -eq 0 ] && cmp -s '$tmp/cv' '$tmp/cd'" "clean trace: --verify-drop changes nothing"
cp -r "$tmp/s" "$tmp/d"
found=0
for pos in $(seq 200 37 6000); do   # as tests/cli/test-verify.sh
	cp "$tmp/s/trace.bin" "$tmp/d/trace.bin"
	$PY -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,"rb").read()); b[int(sys.argv[2])]^=4; open(p,"wb").write(b)' "$tmp/d/trace.bin" "$pos"
	"$ETMTRACE" decode "$tmp/d" --format jsonl --verify > "$tmp/v" 2>/dev/null
	grep -q '"error":"unverified"' "$tmp/v" && { found=1; break; }
done
check "[ $found -eq 1 ]" "a bit flip whose trace a later check rejects (position $pos)"
"$ETMTRACE" decode "$tmp/d" --format jsonl --verify-drop > "$tmp/dr" 2> "$tmp/err"; rc=$?
# the expectation, from the --verify output: per trace ID, drop what lies
# between an unverified marker and the next error / nosync of that ID
$PY - "$tmp/v" > "$tmp/want" <<'EOT'
import json, sys
drop = {}
for line in open(sys.argv[1]):
    e = json.loads(line); i = e.get('id')
    if e['kind'] == 'error' and e.get('error') == 'unverified':
        drop[i] = True; print(line, end=''); continue
    if drop.get(i) and e['kind'] in ('error', 'nosync'):
        drop[i] = False
    if not drop.get(i):
        print(line, end='')
EOT
n=$(( $(wc -l < "$tmp/v") - $(wc -l < "$tmp/want") ))
check "[ $rc -eq 1 ] && [ $n -gt 0 ] && cmp -s '$tmp/want' '$tmp/dr'" "damaged: the $n rejected elements are left out, markers and errors kept"
check "grep -q -- \"--verify-drop: $n elements of rejected trace left out\" '$tmp/err'" "the count is said"
finish
