#!/usr/bin/env bash
# tests/cli/test-info.sh - info shows a dump
# without a length= key at its file's size (was zero-length), exits 2 on an
# --id naming no source (was 0), and describes a trace file (was "FILE/
# snapshot.ini: Not a directory").
. "$(dirname "$0")/lib.sh"
cp -r "$S" "$tmp/s"; chmod -R u+w "$tmp/s"
sed -i '/^length=/d' "$tmp/s/cpu_0.ini"
"$ETMTRACE" info "$tmp/s" > "$tmp/i"; rc=$?
n=$(stat -c %s "$tmp/s/code.bin")
end=$(printf '0x%08x' $((0x8000 + n)))
check "[ $rc -eq 0 ] && grep -q \"memory 0x00008000-$end .*code.bin\" '$tmp/i'" "dump without length=: 0x00008000-$end (file size $n)"
"$ETMTRACE" info "$S" --id 0x44 > /dev/null 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'no trace source with ID 0x44' '$tmp/e'" "info --id naming no source: exit 2"
"$ETMTRACE" info "$S/trace.bin" --image "$S/vectors.bin@0" --image "$S/code.bin@0x8000" > "$tmp/f" 2>/dev/null; rc=$?
check "[ $rc -eq 0 ] && grep -q '^trace file' '$tmp/f' && grep -q 'trace ID 0x13, ptm' '$tmp/f' && grep -q 'configuration: inferred' '$tmp/f'" "info on a trace file: format detected, configuration inferred"
finish
