#!/bin/sh
# scripts/bench-ir.sh - instructions executed (callgrind Ir) per decoded
# instruction, for every etm_bench case: deterministic figures for
# before/after tables on a loaded machine (wall times are noise there).
#
# Each case runs as `build/bench/etm_bench --no-peer --runs 1 --only CASE`
# under callgrind with --trace-children=yes (etm_bench decodes in a forked
# child) and --toggle-collect=bench_etm_run (the decode through the public
# API: image loading, input reading, decoding, counting; not the input
# generation or the parent). Inputs come from `etm_bench --generate` in
# WORKDIR: TC2 cstrace.bin x COPIES (default 32 = 1 MiB; one source
# decoded, the other four demultiplexed and skipped) and synthetic traces
# of MIB MiB (default 4). The Ir of all the case's callgrind files are
# summed (only the decoding child collects; a case whose total is 0 is
# reported as FAILED, so a renamed bench_etm_run is noticed).
#
# Prints one row per case: name, what it counts (insns: instructions
# decoded; pkts: packets, for the packets-only cases; elems: elements, for
# ITM's decode, which has no instructions), that count, Ir, Ir per unit.
#
# usage: scripts/bench-ir.sh [-b BUILD] [-w WORKDIR] [-c COPIES] [-m MIB]
#                            [CASE...]
#   run from the source tree root (etm_bench finds build/testdata there);
#   CASE: etm_bench case names (default: all of them).
#   Needs valgrind. Takes a few minutes for all cases.
set -eu

build=build
workdir=/tmp/bench-ir
copies=32
mib=4
while getopts b:w:c:m: o; do
	case $o in
	b) build=$OPTARG ;;
	w) workdir=$OPTARG ;;
	c) copies=$OPTARG ;;
	m) mib=$OPTARG ;;
	*) sed -n '2,/^set -eu/p' "$0" | sed 's/^# \{0,1\}//;$d'; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
cases=${*:-"tc2-ptm-packets tc2-etm3-packets tc2-ptm-decode tc2-etm3-decode
synth-ptm-loop synth-ptm-branch synth-etm3-loop synth-etm3-branch
synth-etm1-loop synth-etm1-branch synth-itm-packets synth-itm-decode"}

bench=$build/bench/etm_bench
[ -x "$bench" ] || { echo "no $bench (cmake --build $build --target etm_bench)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind not found" >&2; exit 1; }
mkdir -p "$workdir"
args="--workdir $workdir --copies $copies --synth-mib $mib --no-peer --runs 1"
# shellcheck disable=SC2086
"$bench" $args --generate >/dev/null

printf '%-20s %5s %12s %14s %9s\n' case unit count Ir Ir/unit
fail=0
for c in $cases; do
	out=$workdir/cg-$c
	rm -rf "$out"
	mkdir -p "$out"
	# shellcheck disable=SC2086
	valgrind --tool=callgrind --trace-children=yes \
		--toggle-collect=bench_etm_run \
		--callgrind-out-file="$out/cg.%p" \
		"$bench" $args --only "$c" >"$out/stdout" 2>"$out/stderr" || true
	# a decode case counts instructions (ITM: elements), a packets case
	# packets
	set -- $(awk '/^  etmtrace / {
		for (i = 1; i < NF; i++) {
			if ($i == "insns") ins = $(i + 1)
			if ($i == "pkts") pk = $(i + 1)
			if ($i == "elems") el = $(i + 1)
		}
	}
	/packets only\)$/ { pkts = 1 }
	END {
		if (pkts) print "pkts", pk + 0
		else if (ins + 0 == 0) print "elems", el + 0
		else print "insns", ins + 0
	}' "$out/stdout")
	unit=$1 units=$2
	ir=$(cat "$out"/cg.* | awk '/^totals:/ { s += $2 } END { printf "%.0f\n", s }')
	if [ "$ir" = 0 ] || [ "$units" = 0 ]; then
		printf '%-20s FAILED (see %s)\n' "$c" "$out"
		fail=1
		continue
	fi
	printf '%-20s %5s %12s %14s %9.2f\n' "$c" "$unit" "$units" "$ir" \
		"$(echo "$ir $units" | awk '{ print $1 / $2 }')"
done
exit $fail
