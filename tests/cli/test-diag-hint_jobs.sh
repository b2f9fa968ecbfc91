#!/usr/bin/env bash
# tests/cli/test-diag-hint_jobs.sh - with several jobs (the configuration
# probe's variants decoded on threads, cli/diagwarn.c and
# probe/config_probe.c) the warning and its hint are those of one job.
# Hand derivation (as test-diag-hint_version.sh): ETMv3.5 registers that
# say the original branch encoding over trace in the alternative one fit
# with ETMIDR[20] set; an ETMv3.3 capture decoded with ETMCR[12]
# (cycle-accurate) set by mistake fits with the snapshot's ETMCR.
. "$(dirname "$0")/lib.sh"
: "${ETMTRACE:?}"
hint() { sed -n 's/.*it fits the trace with: //p' "$1"; }
synth_snap "$tmp/v35" --protocol etmv3 --alt-branch --seed 5 --insns 20000
sed -i "s/^ETMIDR(0x079)=.*/ETMIDR(0x079)=0x410cf250/" "$tmp/v35/source_0.ini"
synth_snap "$tmp/e33" --protocol etmv3 --etm-version 3.3 --seed 3 --insns 20000
cr=$(sed -n 's/^ETMCR(0x000)=//p' "$tmp/e33/source_0.ini")
want_e33="cycle-accurate off (give --etmcr $(printf 0x%08x "$cr"))"
for j in 1 2 3; do
	"$ETMTRACE" decode "$tmp/v35" --jobs $j > /dev/null 2> "$tmp/v35.$j"
	check '[ "$(hint "$tmp/v35.$j")" = "alternative branch encoding (give --etmidr 0x411cf250)" ]' \
		"ETMv3.5, --jobs $j: hint '$(hint "$tmp/v35.$j")'"
	"$ETMTRACE" decode "$tmp/e33" --etmcr 0x1000 --jobs $j > /dev/null 2> "$tmp/e33.$j"
	check '[ "$(hint "$tmp/e33.$j")" = "$want_e33" ]' \
		"ETMv3.3 cycle-accurate by mistake, --jobs $j: hint '$(hint "$tmp/e33.$j")'"
done
for j in 2 3; do
	check 'cmp -s "$tmp/v35.1" "$tmp/v35.$j" && cmp -s "$tmp/e33.1" "$tmp/e33.$j"' \
		"--jobs $j: the same warnings and verdict as one job"
done
finish
