#!/usr/bin/env bash
# tests/cli/test-itm_cat.sh - `etmtrace itm`: the text of the stimulus
# ports of the hand-made ITM stream of swo_capture.py, alone (SWO without
# the formatter) and in TPIU frames beside an ETM, as orbcat shows it;
# the sampled profile of its PC samples; itm --check against the ETM.
. "$(dirname "$0")/lib.sh"
GEN="$ETM_SRCDIR/tests/cli/swo_capture.py"
synth_snap "$tmp/s" --protocol etmv3 --features thumb --seed 3 --insns 3000
$PY "$GEN" "$tmp/s/trace.bin" "$tmp/a.bin" --itm "$tmp/itm.bin" --fsync 8
# By hand from swo_capture.py: for n = 0..47 the program writes "tic" (1-byte
# packets) and "k n\n"[:4] (one 4-byte packet: no newline from n = 10 on)
# on port 0 and "<n % 10>\n" on port 1; an extension packet 0x18 (page 1,
# ARMv7-M ARM D4.2.6) after the writes of n = 1 moves them to ports 32 and
# 33 (page * 32 + A).
printf 'tick 0\ntick 1\n' > "$tmp/ch0.exp"
for n in $(seq 2 47); do printf '%d\n' $((n % 10)); done > "$tmp/ch33.exp"
{ for n in $(seq 2 9); do printf 'tick %d\n' $n; done
  for n in $(seq 10 47); do printf 'tick %d' $n; done; echo; } > "$tmp/ch32.exp"
"$ETMTRACE" itm "$tmp/itm.bin" --channel 0 > "$tmp/r0" 2> "$tmp/r0.err"; rc=$?
check "[ $rc -eq 0 ] && cmp -s '$tmp/r0' '$tmp/ch0.exp'" "ITM stream alone, --channel 0: the bytes as written"
"$ETMTRACE" itm "$tmp/a.bin" --channel 0 > "$tmp/f0" 2> "$tmp/f0.err"; rc=$?
check "[ $rc -eq 0 ] && cmp -s '$tmp/f0' '$tmp/ch0.exp' && grep -q '8 stimulus writes, 1 overflows, 0 malformed' '$tmp/f0.err'" \
	"in TPIU frames beside the ETM: the same, 8 writes on port 0, the one overflow"
"$ETMTRACE" itm "$tmp/a.bin" --channel 33 > "$tmp/f33" 2> /dev/null
check "cmp -s '$tmp/f33' '$tmp/ch33.exp'" "--channel 33: the digits, page 1 port 1"
"$ETMTRACE" itm "$tmp/a.bin" > "$tmp/all" 2> /dev/null; rc=$?
check "[ $rc -eq 0 ] && grep '^ch32: ' '$tmp/all' | sed 's/^ch32: //' | cmp -s - '$tmp/ch32.exp' && [ \$(grep -c '^ch33: ' '$tmp/all') = 46 ] && head -4 '$tmp/all' | tr '\n' '|' | grep -qx 'ch0: tick 0|ch1: 0|ch0: tick 1|ch1: 1|'" \
	"all channels: lines assembled per channel, in the order written"
"$ETMTRACE" itm "$tmp/s/trace.bin" > /dev/null 2> "$tmp/n.err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'no ITM/DWT trace source' '$tmp/n.err'" "an ETM stream: no ITM source, exit 1"
"$ETMTRACE" itm "$tmp/s/trace.bin" --protocol itm > /dev/null 2> "$tmp/p.err"; rc=$?
check "[ $rc -eq 1 ] && grep -q '[1-9][0-9]* malformed packets' '$tmp/p.err'" "ETM bytes read as ITM by option: malformed packets, exit 1"
"$ETMTRACE" itm "$tmp/a.bin" --channel 256 > /dev/null 2>&1; rc=$?
check "[ $rc -eq 2 ]" "--channel 256: usage error"
# profile of the ITM stream alone: its 48 PC samples 0x00010004 + 2n by
# function. fa covers 0x10000-0x1000f (n = 0..5: 6), fb 0x10010-0x1004f
# (n = 6..37: 32), the rest (n = 38..47: 10) no function: by hand
# 32/48 = 66.67 %, 10/48 = 20.83 %, 6/48 = 12.50 %.
printf '00010000 00000010 T fa\n00010010 00000040 T fb\n' > "$tmp/syms"
printf '# sampled profile: 48 DWT PC samples\n# %%samples  samples  function\n    66.67       32  fb\n    20.83       10  [unknown]\n    12.50        6  fa\n' > "$tmp/prof.exp"
"$ETMTRACE" profile "$tmp/itm.bin" --symbols "$tmp/syms" > "$tmp/prof" 2> /dev/null; rc=$?
check "[ $rc -eq 0 ] && cmp -s '$tmp/prof' '$tmp/prof.exp'" "profile of an ITM-only capture: the sampled flat profile of its PC samples"
"$ETMTRACE" profile "$tmp/itm.bin" --format folded > /dev/null 2> "$tmp/prof.err"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'flat profile only' '$tmp/prof.err'" "PC samples alone: other formats refused"
# symbols of the PC samples in the listing: 0x10004 = fa + 4, 0x10010 =
# fb + 0 (n = 6); jsonl "sym"/"off" the same
"$ETMTRACE" decode "$tmp/itm.bin" --symbols "$tmp/syms" > "$tmp/sym" 2> /dev/null
"$ETMTRACE" decode "$tmp/itm.bin" --symbols "$tmp/syms" --format jsonl > "$tmp/sym.j" 2> /dev/null
check "grep -qx -- '-- dwt pc sample 0x00010004  fa+0x4' '$tmp/sym' && grep -qx -- '-- dwt pc sample 0x00010010  fb+0x0' '$tmp/sym' && grep -qx -- '-- dwt pc sample 0x00010050' '$tmp/sym' && grep -q '\"pc\":\"0x00010010\",\"sym\":\"fb\",\"off\":0}' '$tmp/sym.j'" \
	"PC samples named by their function (text and jsonl)"
# The hand-made stream's 48 SysTick entries beside an ETM stream of a
# program the generator made without exceptions (--features thumb), and
# its PC samples 0x00010004 + 2n, some of them inside 32-bit instructions:
# the check disagrees, with warnings, exit 1.
img=$(images "$tmp/s")
"$ETMTRACE" itm "$tmp/a.bin" $img --check > /dev/null 2> "$tmp/chk"; rc=$?
check "[ $rc -eq 1 ] && grep -q '48 DWT exception entries, 0 ETM exceptions, 0 matched, 48 unmatched' '$tmp/chk' && grep -q 'warning: PC sample 0x000100.* no instruction executed there' '$tmp/chk' && grep -q 'of 48 PC samples on executed instructions (0 sleeping, [1-9]' '$tmp/chk'" \
	"itm --check: exceptions and PC samples that the instruction flow does not show are warned of"
finish
