#!/usr/bin/env bash
# tests/cli/test-window_bounds.sh - decode --start/--stop (address, @offset,
# ts:timestamp, #index) and --last N list exactly the instructions of the
# window: on the built-in sample (counts and first/last addresses derived
# by hand from examples/sample/README.txt, the list in test-sample.sh), on
# TC2 and on a synthetic trace (generator ground truth), each window's list
# derived from the FULL decode by tests/cli/window_expect.py, not by the
# window code; canon, text, jsonl and --stats agree; --jobs 3 = --jobs 1.
. "$ETM_SRCDIR/tests/cli/lib.sh"
E=$ETMTRACE
X="$PY $ETM_SRCDIR/tests/cli/window_expect.py"
T="$ETM_SHARED/snapshots/TC2"
[ -d "$T" ] || { echo "SKIP: no $T"; exit 77; }

# the window's instructions (canon, GAP lines aside)
ins() { grep -v '^GAP' | awk '{print $1}'; }
# first, last and count of a list: "N FIRST LAST"
fl() { awk 'NR==1{f=$1} {l=$1} END{print NR, f, l}' "$1"; }

# win NAME KEY SNAP 'DECODE OPTS' 'WINDOW OPTS': the window's canon against
# the expectation from the full decode (kept as $tmp/KEY.canon, .jsonl);
# text, jsonl and --stats count the same instructions.
win() {
	local n=$1 k="$tmp/$2" snap=$3 dopts=$4 wopts=$5 f="$tmp/$1"
	# shellcheck disable=SC2086
	{
		[ -f "$k.canon" ] || "$E" decode "$snap" $dopts --format canon > "$k.canon" 2>/dev/null
		[ -f "$k.jsonl" ] || "$E" decode "$snap" $dopts --format jsonl > "$k.jsonl" 2>/dev/null
		$X "$k.canon" "$k.jsonl" $wopts > "$f.exp"
		"$E" decode "$snap" $dopts $wopts --format canon 2>/dev/null | ins > "$f.got"
		"$E" decode "$snap" $dopts $wopts 2>/dev/null |
			grep -c '^  [0-9a-f]\{8\}  ' > "$f.text"
		"$E" decode "$snap" $dopts $wopts --format jsonl 2>/dev/null |
			$PY -c 'import json,sys; print(sum(json.loads(l).get("n",0) for l in sys.stdin if "\"range\"" in l))' > "$f.jsonl"
		"$E" decode "$snap" $dopts $wopts --stats 2>/dev/null | awk '/^instructions/{print $2}' > "$f.stats"
	}
	check "cmp -s '$f.exp' '$f.got' && [ -s '$f.exp' ]" "$n: $wopts: $(fl "$f.exp") (expected: $(fl "$f.exp"); got: $(fl "$f.got"))"
	local c; c=$(wc -l < "$f.exp")
	check "[ \"\$(cat '$f.text')\" = $c ] && [ \"\$(cat '$f.jsonl')\" = $c ] && [ \"\$(cat '$f.stats')\" = $c ]" \
		"$n: text $(cat "$f.text"), jsonl $(cat "$f.jsonl"), --stats $(cat "$f.stats") instructions = $c"
}

# ---- the built-in sample, by hand (examples/sample/README.txt: 34 instructions,
# #0 0x8000 ... #33 0x8018; 0x8100 first at #3, 0x810a at #14, the SVC at #26)
hand() { # hand NAME 'OPTS' COUNT FIRST LAST
	"$E" decode "$S" $2 --format canon 2>/dev/null | ins > "$tmp/h"
	check "[ \"\$(fl '$tmp/h')\" = '$3 $4 $5' ]" "sample by hand: $1 ($2): $(fl "$tmp/h") = $3 $4 $5"
}
hand "from 0x8100 to #14" "--start 0x8100 --stop #14" 11 00008100 00008104
hand "first 5" "--stop #5" 5 00008000 00008102
hand "last 5" "--last 5" 5 00000104 00008018
hand "one loop trip" "--start 0x8008 --stop 0x8008" 8 00008008 00008010
hand "from 0x810a" "--start 0x810a" 20 0000810A 00008018
hand "from the SVC to the handler's end" "--start 0x8014 --stop 0x8018" 6 00008014 0000010C
hand "last 3 of #0-#10" "--stop #10 --last 3" 3 00008108 00008010
win sample s "$S" "" "--start 0x8100 --stop #14"
win sample-ts s "$S" "" "--start ts:1000 --stop 0x8018"
win sample-off s "$S" "" "--start @20 --last 7"

# ---- TC2: the ETMv3.5 source 0x10 and the PTM source 0x13
for id in 10 13; do
	full="$tmp/tc2-$id.all"
	"$E" decode "$T" --id $id --format canon 2>/dev/null | ins > "$full"
	n=$(wc -l < "$full")
	a=$(sed -n "$((n / 3))p" "$full")
	b=$(sed -n "$((2 * n / 3))p" "$full")
	win tc2-$id-addr t$id "$T" "--id $id" "--start 0x$a --stop 0x$b"
	win tc2-$id-index t$id "$T" "--id $id" "--start #$((n / 4)) --stop #$((n / 2))"
	win tc2-$id-last t$id "$T" "--id $id" "--last 1000"
	win tc2-$id-addr-last t$id "$T" "--id $id" "--start 0x$a --last 77"
	off=$(awk -F'[:,]' 'NR==200{print $2}' "$tmp/t$id.jsonl")
	win tc2-$id-offset t$id "$T" "--id $id" "--start @$((off)) --stop @$((off + 4000))"
