/* tests/unit/etest.c - runner and reporting for the unit-test harness. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/error.h>

#include "etest.h"

struct etest_state etest_cur;
static int passed, failed, skipped;

void etest_skip(const char *why)
{
	printf("SKIP %s\n", why);
	skipped++;
}

void etest_fail_msg(const char *file, int line, const char *expr,
		    unsigned long long a, unsigned long long b)
{
	fprintf(stderr, "%s:%d: check failed: %s (0x%llx vs 0x%llx)\n", file,
		line, expr, a, b);
	etest_cur.failed_checks++;
}

void etest_run(const char *name, void (*fn)(void))
{
	etest_cur.failed_checks = 0;
	fn();
	if (etest_cur.failed_checks) {
		failed++;
		printf("FAIL %s\n", name);
	} else {
		passed++;
		printf("ok   %s\n", name);
	}
}

int etest_end(void)
{
	printf("%d passed, %d failed", passed, failed);
	if (skipped)
		printf(", %d parts skipped (missing data or tool)", skipped);
	printf("\n");
	/* 77: ctest's SKIP_RETURN_CODE, so that a skip is seen (CI fails) */
	return failed ? 1 : skipped ? 77 :
				      0;
}

const char *etest_shared(const char *rel, char *buf, size_t n)
{
	const char *base = getenv("ETM_SHARED");
	struct stat st;

	if (!base)
		base = ETM_TESTDATA;
	snprintf(buf, n, "%s/%s", base, rel);
	if (stat(buf, &st) != 0)
		return NULL;
	return buf;
}

int etest_arm_elf(const char *dir, const char *asm_text)
{
	char path[512], cmd[2200];
	FILE *f;
	size_t n = strlen(asm_text);

	if (system("command -v arm-none-eabi-as >/dev/null && "
		   "command -v arm-none-eabi-ld >/dev/null"))
		return 77;
	snprintf(path, sizeof(path), "%s/p.s", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fwrite(asm_text, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	if (fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "arm-none-eabi-as -o '%s/p.o' '%s' && arm-none-eabi-ld "
		 "-Ttext=0x8000 -e 0x8000 -o '%s/p.elf' '%s/p.o'",
		 dir, path, dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

int etest_sink_write(void *ctx, const char *s, size_t n)
{
	struct etest_sink *k = ctx;

	if (++k->calls == k->fail_at)
		return -etme_io;
	if (k->len + n >= sizeof(k->buf))
		return -etme_nomem;
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = 0;
	return 0;
}

int etest_text_put(void *ctx, const char *s, size_t n)
{
	struct etest_text *t = ctx;

	if (t->fail_at && t->n + n >= t->fail_at)
		return -5;
	if (t->n + n > t->cap) {
		size_t cap = (t->n + n) * 2;
		char *p = realloc(t->s, cap);

		if (!p)
			return -1;
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	return 0;
}

size_t etest_mem_read(void *ctx, uint64_t off, uint8_t *buf, size_t n)
{
	const struct etest_mem *in = ctx;

	if (off >= in->n)
		return 0;
	if (n > in->n - off)
		n = (size_t)(in->n - off);
	memcpy(buf, in->b + off, n);
	return n;
}
