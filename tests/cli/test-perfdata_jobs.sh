#!/usr/bin/env bash
# tests/cli/test-perfdata_jobs.sh - `--jobs N` on a perf.data file: each
# AUX piece (a byte range of the file) goes to the parallel runner as a
# snapshot's buffer does (its run statistics say so; before, a piece was
# decoded on one thread), and the output is that of one thread: the canon
# list equals the generator's (synth --expect, ground truth), the text
# listing and the profile equal those of --jobs 1 (the runner's own
# guarantee, checked here on pieces). 300 000 instructions of ETMv3 in
# frames: a 175 KB piece, above the runner's 128 KB one-thread limit.
. "$ETM_SRCDIR/tests/cli/lib.sh"

d="$tmp/big"
"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 300000 --seed 42 --protocol etmv3 \
	--format coresight --perf-data > /dev/null 2>&1
"$ETMTRACE" decode "$d/perf.data" --format canon --jobs 2 --run-stats > "$tmp/canon" 2> "$tmp/err"
check 'grep -q "^parallel threads 2" "$tmp/err"' "decode --jobs 2: the AUX piece runs on the parallel runner"
check '[ -s "$tmp/canon" ] && canon_eq "$tmp/canon" "$d.exp"' "decode --jobs 2 --format canon: the generator's list"
"$ETMTRACE" decode "$d/perf.data" --jobs 2 > "$tmp/j2" 2> /dev/null
"$ETMTRACE" decode "$d/perf.data" --jobs 1 > "$tmp/j1" 2> /dev/null
check '[ -s "$tmp/j1" ] && cmp -s "$tmp/j1" "$tmp/j2"' "decode text: --jobs 2 = --jobs 1 ($(wc -l < "$tmp/j1") lines)"
"$ETMTRACE" profile "$d/perf.data" --jobs 2 > "$tmp/j2" 2> /dev/null
"$ETMTRACE" profile "$d/perf.data" --jobs 1 > "$tmp/j1" 2> /dev/null
check '[ -s "$tmp/j1" ] && cmp -s "$tmp/j1" "$tmp/j2"' "profile: --jobs 2 = --jobs 1"
finish
