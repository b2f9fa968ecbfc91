#!/usr/bin/env bash
# tests/cli/test-jobs_damaged.sh - heavily damaged CoreSight input
# (TC2's buffer x8 with 100 random bit flips, byte deletions and
# insertions: frame realignments, reserved IDs, lost syncs) decodes
# byte-identically with --jobs 1, 2, 3 and 8 (--id 0x10: 1 and 8) (the parallel runner cuts at
# frame boundaries that the damage shifted; a chunk's decoder converges with
# its predecessor's only in equal states, realignment state included), and
# with --chunk 4096 and 1000 (the input pushed in pieces): where the input is
# cut must not change what the deformatter decides. Seed 1 made --jobs 3
# and 8 differ, seed 3 --jobs 4 and --chunk 4096: a realignment's rewind
# kept a suspect frame the fast path had met reading ahead, and realigned
# again where the fast path next took over, a place set by the cuts. Seed 6
# with --chunk 1000 (cuts inside frames): a realignment backs up to the
# frame before the suspect one also where that frame was completed across
# a cut. Seeds 2, 5, 7 and 9 (--chunk 1000 and 4096, --jobs 2 and 8): the
# data of the frame before a suspect one had gone out where an input
# ended (now held back until the next frame is judged), a rewind kept the
# end of data it read again, and a suspect frame completed across a cut
# was judged from itself; seed 7 --id 0x10 --jobs 8 was nondeterministic
# (a decoder converged with a chunk's although one of them had found an
# ID in the input that the other still took for damage).
. "$(dirname "$0")/lib.sh"
tc2=${ETM_SHARED:-}/snapshots/TC2
[ -f "$tc2/cstrace.bin" ] || { echo "SKIP: TC2 missing"; exit 77; }
mkdir "$tmp/d"
cp "$tc2"/*.ini "$tc2"/kernel_dump.bin "$tmp/d/"
for seed in 1 2 3 5 6 7 9; do
	$PY - "$tc2/cstrace.bin" "$tmp/d/cstrace.bin" $seed <<'EOT'
import random, sys
b = bytearray(open(sys.argv[1], 'rb').read() * 8)
r = random.Random(int(sys.argv[3]))
for _ in range(100):
    p, k = r.randrange(len(b)), r.randrange(3)
    if k == 0: b[p] ^= 1 << r.randrange(8)
    elif k == 1: del b[p:p + r.randrange(1, 16)]
    else: b[p:p] = bytes(r.randrange(256) for _ in range(r.randrange(1, 16)))
open(sys.argv[2], 'wb').write(bytes(b))
EOT
	for args in "--format jsonl" "--id 0x10 --format canon"; do
		"$ETMTRACE" decode "$tmp/d" $args --jobs 1 > "$tmp/ref" 2>&1
		# (fewer with --id 0x10: affordable under ASan)
		jobs="2 3 8" cuts="4096 1000"
		[ "$args" != "--format jsonl" ] && jobs=8 cuts=1000
		[ $seed = 7 ] && jobs="$jobs 8 8"
		for j in $jobs; do
			"$ETMTRACE" decode "$tmp/d" $args --jobs $j > "$tmp/got" 2>&1
			check "cmp -s '$tmp/ref' '$tmp/got'" "seed $seed $args: --jobs $j = --jobs 1"
		done
		for c in $cuts; do
			"$ETMTRACE" decode "$tmp/d" $args --jobs 1 --chunk $c > "$tmp/got" 2>&1
			check "cmp -s '$tmp/ref' '$tmp/got'" "seed $seed $args: --chunk $c = one read"
		done
	done
done
check "grep -q frame_align '$tmp/ref' || '$ETMTRACE' decode '$tmp/d' --format jsonl 2>/dev/null | grep -q frame_align" "the damage makes realignments"
finish
