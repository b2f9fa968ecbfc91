#!/usr/bin/env bash
# tests/cli/test-jobs-refs.sh - text staged by reference (doc/performance.md,
# "Parallel decode"): a worker formatting ahead of its turn stages
# references to the range cache's text, which must stay put until written.
# A raw PTM trace over a program of 65536 one-instruction ranges (A32 "b"
# to the next instruction, every atom E) in windows of 1000 ranges, each
# window traced twice (the second time from the range cache) and moving on
# by 500: the distinct ranges exceed the range cache's 2048 slots and the
# arena's 4 MiB, so cached texts are evicted and arena blocks reused while
# staged pieces point into them. The listing of --jobs 2, 3 and 8 equals
# --jobs 1's, and its instruction addresses are those the windows give
# (derived here from the trace's construction). And ranges whose cached
# last line carries a symbol: a real capture with its ELF, several chunks.
set -u
fail=0
check() { if eval "$1"; then echo "ok   $2"; else echo "FAIL: $2"; fail=$((fail + 1)); fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

/usr/bin/python3 - "$tmp" <<'PY' || exit 1
import struct, sys
d = sys.argv[1]
N, BASE, W, STEP, SWEEPS = 1 << 16, 0x100000, 1000, 500, 4
open(d + "/prog.bin", "wb").write(struct.pack("<I", 0xeaffffff) * N)
t = bytearray()
addrs = []
for s in range(SWEEPS):
    for w in range(0, N - W, STEP):
        for p in range(2):
            t += b"\x00\x00\x00\x00\x00\x80"  # A-sync
            # I-sync: the window's first address, ARM, tracing enabled
            t += b"\x08" + struct.pack("<I", BASE + 4 * w) + b"\x21"
            t += b"\xc0" * (W // 5)  # five E atoms a byte
            addrs += ["%08x" % (BASE + 4 * (w + i)) for i in range(W)]
open(d + "/trace.bin", "wb").write(t)
open(d + "/addrs", "w").write("\n".join(addrs) + "\n")
PY
args=("$tmp/trace.bin" --input-format raw --protocol ptm --etmidr 0x411CF312
	--etmccer 0x34C01AC2 --etmcr 0 --image "$tmp/prog.bin@0x100000")
"$ETMTRACE" decode "${args[@]}" --jobs 1 > "$tmp/j1"
check "[ $? -eq 0 ]" "decode --jobs 1"
awk '$2 == "A32" && $3 == "eaffffff" { print $1 }' "$tmp/j1" > "$tmp/got"
check "cmp -s '$tmp/got' '$tmp/addrs'" "--jobs 1: $(wc -l < "$tmp/got") instructions, the windows' addresses"
ref=$(md5sum < "$tmp/j1")
for j in 2 3 8; do
	got=$("$ETMTRACE" decode "${args[@]}" --jobs $j | md5sum)
	check "[ '$ref' = '$got' ]" "--jobs $j = --jobs 1"
done
if [ -w /dev/full ]; then
	check "'$ETMTRACE' decode ${args[*]} --jobs 2 > /dev/full 2> /dev/null; [ \$? -eq 2 ]" \
	      "--jobs 2 > /dev/full: exit 2"
fi

# cached ranges whose last line carries a symbol (func+0xoff after E/N):
# the am243x capture with its ELF, the 64 KiB buffer four times over
# (several chunks; the seams lose sync, as in test-jobs.sh's TC2)
am=${ETM_SHARED:-}/snapshots/am243x-freertos-1
skipped=0
if [ -n "${ETM_SHARED:-}" ] && [ -f "$am/etb.bin" ]; then
	mkdir "$tmp/am"
	cp "$am"/*.ini "$am"/mem_*.bin "$tmp/am/"
	for i in 1 2 3 4; do cat "$am/etb.bin"; done > "$tmp/am/etb.bin"
	ref=$("$ETMTRACE" decode "$tmp/am" --elf "$am/freertos.out" --jobs 1 2>&1 | md5sum)
	for j in 2 3 8; do
		got=$("$ETMTRACE" decode "$tmp/am" --elf "$am/freertos.out" --jobs $j 2>&1 | md5sum)
		check "[ '$ref' = '$got' ]" "am243x --elf --jobs $j = --jobs 1"
	done
else
	echo "SKIP am243x part: ETM_SHARED not set or the capture missing"
	skipped=1
fi
echo "$fail failure(s)"
[ $fail -eq 0 ] || exit 1
[ $skipped -eq 0 ] || exit 77
