/* tests/oracle/progs/interwork.c - A32 and T32 functions calling each
 * other: BLX immediate, BX/BLX register through function pointers,
 * returns that change state. Built with -mthumb; "arm" functions A32. */
#include "rt.h"

typedef unsigned (*fn)(unsigned);

__attribute__((noinline, target("arm"))) static unsigned a_inc(unsigned x)
{
	return x + 1;
}

__attribute__((noinline, target("thumb"))) static unsigned t_dbl(unsigned x)
{
	return x * 2 + (x >> 7);
}

__attribute__((noinline, target("arm"))) static unsigned a_mix(unsigned x)
{
	return t_dbl(x) ^ a_inc(x >> 3);
}

__attribute__((noinline, target("thumb"))) static unsigned t_mix(unsigned x)
{
	return a_mix(x) + a_inc(x);
}

static fn const table[4] = { a_inc, t_dbl, a_mix, t_mix };
static volatile unsigned seed = 3;

int main(void)
{
	unsigned x = seed, i;

	for (i = 0; i < 20000; i++)
		x = table[(x >> 2) & 3](x) & 0xffffff;
	put_hex(x);
	return 0;
}
