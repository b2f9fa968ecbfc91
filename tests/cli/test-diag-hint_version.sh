#!/usr/bin/env bash
# tests/cli/test-diag-hint_version.sh - the configuration hint of `decode`
# ("it fits the trace with: ...") suggests only what the ETM version allows
# (the alternative branch encoding needs ETMv3.4+: ETMIDR[20] is ignored
# below, IHI 0014Q), names the option that sets it, and is printed only
# when that configuration decodes with fewer errors: following a printed
# hint gives the generator's instructions (etmtrace synth --expect).
. "$(dirname "$0")/lib.sh"
: "${ETMTRACE:?}"
# set_idr DIR VALUE: the snapshot's ETMIDR register
set_idr() { sed -i "s/^ETMIDR(0x079)=.*/ETMIDR(0x079)=$2/" "$1/source_0.ini"; }
hint() { sed -n 's/.*it fits the trace with: //p' "$tmp/err"; }
synth_snap "$tmp/alt" --protocol etmv3 --alt-branch --seed 5 --insns 20000
# 1. ETMv3.3 registers over trace in the alternative encoding: no ETMv3.3
# ETM has it, so it is never suggested (the ETMIDR read from the ETM wins)
cp -r "$tmp/alt" "$tmp/v33"; cp "$tmp/alt.exp" "$tmp/v33.exp"
set_idr "$tmp/v33" 0x411cf230
"$ETMTRACE" decode "$tmp/v33" > /dev/null 2> "$tmp/err"
sed 's/^/     /' "$tmp/err"
check '! grep -q "alternative branch" "$tmp/err"' "ETMv3.3: no alternative branch encoding hint"
check 'grep -q "warning: .*Context ID size)?" "$tmp/err"' "ETMv3.3: the warning does not name the branch encoding"
# 2. ETMv3.5 registers saying the original encoding: the hint is right
cp -r "$tmp/alt" "$tmp/v35"
set_idr "$tmp/v35" 0x410cf250
"$ETMTRACE" decode "$tmp/v35" > /dev/null 2> "$tmp/err"
sed 's/^/     /' "$tmp/err"
h=$(hint)
check '[ "$h" = "alternative branch encoding (give --etmidr 0x411cf250)" ]' "ETMv3.5: hint '$h'"
"$ETMTRACE" decode "$tmp/v35" --etmidr 0x411cf250 --format canon > "$tmp/out" 2> /dev/null
check '[ $? -eq 0 ] && canon_eq "$tmp/out" "$tmp/alt.exp"' "ETMv3.5: following the hint gives the expected instructions"
# 3. an ETMv3.3 capture decoded cycle-accurate by mistake: the hint names
# the ETMCR that the snapshot has
synth_snap "$tmp/e33" --protocol etmv3 --etm-version 3.3 --seed 3 --insns 20000
"$ETMTRACE" decode "$tmp/e33" --etmcr 0x1000 > /dev/null 2> "$tmp/err"
sed 's/^/     /' "$tmp/err"
cr=$(sed -n 's/^ETMCR(0x000)=//p' "$tmp/e33/source_0.ini")
h=$(hint)
check '[ "$h" = "cycle-accurate off (give --etmcr $(printf 0x%08x "$cr"))" ]' "ETMv3.3, cycle-accurate by mistake: hint '$h'"
"$ETMTRACE" decode "$tmp/e33" --etmcr "$cr" --format canon > "$tmp/out" 2> /dev/null
check '[ $? -eq 0 ] && canon_eq "$tmp/out" "$tmp/e33.exp"' "ETMv3.3: following the hint gives the expected instructions"
finish
