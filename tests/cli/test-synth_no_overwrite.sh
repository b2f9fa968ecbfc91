#!/usr/bin/env bash
# tests/cli/test-synth_no_overwrite.sh - synth does
# not overwrite an existing snapshot without --force.
. "$(dirname "$0")/lib.sh"
synth_snap "$tmp/s" --seed 1 --insns 100
cp "$tmp/s/trace.bin" "$tmp/before"
"$ETMTRACE" synth "$tmp/s" --seed 2 --insns 100 2> "$tmp/err"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'already holds a snapshot.*--force' '$tmp/err' && [ \$(wc -l < '$tmp/err') -eq 1 ]" "second synth into DIR refused, one-line reason"
check "cmp -s '$tmp/before' '$tmp/s/trace.bin'" "existing trace left untouched"
"$ETMTRACE" synth "$tmp/s" --seed 2 --insns 100 --force 2> "$tmp/err"; rc=$?
check "[ $rc -eq 0 ] && ! cmp -s '$tmp/before' '$tmp/s/trace.bin'" "--force replaces it"
finish
