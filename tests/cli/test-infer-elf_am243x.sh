#!/usr/bin/env bash
# tests/cli/test-infer-elf_am243x.sh - the am243x Cortex-R5F ETB dump given
# as a trace file with only its ELF (freertos.out: Tag_CPU_name cortex-r5,
# ARMv7-R) is inferred as the ETMv3.3 its snapshot's registers say
# (device_6.ini: ETMIDR, ETMCR), never PTM, and decodes to the snapshot's
# instructions.
. "$(dirname "$0")/lib.sh"
: "${ETMTRACE:?}" "${ETM_SHARED:?}"
A=$ETM_SHARED/snapshots/am243x-freertos-1
[ -e "$A/etb.bin" ] && [ -e "$A/freertos.out" ] || { echo "skip: $A missing"; exit 77; }
# the snapshot's registers, from its device file (not from etmtrace)
reg() { sed -n "s/^$1(id:[^)]*)=0x\([0-9a-fA-F]*\).*/\1/p" "$A/device_6.ini" | tr 'A-F' 'a-f'; }
idr=$(printf '%08x' 0x"$(reg ETMIDR)")
cr=$(printf '%08x' $((0x$(reg ETMCR) & 0x3000d000))) # the bits that change decoding
"$ETMTRACE" decode "$A" --id 10 --format canon > "$tmp/snap" 2> /dev/null
"$ETMTRACE" decode "$A/etb.bin" --elf "$A/freertos.out" --id 10 --format canon \
	> "$tmp/file" 2> "$tmp/err"
rc=$?
sed 's/^/     /' "$tmp/err"
n=$(grep -vc '^GAP' "$tmp/snap")
check 'grep -q "configuration inferred .*core, cortex-r5 (ARMv7-R).*: etmv3 ETMCR=0x$cr .*ETMIDR=0x$idr" "$tmp/err"' \
	"inferred etmv3, ETMCR 0x$cr and ETMIDR 0x$idr (ETMv3.3) as device_6.ini says"
check '! sed "s#$A##g" "$tmp/err" | grep -q "ptm\\|uncertain"' "never PTM, a clear choice (the paths taken out: a checkout may be named ptm...)"
check '[ $rc -eq 0 ] && [ "$n" -gt 250000 ] && cmp -s "$tmp/snap" "$tmp/file"' \
	"$n instructions, the snapshot's (exit $rc)"
finish
