#!/usr/bin/env bash
# tests/cli/test-perfdata_ctx_images.sh - a perf.data traced with Context
# IDs (perf sets CONTEXTIDR to the pid) is decoded with the image of the
# process the Context ID names, switched at each context change inside an
# AUX piece. The generator changes the Context ID at random (synth feature
# ctx, --expect-ctx: its list with a CTX line at each change: ground
# truth); the perf.data maps the program in two of those processes only
# (convert --map-pids; not in pid 1000, the AUX records' process). So the
# decode must list instructions of those two processes only, each run of
# it a contiguous run of their instructions in the generator's list (an
# instruction of another process has no image: a gap, never an invented
# instruction; the listing too reads each range from its process's image);
# each other pid is noted once. With --ctx-images off, the whole piece is
# the AUX record's process: mapped in pid 1000 too, the whole list decodes.
. "$ETM_SRCDIR/tests/cli/lib.sh"

norm() { awk '/^GAP$/ { if (n) gap = 1; next } { if (gap) print "GAP"; gap = 0; n++; print }' "$1"; }

# runs CTXFILE GOT KEEP: prints "N TOTAL" (instructions of the kept
# processes decoded, and in the list), or fails if a run of the decode is
# not a contiguous run of kept instructions (in order)
runs() {
	$PY - "$@" <<'PYEOF'
import sys
ctx, got, keep = sys.argv[1], sys.argv[2], set(sys.argv[3].split(','))
want, c = [], '0'
for l in open(ctx):
    l = l.strip()
    if l.startswith('CTX'):
        c = l.split()[1]
    elif l == 'GAP':
        want.append((None, False))
    else:
        want.append((l, c in keep))
runs, cur = [], []
for l in open(got):
    l = l.strip()
    if l == 'GAP':
        if cur:
            runs.append(cur)
        cur = []
    else:
        cur.append(l)
if cur:
    runs.append(cur)
pos = n = 0
for r in runs:
    while pos < len(want):
        w = want[pos:pos + len(r)]
        if [x[0] for x in w] == r and all(x[1] for x in w):
            break
        pos += 1
    if pos >= len(want):
        print('run not in the kept list:', r[:3])
        sys.exit(1)
    pos += len(r)
    n += len(r)
print(n, sum(1 for x in want if x[1]))
PYEOF
}

ctx_case() {
	local name=$1 sargs=$2 cargs=$3 d="$tmp/$1" keep other res
	perf_ctx_snap "$d" "$sargs" "$cargs" ||
		{ echo "FAIL: $ctx_err $name"; fail=$((fail + 1)); return; }
	keep=$ctx_keep
	"$ETMTRACE" decode "$d/perf.data" --format canon > "$d.got" 2> "$d.err"
	res=$(runs "$d.ctx" "$d.got" "$keep")
	echo "     $name: processes $keep: $res (decoded, of theirs)"
	check '[ "${res%% *}" -gt 0 ] 2> /dev/null' "$name: the decode is runs of the two mapped processes' instructions ($res)"
	# the first pid that ran without a mapping: noted once (the first 32
	# such pids are named)
	other=$(awk -v k=",$keep," '/^CTX/ && !index(k, "," $2 ",") { print $2; exit }' "$d.ctx")
	check '[ "$(grep -c "no image for pid $((0x$other)) (Context ID " "$d.err")" = 1 ]' \
		"$name: pid $((0x$other)) without mapping noted once"
	# shellcheck disable=SC2086
	"$ETMTRACE" convert "$d" --perf-data "$d/off.data" --map-pids "1000,${ctx_pids%,}" $cargs 2> /dev/null
	"$ETMTRACE" decode "$d/off.data" --format canon --ctx-images off > "$d.off" 2> /dev/null
	check 'diff -q <(norm "$d.off") <(norm "$d.exp") > /dev/null' "$name: --ctx-images off: the whole list, as one process"
}

ctx_case etmv3 "--protocol etmv3 --seed 1" ""
ctx_case ptm "--protocol ptm --seed 1" ""
ctx_case ptm-thread "--protocol ptm --seed 3" "--per-thread"
ctx_case etmv3-raw-v2 "--protocol etmv3 --seed 3" "--raw --perf-version 2"

# a recording without Context IDs: as before, the piece's process
d="$tmp/noctx"
"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 600 --perf-data > /dev/null 2>&1
"$ETMTRACE" decode "$d/perf.data" --format canon > "$d.got" 2> "$d.err"
check 'diff -q <(norm "$d.got") <(norm "$d.exp") > /dev/null && ! grep -q "Context ID" "$d.err"' "no Context IDs: the piece's process image"
finish
