#!/usr/bin/env bash
# tests/cli/test-sample.sh - the built-in sample decodes to the instruction
# sequence derived by hand in examples/sample/README.txt, and the CLI's exit
# statuses and error messages behave as documented.
set -u
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=$((fail + 1)); else echo "ok   $2"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
S="$ETM_SRCDIR/examples/sample"

# Hand derivation: the execution described in examples/sample/README.txt.
cat > "$tmp/expect" <<'EOT'
00008000 A
00008004 A
00008008 A
00008100 T
00008102 T
00008104 T N
00008106 T
00008108 T
0000800C A
00008010 A
00008008 A
00008100 T
00008102 T
00008104 T
0000810A T
0000810C T
0000800C A
00008010 A
00008008 A
00008100 T
00008102 T
00008104 T N
00008106 T
00008108 T
0000800C A
00008010 A N
00008014 A
00000008 A
00000100 A
00000104 A
00000108 A
0000010C A
00008018 A
00008018 A
EOT
"$ETMTRACE" decode "$S" --format canon > "$tmp/got"; rc=$?
check "[ $rc -eq 0 ]" "decode sample exits 0"
check "sed '/^GAP$/d' '$tmp/got' | diff -u '$tmp/expect' - >/dev/null" "sample canon matches hand derivation"
"$ETMTRACE" decode "$S" > "$tmp/text"; rc=$?
check "[ $rc -eq 0 ] && grep -q '00008010  A32' '$tmp/text'" "text listing shows instructions"
check "grep -q 'exception SVC (10) -> 0x00000008, return 0x00008018' '$tmp/text'" "text listing shows the SVC exception and its return address"
check "grep -q 'exception return' '$tmp/text'" "text listing shows the exception return"
"$ETMTRACE" packets "$S" --format jsonl > "$tmp/pk"; rc=$?
# PTM rules: the SVC (not a waypoint) is traced as a waypoint update naming
# 0x8014, then an exception branch packet with exception 10 to 0x8.
check "[ $rc -eq 0 ] && grep -q 'WAYPOINT_UPDATE.*\"addr\":\"0x00008014\"' '$tmp/pk'" "waypoint update names the SVC"
check "grep -q 'BRANCH_ADDRESS.*\"addr\":\"0x00000008\"' '$tmp/pk'" "exception branch packet to the SVC vector"
"$ETMTRACE" info "$S" > "$tmp/info"; rc=$?
check "[ $rc -eq 0 ] && grep -q 'ptm' '$tmp/info'" "info lists the PTM source"

# usage / input errors: exit 2 with a one-line message naming the problem
"$ETMTRACE" decode /nonexistent/dir 2> "$tmp/err"; rc=$?
check "[ $rc -eq 2 ] && grep -q '/nonexistent/dir' '$tmp/err'" "missing input -> exit 2 naming file"
"$ETMTRACE" decode "$S" --bogus 2> "$tmp/err"; rc=$?
check "[ $rc -eq 2 ] && grep -q 'bogus' '$tmp/err'" "unknown option -> exit 2"
"$ETMTRACE" frobnicate 2>/dev/null; rc=$?
check "[ $rc -eq 2 ]" "unknown command -> exit 2"
for c in decode packets info; do
	"$ETMTRACE" $c --help > "$tmp/h"; rc=$?
	check "[ $rc -eq 0 ] && grep -q usage '$tmp/h'" "$c --help"
done
# A trace file with no options: format and configuration found from the
# bytes, but no image -> no instructions, exit 1 with the reason.
"$ETMTRACE" decode "$S/trace.bin" 2> "$tmp/err"; rc=$?
check "[ $rc -eq 1 ] && grep -q 'no instructions decoded.*image' '$tmp/err' && grep -q 'input format coresight detected' '$tmp/err' && grep -q 'trace ID 0x13: configuration inferred.*ptm' '$tmp/err'" "trace file without options or image -> detected, inferred, exit 1"
# With only the images: the same instructions as the snapshot (README.txt).
"$ETMTRACE" decode "$S/trace.bin" --image "$S/vectors.bin@0" --image "$S/code.bin@0x8000" --format canon > "$tmp/got3" 2>/dev/null; rc=$?
check "[ $rc -eq 0 ] && sed '/^GAP$/d' '$tmp/got3' | diff -q '$tmp/expect' - >/dev/null" "inference: trace file + images only decodes as the snapshot"
"$ETMTRACE" decode "$S/trace.bin" --protocol ptm --input-format coresight --id 0x13 --etmcr 0x10001000 --etmccer 0x34C01AC2 --etmidr 0x411CF312 --image "$S/vectors.bin@0" --image "$S/code.bin@0x8000" --format canon > "$tmp/got2"; rc=$?
check "[ $rc -eq 0 ] && sed '/^GAP$/d' '$tmp/got2' | diff -q '$tmp/expect' - >/dev/null" "manual configuration + --image decodes the same"
# corrupt input: a reserved PTM header (0x02) -> error, exit 1, later packets still parsed
printf '\x00\x00\x00\x00\x00\x80\x08\x00\x80\x00\x00\x21\x02\x00\x00\x00\x00\x00\x80\x08\x00\x80\x00\x00\x21\x84' > "$tmp/bad.bin"
# (--etmcr 0 stated: registers not given are inferred, and with a cycle
# count the 0x02 would parse as part of the I-sync)
"$ETMTRACE" packets "$tmp/bad.bin" --protocol ptm --etmcr 0 --format jsonl > "$tmp/badpk"; rc=$?
check "[ $rc -eq 1 ] && grep -q '\"bytes\":\"84\"' '$tmp/badpk'" "reserved header -> exit 1, resync finds later packets"

[ $fail -eq 0 ] && echo "sample tests passed" || echo "$fail sample tests failed"
exit $((fail != 0))
