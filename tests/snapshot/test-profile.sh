#!/usr/bin/env bash
# tests/snapshot/test-profile.sh - `etmtrace profile` on am243x-freertos-1
# (Cortex-R5F, ELF with DWARF) checked independently: flat per-function
# self counts equal the canonical instruction list binned by readelf's
# symbol ranges (profile_check.py, not our symbol code); callgrind_annotate
# reads the callgrind output and its totals and per-function sum equal the
# instruction count; folded totals equal it; the Perfetto JSON parses, its
# slices nest per track and the root slices add up to it (one instruction
# = 1 us without timestamps). Then every format is identical for --jobs
# 1 and 2 on TC2 x48 with a generated symbol file.
. "$(dirname "$0")/symtest.sh"
if [ ! -f "$elf" ] || ! command -v callgrind_annotate > /dev/null || ! command -v readelf > /dev/null; then
	echo "skip: am243x snapshot, callgrind_annotate or readelf missing"; exit 77
fi

"$ETMTRACE" decode "$snap" --elf "$elf" --format canon > "$tmp/canon"
n=$(grep -vc GAP "$tmp/canon")
echo "am243x: $n instructions"
check "'$ETMTRACE' profile '$snap' --elf '$elf' > '$tmp/flat'" "profile flat runs"
check "$py '$here/profile_check.py' flat '$elf' '$tmp/canon' '$tmp/flat'" \
      "flat self counts = canon binned by readelf ranges"
check "grep -q '^# etmtrace profile: $n instructions' '$tmp/flat'" "flat total = $n"

"$ETMTRACE" profile "$snap" --elf "$elf" --format folded > "$tmp/folded"
check "$py '$here/profile_check.py' folded '$tmp/folded' $n" "folded total = $n"

"$ETMTRACE" profile "$snap" --elf "$elf" --format perfetto > "$tmp/trace.json"
check "$py '$here/profile_check.py' perfetto '$tmp/trace.json' $n" \
      "perfetto parses, nests, durations add up to $n"
check "grep -q '\"ph\":\"i\"' '$tmp/trace.json'" "perfetto has instants (exceptions, gaps)"

"$ETMTRACE" profile "$snap" --elf "$elf" --format callgrind > "$tmp/callgrind.out"
callgrind_annotate --threshold=100 --auto=no "$tmp/callgrind.out" > "$tmp/ann" 2> "$tmp/ann.err"
check "[ ! -s '$tmp/ann.err' ]" "callgrind_annotate: no warnings"
tot=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$tmp/ann")
check "[ '$tot' = '$n' ]" "callgrind_annotate PROGRAM TOTALS $tot = $n"
sum=$(awk '/file:function/ { on = 1; next } on && $1 ~ /^[0-9,]+$/ { gsub(",", "", $1); s += $1 } END { print s }' "$tmp/ann")
check "[ '$sum' = '$n' ]" "callgrind_annotate per-function sum $sum = $n"
callgrind_annotate --inclusive=yes "$tmp/callgrind.out" > "$tmp/inc" 2>&1
check "grep -q 'main_task' '$tmp/inc'" "callgrind_annotate --inclusive=yes reads the call edges"

# a snapshot whose core names the ELF as a memory dump: symbols (and code)
# come from it without --elf
mkdir "$tmp/named"
# copies: links leading out of a snapshot directory are refused
cp "$snap"/*.ini "$snap"/etb.bin "$elf" "$tmp/named/"
rm "$tmp/named/cpu_0.ini"
printf '[device]\nname=cpu_0\nclass=core\ntype=Cortex-R5\n\n[dump1]\nfile=freertos.out\naddress=0x0\n' > "$tmp/named/cpu_0.ini"
"$ETMTRACE" profile "$tmp/named" > "$tmp/named.flat"
check "cmp -s '$tmp/flat' '$tmp/named.flat'" "snapshot naming the ELF: same flat profile as --elf"

# --jobs: TC2 x48 (1.5 MiB, five sources), symbols from the kernel dump
if [ -f "$tc2/cstrace.bin" ]; then
	tc2_x48 "$tmp/tc2"
	for fmt in flat callgrind folded perfetto; do
		ref=$("$ETMTRACE" profile "$tmp/tc2" --symbols "$tmp/tc2/syms.txt" --format $fmt --jobs 1 2> /dev/null | md5sum)
		for j in 2; do
			got=$("$ETMTRACE" profile "$tmp/tc2" --symbols "$tmp/tc2/syms.txt" --format $fmt --jobs $j 2> /dev/null | md5sum)
			check "[ '$ref' = '$got' ]" "tc2 profile --format $fmt --jobs $j = --jobs 1"
		done
	done
else
	echo "skip TC2 part: not found"; exit 77
fi
echo "$fail failed"
[ $fail -eq 0 ]
