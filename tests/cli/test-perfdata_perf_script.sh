#!/usr/bin/env bash
# tests/cli/test-perfdata_perf_script.sh - an independent decoder reads the
# perf.data files etmtrace writes: Linux perf (Debian's linux-perf, built
# with OpenCSD) lists the same branch samples as `etmtrace decode
# --format perf-script` (-F comm,pid,tid,cpu,ip,addr,flags) for ETMv3 and
# PTM (per-thread AUX trace, which perf
# decodes with the mapped ELF files): every line's from and to addresses
# equal, and the flags equal but for the differences doc/perfdata.md
# explains (OpenCSD calls `ldr pc, [Rn]`, `bx Rn` and `tbb` returns,
# ETMv3.3/3.4 exception returns "return"; our names come from the
# instruction). Synthetic programs and TC2's real ETMv3.5 capture.
. "$ETM_SRCDIR/tests/cli/lib.sh"
if ! command -v perf > /dev/null || ! perf script --help > /dev/null 2>&1; then
	echo "SKIP: no perf (install linux-perf: Debian's perf reads cs_etm trace through OpenCSD)"
	exit 77
fi
# allowed flag differences: ours perf
allowed() {
	[ "$1 $2" = "jmp return" ] || [ "$1 $2" = "iret return" ] ||
		[ "$1 $2" = "tr_end tr_end__return" ]
}
# xcheck NAME: compare on $tmp/NAME/perf.data (written by the caller)
xcheck() {
	local name=$1 d="$tmp/$1" n bad=0 same=0
	"$ETMTRACE" decode "$d/perf.data" --format perf-script > "$d.ours" 2> /dev/null
	HOME=$tmp perf script -f -i "$d/perf.data" --itrace=b -F comm,pid,tid,cpu,ip,addr,flags > "$d.perf" 2> "$d.err"
	n=$(wc -l < "$d.perf")
	check '[ "$n" -gt 50 ] && [ "$(wc -l < "$d.ours")" = "$n" ]' "$name: perf and etmtrace list $n branches"
	check 'diff -q <(awk "{print \$(NF-2), \$NF}" "$d.ours") <(awk "{print \$(NF-2), \$NF}" "$d.perf") > /dev/null' "$name: from and to addresses equal on every line"
	check 'diff -q <(sed "s/\].*/]/" "$d.ours") <(sed "s/\].*/]/" "$d.perf") > /dev/null' "$name: comm, pid/tid and [cpu] columns equal on every line"
	while read -r a b; do
		if [ "$a" = "$b" ]; then same=$((same + 1)); elif ! allowed "$a" "$b"; then bad=$((bad + 1)); echo "  flags differ: ours '$a' perf '$b'"; fi
	done < <(paste -d' ' <(sed 's/^.*\] *//; s/^\(.*[a-z]\)  *[0-9a-f]* =>.*/\1/; s/ /_/g' "$d.ours") \
		<(sed 's/^.*\] *//; s/^\(.*[a-z]\)  *[0-9a-f]* =>.*/\1/; s/ /_/g' "$d.perf"))
	check '[ $bad = 0 ] && [ $same -gt 0 ]' "$name: flags equal on $same lines, the rest documented differences"
}
synth_x() { local n=$1; shift; "$ETMTRACE" synth "$tmp/$n" --per-thread "$@" > /dev/null 2>&1; xcheck "$n"; }
synth_x ptm-a32-t32 --protocol ptm --seed 3
synth_x ptm-isb-long --protocol ptm --seed 12 --features arm,thumb,exc,b2b,isb,long
synth_x etmv3-a32-t32 --protocol etmv3 --seed 5
synth_x etmv3-cycles --protocol etmv3 --seed 6 --cycle-accurate
synth_x etmv3-cancel --protocol etmv3 --seed 13 --features arm,thumb,exc,b2b,cancel,isb
synth_x etmv3.3 --protocol etmv3 --seed 10 --etm-version 3.3
# a real capture: TC2's Cortex-A7 ETMv3.5 sources (Linux kernel code), each
# alone in a perf.data file with its memory as the mapped ELF file
for id in 10 11 12; do
	mkdir -p "$tmp/tc2-$id"
	"$ETMTRACE" convert "$ETM_SHARED/snapshots/TC2" --id $id --per-thread \
		--perf-data "$tmp/tc2-$id/perf.data" 2> /dev/null
	xcheck tc2-$id
done
finish
