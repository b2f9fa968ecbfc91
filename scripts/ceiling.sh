#!/usr/bin/env bash
# scripts/ceiling.sh - the machine's own two-core ceiling next to `--jobs 2`
# for each row of scripts/scaling.sh (issue 19): t1 = `decode --jobs 1`
# alone, tpair = two independent `--jobs 1` processes at once (wall time
# until both end), tj2 = `--jobs 2`; best of RUNS alternated rounds. The
# ceiling 2*t1/tpair is what two cores give two copies of the same work;
# `--jobs 2` is t1/tj2. Run scripts/scaling.sh once first: it writes the
# inputs (SCALING_WORK, default /tmp/etm_scaling). The PTM loop `--stats`
# row uses a 64 MiB prefix (the whole file takes 16 s per run).
#
#   scripts/ceiling.sh [ETMTRACE] [RUNS]     (ONLY=name: rows containing it)
set -u
bin=${1:-build-rel/etmtrace}
runs=${2:-3}
w=${SCALING_WORK:-/tmp/etm_scaling}
[ -x "$bin" ] || { echo "ceiling.sh: $bin: not an executable" >&2; exit 2; }
[ -f "$w/synth-etm3-loop.v2.bin" ] && [ -f "$w/tc2/cstrace.bin" ] ||
	{ echo "ceiling.sh: no inputs in $w: run scripts/scaling.sh first" >&2; exit 2; }
work=$w
# shellcheck source=scripts/synth-args.sh
. "$(cd "$(dirname "$0")" && pwd)/synth-args.sh"
[ -f "$w/synth-ptm-loop.64m.bin" ] ||
	head -c $((64 << 20)) "$w/synth-ptm-loop.v2.bin" > "$w/synth-ptm-loop.64m.bin"
cases=("tc2 --stats|$w/tc2 --stats" "tc2 text|$w/tc2")
for k in ptm-branch etm3-loop etm3-branch; do
	cases+=("$k 256M --stats|$(synth_args $k "$w/synth-$k.v2.bin") --stats")
done
cases+=("ptm-loop 64M --stats|$(synth_args ptm-loop "$w/synth-ptm-loop.64m.bin") --stats")
for k in ptm-loop ptm-branch etm3-loop etm3-branch; do
	cases+=("$k text|$(synth_args $k "$w/synth-$k.text.bin")")
done
now() { date +%s.%N; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
echo "| row | t j1 | two j1 at once | t j2 | ceiling | --jobs 2 | of the ceiling | load |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
	IFS='|' read -r name args <<< "$c"
	[ -n "${ONLY:-}" ] && [[ $name != *$ONLY* ]] && continue
	b1=1e9 bp=1e9 b2=1e9
	for _ in $(seq "$runs"); do
		# shellcheck disable=SC2086
		{
			s=$(now); "$bin" decode $args --jobs 1 > /dev/null 2>&1
			e=$(now); b1=$(min "$b1" "$(echo "$e - $s" | bc)")
			s=$(now); "$bin" decode $args --jobs 1 > /dev/null 2>&1 &
			"$bin" decode $args --jobs 1 > /dev/null 2>&1; wait
			e=$(now); bp=$(min "$bp" "$(echo "$e - $s" | bc)")
			s=$(now); "$bin" decode $args --jobs 2 > /dev/null 2>&1
			e=$(now); b2=$(min "$b2" "$(echo "$e - $s" | bc)")
		}
	done
	awk -v n="$name" -v a="$b1" -v p="$bp" -v j="$b2" -v l="$(cut -d' ' -f1 /proc/loadavg)" \
		'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.3fx | %.3fx | %.1f%% | %s |\n",
			n, a, p, j, 2 * a / p, a / j, 50 * p / j, l }'
done
