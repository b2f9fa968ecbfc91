#!/usr/bin/env bash
# tests/cli/test-trace_ids_hex.sh - trace IDs print
# as 0x13 everywhere and --id reads that notation (hex: 13 is 0x13); an
# unknown ID, or a source of a protocol not decoded, is named as such.
. "$(dirname "$0")/lib.sh"
"$ETMTRACE" decode "$S" --id 13 --format canon > "$tmp/a"; r1=$?
"$ETMTRACE" decode "$S" --id 0x13 --format canon > "$tmp/b"; r2=$?
check "[ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ -s '$tmp/a' ] && cmp -s '$tmp/a' '$tmp/b'" "--id 13 is 0x13 (the sample's source)"
"$ETMTRACE" packets "$S" > "$tmp/p"; rc=$?
check "[ $rc -eq 0 ] && awk '{print \$2}' '$tmp/p' | sort -u | grep -qx '0x13'" "packets listing prints the ID as 0x13"
"$ETMTRACE" info "$S" > "$tmp/i"
check "grep -q 'trace ID 0x13' '$tmp/i'" "info prints 0x13"
"$ETMTRACE" decode "$S" --id 0x14 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'no trace source with ID 0x14 (sources: 0x13)' '$tmp/e'" "unknown ID: named, with the IDs there are"
# a source of a protocol we do not decode (ETMv4) in the snapshot
cp -r "$S" "$tmp/s4"; chmod -R u+w "$tmp/s4"
printf '[device]\nname=ETM_4\nclass=trace_source\ntype=ETM4.0\n\n[regs]\nTRCTRACEIDR=0x21\n' > "$tmp/s4/etm4.ini"
sed -i 's/^\[device_list\]/[device_list]\nextra=etm4.ini/' "$tmp/s4/snapshot.ini"
"$ETMTRACE" decode "$tmp/s4" --id 21 2> "$tmp/e"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'trace ID 0x21 is ETM_4 (ETM4.0): a protocol etmtrace does not decode' '$tmp/e'" "ETMv4 source: said so (was: no trace buffer)"
"$ETMTRACE" info "$tmp/s4" > "$tmp/i4"
check "grep -q 'source ETM_4: trace ID 0x21' '$tmp/i4' && grep -q 'not decoded: a protocol etmtrace does not decode' '$tmp/i4'" "info lists the ETMv4 source with the reason"
finish