done
# timestamps of 0x10: from the 10th to the 30th
grep '"timestamp"' "$tmp/t10.jsonl" | sed 's/.*"timestamp":\([0-9]*\).*/\1/' > "$tmp/ts"
win tc2-10-ts t10 "$T" "--id 10" "--start ts:$(sed -n 10p "$tmp/ts") --stop ts:$(sed -n 30p "$tmp/ts")"

# ---- a synthetic PTM trace of 2000000 instructions (330 KB) with A-syncs
# (cut into chunks by --jobs 3): against the generator's own list, and --jobs 3 = 1
synth_snap "$tmp/syn" --seed 7 --insns 2000000 --async-period 2048 --features all
"$E" decode "$tmp/syn" --format canon --jobs 1 2>/dev/null > "$tmp/syn.full"
check "canon_eq '$tmp/syn.full' '$tmp/syn.exp'" "synthetic: the full decode is the generator's list"
ins < "$tmp/syn.exp" > "$tmp/syn.truth"
"$E" decode "$tmp/syn" --start '#1234567' --stop '#1434567' --format canon --jobs 1 2>/dev/null | ins > "$tmp/syn.w"
check "cmp -s '$tmp/syn.w' <(sed -n '1234568,1434567p' '$tmp/syn.truth')" \
	"synthetic: #1234567..#1434566 = the generator's instructions $(fl "$tmp/syn.w")"
"$E" decode "$tmp/syn" --last 1234 --format canon --jobs 1 2>/dev/null | ins > "$tmp/syn.l"
check "cmp -s '$tmp/syn.l' <(tail -n 1234 '$tmp/syn.truth')" "synthetic: --last 1234 = the generator's last 1234"
for w in "--start #1234567 --stop #1434567" "--last 1234" "--start 0x$(sed -n 5000p "$tmp/syn.truth") --stop 0x$(sed -n 1990000p "$tmp/syn.truth")"; do
	for f in text jsonl canon; do
		# shellcheck disable=SC2086
		"$E" decode "$tmp/syn" $w --format $f --jobs 1 > "$tmp/j1" 2>/dev/null
		# shellcheck disable=SC2086
		"$E" decode "$tmp/syn" $w --format $f --jobs 3 > "$tmp/j3" 2>/dev/null
		check "cmp -s '$tmp/j1' '$tmp/j3' && [ -s '$tmp/j1' ]" "synthetic $w --format $f: --jobs 3 = --jobs 1 ($(wc -l < "$tmp/j1") lines)"
	done
done

# ---- profile: the window's instructions (hand: the sample's first 10;
# TC2 0x13: as the decode's index window above)
check "\"\$E\" profile '$S' --stop '#10' 2>/dev/null | grep -q '^# etmtrace profile: 10 instructions'" "profile --stop #10 of the sample: 10 instructions"
k=$(wc -l < "$tmp/tc2-13-index.exp")
check "\"\$E\" profile '$T' --id 13 --start '#2387' --stop '#4774' 2>/dev/null | grep -q '^# etmtrace profile: $k instructions'" "profile of TC2 0x13 #2387..#4773: $k instructions"

# ---- coverage: by hand, #3..#13 of the sample run 0x8100-0x8104 twice
# (the first beq failed), 0x8106, 0x8108, 0x800c, 0x8010, 0x8008 once
"$E" coverage "$S" --format insns --start 0x8100 --stop '#14' > "$tmp/cov" 2>/dev/null
check "[ \$(awk '{s+=\$3} END{print s}' '$tmp/cov') = 11 ] && grep -q '^00008104 T 2 1 0' '$tmp/cov' && grep -q '^00008008 A 1 0' '$tmp/cov' && [ \$(wc -l < '$tmp/cov') = 8 ]" \
	"coverage --start 0x8100 --stop #14 of the sample: 11 executions at 8 addresses, 0x8104 twice (1 failed)"

# ---- bad bounds are usage errors that name the accepted forms
"$E" decode "$S" --start 1234 > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc = 2 ] && grep -q '0xADDRESS, @OFFSET, ts:TIMESTAMP or #INDEX' '$tmp/err'" "--start 1234: exit 2, the forms named"
"$E" decode "$S" --start 0x9999 > "$tmp/out" 2> "$tmp/err"; rc=$?
check "[ $rc = 1 ] && [ ! -s '$tmp/out' ] && grep -q 'no instructions in the window' '$tmp/err'" \
	"--start at an address never executed: exit 1, 'no instructions in the window'"
"$E" decode "$S" --at halt > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc = 2 ] && grep -q -- '--at halt needs --last N' '$tmp/err'" "--at halt without --last: exit 2"
"$E" decode "$S" --last 0 > /dev/null 2>&1; rc=$?
check "[ $rc = 2 ]" "--last 0: exit 2"
finish
