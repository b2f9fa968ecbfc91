/* tests/oracle/progs/ldm_pop.c - returns by LDM/POP with pc (functions
 * saving many registers), calls through pointers, a small sort. Built
 * for A32 and for T32. */
#include "rt.h"

static volatile unsigned seed = 99;
static unsigned arr[200];

__attribute__((noinline)) static unsigned heavy(unsigned a, unsigned b,
						unsigned c, unsigned d)
{
	unsigned r4 = a * b, r5 = b ^ c, r6 = c + d, r7 = d - a;
	unsigned r8 = r4 + r5, r9 = r6 ^ r7, r10 = r8 * 3 + r9;

	return r4 + r5 + r6 + r7 + r8 + r9 + r10;
}

__attribute__((noinline)) static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

__attribute__((noinline)) static void isort(unsigned *v, int n,
					    int (*c)(const void *, const void *))
{
	int i, j;

	for (i = 1; i < n; i++) {
		unsigned t = v[i];

		for (j = i; j > 0 && c(&v[j - 1], &t) > 0; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

int main(void)
{
	unsigned x = seed, i, s = 0;

	for (i = 0; i < 200; i++) {
		x = x * 1103515245u + 12345u;
		arr[i] = x >> 8;
	}
	isort(arr, 200, cmp);
	for (i = 0; i < 5000; i++)
		s += heavy(i, s, arr[i % 200], x);
	put_hex(s + arr[0] + arr[199]);
	return 0;
}
