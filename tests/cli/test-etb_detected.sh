#!/usr/bin/env bash
# tests/cli/test-etb_detected.sh - an ETB dump
# (CoreSight frames) given as a trace file is recognised from its bytes and
# decodes as generated; forced to raw, the warning names the framing (not
# the protocol) and the exit status is 1.
. "$(dirname "$0")/lib.sh"
synth_snap "$tmp/s" --protocol etmv3 --format coresight --seed 8 --insns 3000
"$ETMTRACE" decode "$tmp/s/trace.bin" $(images "$tmp/s") --format canon > "$tmp/got" 2> "$tmp/err"; rc=$?
check "[ $rc -eq 0 ] && canon_eq '$tmp/got' '$tmp/s.exp'" "ETB dump with only the images decodes as generated"
check "grep -q 'input format coresight detected (CoreSight 16-byte frames' '$tmp/err'" "the detected format is said"
"$ETMTRACE" decode "$tmp/s/trace.bin" $(images "$tmp/s") --verbose > /dev/null 2> "$tmp/err"
check "grep -q 'format coresight (detected: CoreSight 16-byte frames' '$tmp/err'" "--verbose line names the detected format"
"$ETMTRACE" info "$tmp/s/trace.bin" > "$tmp/info" 2>/dev/null
check "grep -q 'coresight frames .*(detected: CoreSight 16-byte frames' '$tmp/info'" "info names the detected format"
"$ETMTRACE" decode "$tmp/s/trace.bin" $(images "$tmp/s") --input-format raw --protocol etmv3 > /dev/null 2> "$tmp/err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'input format raw given, but the bytes show CoreSight 16-byte frames.*try --input-format coresight' '$tmp/err'" "forced raw: the note names the framing"
finish
