#!/usr/bin/env bash
# tests/cli/test-options_override_snapshot.sh -
# on a snapshot, --protocol / --etmcr / --etmccer / --etmidr override its
# registers (they were silently ignored, while --input-format was applied),
# each with a note naming what changed.
. "$(dirname "$0")/lib.sh"
# A snapshot whose device file states a wrong ETMCR (cycle-accurate off for
# cycle-accurate trace): the override puts it right.
synth_snap "$tmp/s" --protocol ptm --cycle-accurate --seed 7 --insns 2000
good=$(grep -o 'ETMCR(0x000)=0x[0-9a-f]*' "$tmp/s/source_0.ini" | cut -d= -f2)
sed -i 's/^ETMCR(0x000)=.*/ETMCR(0x000)=0x00000000/' "$tmp/s/source_0.ini"
"$ETMTRACE" decode "$tmp/s" --format canon > "$tmp/bad" 2> "$tmp/e0"; r0=$?
check "[ $r0 -eq 1 ] && ! canon_eq '$tmp/bad' '$tmp/s.exp'" "wrong register in the snapshot: exit 1 (control)"
"$ETMTRACE" decode "$tmp/s" --etmcr "$good" --format canon > "$tmp/got" 2> "$tmp/e1"; rc=$?
check "[ $rc -eq 0 ] && canon_eq '$tmp/got' '$tmp/s.exp'" "--etmcr $good overrides the snapshot: decodes as generated"
check "grep -q 'trace ID 0x10 (PTM_0): options override the snapshot: cycle-accurate on; ETMCR=$good' '$tmp/e1'" "the override is noted"
"$ETMTRACE" decode "$tmp/s" --protocol etmv3 --etmidr 0x410CF250 > /dev/null 2> "$tmp/e2"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'options override the snapshot: protocol etmv3' '$tmp/e2'" "--protocol overrides too (and the wrong one shows: exit 1)"
"$ETMTRACE" info "$tmp/s" --etmcr "$good" > "$tmp/i" 2>/dev/null
check "grep -q 'configuration: snapshot + options' '$tmp/i' && grep -q 'cycle-accurate yes' '$tmp/i'" "info shows the overridden configuration"
finish
