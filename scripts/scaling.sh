#!/usr/bin/env bash
# scripts/scaling.sh - issue 19's must-show table for parallel decode: on TC2
# x4096 (all five sources, 128 MiB) and the benchmark's 256 MiB synthetic
# traces (PTM and ETMv3, loop- and branch-heavy), `decode --stats` and text
# output to /dev/null with --jobs 1 and 2: best wall time of RUNS alternated
# runs, the CPU time (user+sys) of those runs, the speed-up, the runner's
# figures (serial share, input decoded twice, workers idle at the end), and
# whether the outputs of --jobs 1/2/3/8 are identical (checksum of stdout,
# of stderr without the `parallel' lines, and the exit status).
#
#   scripts/scaling.sh [--old OLD_ETMTRACE] [ETMTRACE]
#
# ETMTRACE defaults to build-rel/etmtrace (a Release build); its
# bench/etm_bench writes the synthetic traces. With --old, the old binary
# is timed too, alternating with the new one in every round (speed-up of
# each; the outputs of both must be identical as well). Environment:
# SCALING_WORK (inputs, default /tmp/etm_scaling; ~1.6 GiB), ETM_SHARED
# (default build/testdata, tests/data unpacked by CMake: TC2), RUNS (default 2), HASH (default cksum: CRC-32
# and length, fast enough for the 7-12 GB text outputs; md5sum works too),
# ONLY (cases whose name contains it). Text on the synthetic traces is
# timed on a prefix of whole 4 MiB periods (their text is 50-1100 bytes per
# input byte: the whole files would give 17-300 GB of text). About 8
# minutes on an idle 2-core machine; the wall times mean something only
# when nothing else runs (the load column: 1-minute load average before
# the case).
set -u
here=$(cd "$(dirname "$0")" && pwd)
old=
if [ "${1:-}" = --old ]; then
	old=$2
	shift 2
fi
new=${1:-build-rel/etmtrace}
work=${SCALING_WORK:-/tmp/etm_scaling}
shared=${ETM_SHARED:-$here/../build/testdata}
runs=${RUNS:-2}
hash=${HASH:-cksum}
bench=$(dirname "$new")/bench/etm_bench
for b in "$new" $old "$bench"; do
	[ -x "$b" ] || { echo "scaling.sh: $b: not an executable" >&2; exit 2; }
done
mkdir -p "$work" || exit 2
t_start=$(date +%s)

# --- inputs ---------------------------------------------------------------
tc2=$shared/snapshots/TC2
if [ ! -f "$work/tc2/cstrace.bin" ] ||
	[ "$(stat -c %s "$work/tc2/cstrace.bin")" != $((4096 * $(stat -c %s "$tc2/cstrace.bin"))) ]; then
	echo "writing $work/tc2 (TC2 with cstrace.bin x 4096)"
	mkdir -p "$work/tc2"
	cp "$tc2"/*.ini "$tc2"/kernel_dump.bin "$work/tc2/" || exit 2
	chmod u+w "$work/tc2"/*
	for _ in $(seq 4096); do cat "$tc2/cstrace.bin"; done > "$work/tc2/cstrace.bin"
fi
for p in synth-ptm synth-etm3; do
	"$bench" --generate --workdir "$work" --synth-mib 256 --only $p > /dev/null ||
		{ echo "scaling.sh: $bench --generate failed" >&2; exit 2; }
done
# shellcheck source=scripts/synth-args.sh
. "$here/synth-args.sh"
# text prefixes: 4 MiB periods (the file is 64 of them)
declare -A periods=([ptm-loop]=2 [ptm-branch]=32 [etm3-loop]=8 [etm3-branch]=32)
for k in ptm-loop ptm-branch etm3-loop etm3-branch; do
	f=$work/synth-$k.v2.bin
	n=$(($(stat -c %s "$f") / 64 * ${periods[$k]}))
	[ -f "$work/synth-$k.text.bin" ] && [ "$(stat -c %s "$work/synth-$k.text.bin")" = $n ] ||
		head -c $n "$f" > "$work/synth-$k.text.bin"
done

# --- cases: NAME|OUTPUT|DECODE ARGS -----------------------------------------
cases=("tc2-x4096|--stats|$work/tc2 --stats"
	"tc2-x4096|text|$work/tc2")
for k in ptm-loop ptm-branch etm3-loop etm3-branch; do
	cases+=("synth-$k 256M|--stats|$(synth_args $k "$work/synth-$k.v2.bin") --stats")
done
for k in ptm-loop ptm-branch etm3-loop etm3-branch; do
	cases+=("synth-$k $((${periods[$k]} * 4))M|text|$(synth_args $k "$work/synth-$k.text.bin")")
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed BIN JOBS ARGS...: one run; "wall cpu" on stdout; its stdout (--stats:
# the totals, for the comparison) in $tmp/out, stderr in $tmp/err
timed() {
	local bin=$1 j=$2; shift 2
	if [ "$mode" = text ]; then
		/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$bin" decode "$@" --jobs $j \
			--run-stats > /dev/null 2> "$tmp/err"
		: > "$tmp/out"
	else
		/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$bin" decode "$@" --jobs $j \
			> "$tmp/out" 2> "$tmp/err"
	fi
	echo $? > "$tmp/rc"
	awk 'END { printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time"
}

# digest BIN JOBS ARGS...: checksum of stdout (without the timing lines of
# --stats), of stderr (without the runner's lines) and the exit status;
# --stats: of the last timed run ($tmp/out, err, rc) if BIN is "-"
nontiming() { grep -v -e '^elapsed' -e '^throughput' -e '^parallel'; }
digest() {
	local bin=$1 j=$2 rc o; shift 2
	if [ "$bin" = - ]; then
		o=$(nontiming < "$tmp/out" | $hash)
		rc=$(cat "$tmp/rc")
	else
		# the status from inside the substitution (PIPESTATUS after it
		# is the assignment's)
		o=$({
			"$bin" decode "$@" --jobs $j 2> "$tmp/err"
			echo $? > "$tmp/rc"
		} | nontiming | $hash)
		rc=$(cat "$tmp/rc")
	fi
	echo "$o/$(nontiming < "$tmp/err" | $hash)/rc=$rc" | tr -s ' '
}

# figure NAME: a figure of the runner's `parallel' lines of the last run
figure() {
	case $1 in
	serial) sed -n 's/^parallel serial  *\([0-9.]*%\).*/\1/p' ;;
	redundant) sed -n 's/^parallel redundant \([0-9.]*%\).*/\1/p' ;;
	idle) sed -n 's/^parallel wait.*idle at the end \([0-9.]*\) s.*/\1/p' ;;
	esac < <(cat "$tmp/out" "$tmp/err")
}

