#!/usr/bin/env bash
# tests/cli/test-itm_synth.sh - `etmtrace synth --itm`: an ITM/DWT source
# (PC samples of executed instructions, an exception entry per traced
# exception, stimulus text, timestamps, watchpoint values, an overflow)
# beside the ETM/PTM trace in one CoreSight buffer; the decode gives the
# generator's ITM listing lines (FILE.itm) and its instruction list, in
# one stream, the same with two threads; itm --check finds them agree.
. "$(dirname "$0")/lib.sh"
for cfg in "etmv3 3" "ptm 11" "etmv3 29 --features arm,thumb,exc,b2b,gaps,ts" "ptm 40 --timestamps 64"; do
	set -- $cfg
	p=$1 seed=$2; shift 2
	d="$tmp/$p-$seed"
	synth_snap "$d" --protocol "$p" --format coresight --itm --seed "$seed" --insns 20000 "$@"
	"$ETMTRACE" decode "$d" --id 1 > "$d.itm.out" 2> "$d.err"; rc=$?
	check "[ $rc -eq 0 ] && [ -s '$d.exp.itm' ] && cmp -s '$d.itm.out' '$d.exp.itm' && grep -q '^-- itm overflow' '$d.exp.itm'" \
		"$p seed $seed: the ITM source decodes to the generator's events ($(wc -l < "$d.exp.itm") lines)"
	"$ETMTRACE" decode "$d" --format canon > "$d.canon" 2> /dev/null; rc=$?
	check "[ $rc -eq 0 ] && canon_eq '$d.canon' '$d.exp'" "$p seed $seed: the ETM's instructions as generated, beside the ITM"
	"$ETMTRACE" decode "$d" --jobs 1 > "$d.j1" 2> /dev/null
	"$ETMTRACE" decode "$d" --jobs 2 > "$d.j2" 2> /dev/null
	check "cmp -s '$d.j1' '$d.j2' && grep '^\[0x01\]' '$d.j1' | sed 's/^\[0x01\] //' | cmp -s - '$d.exp.itm'" \
		"$p seed $seed: one listing, ITM lines in it in order, the same with --jobs 2"
	# the generator took every PC sample at an executed instruction and
	# gave a DWT entry for every traced exception: all agree
	"$ETMTRACE" itm "$d" --check > /dev/null 2> "$d.chk"; rc=$?
	n=$(grep -c '^-- dwt pc sample' "$d.exp.itm"); x=$(grep -c '^-- dwt exception enter' "$d.exp.itm")
	check "[ $rc -eq 0 ] && grep -q 'cross-check: $n of $n PC samples on executed instructions (0 sleeping, 0 not); $x DWT exception entries, $x ETM exceptions, $x matched, 0 unmatched' '$d.chk'" \
		"$p seed $seed: itm --check: $n PC samples on executed instructions, $x exceptions matched"
done
"$ETMTRACE" synth "$tmp/bad" --itm > /dev/null 2> "$tmp/bad.err"; rc=$?
check "[ $rc -eq 2 ] && grep -q -- '--itm needs --format coresight' '$tmp/bad.err'" "--itm without CoreSight frames: refused"
finish
