/* tests/cov/prog.c - the coverage test program: small functions with known
 * conditional branches (if/else, loops, early returns, a switch without a
 * jump table), built for 32-bit Arm by tests/cov/test-cov-gen.sh and run
 * only by the execution generator (etm_gen_alloc_image), which picks every
 * condition's outcome. No library, no start files: _start is the entry. */
volatile int sink;

__attribute__((noinline)) static int sign(int x)
{
	if (x < 0)
		return -1;
	if (x > 0)
		return 1;
	return 0;
}

__attribute__((noinline)) static int clamp(int x, int lo, int hi)
{
	if (x < lo)
		x = lo;
	else if (x > hi)
		x = hi;
	return x;
}

__attribute__((noinline)) static int classify(int c)
{
	switch (c) {
	case 1:
		return 10;
	case 2:
		return 20;
	case 7:
		return 70;
	default:
		break;
	}
	return 0;
}

__attribute__((noinline)) static int sum_to(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++) {
		if (i & 1)
			s += i;
		else
			s -= sign(i - 3);
	}
	return s;
}

__attribute__((noinline)) static int never_called(int x)
{
	if (x == 42)
		return x * 2;
	return x + 1;
}

/* Referenced by nothing: its code is never executed. */
int unused_fn(int x)
{
	if (x > 2)
		return 1;
	return 2;
}

__attribute__((noinline)) int work(int x)
{
	int r = clamp(x, -5, 5);

	r += classify(x & 7);
	if (r > 3)
		r += sum_to(r);
	if (x == 12345)
		r += never_called(x);
	return r;
}

void _start(void)
{
	for (;;)
		sink = work(sink);
}
