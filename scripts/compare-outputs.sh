#!/usr/bin/env bash
# scripts/compare-outputs.sh - run two etmtrace binaries over every test-data
# snapshot, the built-in sample and a set of synthetic snapshots, in every
# output form (packets text/jsonl, decode text/canon/jsonl, --stats minus
# its timing line, --verify, --jobs 1/2/3), the listing annotations
# (--elf symbols, --source, --clock), `coverage` / `fdo` in every format,
# `profile` in every format, `info`, and ETMv1 sample files; and report any
# output, stderr or exit status that differs. For refactorings that must not change
# behaviour: `scripts/compare-outputs.sh OLD/etmtrace NEW/etmtrace`.
# Exit status: 0 all identical, 1 differences (listed), 2 usage.
set -u
if [ $# -lt 2 ]; then
	echo "usage: $0 OLD-etmtrace NEW-etmtrace [SHARED-DIR]" >&2
	exit 2
fi
old=$1 new=$2
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${3:-$root/build/testdata}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ncase=0 ndiff=0

# --stats prints a speed and, with several jobs, the parallel runner's
# CPU-time figures: drop those lines (rates, times, 'parallel ...').
filter() {
	grep -v -E '/s$|/s,|elapsed|seconds|^parallel ' || true
}

# run NAME ARGS...: both binaries, stdout + stderr + exit status compared.
run() {
	local name=$1 b
	shift
	for b in old new; do
		local bin=$old
		[ $b = new ] && bin=$new
		"$bin" "$@" >"$work/$b.out" 2>"$work/$b.err"
		echo "exit $?" >>"$work/$b.err"
		if [ "${stats:-0}" = 1 ]; then
			filter <"$work/$b.out" >"$work/$b.f"
			mv "$work/$b.f" "$work/$b.out"
			filter <"$work/$b.err" >"$work/$b.f"
			mv "$work/$b.f" "$work/$b.err"
		fi
	done
	ncase=$((ncase + 1))
	if ! cmp -s "$work/old.out" "$work/new.out" ||
	   ! cmp -s "$work/old.err" "$work/new.err"; then
		ndiff=$((ndiff + 1))
		echo "DIFFERS: $name: $*"
	fi
}

# every output form on one input (extra options in "$@")
forms() {
	local name=$1 in=$2 j
	shift 2
	run "$name packets" packets "$in" "$@"
	run "$name packets jsonl" packets "$in" --format jsonl "$@"
	for j in 1 2 3; do
		run "$name decode j$j" decode "$in" --jobs $j "$@"
		run "$name canon j$j" decode "$in" --format canon --jobs $j "$@"
		run "$name jsonl j$j" decode "$in" --format jsonl --jobs $j "$@"
		stats=1 run "$name stats j$j" decode "$in" --stats --jobs $j "$@"
		run "$name offsets j$j" decode "$in" --offsets --jobs $j "$@"
		run "$name no-cache j$j" decode "$in" --no-cache --jobs $j "$@"
	done
	run "$name verify" decode "$in" --verify "$@"
	run "$name verify-drop" decode "$in" --verify-drop "$@"
}

snaps=$shared/snapshots
# canon needs one ID: every TC2 source alone, and all together
for id in 10 11 12 13 14; do
	forms "TC2 id $id" "$snaps/TC2" --id $id
done
forms "TC2" "$snaps/TC2"
forms "trace_cov_a15" "$snaps/trace_cov_a15"
forms "am243x" "$snaps/am243x-freertos-1" \
	--elf "$snaps/am243x-freertos-1/freertos.out"
forms "am243x noelf" "$snaps/am243x-freertos-1"
forms "sample" "$root/examples/sample"

# the other commands and the listing annotations
am=$snaps/am243x-freertos-1
elf=$am/freertos.out
for j in 1 2; do
	run "am243x source j$j" decode "$am" --elf "$elf" --source --jobs $j
	run "am243x clock j$j" decode "$am" --elf "$elf" --clock 400000000 \
		--offsets --jobs $j
	run "am243x jsonl clock j$j" decode "$am" --elf "$elf" --format jsonl \
		--clock 400000000 --jobs $j
	for f in ranges text insns lcov save; do
		run "coverage am243x $f j$j" coverage "$am" --elf "$elf" \
			--format $f --jobs $j
		run "coverage TC2 $f j$j" coverage "$snaps/TC2" --id 13 \
			--format $f --jobs $j
	done
	for f in autofdo profgen; do
		run "fdo am243x $f j$j" fdo "$am" --elf "$elf" --format $f --jobs $j
	done
	for f in flat callgrind folded perfetto; do
		run "profile am243x $f j$j" profile "$am" --elf "$elf" \
			--format $f --jobs $j
		run "profile TC2 $f j$j" profile "$snaps/TC2" --format $f --jobs $j
	done
done
for d in TC2 trace_cov_a15 am243x-freertos-1; do
	run "info $d" info "$snaps/$d"
done
run "info sample" info "$root/examples/sample"

# synthetic snapshots, written by the old binary (and by the new one:
# the encoder must not change either)
i=0
while read -r opts; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	if ! "$old" synth "$work/s$i" --seed $i --insns 20000 $opts >/dev/null; then
		echo "synth failed: $opts" >&2
		exit 2
	fi
	# shellcheck disable=SC2086
	"$new" synth "$work/n$i" --seed $i --insns 20000 $opts >/dev/null 2>&1
	ncase=$((ncase + 1))
	if ! diff -r -q "$work/s$i" "$work/n$i" >/dev/null; then
		ndiff=$((ndiff + 1))
		echo "DIFFERS: synth $opts"
	fi
	forms "synth $opts" "$work/s$i"
	rm -rf "$work/s$i" "$work/n$i"
done <<'EOF'
--protocol ptm
--protocol etmv3
--protocol ptm --cycle-accurate --timestamps 64 --features all
--protocol etmv3 --cycle-accurate --timestamps 48 --features all
--protocol etmv3 --alt-branch --ctxid-bytes 4 --vmid --features all
--protocol ptm --ret-stack --ctxid-bytes 2 --features all
--protocol ptm --branch-broadcast --timestamps 48 --ts-gray --features all
--protocol etmv3 --format coresight --sources 3 --features all
--protocol ptm --format coresight --sources 4 --cycle-accurate
--protocol etmv3 --etm-version 3.3 --atoms single --features all
--protocol ptm --atoms random --full-addr --features all
--protocol etmv1
EOF
# ETMv1 sample files (the trace file of an ETMv1 synthetic snapshot, with
# its configuration and image given as options)
"$old" synth "$work/e1" --seed 7 --insns 20000 --protocol etmv1 >/dev/null
e1=("$work/e1/trace.bin" --protocol etmv1 --etmccr 0x30000000 --etmcr 0x10
	--image "$work/e1/mem_0_0.bin@0" --image "$work/e1/mem_0_1.bin@0x10000")
run "etmv1 file info" info "$work/e1/trace.bin"
run "etmv1 file packets" packets "${e1[@]}"
for f in text canon jsonl; do
	run "etmv1 file $f" decode "${e1[@]}" --format $f
done
stats=1 run "etmv1 file stats" decode "${e1[@]}" --stats
run "etmv1 file coverage" coverage "${e1[@]}" --format insns
run "etmv1 file profile" profile "${e1[@]}" --format folded
echo "$ncase cases, $ndiff differ"
[ $ndiff = 0 ]
