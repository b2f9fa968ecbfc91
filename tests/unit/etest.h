/* tests/unit/etest.h - a tiny unit-test harness: checks that report file and
 * line with both values, and a runner that prints "N passed, M failed". */
#ifndef ETM_TESTS_ETEST_H
#define ETM_TESTS_ETEST_H

#include <stdint.h>
#include <stdio.h>

struct etest_state {
	int failed_checks;
};
extern struct etest_state etest_cur;

void etest_run(const char *name, void (*fn)(void));
/* A part of the test cannot run (its data or tool is missing): printed,
 * and etest_end() then returns 77 (ctest: skipped) unless a check failed. */
void etest_skip(const char *why);
/* Print the summary line; returns the process exit status: 1 if a check
 * failed, else 77 if a part was skipped, else 0. */
int etest_end(void);
/* The test data directory when $ETM_SHARED is unset: the build's
 * unpacked tests/data (CMake defines ETM_TESTDATA). */
#ifndef ETM_TESTDATA
#define ETM_TESTDATA "testdata"
#endif
/* Path of a file under the test data directory ($ETM_SHARED or
 * ETM_TESTDATA); returns NULL (and the test should skip) if it is missing. */
const char *etest_shared(const char *rel, char *buf, size_t n);
/* Assemble @asm_text (GNU as syntax) with arm-none-eabi-as and link it at
 * 0x8000 with arm-none-eabi-ld into @dir/p.elf (@dir: an existing
 * directory; p.s and p.o are left there too). Returns 0, 77 if the tools
 * are missing (the caller skips), -1 if they failed. */
int etest_arm_elf(const char *dir, const char *asm_text);
void etest_fail_msg(const char *file, int line, const char *expr,
		    unsigned long long a, unsigned long long b);

#define ET_CHECK(c)                                                   \
	do {                                                          \
		if (!(c)) {                                           \
			etest_fail_msg(__FILE__, __LINE__, #c, 0, 0); \
			return;                                       \
		}                                                     \
	} while (0)

#define ET_EQ(a, b)                                                      \
	do {                                                             \
		unsigned long long et_a_ = (unsigned long long)(a);      \
		unsigned long long et_b_ = (unsigned long long)(b);      \
		if (et_a_ != et_b_) {                                    \
			etest_fail_msg(__FILE__, __LINE__, #a " == " #b, \
				       et_a_, et_b_);                    \
			return;                                          \
		}                                                        \
	} while (0)

#define ETEST(fn) etest_run(#fn, fn)

/* A text buffer the library's writers (etm_write_fn) append to: pass
 * etest_sink_write with a zeroed struct etest_sink as its context. The
 * text stays NUL-terminated; more than fits fails the write with
 * -etme_nomem, and call number @fail_at (counted in @calls; 0: none)
 * fails with -etme_io. */
struct etest_sink {
	char buf[16384];
	size_t len;
	int calls, fail_at;
};
int etest_sink_write(void *ctx, const char *s, size_t n);

/* A growing text the library's writers append to: pass etest_text_put
 * with a zeroed struct etest_text (free .s after). With @fail_at > 0 the
 * write that would reach that many bytes fails with -5 (an error of the
 * caller's own). Out of memory: -1. */
struct etest_text {
	char *s;
	size_t n, cap;
	size_t fail_at;
};
int etest_text_put(void *ctx, const char *s, size_t n);

/* Bytes in memory read by the library's read callback (etmtrace/chunk.h,
 * etm_decoder_run()): pass etest_mem_read with a struct etest_mem as its
 * context. Reads past the end return what is left (0 at the end). */
struct etest_mem {
	const uint8_t *b;
	size_t n;
};
size_t etest_mem_read(void *ctx, uint64_t off, uint8_t *buf, size_t n);

#endif
