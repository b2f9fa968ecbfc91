#!/usr/bin/env bash
# tests/snapshot/test-infer_shared.sh - detection and
# inference measured on every shared snapshot: its trace file decoded with
# no options but --elf / --image (the snapshot's memory, or the program's
# ELF) gives the same listing - every instruction, exception, timestamp and
# cycle count of every source - as the snapshot decode with its registers.
set -u
: "${ETMTRACE:?}" "${ETM_SHARED:?}"
S=$ETM_SHARED/snapshots
for f in TC2/cstrace.bin am243x-freertos-1/freertos.out trace_cov_a15/PTM_0_2.bin; do
	[ -e "$S/$f" ] || { echo "skip: $S/$f missing"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# With --elf the listing also names functions (issue 16: " <func+0x..>"
# targets, a trailing "func+0x.." column) where the snapshot side, whose
# dumps are raw memory, has no symbols: compare without those annotations.
nosym() { sed -E 's/ <[^ >]+>//; s/  [^ ]+\+0x[0-9a-f]+$//; s/ +$//' "$1" | tr -s ' '; }
fail=0
# same NAME SNAPSHOT TRACE-FILE IMAGE-OPTIONS...
same() {
	local name=$1 snap=$2 file=$3 n; shift 3
	"$ETMTRACE" decode "$snap" --jobs 1 > "$tmp/snap" 2>/dev/null
	"$ETMTRACE" decode "$file" "$@" --jobs 1 > "$tmp/file" 2> "$tmp/err"
	n=$(grep -c '^\(\[0x..\]\)\? *[0-9a-f]\{8\}  ' "$tmp/snap")
	nosym "$tmp/snap" > "$tmp/snap.n"; nosym "$tmp/file" > "$tmp/file.n"
	if [ "$n" -gt 0 ] && cmp -s "$tmp/snap.n" "$tmp/file.n"; then
		echo "ok   $name: $n instructions, listing identical; $(grep -c 'configuration inferred' "$tmp/err") sources inferred"
		grep 'note:' "$tmp/err" | sed 's/^/     /'
	else
		echo "FAIL: $name: listing differs ($n instructions in the snapshot's)"
		diff "$tmp/snap.n" "$tmp/file.n" | head -5; cat "$tmp/err"
		fail=$((fail + 1))
	fi
}
same TC2 "$S/TC2" "$S/TC2/cstrace.bin" --image "$S/TC2/kernel_dump.bin@0xc0008000"
same am243x-freertos-1 "$S/am243x-freertos-1" "$S/am243x-freertos-1/etb.bin" \
	--elf "$S/am243x-freertos-1/freertos.out"
c=$S/trace_cov_a15
imgs=()
while read -r addr file; do imgs+=(--image "$c/$file@$addr"); done < <(
	awk -F= '/^\[dump/{a=""} /^address=/{a=$2} /^file=/{f=$2} a && f {print a, f; a=""; f=""}' "$c/device1.ini")
same trace_cov_a15 "$c" "$c/PTM_0_2.bin" "${imgs[@]}"
[ $fail -eq 0 ] && echo "inference matches every shared snapshot" || echo "$fail snapshots differ"
exit $((fail != 0))
