/* tests/oracle/progs/thumb_it.c - T32: IT blocks (conditional selects and
 * stores), TBB/TBH switch tables, CBZ/CBNZ, loops. */
#include "rt.h"

static volatile int seed = 77;
static int buf[64];

__attribute__((noinline)) static int clamp(int v, int lo, int hi)
{
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return v;
}

__attribute__((noinline)) static int sel(int k, int x)
{
	switch (k) {
	case 0: return x + 3;
	case 1: return x - 5;
	case 2: return x * 7;
	case 3: return x / 3;
	case 4: return x ^ 0x33;
	case 5: return -x;
	case 6: return x + k;
	case 7: return x >> 2;
	case 8: return x << 1;
	case 9: return x & 0x7f;
	case 10: return x | 0x40;
	case 11: return x % 5;
	default: return 0;
	}
}

int main(void)
{
	int x = seed, i, s = 0;

	for (i = 0; i < 15000; i++) {
		x = sel((unsigned)x % 13, x);
		x = clamp(x, -1000, 100000);
		if (x & 2)
			buf[i & 63] = x;
		else if (x & 4)
			buf[(i + 1) & 63] = -x;
		s += buf[i & 63] ? 1 : 2;
	}
	put_hex((unsigned)(x + s));
	return 0;
}
