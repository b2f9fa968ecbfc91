#!/usr/bin/env bash
# tests/cli/test-two_buffers.sh - a snapshot with
# two trace buffers decodes the sources of both (it decoded the first
# buffer's only, silently), and --id A --id B across buffers keeps both.
. "$(dirname "$0")/lib.sh"
synth_snap "$tmp/a" --protocol ptm --seed 11 --insns 500
synth_snap "$tmp/b" --protocol etmv3 --seed 12 --insns 700
c="$tmp/c"; mkdir "$c"
cp "$tmp/a"/* "$c"/
for f in mem_0_0.bin mem_0_1.bin trace.bin; do cp "$tmp/b/$f" "$c/b_$f"; done
sed -e 's/cpu_0/cpu_1/; s/=mem_0_/=b_mem_0_/' "$tmp/b/cpu_0.ini" > "$c/cpu_1.ini"
sed -e 's/=ETM_0/=ETM_1/; s/ETMTRACEIDR(0x080)=.*/ETMTRACEIDR(0x080)=0x00000011/' \
	"$tmp/b/source_0.ini" > "$c/source_1.ini"
cat > "$c/snapshot.ini" <<'EOT'
[snapshot]
version=1.0

[device_list]
core0=cpu_0.ini
source0=source_0.ini
core1=cpu_1.ini
source1=source_1.ini

[trace]
metadata=trace.ini
EOT
cat > "$c/trace.ini" <<'EOT'
[trace_buffers]
buffers=buffer0,buffer1

[buffer0]
name=ETB_0
file=trace.bin
format=source_data

[buffer1]
name=ETB_1
file=b_trace.bin
format=source_data

[source_buffers]
PTM_0=ETB_0
ETM_1=ETB_1

[core_trace_sources]
cpu_0=PTM_0
cpu_1=ETM_1
EOT
"$ETMTRACE" decode "$c" --format canon --id 10 > "$tmp/g10"; r1=$?
"$ETMTRACE" decode "$c" --format canon --id 11 > "$tmp/g11"; r2=$?
check "[ $r1 -eq 0 ] && canon_eq '$tmp/g10' '$tmp/a.exp'" "buffer 1's source (0x10) decodes as generated"
check "[ $r2 -eq 0 ] && canon_eq '$tmp/g11' '$tmp/b.exp'" "buffer 2's source (0x11) decodes as generated (was: no trace buffer)"
"$ETMTRACE" decode "$c" --stats > "$tmp/st"; rc=$?
want=$(( $(grep -vc '^GAP' "$tmp/a.exp") + $(grep -vc '^GAP' "$tmp/b.exp") ))
check "[ $rc -eq 0 ] && grep -q \"^instructions *$want\$\" '$tmp/st'" "whole snapshot: both buffers' instructions ($want)"
"$ETMTRACE" decode "$c" --id 10 --id 11 > "$tmp/t"; rc=$?
check "[ $rc -eq 0 ] && grep -q '^\[0x10\]' '$tmp/t' && grep -q '^\[0x11\]' '$tmp/t'" "--id 10 --id 11 across buffers: both listed"
"$ETMTRACE" decode "$c" --id 11 --verbose 2> "$tmp/v" > /dev/null
check "grep -q 'trace ID 0x10 PTM_0 (ptm): not decoded: not selected' '$tmp/v' && grep -q 'buffer ETB_1' '$tmp/v'" "--verbose says what is decoded from where"
finish
