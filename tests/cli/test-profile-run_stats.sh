#!/usr/bin/env bash
# tests/cli/test-profile-run_stats.sh - `profile --jobs N --run-stats`
# prints the parallel run's figures on stderr as decode's do (the
# calling thread's share: the ordered apply, the serial part of the
# profile) and changes nothing else: the same profile on stdout, in each
# format, as without it. With one job (no worker threads) or without the
# option nothing is printed. Checked against what the test knows apart
# from the tool: the number of worker threads asked for, and every byte of
# the trace file decoded at least once by the workers (the sum of the
# per-thread bytes is at least the file's size).
. "$(dirname "$0")/lib.sh"
# a clean PTM capture, big enough for several parallel chunks
synth_snap "$tmp/c" --protocol ptm --insns 1500000 --async-period 512 --isync-period 1024
size=$(wc -c < "$tmp/c/trace.bin")
for f in flat callgrind folded; do
	"$ETMTRACE" profile "$tmp/c" --format $f --jobs 2 > "$tmp/ref" 2> "$tmp/ref.err"; rc=$?
	check "[ $rc -eq 0 ] && [ ! -s '$tmp/ref.err' ]" "$f --jobs 2 without --run-stats: exit $rc, stderr empty"
	"$ETMTRACE" profile "$tmp/c" --format $f --jobs 2 --run-stats > "$tmp/out" 2> "$tmp/err"; rc=$?
	check "[ $rc -eq 0 ] && cmp -s '$tmp/ref' '$tmp/out'" "$f --jobs 2 --run-stats: exit $rc, the same profile"
	check "grep -q '^parallel threads 2, chunks [1-9]' '$tmp/err'" \
		"$f --jobs 2 --run-stats: two threads ($(grep '^parallel threads' "$tmp/err"))"
	check "grep -q '^parallel serial  [0-9.]*% of CPU: the calling thread' '$tmp/err'" \
		"$f --jobs 2 --run-stats: the serial share ($(grep '^parallel serial' "$tmp/err"))"
	nth=$(grep -c '^parallel thread  [01]: ' "$tmp/err")
	bytes=$(sed -n 's/^parallel thread  [0-9]*: .*, \([0-9]*\) bytes$/\1/p' "$tmp/err" | awk '{s += $1} END {print s + 0}')
	check "[ $nth -eq 2 ] && [ $bytes -ge $size ]" \
		"$f --jobs 2 --run-stats: $nth thread lines, $bytes bytes decoded of $size"
done
"$ETMTRACE" profile "$tmp/c" --jobs 1 --run-stats > "$tmp/out" 2> "$tmp/err"; rc=$?
check "[ $rc -eq 0 ] && [ ! -s '$tmp/err' ] && cmp -s '$tmp/ref' <(\"$ETMTRACE\" profile '$tmp/c' --format folded)" \
	"--jobs 1 --run-stats: exit $rc, no figures (no worker threads)"
finish
