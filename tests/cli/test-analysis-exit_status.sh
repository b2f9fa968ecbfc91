#!/usr/bin/env bash
# tests/cli/test-analysis-exit_status.sh - `profile`, `coverage` and `fdo`
# follow decode's exit status rule (README "Exit status") with decode's
# warnings and a reason worded for their output: random bytes exit 1 with
# "no instructions decoded"; a damaged synthetic capture exits 1 with
# "the profile/coverage is incomplete: N errors" and the same warning lines
# decode prints (N equal to decode's); a clean capture exits 0 and prints
# nothing on stderr. Single-threaded and on two threads (coverage's
# parallel path carries its diagnostics in per-worker parts).
. "$(dirname "$0")/lib.sh"
# analysis CMD -> the output noun of its reason
noun() { case $1 in coverage) echo coverage ;; *) echo profile ;; esac; }
# a clean two-source PTM capture, big enough for parallel chunks
synth_snap "$tmp/c" --protocol ptm --format coresight --sources 2 --insns 300000 \
	--async-period 512 --isync-period 1024
# random bytes, given an image so that the reason is about the trace
head -c 20000 /dev/urandom > "$tmp/rnd.bin"
# the damaged copy: 40 random bytes at four offsets (every parallel chunk)
cp -r "$tmp/c" "$tmp/d"
$PY - "$tmp/d/trace.bin" <<'EOT'
import sys, random
p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); r = random.Random(7)
for o in (5000, 90000, 200000, 300000):
    b[o:o + 40] = bytes(r.randrange(256) for _ in range(40))
open(p, 'wb').write(b)
EOT
for j in 1 2; do
	"$ETMTRACE" decode "$tmp/d" --jobs $j > /dev/null 2> "$tmp/dec.err"; drc=$?
	check "[ $drc -eq 1 ] && tail -1 '$tmp/dec.err' | grep -q 'the listing is incomplete: [1-9]'" \
		"decode damaged --jobs $j -> exit 1 ($(tail -1 "$tmp/dec.err"))"
	for cmd in profile coverage fdo; do
		n=$(noun $cmd)
		"$ETMTRACE" $cmd "$tmp/rnd.bin" $(images "$tmp/c") --jobs $j > /dev/null 2> "$tmp/err"; rc=$?
		check "[ $rc -eq 1 ] && grep -q '^etmtrace: no instructions decoded' '$tmp/err'" \
			"$cmd random bytes --jobs $j -> exit $rc ($(grep -v 'note:' "$tmp/err" | head -1))"
		"$ETMTRACE" $cmd "$tmp/d" --jobs $j > /dev/null 2> "$tmp/err"; rc=$?
		check "[ $rc -eq 1 ] && tail -1 '$tmp/err' | grep -q 'the $n is incomplete: [1-9][0-9]* errors'" \
			"$cmd damaged --jobs $j -> exit $rc ($(tail -1 "$tmp/err"))"
		# the same warnings and counts as decode, the noun aside
		check "diff <(sed 's/the listing is/the $n is/' '$tmp/dec.err') '$tmp/err' > /dev/null" \
			"$cmd damaged --jobs $j: decode's warnings and counts"
		"$ETMTRACE" $cmd "$tmp/c" --jobs $j > /dev/null 2> "$tmp/err"; rc=$?
		check "[ $rc -eq 0 ] && [ ! -s '$tmp/err' ]" "$cmd clean --jobs $j -> exit $rc, stderr empty"
	done
done
# several inputs: one damaged among clean ones still exits 1
"$ETMTRACE" coverage "$tmp/c" "$tmp/d" "$tmp/c" > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'the coverage is incomplete' '$tmp/err'" "coverage clean+damaged+clean -> exit $rc"
finish
