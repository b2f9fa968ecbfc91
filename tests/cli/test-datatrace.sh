#!/usr/bin/env bash
# tests/cli/test-datatrace.sh - ETMv3 data trace through the CLI: `etmtrace
# synth --data-trace` with its ground truth (--expect-data: the generated
# transfers as the trace gives them) read back by `etmtrace decode --format
# data` under every data setting; the same with --jobs N; --data-range and
# --data-only; the text and jsonl lines; data trace does not change the
# instructions; a data packet cut by the end of the file.
. "$ETM_SRCDIR/tests/cli/lib.sh"

# data_rt NAME ARGS...: synth with --expect-data, decode --format data
data_rt() {
	local name=$1; shift
	local d="$tmp/$name"
	"$ETMTRACE" synth "$d" --protocol etmv3 --expect-data "$d.data" \
		--expect "$d.exp" "$@" > /dev/null 2> "$tmp/err" || {
		echo "FAIL: synth $name: $(cat "$tmp/err")"; fail=$((fail + 1)); return; }
	"$ETMTRACE" decode "$d" --format data > "$d.got" 2> /dev/null
	check "[ -s '$d.data' ] && cmp -s '$d.data' '$d.got'" "$name: decoded transfers == generated"
}

data_rt both --data-trace both --seed 3 --insns 4000
data_rt addr --data-trace addr --seed 4 --insns 4000
data_rt value --data-trace value --seed 5 --insns 4000
data_rt both_random --data-trace both --seed 6 --insns 4000 --atoms random --isync-period 300
data_rt both_ca_exc --data-trace both --seed 7 --insns 4000 --cycle-accurate --features arm,thumb,exc,cancel,gaps
data_rt only_both --data-trace both --data-only --seed 8 --insns 4000
data_rt only_value --data-trace value --data-only --seed 9 --insns 4000
data_rt only_addr --data-trace addr --data-only --seed 10 --insns 4000
data_rt framed --data-trace both --seed 11 --insns 4000 --format coresight
# two sources in CoreSight frames: FILE.0xID per source
"$ETMTRACE" synth "$tmp/two" --protocol etmv3 --data-trace both --seed 13 --insns 3000 \
	--format coresight --sources 2 --expect-data "$tmp/two.data" > /dev/null 2>&1
for id in 10 11; do
	"$ETMTRACE" decode "$tmp/two" --id 0x$id --format data > "$tmp/two.$id" 2> /dev/null
	check "[ -s $tmp/two.data.0x$id ] && cmp -s $tmp/two.data.0x$id $tmp/two.$id" "two sources: 0x$id transfers == generated"
done

# every class of transfer appears: loads, stores, no value, suppressed,
# failed store-exclusive (the generator's mix)
check "grep -q ' R ' $tmp/both.data && grep -q ' W ' $tmp/both.data" "both: loads and stores"
check "awk '\$4 == \"-\"' $tmp/both.data | grep -q ." "both: values not traced"
check "grep -q ' suppressed\$' $tmp/both.data && grep -q ' failed\$' $tmp/both.data" "both: suppressed and failed stores"
check "! grep -v '^- ? ' $tmp/only_both.data | grep -q ." "data-only: no instruction, no direction"

# the instructions do not depend on data trace: the same seed without it
"$ETMTRACE" decode "$tmp/both" --format canon > "$tmp/both.canon" 2> /dev/null
check "canon_eq $tmp/both.canon $tmp/both.exp" "both: instructions == generated"

# --jobs N: the same transfers, the same filtered listing
"$ETMTRACE" synth "$tmp/big" --protocol etmv3 --data-trace both --seed 12 \
	--insns 200000 --isync-period 2000 --async-period 8000 \
	--expect-data "$tmp/big.data" > /dev/null 2>&1
for j in 1 3; do
	"$ETMTRACE" decode "$tmp/big" --format data --jobs $j > "$tmp/big.$j" 2> /dev/null
	"$ETMTRACE" decode "$tmp/big" --data-only --data-range 0x20000000-0x2003ffff \
		--jobs $j > "$tmp/big.r$j" 2> /dev/null
done
check "cmp -s $tmp/big.data $tmp/big.1 && cmp -s $tmp/big.1 $tmp/big.3" "--jobs 1 and 3: transfers == generated"
check "[ -s $tmp/big.r1 ] && cmp -s $tmp/big.r1 $tmp/big.r3" "--data-range with --jobs 1 and 3: the same"
# the range filter against the ground truth: transfers with an address in
# the range (hex, 8 digits: string order is numeric order)
want=$(awk '$3 != "-" && $3 >= "20000000" && $3 <= "2003ffff"' "$tmp/big.data" | wc -l)
"$ETMTRACE" decode "$tmp/big" --format data --data-range 0x20000000-0x2003ffff > "$tmp/big.fr" 2> /dev/null
check "[ $want -gt 0 ] && [ \$(wc -l < $tmp/big.fr) -eq $want ]" "--data-range: $want transfers in range"
check "! grep -v '^   [RW?] ' $tmp/big.r1 | grep -q ." "--data-only: transfer lines alone"

# text: the transfer under its instruction; jsonl fields
"$ETMTRACE" decode "$tmp/both" > "$tmp/both.txt" 2> /dev/null
# a load's line right after an instruction line
under_insn() { awk '/^   R \[0x[0-9a-f]+\] = 0x/ && p ~ /  (A32|T32)  / { f = 1 } { p = $0 } END { exit !f }' "$1"; }
check "under_insn $tmp/both.txt" "text: a load listed under its instruction"
"$ETMTRACE" decode "$tmp/both" --format jsonl > "$tmp/both.jsonl" 2> /dev/null
check "grep -m1 '\"kind\":\"data\"' $tmp/both.jsonl | grep -q '\"rw\":\"[RW]\",\"insn\":\"0x[0-9a-f]*\",\"isa\":\"[AT]32\",\"daddr\"'" "jsonl: data fields"

# a trace cut inside a data packet: a note, no crash, transfers before it
tr="$tmp/both/trace.bin"
head -c $(( $(wc -c < "$tr") - 3 )) "$tr" > "$tmp/cut.bin"
"$ETMTRACE" decode "$tmp/cut.bin" --protocol etmv3 --etmcr 0xc --etmidr 0x410cf250 \
	$(images "$tmp/both") --format jsonl > "$tmp/cut.jsonl" 2> /dev/null; rc=$?
check "[ $rc -lt 128 ] && grep -q '\"kind\":\"data\"' $tmp/cut.jsonl" "cut trace: decoded, no crash (status $rc)"

# bad option values
"$ETMTRACE" decode "$tmp/both" --data-range 0x200-0x100 > /dev/null 2>&1
check "[ $? -eq 2 ]" "--data-range LO above HI refused"
"$ETMTRACE" synth "$tmp/bad" --protocol ptm --data-trace both > /dev/null 2>&1
check "[ $? -eq 2 ]" "--data-trace refused for PTM"
finish
