#!/usr/bin/env bash
# tests/cli/test-decoder_calls.sh - the files of src/decoder call each other
# in no cycle: the decoder's stages (stages.c: pieces.c, elem_hold.c, then
# the pipeline decoder.c) each call only those below them
# (scripts/file-calls.py over the layer's library, by nm); nor do those of
# src/realign. And the check
# itself finds a cycle where there is one: two objects made here that call
# each other.
. "$(dirname "$0")/lib.sh"
lib=$ETM_BUILD/libetm_decoder.a
calls=$ETM_SRCDIR/scripts/file-calls.py
[ -f "$lib" ] || { echo "no $lib"; exit 77; }

$PY "$calls" "$lib" > "$tmp/calls" 2>&1
rc=$?
check '[ $rc = 0 ]' "src/decoder: no cycle ($(grep -c -- ' -> ' "$tmp/calls") calls between files)"
grep '^cycle' "$tmp/calls"
# the stages call down only
check '! grep -q "^decoder.c -> \(stages\|elem_hold\|pieces\)" "$tmp/calls"' 'the pipeline calls no stage above it'
check 'grep -q "^stages.c -> elem_hold.c" "$tmp/calls" && grep -q "^elem_hold.c -> decoder.c" "$tmp/calls"' 'stages -> hold -> pipeline'

# the realignment's module (src/realign/: the decision, the element hold's
# ring and switch, the left-out sources) has no cycle either
rlib=$ETM_BUILD/libetm_realign.a
[ -f "$rlib" ] || { echo "no $rlib"; exit 77; }
$PY "$calls" "$rlib" > "$tmp/rcalls" 2>&1
rc=$?
check '[ $rc = 0 ]' "src/realign: no cycle ($(grep -c -- ' -> ' "$tmp/rcalls") calls between files)"
grep '^cycle' "$tmp/rcalls"

# a cycle of two files is found
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' > "$tmp/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' > "$tmp/b.c"
cc=${CC:-cc}
$cc -c "$tmp/a.c" -o "$tmp/a.c.o" && $cc -c "$tmp/b.c" -o "$tmp/b.c.o" &&
	ar rc "$tmp/ab.a" "$tmp/a.c.o" "$tmp/b.c.o"
$PY "$calls" "$tmp/ab.a" > "$tmp/ab" 2>&1
rc=$?
check '[ $rc = 1 ] && grep -qx "cycle: a.c b.c" "$tmp/ab"' 'a cycle of two files is reported'
finish
