#!/bin/bash
# tests/snapshot/test-decode-ptm.sh - real-data check of the PTM flow decoder:
# TC2 ID 0x13 vs DS-5 (instructions and per-instruction cycle counts) and
# trace_cov_a15 ID 0x02 vs OpenCSD; every comparison must be exact.
set -u
: "${ETMTRACE:?set ETMTRACE to the etmtrace CLI}"
: "${ETM_SHARED:?set ETM_SHARED to the shared reference directory}"

S=$ETM_SHARED
for f in snapshots/TC2/snapshot.ini snapshots/trace_cov_a15/PTM_0_2.bin \
	 reference/TC2/0x13.ds5.txt reference/trace_cov_a15/0x02.opencsd.txt \
	 snapshots/TC2/ds5-dumps/ptmv1_0x13.txt tools/compare.py; do
	[ -e "$S/$f" ] || { echo "skip: $S/$f missing"; exit 77; }
done
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

# compare NAME SNAPSHOT ID REFERENCE
compare() {
	"$ETMTRACE" decode "$S/snapshots/$2" --id "$3" --format canon \
		>"$T/$1.txt" || { echo "FAIL $1: decode failed"; fail=1; return; }
	python3 "$S/tools/compare.py" "$S/reference/$4" "$T/$1.txt" >"$T/$1.cmp"
	res=$(tail -n 1 "$T/$1.cmp")
	echo "$1: $res"
	case "$res" in
	"match 1.000000 "*) ;;
	*) cat "$T/$1.cmp"; fail=1 ;;
	esac
}

compare tc2-0x13 TC2 0x13 TC2/0x13.ds5.txt
compare cov-0x02 trace_cov_a15 0x02 trace_cov_a15/0x02.opencsd.txt

# Cycle counts: every DS-5 instruction row (cycles on the waypoint, 0 on
# the others; unreadable/unknown rows and "Cycle Count" gap rows as bare
# counts) against the text output (cyc=N, "-- cycle count N").
"$ETMTRACE" decode "$S/snapshots/TC2" --id 0x13 >"$T/tc2.text" ||
	{ echo "FAIL: text decode"; exit 1; }
python3 - "$S/snapshots/TC2/ds5-dumps/ptmv1_0x13.txt" "$T/tc2.text" <<'PY' ||
import re, sys
def ds5(path):
    out = []
    for line in open(path, errors='replace'):
        f = line.rstrip('\n').split('\t')
        if f[0] == 'Instruction':
            cyc = int(f[4] or 0)
            if f[2].startswith('S:0x') and 'Cannot access' not in f[5]:
                out.append(('I', int(f[2][4:], 16), cyc))
            else:
                out.append(('C', 0, cyc))
        elif f[0] == 'Cycle Count':
            out.append(('C', 0, int(f[4])))
    return out
def ours(path):
    out = []
    for line in open(path, errors='replace'):
        m = re.match(r'^  ([0-9a-f]+)\s', line)
        if m:
            c = re.search(r'cyc=(\d+)', line)
            out.append(('I', int(m.group(1), 16), int(c.group(1)) if c else 0))
            continue
        m = re.match(r'^-- cycle count (\d+)', line)
        if m:
            out.append(('C', 0, int(m.group(1))))
    return out
a, b = ds5(sys.argv[1]), ours(sys.argv[2])
bad = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
print('tc2-0x13 cycles: %d DS-5 rows, %d ours, %d differ, total %d vs %d'
      % (len(a), len(b), len(bad), sum(x[2] for x in a), sum(x[2] for x in b)))
for i in bad[:5]:
    print('  row', i, 'ds5', a[i], 'ours', b[i])
sys.exit(1 if bad or len(a) != len(b) else 0)
PY
	fail=1

[ $fail = 0 ] && echo "PASS" || echo "FAIL"
exit $fail
