#!/usr/bin/env bash
# tests/cli/test-swo_capture.sh - a Cortex-M style SWO capture (TPIU frames
# without FSYNC, ETMv3 on trace ID 2, ITM/DWT on trace ID 1; made by
# swo_capture.py from `etmtrace synth` and hand-made ITM packets) given
# with only the program image: its frames are found from the bytes (with
# or without FSYNC, begun at a frame boundary or mid-frame), --input-format
# tpiu takes both, the ITM source is named ITM/DWT and decoded as such
# with one note, and the ETM source decodes to the generator's
# instruction list.
. "$(dirname "$0")/lib.sh"
GEN="$ETM_SRCDIR/tests/cli/swo_capture.py"
synth_snap "$tmp/s" --protocol etmv3 --features thumb --seed 3 --insns 20000
img=$(images "$tmp/s")
$PY "$GEN" "$tmp/s/trace.bin" "$tmp/a.bin" --itm "$tmp/itm.bin"
$PY "$GEN" "$tmp/s/trace.bin" "$tmp/b.bin" --cut 6
$PY "$GEN" "$tmp/s/trace.bin" "$tmp/c.bin" --fsync 8
# run NAME FILE ARGS...: decode to $tmp/NAME.out / .err, status in $tmp/NAME.rc
run() { local n=$1 f=$2; shift 2; "$ETMTRACE" decode "$f" $img --format canon "$@" > "$tmp/$n.out" 2> "$tmp/$n.err"; echo $? > "$tmp/$n.rc"; }
ok() { [ "$(cat "$tmp/$1.rc")" = 0 ] && canon_eq "$tmp/$1.out" "$tmp/s.exp"; }
run b "$tmp/b.bin"
check "ok b && grep -q 'input format tpiu detected (TPIU frames without FSYNC, frames from offset 10 by their structure' '$tmp/b.err'" \
	"no FSYNC, begun 6 bytes into a frame: frames at offset 10 found, ETM decodes as generated"
run bt "$tmp/b.bin" --input-format tpiu
check "ok bt && grep -q 'no FSYNC in the TPIU frames: frames from offset 10' '$tmp/bt.err' && ! grep -q 'no frame structure' '$tmp/bt.err'" \
	"the same with --input-format tpiu"
"$ETMTRACE" info "$tmp/b.bin" --input-format tpiu-nofsync > /dev/null 2> "$tmp/bn.err"
check "grep -q 'input format tpiu-nofsync given, but the bytes show TPIU frames without FSYNC, frames from offset 10.*try --input-format tpiu$' '$tmp/bn.err'" \
	"frames from byte 0 given for frames at offset 10: the note says so"
run a "$tmp/a.bin"
check "ok a && grep -q 'input format coresight detected (CoreSight 16-byte frames, 2 trace IDs, from byte 0 (trace buffer memory, or a TPIU capture without FSYNC)' '$tmp/a.err'" \
	"no FSYNC, begun at a frame boundary: frames from byte 0, ETM decodes as generated"
run at "$tmp/a.bin" --input-format tpiu
check "ok at && grep -q 'frames from offset 0' '$tmp/at.err' && ! grep -q 'no frame structure' '$tmp/at.err'" \
	"the same with --input-format tpiu"
run c "$tmp/c.bin"
check "ok c && grep -q 'input format tpiu detected (TPIU frames: FSYNC at offset 0' '$tmp/c.err'" \
	"with FSYNC: detected, ETM decodes as generated"
run ct "$tmp/c.bin" --input-format tpiu
check "ok ct" "the same with --input-format tpiu"
check "[ \$(grep -c 'trace ID 0x01' '$tmp/b.err') = 1 ] && grep -q 'note: trace ID 0x01: ITM/DWT: .* 0 malformed, decoded as ITM/DWT' '$tmp/b.err'" \
	"the ITM source: one note, decoded as ITM/DWT"
"$ETMTRACE" info "$tmp/b.bin" > "$tmp/info" 2> /dev/null
check "grep -q 'trace ID 0x01, itm (ITM/DWT)' '$tmp/info' && grep -q 'decoded as ITM/DWT packets' '$tmp/info' && grep -q 'trace ID 0x02, etmv3' '$tmp/info'" \
	"info names the ITM source ITM/DWT and the ETM source etmv3"
# The first ITM packets of swo_capture.py, by hand: port 0 writes 't', 'i',
# 'c' (1-byte packets 0x01), then "k 0\n" (4 bytes, 0x03); port 1 "0\n"
# (2 bytes, 0x0A); local timestamp format 2 TTT=3 (0x30); PC sample 4
# bytes 0x00010004 (0x17); local timestamp format 1 0x85 0x03 = 5 + 3*128
# = 389; exception 15 (SysTick) FN=01 entered (0x0E 0x0F 0x10).
cat > "$tmp/itm.exp" <<'EOF'
-- itm ch0: "t"
-- itm ch0: "i"
-- itm ch0: "c"
-- itm ch0: "k 0\n"
-- itm ch1: "0\n"
-- itm local timestamp +3
-- dwt pc sample 0x00010004
-- itm local timestamp +389
-- dwt exception enter SysTick
EOF
"$ETMTRACE" decode "$tmp/c.bin" $img --id 1 > "$tmp/id1.out" 2> "$tmp/id1.err"; rc=$?
check "[ $rc -eq 0 ] && head -9 '$tmp/id1.out' | cmp -s - '$tmp/itm.exp'" "--id of the ITM source: its events, as the hand-made stream says"
run id2 "$tmp/b.bin" --id 2
check "ok id2 && ! grep -q 'ITM/DWT' '$tmp/id2.err'" "--id 2 selects the ETM source alone: the generator's list, the ITM bytes left out"
"$ETMTRACE" decode "$tmp/c.bin" $img > "$tmp/both.out" 2> /dev/null; rc=$?
check "[ $rc -eq 0 ] && grep -q '^\[0x02\]   00010000' '$tmp/both.out' && [ \$(grep -c '^\[0x01\] -- itm ch' '$tmp/both.out') = 240 ]" \
	"both sources in one listing: the 48 x 5 stimulus writes among the ETM's instructions"
"$ETMTRACE" info "$tmp/b.bin" --protocol etmv3 > "$tmp/info2" 2> "$tmp/info2.err"
check "! grep -q 'ITM/DWT' '$tmp/info2' '$tmp/info2.err' && grep -q 'trace ID 0x01, etmv3' '$tmp/info2'" \
	"--protocol turns the ITM recognition off"
"$ETMTRACE" info "$tmp/itm.bin" > "$tmp/info3" 2>/dev/null
"$ETMTRACE" decode "$tmp/itm.bin" > "$tmp/itm.out" 2> "$tmp/itm.err"; rc=$?
check "grep -q 'itm (ITM/DWT)' '$tmp/info3' && [ $rc -eq 0 ] && head -9 '$tmp/itm.out' | cmp -s - '$tmp/itm.exp'" \
	"an ITM stream alone (SWO without the formatter): decoded, no image needed"
synth_snap "$tmp/e" --protocol etmv3 --format coresight --sources 2 --seed 5 --insns 3000
"$ETMTRACE" info "$tmp/e/trace.bin" > /dev/null 2> "$tmp/e.err"
check "grep -q 'input format coresight detected (CoreSight 16-byte frames, 2 trace IDs' '$tmp/e.err' && ! grep -q 'ITM' '$tmp/e.err'" \
	"an ETB dump of two ETMs: still CoreSight frames, no ITM"
finish
