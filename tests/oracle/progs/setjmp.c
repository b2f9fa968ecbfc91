/* tests/oracle/progs/setjmp.c - non-local exits: __builtin_setjmp /
 * __builtin_longjmp out of a recursion (restores sp and jumps through a
 * register), plus the recursion's own returns. */
#include "rt.h"

static void *env[5];
static volatile unsigned depth_limit = 24;
static unsigned hits;

__attribute__((noinline)) static void dive(unsigned d, unsigned x)
{
	if (d >= depth_limit || (x % 97) == 0)
		__builtin_longjmp(env, 1);
	dive(d + 1, x * 31 + d);
	hits++; /* never reached: the longjmp leaves first */
}

__attribute__((noinline)) static unsigned acker(unsigned m, unsigned n)
{
	if (!m)
		return n + 1;
	if (!n)
		return acker(m - 1, 1);
	return acker(m - 1, acker(m, n - 1));
}

int main(void)
{
	unsigned i, s = 0;

	for (i = 1; i < 1500; i++) {
		if (__builtin_setjmp(env) == 0)
			dive(0, i);
		else
			s += i;
	}
	s += acker(2, 12);
	put_hex(s + hits);
	return 0;
}
