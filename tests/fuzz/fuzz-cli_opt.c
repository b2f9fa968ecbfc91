/* tests/fuzz/fuzz-cli_opt.c - fuzz target for the CLI option parser
 * (cli/opt.c): the input, split at NUL bytes, is the argument list after
 * the subcommand (at most 64 arguments). Invariants: a successful parse
 * leaves every value in its documented range (IDs distinct, 0x01-0x6f;
 * addresses 32-bit; jobs, chunk); every argument read as a number agrees
 * with an independent reading of the grammar (decimal without leading
 * zeros or 0x hex, or hex with 0x optional; no sign, space or overflow). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "opt.h"

#define MAX_ARGS 64

static const char all_opts[] =
	"id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,"
	"image,elf,stats,no-cache,jobs,chunk,verify,allow-outside";

/* The grammar, read with strspn and strtoull rather than cli/opt.c's own
 * digit loop. Returns 0 with *v, or -1. */
static int model_num(const char *s, int hex, uint64_t *v)
{
	int pfx = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = pfx ? s + 2 : s;
	int base = pfx || hex ? 16 : 10;
	size_t n = strlen(d);

	if (!n || strspn(d, base == 16 ? "0123456789abcdefABCDEF" :
					 "0123456789") != n)
		return -1;
	if (base == 10 && d[0] == '0' && n > 1)
		return -1;
	errno = 0;
	*v = strtoull(d, NULL, base);
	return errno == ERANGE ? -1 : 0;
}

static void check_number(const char *s)
{
	uint64_t a = 0, b = 0;
	int hex, ra, rb;

	for (hex = 0; hex < 2; hex++) {
		fz_quiet(1);
		ra = opt_uint("fuzz", "n", s, hex, 0, UINT64_MAX, &a);
		fz_quiet(0);
		rb = model_num(s, hex, &b);
		FZ_ASSERT(ra == rb && (ra < 0 || a == b));
		fz_quiet(1);
		ra = opt_uint("fuzz", "n", s, hex, 1, 0x6f, &a);
		fz_quiet(0);
		FZ_ASSERT(ra == (rb < 0 || b < 1 || b > 0x6f ? -1 : 0));
	}
}

static void check_opts(const struct opts *o)
{
	int i, k;

	FZ_ASSERT(o->input);
	FZ_ASSERT(o->nids >= 0 && o->nids <= 0x6f);
	for (i = 0; i < o->nids; i++) {
		FZ_ASSERT(o->ids[i] >= 1 && o->ids[i] <= 0x6f);
		for (k = 0; k < i; k++)
			FZ_ASSERT(o->ids[k] != o->ids[i]);
	}
	FZ_ASSERT(o->nimages >= 0 && o->nimages <= OPT_MAX_FILES);
	FZ_ASSERT(o->nelfs >= 0 && o->nelfs <= OPT_MAX_FILES);
	for (i = 0; i < o->nimages; i++)
		FZ_ASSERT(o->images[i].path && o->images[i].addr <= 0xffffffffu);
	for (i = 0; i < o->nelfs; i++)
		FZ_ASSERT(o->elfs[i].path && o->elfs[i].addr <= 0xffffffffu);
	FZ_ASSERT(o->jobs >= 0 && o->jobs <= 256);
	FZ_ASSERT(o->chunk >= 0 && o->chunk <= (1 << 30));
	FZ_ASSERT((unsigned)o->proto <= 2 && (unsigned)o->infmt <= 3);
	FZ_ASSERT(!o->format || !strcmp(o->format, "text") ||
		  !strcmp(o->format, "jsonl") || !strcmp(o->format, "canon"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[MAX_ARGS];
	struct opts o;
	size_t i, start = 0;
	int argc = 0, r;

	FZ_ASSERT(copy);
	memcpy(copy, data, size);
	copy[size] = 0;
	for (i = 0; i <= size && argc < MAX_ARGS; i++)
		if (i == size || !copy[i]) {
			argv[argc++] = copy + start;
			start = i + 1;
		}
	for (r = 0; r < argc; r++)
		check_number(argv[r]);
	memset(&o, 0, sizeof(o));
	o.cmd = "fuzz";
	fz_quiet(1);
	r = opt_parse(&o, argc, argv, all_opts);
	fz_quiet(0);
	FZ_ASSERT(r >= -1 && r <= 1);
	if (r == 0)
		check_opts(&o);
	free(copy);
	return 0;
}
