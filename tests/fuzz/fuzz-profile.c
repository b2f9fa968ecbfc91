/* tests/fuzz/fuzz-profile.c - fuzz target for the symbols library: mode 0
 * loads the input as a symbol file and checks the lookup table (sorted,
 * non-overlapping, every find inside its function); mode 1 turns the input
 * into a stream of elements (ranges, exceptions, returns, contexts, gaps,
 * from any source, over an image of input bytes) for a profile with a
 * timeline, and checks that every report accounts for every instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/profile.h>
#include <etmtrace/symbols.h>

#include "fuzz.h"

static char sym_path[64];

static void sym_cleanup(void)
{
	unlink(sym_path);
}

static void symfile_mode(const uint8_t *p, size_t n)
{
	struct etm_symbols *s = etm_symbols_alloc();
	struct etm_sym y, prev = { 0 };
	size_t i, k;
	FILE *f;
	int fd;

	if (!sym_path[0]) {
		snprintf(sym_path, sizeof(sym_path), "/tmp/etmfz-sym.XXXXXX");
		fd = mkstemp(sym_path);
		FZ_ASSERT(fd >= 0);
		close(fd);
		atexit(sym_cleanup);
	}
	f = fopen(sym_path, "wb");
	FZ_ASSERT(f && s);
	FZ_ASSERT(fwrite(p, 1, n, f) == n);
	fclose(f);
	etm_symbols_add_file(s, sym_path, NULL, 0);
	for (i = 0; i < etm_symbols_count(s); i++) {
		FZ_ASSERT(etm_symbols_get(s, i, &y) == 0);
		FZ_ASSERT(y.start <= y.end && y.index == i);
		FZ_ASSERT(!i || prev.end <= y.start);
		for (k = 0; k < 3; k++) {
			uint64_t a = y.start + k * (y.end - y.start) / 3;

			FZ_ASSERT(y.end == y.start || etm_symbols_find(s, a) == (long)i);
		}
		prev = y;
	}
	etm_symbols_free(s);
}

static int count_out(void *ctx, const char *buf, size_t n)
{
	const char *c = buf;
	uint64_t *sum = ctx;
	size_t i;

	/* folded: the numbers after the last space of each line */
	for (i = 0; i < n; i++)
		sum[1] = c[i] == ' ' ? 0 : c[i] == '\n' ? (sum[0] += sum[1], 0) :
							  sum[1] * 10 + (uint64_t)(c[i] - '0');
	return 0;
}

static int drop_out(void *ctx, const char *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return 0;
}

/* One element from 12 input bytes. Addresses stay in 0x1000-0x13ff where
 * the symbols and the image are. */
static void fz_elem(struct fz_in *in, struct etm_elem *e)
{
	uint8_t k = fz_u8(in), f = fz_u8(in);
	uint32_t a = 0x1000 + ((uint32_t)fz_u8(in) << 2 | (fz_u8(in) & 3));
	uint32_t n = fz_u8(in) % 9;

	memset(e, 0, sizeof(*e));
	e->id = f & 3;
	e->kind = (enum etm_elem_kind)(1 + k % (etmk_num_kinds - 1));
	e->isa = f & 4 ? etmi_t32 : etmi_a32;
	e->start = a & (e->isa == etmi_a32 ? ~3u : ~1u);
	e->ninsn = n;
	e->end = e->start + n * (e->isa == etmi_a32 ? 4 : 2);
	e->last_size = e->isa == etmi_a32 ? 4 : 2;
	e->last_addr = n ? e->end - e->last_size : e->start;
	e->last_cls = (enum etm_insn_class)(f >> 4 & 7);
	e->last_link = f >> 3 & 1;
	e->last_exec = f >> 7;
	e->has_cycles = k >> 7;
	e->cycles = fz_u8(in);
	e->exc_num = fz_u8(in);
	e->has_ret = k >> 6 & 1;
	e->ret_addr = 0x1000 + ((uint32_t)fz_u8(in) << 2);
	e->has_ctxid = 1;
	e->ctxid = fz_u8(in) & 7;
	e->timestamp = fz_u8(in);
	e->reason = k >> 5 & 3;
}

static void profile_mode(const uint8_t *p, size_t n)
{
	struct etm_symbols *s = etm_symbols_alloc();
	struct etm_image *img = etm_image_alloc();
	struct etm_profile *pr;
	struct etm_prof_stats st;
	struct fz_in in = { p, n };
	const struct etm_prof_func *fn;
	uint64_t folded[2] = { 0, 0 }, self = 0;
	size_t i, nf;

	FZ_ASSERT(s && img);
	etm_symbols_add(s, 0x1000, 0x100, "a");
	etm_symbols_add(s, 0x1101, 0x80, "b");
	etm_symbols_add(s, 0x1200, 0, "c");
	etm_image_add_buffer(img, etm_space_any, 0x1000, p, n < 0x400 ? n : 0x400);
	pr = etm_profile_alloc(s);
	FZ_ASSERT(pr);
	etm_profile_add_source(pr, 0, img, 0);
	etm_profile_add_source(pr, 1, img, 1);
	etm_profile_set_lines(pr, 1);
	FZ_ASSERT(etm_profile_set_timeline(pr, drop_out, NULL, n && p[0] ? 1e6 : 0,
					   n > 1 && p[1] ? 1e9 : 0) == 0);
	while (in.n) {
		struct etm_elem e;

		fz_elem(&in, &e);
		FZ_ASSERT(etm_profile_elems(pr, &e, 1) == 0);
	}
	FZ_ASSERT(etm_profile_finish(pr) == 0);
	etm_profile_stats(pr, &st);
	FZ_ASSERT(etm_profile_write(pr, etm_prof_folded, NULL, count_out, folded) == 0);
	FZ_ASSERT(folded[0] == st.insns);
	FZ_ASSERT(etm_profile_funcs(pr, &fn, &nf) == 0);
	for (i = 0; i < nf; i++) {
		self += fn[i].self;
		FZ_ASSERT(fn[i].incl >= fn[i].self && fn[i].incl <= st.insns);
	}
	FZ_ASSERT(self == st.insns);
	FZ_ASSERT(etm_profile_write(pr, etm_prof_flat, NULL, drop_out, NULL) == 0);
	FZ_ASSERT(etm_profile_write(pr, etm_prof_callgrind, "fz", drop_out, NULL) == 0);
	etm_profile_free(pr);
	etm_image_free(img);
	etm_symbols_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		profile_mode(data + 1, size - 1);
	else
		symfile_mode(data + 1, size - 1);
	return 0;
}
