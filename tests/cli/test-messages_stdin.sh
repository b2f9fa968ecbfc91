#!/usr/bin/env bash
# tests/cli/test-messages_stdin.sh - --elf of a
# missing file names it once; bad --jobs / --id / missing values give the
# valid range; `decode -` reads standard input.
. "$(dirname "$0")/lib.sh"
"$ETMTRACE" decode "$S" --elf "$tmp/missing.elf" 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && [ \$(grep -o 'missing.elf' '$tmp/e' | wc -l) -eq 1 ]" "--elf missing.elf: named once ($(cat "$tmp/e"))"
"$ETMTRACE" decode "$S" --jobs 257 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q \"'257' (expected 1-256\" '$tmp/e'" "--jobs 257: the range"
"$ETMTRACE" decode "$S" --id 999 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q \"'999' (expected 0x1-0x6f, hex)\" '$tmp/e'" "--id 999: the range"
"$ETMTRACE" decode "$S" --jobs 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q '(missing)' '$tmp/e'" "missing value: said ($(cat "$tmp/e"))"
"$ETMTRACE" decode - --image "$S/vectors.bin@0" --image "$S/code.bin@0x8000" --format canon < "$S/trace.bin" > "$tmp/got" 2>/dev/null; rc=$?
"$ETMTRACE" decode "$S" --format canon > "$tmp/want"
check "[ $rc -eq 0 ] && canon_eq '$tmp/got' '$tmp/want'" "decode - (standard input) decodes as the snapshot"
finish
