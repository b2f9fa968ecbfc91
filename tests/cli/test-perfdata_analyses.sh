#!/usr/bin/env bash
# tests/cli/test-perfdata_analyses.sh - profile and coverage of a
# perf.data read each process's memory, as the decode does: the same trace
# from its snapshot (one program per source, all mapped) is the reference.
# 1. Sideband: convert --cpu-wide (every source's trace on CPU 0, a buffer
#    each of process 1000 + k mapping that source's program alone): per
#    trace ID, the profile equals the snapshot's, and so do coverage's
#    executed ranges (the report's regions are those of one process).
# 2. Context IDs: the generator changes the Context ID at random
#    (--features ctx); every Context ID is a process mapping the program
#    (convert --map-pids), pid 1000 (the AUX records') maps nothing: the
#    profile takes each process's image at each Context ID element
#    (etm_profile_set_ctx_images()) and equals the snapshot's (with the
#    piece's image it told 149 returns of 210: seed 3).
. "$ETM_SRCDIR/tests/cli/lib.sh"

d="$tmp/wide"
"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 600 --sources 2 --format coresight --seed 3 > /dev/null 2>&1
"$ETMTRACE" convert "$d" --perf-data "$d/perf.data" --cpu-wide
for id in 0x10 0x11; do
	"$ETMTRACE" profile "$d" --id $id > "$tmp/snap" 2> /dev/null
	"$ETMTRACE" profile "$d/perf.data" --id $id > "$tmp/perf" 2> /dev/null
	check 'grep -q "instructions" "$tmp/snap" && cmp -s "$tmp/snap" "$tmp/perf"' "cpu-wide $id: profile of the perf.data = of the snapshot"
	"$ETMTRACE" coverage "$d" --id $id 2> /dev/null | grep '^  +' > "$tmp/snap"
	"$ETMTRACE" coverage "$d/perf.data" --id $id 2> /dev/null | grep '^  +' > "$tmp/perf"
	check '[ -s "$tmp/snap" ] && cmp -s "$tmp/snap" "$tmp/perf"' "cpu-wide $id: coverage's executed ranges = the snapshot's"
done

d="$tmp/ctx"
"$ETMTRACE" synth "$d" --expect "$d.exp" --expect-ctx "$d.ctx" --insns 3000 \
	--features arm,thumb,exc,ctx --ctxid-bytes 1 --seed 3 > /dev/null 2>&1
pids=$(awk '/^CTX/ { print $2 }' "$d.ctx" | sort -u | while read -r x; do printf '%d,' "0x$x"; done)
"$ETMTRACE" convert "$d" --perf-data "$d/perf.data" --map-pids "${pids%,}" 2> "$tmp/err"
check '[ $? = 0 ]' "convert --map-pids: every Context ID a process ($(echo "$pids" | tr -cd , | wc -c) pids) $(cat "$tmp/err")"
"$ETMTRACE" profile "$d" > "$tmp/snap" 2> /dev/null
"$ETMTRACE" profile "$d/perf.data" > "$tmp/perf" 2> /dev/null
check 'grep -q "returns [1-9]" "$tmp/snap" && cmp -s "$tmp/snap" "$tmp/perf"' "Context IDs: profile of the perf.data = of the snapshot ($(sed -n 2p "$tmp/snap"))"
finish
