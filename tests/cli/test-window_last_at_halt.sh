#!/usr/bin/env bash
# tests/cli/test-window_last_at_halt.sh - decode --last N --at halt on the
# AM243x capture (a circular ETB in 3 pieces, 3 Debug Halts) lists the N
# instructions before each Debug Halt, each followed by its halt, with a
# 'window' element where instructions were left out between groups; the
# groups derived from the FULL decode (its halts and instruction list) by
# tests/cli/window_expect.py, not by the window code. --jobs 2 = --jobs 1.
. "$ETM_SRCDIR/tests/cli/lib.sh"
E=$ETMTRACE
X="$PY $ETM_SRCDIR/tests/cli/window_expect.py"
A="$ETM_SHARED/snapshots/am243x-freertos-1"
[ -d "$A" ] || { echo "SKIP: no $A"; exit 77; }

ins() { grep -v '^GAP' | awk '{print $1}'; }
"$E" decode "$A" --format canon > "$tmp/full.canon" 2>/dev/null
"$E" decode "$A" --format jsonl > "$tmp/full.jsonl" 2>/dev/null
halts=$(grep -c '"exception":1,' "$tmp/full.jsonl")
check "[ $halts = 3 ]" "the full decode has 3 Debug Halts ($halts)"

for n in 1 4 25 1000; do
	$X "$tmp/full.canon" "$tmp/full.jsonl" --last $n --at halt > "$tmp/exp"
	"$E" decode "$A" --last $n --at halt --format canon 2>/dev/null | ins > "$tmp/got"
	check "cmp -s '$tmp/exp' '$tmp/got' && [ -s '$tmp/exp' ]" \
		"--last $n --at halt: $(wc -l < "$tmp/got") instructions = the $(wc -l < "$tmp/exp") before the halts of the full decode"
	"$E" decode "$A" --last $n --at halt --format jsonl 2>/dev/null > "$tmp/j"
	# instructions before each halt in the window's own output
	$PY - "$tmp/j" "$tmp/full.jsonl" $n > "$tmp/per" <<'PY'
import json, sys
def groups(path):
    g, n = [], 0
    for l in open(path):
        e = json.loads(l)
        if e["kind"] == "range":
            n += e["n"]
        if e["kind"] == "exception" and e.get("exception") == 1:
            g.append(n); n = 0
    return g
want = [min(k, int(sys.argv[3])) for k in groups(sys.argv[2])]
print(groups(sys.argv[1]), want)
PY
	check "$PY -c 'import sys; a, b = open(\"$tmp/per\").read().split(\"] [\"); sys.exit(a + \"]\" != \"[\" + b.strip())'" \
		"--last $n --at halt: instructions before each of the 3 halts $(cat "$tmp/per")"
	"$E" decode "$A" --last $n --at halt --jobs 2 > "$tmp/t2" 2>/dev/null
	"$E" decode "$A" --last $n --at halt --jobs 1 > "$tmp/t1" 2>/dev/null
	check "cmp -s '$tmp/t1' '$tmp/t2' && grep -q DebugHalt '$tmp/t1'" "--last $n --at halt: --jobs 2 = --jobs 1"
done
# the groups: the halt line ends each; between the second and the third,
# the 2322 instructions of the newest run less the 1 and the 4 kept
"$E" decode "$A" --last 4 --at halt 2>/dev/null > "$tmp/t"
check "[ \$(grep -c 'exception DebugHalt' '$tmp/t') = 3 ] && grep -q -- '-- window: 2317 instructions left out' '$tmp/t'" \
	"--last 4 --at halt: 3 halt lines, 'window: 2317 instructions left out' between the last two"
"$E" decode "$A" --last 4 --at halt --format jsonl 2>/dev/null | grep -c '"kind":"window"' > "$tmp/w"
check "[ \$(cat '$tmp/w') = 1 ]" "--last 4 --at halt: one window element in jsonl"
# without --at halt: the last N before the end (the capture ends at a halt)
"$E" decode "$A" --last 4 --format canon 2>/dev/null | ins > "$tmp/l"
check "cmp -s '$tmp/l' <(ins < '$tmp/full.canon' | tail -n 4)" "--last 4: the last 4 of the full decode"
finish
