#!/usr/bin/env bash
# tests/cli/test-etm1_jobs.sh - ETMv1 on several threads: `synth --protocol
# etmv1` snapshots (port widths 4/8/16, cycle-accurate, data trace, Context
# IDs, ETMv1.0 and 1.2) decode with --jobs 2 and 3 to the same canon and
# jsonl as with --jobs 1, which is the generator's own instruction list
# (synth --expect); --run-stats shows that the input was cut into chunks
# that converged (at least one after the first). A sample file without any BE/BD has no cut
# point: one thread decodes it, and --run-stats says so.
. "$(dirname "$0")/lib.sh"

n=0
while read -r cfg; do
	n=$((n + 1))
	d="$tmp/s$n"
	# shellcheck disable=SC2086
	synth_snap "$d" --protocol etmv1 --seed $n --insns 120000 $cfg ||
		echo "synth failed: $cfg"
	for j in 1 2 3; do
		"$ETMTRACE" decode "$d" --jobs $j --format canon > "$d.c$j" 2> /dev/null
	done
	for j in 1 2; do
		"$ETMTRACE" decode "$d" --jobs $j --format jsonl > "$d.j$j" 2> /dev/null
	done
	"$ETMTRACE" decode "$d" --jobs 2 --format canon --run-stats 2>&1 > /dev/null |
		grep '^parallel threads' > "$d.rs"
	check "canon_eq $d.c1 $d.exp" "[$cfg] --jobs 1 decodes to the generated list"
	check "cmp -s $d.c1 $d.c2 && cmp -s $d.c1 $d.c3" "[$cfg] canon: --jobs 2 and 3 as --jobs 1"
	check "cmp -s $d.j1 $d.j2" "[$cfg] jsonl: --jobs 2 as --jobs 1"
	# how many chunks end void (decoded by their predecessor because it
	# reached them before converging) depends on the threads' timing;
	# at least one chunk after the first must have converged
	check "sed -En 's/.*chunks ([0-9]+) \\(([0-9]+) void.*/\\1 \\2/p' $d.rs |
		awk '{ ok = \$1 >= 2 && \$2 < \$1 - 1 } END { exit !ok }'" \
		"[$cfg] --jobs 2 cut it into chunks that converged: $(cat "$d.rs")"
done <<'CFGS'
--port 8
--port 4 --cycle-accurate
--port 16 --data-trace both
--port 4 --data-trace addr --cycle-accurate
--port 8 --ctxid-bytes 2 --features all
--port 8 --etm-version 1.0
--port 16 --etm-version 1.2 --data-trace value --features arm,thumb,exc,gaps,cycles
CFGS

# 60000 samples of IE and WT (our binary sample file, doc/etmv1.md §1.1):
# no BE/BD, so no cut point
$PY - "$tmp/nocut.bin" <<'PYEOF'
import struct, sys
n = 60000
hdr = b'ETM1TRC\0' + struct.pack('<HBBBBBBII', 1, 1, 3, 8, 0, 0, 0, 0, n) + bytes(8)
recs = bytes(b for i in range(n) for b in (3 if i % 3 == 0 else 0, 0, 0, 0))
open(sys.argv[1], 'wb').write(hdr + recs)
PYEOF
"$ETMTRACE" decode "$tmp/nocut.bin" --jobs 2 --run-stats > "$tmp/nocut.out" 2> "$tmp/nocut.err"
check "grep -q '^parallel none  *1 buffer' $tmp/nocut.err && ! grep -q '^parallel threads' $tmp/nocut.err" \
	"no BE/BD: one thread, said by --run-stats"
finish
