#!/usr/bin/env bash
# tests/cli/test-perfdata_ctx_coverage.sh - coverage of a perf.data traced
# with Context IDs is counted per process, each instruction classified from
# its process's memory. The generator changes the Context ID at random
# (synth feature ctx, --expect-ctx: its list with a CTX line at each
# change, the ground truth per process); the perf.data maps the program in
# the two processes that ran most (convert --map-pids). `coverage --format
# insns` then gives one section per process, and each section's counts
# must be within that process's executions in the generator's list: every
# address one it executed, no more times than it did (a count merged over
# the processes exceeds it where both ran the same code). No section for a
# process without a mapping (its trace is gaps). The instructions counted
# add up to those the decode lists (the same decode), and fdo adds the
# processes up.
. "$ETM_SRCDIR/tests/cli/lib.sh"

# within CTXFILE GOT KEEP: "PID:COUNTED/EXECUTED ..." per kept process, or
# fails naming the first count that is not within the process's own
with_truth() {
	$PY - "$@" <<'PYEOF'
import sys
from collections import Counter
ctx, got, keep = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
truth, c = {}, '0'
for l in open(ctx):
    l = l.split()
    if not l or l[0] == 'GAP':
        continue
    if l[0] == 'CTX':
        c = l[1]
        continue
    truth.setdefault(int(c, 16), Counter())[int(l[0], 16)] += 1
sec, cov = None, {}
for l in open(got):
    if l.startswith('process '):
        sec = int(l.split()[1])
        cov[sec] = Counter()
        continue
    f = l.split()
    if sec is None or len(f) != 5:
        print('line outside a process section:', l.strip())
        sys.exit(1)
    cov[sec][int(f[0], 16)] += int(f[2])
kept = {int(k, 16) for k in keep}
if set(cov) != kept:
    print('sections', sorted(cov), 'want', sorted(kept))
    sys.exit(1)
out = []
for p in sorted(cov):
    for a, n in cov[p].items():
        if n > truth[p][a]:
            print('pid %d: %#x counted %d times, executed %d' % (p, a, n, truth[p][a]))
            sys.exit(1)
    out.append('%d:%d/%d' % (p, sum(cov[p].values()), sum(truth[p].values())))
print(' '.join(out), sum(sum(v.values()) for v in cov.values()))
PYEOF
}

cov_case() {
	local name=$1 sargs=$2 cargs=$3 d="$tmp/$1" keep res total
	perf_ctx_snap "$d" "$sargs" "$cargs" ||
		{ echo "FAIL: $ctx_err $name"; fail=$((fail + 1)); return; }
	keep=$ctx_keep
	"$ETMTRACE" coverage "$d/perf.data" --format insns > "$d.cov" 2> /dev/null
	res=$(with_truth "$d.ctx" "$d.cov" "$keep") || res="FAILED: $res"
	echo "     $name: counted/executed per process: $res"
	check '[ -n "$res" ] && [[ $res != FAILED* ]] && ! grep -q ":0/" <<< "$res"' "$name: each mapped process's coverage within its own executions ($res)"
	"$ETMTRACE" decode "$d/perf.data" --format canon 2> /dev/null | grep -vc '^GAP' > "$d.n"
	total=${res##* }
	check '[ "$total" = "$(cat "$d.n")" ]' "$name: $total instructions counted = those decoded ($(cat "$d.n"))"
	"$ETMTRACE" fdo "$d/perf.data" --base 0 > "$d.fdo" 2> /dev/null
	check '[ -s "$d.fdo" ]' "$name: fdo of the processes added up"
}

cov_case etmv3 "--protocol etmv3 --seed 1" ""
cov_case ptm "--protocol ptm --seed 1" ""
cov_case ptm-thread "--protocol ptm --seed 3" "--per-thread"
finish
