#!/usr/bin/env bash
# tests/cli/test-circular_pieces.sh - a circular trace buffer read from its
# write pointer is listed as its pieces in time order (doc/circular.md).
# Two runs of the encoder (same program, two trace sessions) are written
# into a 12 KiB buffer the way an ETB does (tests/cli/circ-dump.py: run 1
# wraps once and stops, run 2 overwrites the start); the decode must give
# the older lap, the tail, then the newest run, each with the instructions
# the generator says ran there (synth --expect). A dump of one run in order
# is unchanged.
. "$(dirname "$0")/lib.sh"
CD="$(dirname "$0")/circ-dump.py"
gen="--protocol etmv3 --features arm,exc --format coresight --sources 2 --isync-period 256 --async-period 256"
synth_snap "$tmp/r1" $gen --insns 12000
synth_snap "$tmp/r2" $gen --insns 1000
check "cmp -s $tmp/r1/mem_0_1.bin $tmp/r2/mem_0_1.bin && cmp -s $tmp/r1/mem_1_1.bin $tmp/r2/mem_1_1.bin" "both runs: one program"
cp -r "$tmp/r1" "$tmp/d"
$PY "$CD" make "$tmp/r1/trace.bin" "$tmp/r2/trace.bin" 12288 "$tmp/d/trace.bin" > "$tmp/ranges"
for id in 10 11; do
	"$ETMTRACE" decode "$tmp/d" --id $id > "$tmp/l$id" 2> "$tmp/e$id"
	check "[ $? -eq 0 ]" "0x$id: exit status 0"
	# 0x10 stops early in run 1: the tail holds a little of its data, no sync
	check "$PY '$CD' check '$tmp/l$id' '$tmp/ranges' '$tmp/r1.exp.0x$id' '$tmp/r2.exp.0x$id' $([ $id = 10 ] && echo --tail-may-be-empty)" "0x$id: pieces in time order, each with its run's instructions"
	check "grep -q 'note: ETB_0: a circular buffer in 3 pieces, listed in time order' '$tmp/e$id'" "0x$id: the note says so"
done
# both sources at once: the same pieces, each piece's elements say it
"$ETMTRACE" decode "$tmp/d" --format jsonl > "$tmp/j" 2>/dev/null
check "[ \$(grep -c '\"kind\":\"piece\"' '$tmp/j') -eq 3 ] && grep -q '\"piece\":1,\"of\":3,\"what\":\"older lap of the previous run\".*\"gap\":\"\",\"time\":1,\"order\":\"time\"' '$tmp/j' && grep -q '\"piece\":3,\"of\":3,\"what\":\"newest run\".*\"gap\":\"between runs\"' '$tmp/j'" "jsonl: a piece element per piece"
# the older lap ends where the newer run overwrote it: its cut packets are
# end-of-buffer notes (as at the input's end), never errors
"$ETMTRACE" decode "$tmp/d" > "$tmp/all" 2>/dev/null
check "sed -n '/piece 1 of 3/,/gap: overwritten/p' '$tmp/all' | grep -q 'note: the trace ends at offset .* cut by the end of the trace buffer' && ! grep -q -- '-- error' '$tmp/all'" "a packet cut by the older lap's end: a note, no error"
for j in 1 2 3; do
	"$ETMTRACE" decode "$tmp/d" --jobs $j > "$tmp/p$j" 2>/dev/null
done
check "cmp -s '$tmp/p1' '$tmp/p2' && cmp -s '$tmp/p1' '$tmp/p3'" "--jobs 1, 2, 3: the same listing"
# --order file: the pieces as they lie in the file
"$ETMTRACE" decode "$tmp/d" --id 11 --order file 2>/dev/null | grep '^-- piece' > "$tmp/f"
read -r _ t0 t1 < <(grep tail "$tmp/ranges"); read -r _ o0 o1 < <(grep older "$tmp/ranges"); read -r _ n0 n1 < <(grep newest "$tmp/ranges")
printf -- '-- piece 1 of 3: tail of the previous run, bytes %s..%s (file order; 2 of 3 in time)\n-- piece 2 of 3: older lap of the previous run, bytes %s..%s (file order; 1 of 3 in time)\n-- piece 3 of 3: newest run, bytes %s..%s (file order; 3 of 3 in time)\n' $t0 $t1 $o0 $o1 $n0 $n1 > "$tmp/fw"
check "diff -q '$tmp/f' '$tmp/fw' >/dev/null" "--order file: file order, each piece's place in time"
# --pieces off: one input, as before (no piece lines)
"$ETMTRACE" decode "$tmp/d" --id 11 --pieces off > "$tmp/o" 2>/dev/null
check "! grep -q '^-- piece' '$tmp/o'" "--pieces off: no pieces"
# one run in order (no wrap): unchanged, the generator's list, no pieces
for id in 10 11; do
	"$ETMTRACE" decode "$tmp/r1" --id $id --format canon > "$tmp/c$id" 2>"$tmp/ce$id"
	check "canon_eq '$tmp/c$id' '$tmp/r1.exp.0x$id' && ! grep -q 'circular' '$tmp/ce$id'" "one run in order, 0x$id: the run's instructions, no pieces"
done
"$ETMTRACE" decode "$tmp/r1" > "$tmp/u1" 2>/dev/null
"$ETMTRACE" decode "$tmp/r1" --pieces off > "$tmp/u2" 2>/dev/null
check "cmp -s '$tmp/u1' '$tmp/u2' && ! grep -q 'piece' '$tmp/u1'" "one run in order: the same listing as with pieces off"
finish
