#!/bin/bash
# tests/cli/test-calls_trace.sh - `decode --format calls` on the AM243x
# FreeRTOS capture (ETMv3.3, Cortex-R5F, ELF with DWARF), checked by
# calls_check.py against the folded stacks of `etmtrace profile` on the
# same capture and arm-none-eabi-objdump's instructions at the call sites:
# every call matched by its return (or left open by an exception or a
# trace gap), the depth never below zero and equal to the open frames,
# returns to the instruction after their call, the same calling contexts
# with the same instructions as profile's folded stacks. The output is the
# same for --jobs 1, 2 and 3. Exit 77 (skip) when data or objdump are
# missing.
. "$(dirname "$0")/lib.sh"
A="$ETM_SHARED/snapshots/am243x-freertos-1"
[ -f "$A/freertos.out" ] || { echo "am243x-freertos-1 missing: skip"; exit 77; }
command -v arm-none-eabi-objdump > /dev/null || { echo "arm-none-eabi-objdump missing: skip"; exit 77; }

"$ETMTRACE" decode "$A" --elf "$A/freertos.out" --format calls --jobs 1 > "$tmp/c1" 2> "$tmp/e1"
check "[ \$? -eq 0 ]" "decode --format calls exits 0"
"$ETMTRACE" profile "$A" --elf "$A/freertos.out" --format folded --jobs 1 > "$tmp/folded" 2> /dev/null
arm-none-eabi-objdump -d "$A/freertos.out" > "$tmp/od"
$PY "$ETM_SRCDIR/tests/cli/calls_check.py" "$tmp/c1" "$tmp/folded" "$tmp/od" > "$tmp/chk"
check "[ \$? -eq 0 ]" "the call trace agrees with objdump and profile's folded stacks"
cat "$tmp/chk"
# the counts profile reports for its stacks (independent of the lines)
"$ETMTRACE" profile "$A" --elf "$A/freertos.out" > "$tmp/flat" 2> /dev/null
calls=$(sed -n 's/^# calls \([0-9]*\),.*/\1/p' "$tmp/flat")
check "[ \$(grep -c ' call  ' \"\$tmp/c1\") -eq $calls ]" "as many call lines as profile counts calls ($calls)"
check "grep -q \"^calls $calls: closed by their return [0-9]*, .*not matched and not interrupted 0\$\" \"\$tmp/chk\"" \
	"every call matched by its return or interrupted by an exception or gap"
check "grep -q '  FreeRTOS-Kernel/tasks.c:[0-9]*' \"\$tmp/c1\"" "source lines from DWARF"
for j in 2 3; do
	"$ETMTRACE" decode "$A" --elf "$A/freertos.out" --format calls --jobs $j > "$tmp/c$j" 2> /dev/null
	check "cmp -s \"\$tmp/c1\" \"\$tmp/c$j\"" "--jobs $j gives the same call trace"
done
"$ETMTRACE" decode "$A" --format calls --stats > /dev/null 2> "$tmp/e"
check "[ \$? -eq 2 ] && grep -q 'format calls takes none of' \"\$tmp/e\"" "--format calls with --stats refused"
finish
