#!/usr/bin/env bash
# tests/cli/test-perfdata_roundtrip.sh - the encoder's trace written as a
# perf.data file (etmtrace synth, then convert --perf-data) reads back as
# the execution the generator made (synth --expect: its ground truth, not
# the decoder's): ETMv3 and PTM, 1, 2 and 4 CPUs, per-CPU and per-thread
# AUX trace, cs_etm header versions 0, 1 and 2 (trace IDs from
# AUX_OUTPUT_HW_ID), 16-byte frames and raw, both byte orders, snapshot
# mode; each source decoded alone from the perf.data, compared to its list.
. "$ETM_SRCDIR/tests/cli/lib.sh"

# norm FILE: canonical list with GAP runs collapsed, leading/trailing GAPs
# dropped (the canon.py rules: a perf AUX piece starts a trace)
norm() { awk '/^GAP$/ { if (n) gap = 1; next } { if (gap) print "GAP"; gap = 0; n++; print }' "$1"; }

# rt NAME "SYNTH ARGS" "CONVERT ARGS": every source of the snapshot decoded
# from the perf.data equals its expected list
rt() {
	local name=$1 sargs=$2 cargs=$3 d="$tmp/$1" ok=1 id exp
	# shellcheck disable=SC2086
	"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 300 $sargs > /dev/null 2>&1 ||
		{ echo "FAIL: synth $name"; fail=$((fail + 1)); return; }
	# shellcheck disable=SC2086
	"$ETMTRACE" convert "$d" --perf-data "$d/perf.data" $cargs 2> "$tmp/err" ||
		{ echo "FAIL: convert $name: $(cat "$tmp/err")"; fail=$((fail + 1)); return; }
	for id in $(sed -n 's/^ETMTRACEIDR(0x080)=0x000000\(..\)$/\1/p' "$d"/source_*.ini); do
		exp="$d.exp"
		[ -f "$d.exp.0x$id" ] && exp="$d.exp.0x$id"
		"$ETMTRACE" decode "$d/perf.data" --id "0x$id" --format canon > "$d.got" 2> "$tmp/err"
		if ! diff -q <(norm "$d.got") <(norm "$exp") > /dev/null || [ ! -s "$d.got" ]; then
			echo "FAIL: $name: trace ID 0x$id differs: $(head -c 300 "$tmp/err")"
			ok=0
		fi
	done
	if [ $ok = 1 ]; then echo "ok   $name"; else fail=$((fail + 1)); fi
}

for proto in etmv3 ptm; do
	for n in 1 2 4; do
		src="--protocol $proto --seed $n"
		[ "$n" -gt 1 ] && src="$src --sources $n --format coresight"
		for mode in "" --per-thread; do
			for v in 0 1 2; do
				rt "$proto-$n-v$v${mode:+-thread}" "$src" "--perf-version $v $mode"
			done
			rt "$proto-$n-raw${mode:+-thread}" "$src" "--raw $mode"
		done
	done
	rt "$proto-2-be" "--protocol $proto --sources 2 --format coresight" "--big-endian"
	rt "$proto-1-be-raw-v0" "--protocol $proto" "--big-endian --raw --perf-version 0"
done

# every process read from its own memory by the analyses too (4 CPUs, 4
# programs at the same addresses): no diagnostic blames the image
for cmd in "decode --stats" "profile" "coverage" "fdo --format autofdo"; do
	# shellcheck disable=SC2086
	"$ETMTRACE" $cmd "$tmp/ptm-4-v1/perf.data" > /dev/null 2> "$tmp/err.an"
	rc=$?
	check '[ $rc = 0 ] && ! grep -q "disagrees" "$tmp/err.an"' "$cmd: 4 processes, each with its own image (exit $rc)"
done

# a perf.data cut inside its AUX data: refused with the record's offset
head -c 700 "$tmp/ptm-1-v1/perf.data" > "$tmp/cut.data"
"$ETMTRACE" decode "$tmp/cut.data" > /dev/null 2> "$tmp/err.cut"
rc=$?
check '[ $rc = 2 ] && grep -q "offset [0-9]*.*past the end" "$tmp/err.cut"' "a cut perf.data: exit 2, the offset named ($(head -c 160 "$tmp/err.cut"))"

# synth --perf-data writes the perf.data beside the snapshot
d="$tmp/direct"
"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 600 --perf-data > /dev/null 2>&1
"$ETMTRACE" decode "$d/perf.data" --format canon > "$d.got" 2> /dev/null
check '[ -s "$d.got" ] && diff -q <(norm "$d.got") <(norm "$d.exp") > /dev/null' "synth --perf-data: perf.data decodes to the expected list"
check '[ -f "$d/cpu0.elf" ] && grep -q ELF "$d/cpu0.elf"' "synth --perf-data: the mapped ELF file is written"

# the ELF file looked up by --symfs when its recorded path is gone
d="$tmp/symfs"
"$ETMTRACE" synth "$d" --expect "$d.exp" --insns 600 --perf-data > /dev/null 2>&1
mkdir -p "$tmp/root$d" && mv "$d/cpu0.elf" "$tmp/root$d/"
"$ETMTRACE" decode "$d/perf.data" --format canon > "$d.nofile" 2> "$tmp/err.nofile"
"$ETMTRACE" decode "$d/perf.data" --format canon --symfs "$tmp/root" > "$d.got" 2> /dev/null
check 'grep -q "no image for pid 1000 at 0x.*cpu0.elf not found" "$tmp/err.nofile"' "missing image: 'no image for pid N at ADDR' note"
check '! grep -q "^[0-9A-F]" "$d.nofile"' "missing image: no instruction invented"
check '[ -s "$d.got" ] && diff -q <(norm "$d.got") <(norm "$d.exp") > /dev/null' "--symfs DIR finds the mapped file"
finish
