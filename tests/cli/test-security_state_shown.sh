#!/bin/bash
# tests/cli/test-security_state_shown.sh - the security state (S / NS,
# Hyp) is shown only for a core with the Security Extensions: ETMIDR[19]
# of an ETMv3 (or PTM) trace unit, not M-profile, never ETMv1
# (IHI 0014Q ETMIDR; doc/design.md "Decisions"). On a core without them
# the NS and Hyp bits of an I-sync are ignored.
#
# Hand-made ETMv3 trace (raw, ETMCR 0): A-sync 00 00 00 00 00 80; I-sync
# 08, info, address 0x00001000 (ARM); P-header 0x8c (format 1: 3 E atoms).
# info 0x20 = reason b01 (trace enabled), NS 0; 0x28: NS 1 (bit 3);
# 0x2a: NS 1, Hyp 1 (bit 1). Image: four ARM NOPs (e1a00000) at 0x1000.
# By hand: 3 instructions 0x1000, 0x1004, 0x1008 in every case, and
#   ETMIDR 0x410CF250 (ETMv3.5, bit 19 set): "-- context S" / "NS" / "NS Hyp"
#   ETMIDR 0x4104F230 (ETMv3.3, bit 19 clear; the am243x Cortex-R5's):
#     no context line, no "ns"/"hyp" in jsonl
#   bit 19 set but --m-profile: no context line
# ETMv1 (synth, Context ID tracing on): context lines give the Context ID
# only, never S.
set -u
: "${ETMTRACE:?}" "${ETM_SRCDIR:?}"
. "$ETM_SRCDIR/tests/cli/lib.sh"
cd "$tmp"
printf '\x00\x00\xa0\xe1\x00\x00\xa0\xe1\x00\x00\xa0\xe1\x00\x00\xa0\xe1' > img.bin
mk() { printf "\\x00\\x00\\x00\\x00\\x00\\x80\\x08\\x$2\\x00\\x10\\x00\\x00\\x8c" > "$1.bin"; }
mk ns0 20; mk ns1 28; mk hyp 2a
printf 'GAP\n00001000 A\n00001004 A\n00001008 A\n' > want.canon
dec() { local f=$1; shift; "$ETMTRACE" decode "$f.bin" --protocol etmv3 --image img.bin@0x1000 "$@" 2>/dev/null; }
ctx() { dec "$@" | grep -- '^-- context' | tr '\n' '|'; }
SEC=0x410CF250 NOSEC=0x4104F230
check '[ "$(ctx ns0 --etmidr $SEC)" = "-- context S|" ]' "ETMIDR[19] set, NS 0: context S"
check '[ "$(ctx ns1 --etmidr $SEC)" = "-- context NS|" ]' "ETMIDR[19] set, NS 1: context NS"
check '[ "$(ctx hyp --etmidr $SEC)" = "-- context NS Hyp|" ]' "ETMIDR[19] set, NS 1 Hyp 1: context NS Hyp"
for f in ns0 ns1 hyp; do
	check '[ -z "$(ctx $f --etmidr $NOSEC)" ]' "$f, ETMIDR[19] clear: no security state shown"
	check '[ -z "$(ctx $f --etmidr $SEC --m-profile)" ]' "$f, M-profile: no security state shown"
	check '! dec $f --etmidr $NOSEC --format jsonl | grep -q "\"ns\"\|\"hyp\""' \
		"$f, ETMIDR[19] clear: no ns/hyp in jsonl"
	for idr in $SEC $NOSEC; do
		check 'dec $f --etmidr $idr --format canon | cmp -s - want.canon' \
			"$f, ETMIDR $idr: the three instructions"
	done
done
synth_snap e1 --protocol etmv1 --ctxid-bytes 1 --features arm,thumb,ctx
"$ETMTRACE" decode e1 > e1.txt 2>/dev/null
check 'grep -q "^-- context ctxid=0x" e1.txt' "ETMv1: context lines with the Context ID"
check '! grep -q "^-- context \(S\|NS\)" e1.txt' "ETMv1: never a security state"
finish
