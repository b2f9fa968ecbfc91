/* tests/fuzz/linear.h - linear-time checks without absolute timings: a
 * piece of work at sizes 1 and 4 is repeated (doubling the repetitions)
 * until the size-1 run takes at least 50 ms, so that timer resolution and
 * start-up costs do not blur the ratio; then 4x the input may take at most
 * 8x the time (linear: 4x, quadratic: 16x; n log n work over tables that
 * outgrow the caches at 4x was seen at 6.28x on a quiet machine, so the
 * bound sits halfway between linear and quadratic, not at 6x). Times are the process's user
 * CPU time (other processes on a shared machine do not count, nor the
 * kernel's page-fault work for large allocations), each the minimum of 5
 * runs (noise only ever adds time). */
#ifndef ETM_TESTS_FUZZ_LINEAR_H
#define ETM_TESTS_FUZZ_LINEAR_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define LIN_FLOOR 0.05 /* seconds: least time of the size-1 run */
#define LIN_RATIO 8.0  /* 4x the input: at most this much the time */

/* Freed memory stays in the process: glibc returns blocks above its mmap
 * threshold (128 KiB, raised by frees up to 32 MiB) to the kernel at free,
 * so each repetition of the 4x work faults its pages in again where the 1x
 * work reuses the heap. Where a page fault is costly and charged partly as
 * user time (a VM seen at 12-14 us a fault, 45% of it user time), that alone
 * made 4x the input take 14x the time: the allocator and the machine, not
 * the loader. With both thresholds high, both sizes reuse their memory and
 * only the work is timed. (ASan's allocator ignores these settings.) */
static inline void lin_keep_heap(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

/* Do the work at size @scale (1 or 4) @reps times. */
typedef void (*lin_fn)(void *ctx, unsigned scale, unsigned reps);

static inline double lin_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
}

static inline double lin_min(lin_fn f, void *ctx, unsigned scale,
			     unsigned reps)
{
	double best = 1e30, t;
	int k;

	for (k = 0; k < 5; k++) {
		t = lin_now();
		f(ctx, scale, reps);
		t = lin_now() - t;
		if (t < best)
			best = t;
	}
	return best;
}

/* 1 if @f is linear by the rule above; prints the figures when they fail
 * or with ETM_LIMITS_VERBOSE set. */
static inline int lin_check(const char *what, lin_fn f, void *ctx)
{
	unsigned reps = 1;
	double base, big;
	int ok;

	lin_keep_heap();
	base = lin_min(f, ctx, 1, reps);

	while (base < LIN_FLOOR && reps < (1u << 20)) {
		reps *= base > 0.005 ? 2 : 8;
		base = lin_min(f, ctx, 1, reps);
	}
	big = lin_min(f, ctx, 4, reps);
	ok = base >= LIN_FLOOR && big <= LIN_RATIO * base;
	if (!ok || getenv("ETM_LIMITS_VERBOSE"))
		printf("  %s: x%u: 1x %.3f s, 4x %.3f s, ratio %.2f (max %.1f)\n",
		       what, reps, base, big, big / base, LIN_RATIO);
	return ok;
}

#endif