# best "wall cpu" lines: the one with the shortest wall time
best() { sort -n | head -1; }

printf '%s\n' "etmtrace scaling (issue 19): $new${old:+ (old: $old)}, $(nproc) CPUs," \
	"best of $runs alternated runs, wall and CPU (user+sys) in seconds, $hash of outputs"
printf '\n| %-20s | %-7s | %-4s | %-13s | %-13s | %-8s | %-8s | %-6s | %-6s | %-9s | %-4s | %s |\n' \
	input output load "wall j1 / j2" "CPU j1 / j2" speed-up "CPU j2/1" serial "twice" "idle end" same "old speed-up"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
nrows=0 nfast=0 nsame=0 worst=9
for c in "${cases[@]}"; do
	IFS='|' read -r name mode args <<< "$c"
	[ -n "${ONLY:-}" ] && [[ $name != *$ONLY* ]] && continue
	load=$(cut -d' ' -f1 /proc/loadavg)
	: > "$tmp/n1"; : > "$tmp/n2"; : > "$tmp/o1"; : > "$tmp/o2"
	d1= d2= ser= red= idle=
	for r in $(seq "$runs"); do
		for j in 1 2; do
			# shellcheck disable=SC2086
			timed "$new" $j $args >> "$tmp/n$j"
			if [ "$mode" != text ] && [ $r = 1 ]; then
				printf -v "d$j" '%s' "$(digest - $j)"
			fi
			if [ $j = 2 ] && [ -z "$ser" ]; then
				ser=$(figure serial) red=$(figure redundant) idle=$(figure idle)
			fi
			if [ -n "$old" ]; then
				# shellcheck disable=SC2086
				timed "$old" $j $args >> "$tmp/o$j"
			fi
		done
	done
	read -r w1 c1 <<< "$(best < "$tmp/n1")"
	read -r w2 c2 <<< "$(best < "$tmp/n2")"
	sp=$(awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	cr=$(awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }')
	osp=
	if [ -n "$old" ]; then
		read -r ow1 oc1 <<< "$(best < "$tmp/o1")"
		read -r ow2 oc2 <<< "$(best < "$tmp/o2")"
		osp=$(awk -v a="$ow1" -v b="$ow2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
	fi
	# outputs of --jobs 1/2/3/8 (and the old binary's --jobs 1)
	# (--stats: --jobs 1 and 2 from the timed runs)
	# shellcheck disable=SC2086
	[ -n "$d1" ] && ref=$d1 || ref=$(digest "$new" 1 $args)
	same=yes
	for j in 2 3 8; do
		if [ $j = 2 ] && [ -n "$d2" ]; then
			got=$d2
		else
			# shellcheck disable=SC2086
			got=$(digest "$new" $j $args)
		fi
		[ "$got" = "$ref" ] || { same=NO; echo "  $name $mode: --jobs $j differs: $got, not $ref" >&2; }
	done
	if [ -n "$old" ]; then
		# shellcheck disable=SC2086
		[ "$(digest "$old" 1 $args)" = "$ref" ] || { same=NO; echo "  $name $mode: old binary differs" >&2; }
	fi
	nrows=$((nrows + 1))
	[ "$same" = yes ] && nsame=$((nsame + 1))
	awk -v s="$sp" 'BEGIN { exit !(s >= 1.9) }' && nfast=$((nfast + 1))
	worst=$(awk -v a="$worst" -v b="$sp" 'BEGIN { print (b < a ? b : a) }')
	printf '| %-20s | %-7s | %-4s | %5s / %5s | %5s / %5s | %7sx | %8s | %6s | %6s | %7s s | %-4s | %s |\n' \
		"$name" "$mode" "$load" "$w1" "$w2" "$c1" "$c2" "$sp" "$cr" "$ser" "$red" "$idle" "$same" "$osp"
done
echo
echo "$nfast of $nrows at least 1.9x (slowest ${worst}x); outputs of --jobs 1/2/3/8 identical in $nsame of $nrows"
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) (wall times are only meaningful on an idle machine); $(($(date +%s) - t_start)) s"
[ "$nsame" = "$nrows" ]
