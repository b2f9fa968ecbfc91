#!/bin/bash
# tests/cov/test-cov-fnda-inside.sh - lcov FNDA of a function the capture
# began inside: it ran, so it was called at least once (doc/coverage.md:
# the entries seen, or 1 where execution was seen without its entry).
#
# The program below, built for A32 with -O1, has no conditional code:
#   twice  0x8000, 6 instructions (0x18 bytes)     line 2
#   thrice 0x8018, 7 instructions (0x1c)           line 3
#   idle   0x8034, 7 instructions, never called    line 4
#   _start 0x8050: push {r4, lr}; movw r4; movt r4; then the loop
#          0x805c ldr; bl thrice; bl twice; str; b 0x805c   line 5
# mkcovtrace walks it from 0x8054 (inside _start: its first instruction,
# the push, never executes) for 183 instructions: 2 (movw, movt), then
# 10 loop iterations of 2 + 7 + 1 + 6 + 2 = 18 (180), then ldr and the
# 11th bl thrice (whose target is not reached). By hand:
#   FN:2,twice FN:3,thrice FN:4,idle FN:5,_start
#   FNDA:10,twice FNDA:10,thrice FNDA:0,idle
#   FNDA:1,_start  (ran, entry not traced; was 0 = "not called")
# The same for ETMv3 and PTM. Exit 77 (skip) when a tool is missing.
set -u
: "${ETMTRACE:?}" "${MKCOVTRACE:?}"
for t in arm-none-eabi-gcc arm-none-eabi-nm; do
	command -v $t >/dev/null || { echo "$t missing: skip"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp"
cat > p.c <<'C'
volatile int sink;
__attribute__((noinline)) int twice(int x) { sink = x; return x * 2 + sink; }
__attribute__((noinline)) int thrice(int x) { sink = x; return x * 3 + sink; }
__attribute__((noinline)) int idle(int x) { sink = x; return x * 5 + sink; }
void _start(void) { for (;;) sink = twice(thrice(sink)); }
C
arm-none-eabi-gcc -marm -mcpu=cortex-a9 -O1 -gdwarf-4 -ffreestanding \
	-nostdlib -nostartfiles -Wl,-Ttext=0x8000 -Wl,-e,_start -o p.elf p.c || exit 1
# the layout the derivation above assumes
arm-none-eabi-nm -S p.elf | awk '$3 == "T" { print $1, $2, $4 }' | sort > layout
printf '%s\n' "00008000 00000018 twice" "00008018 0000001c thrice" \
	"00008034 0000001c idle" "00008050 00000020 _start" > want_layout
if ! cmp -s layout want_layout; then
	echo "FAIL: the compiler laid the program out differently:"; cat layout
	exit 1
fi
cat > want <<'W'
FN:2,twice
FN:3,thrice
FN:4,idle
FN:5,_start
FNDA:10,twice
FNDA:10,thrice
FNDA:0,idle
FNDA:1,_start
FNF:4
FNH:3
W
for p in etmv3 ptm; do
	"$MKCOVTRACE" p.elf 0x8054 $p 1 183 $p.bin - || { fail=1; continue; }
	"$ETMTRACE" coverage $p.bin --protocol $p --elf p.elf --format lcov \
		> $p.info 2> $p.err || { echo "FAIL: $p coverage"; cat $p.err; fail=1; }
	grep -E '^(FN|FNDA|FNF|FNH):' $p.info > got
	if cmp -s want got; then
		echo "ok   $p FN/FNDA"
	else
		echo "FAIL $p FN/FNDA:"; diff want got; fail=1
	fi
done
exit $fail
