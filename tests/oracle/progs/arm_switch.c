/* tests/oracle/progs/arm_switch.c - A32: dense switch (jump table through
 * LDR pc), recursion, conditional execution. */
#include "rt.h"

static volatile unsigned seed = 12345;

__attribute__((noinline)) static unsigned op(unsigned k, unsigned x)
{
	switch (k) {
	case 0: return x + 1;
	case 1: return x ^ 0x5a5a;
	case 2: return x * 3;
	case 3: return x >> 1;
	case 4: return x - 7;
	case 5: return x << 2;
	case 6: return ~x;
	case 7: return x | 0x100;
	case 8: return x & 0xfff0;
	case 9: return x + (x >> 3);
	default: return x;
	}
}

__attribute__((noinline)) static unsigned fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
	unsigned x = seed, i;

	for (i = 0; i < 12000; i++) {
		x = op(x % 11, x);
		if (x & 1)
			x += i;
	}
	x += fib(18);
	put_hex(x);
	return 0;
}
