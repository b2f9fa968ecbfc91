/* tests/fuzz/fuzz-cov.c - fuzz target for the coverage accumulator
 * (etmtrace/coverage.h). Mode 0 (first byte even): the rest is a saved
 * coverage file for etm_cov_load(); what loads must save and load again to
 * the same text. Mode 1: the rest is a stream of 12-byte element records
 * (kind, ISA, flags, instruction count, start address) over a small A32/T32
 * image; the coverage accumulated at once must equal the coverage of the
 * same elements cut into two parts (etm_cov_set_part(), etm_cov_append()),
 * and every count must stay consistent (fail + unknown <= exec). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>

#include "fuzz.h"

struct fz_text {
	char *b;
	size_t n, cap;
};

static int fz_write(void *ctx, const char *s, size_t n)
{
	struct fz_text *t = ctx;

	if (t->n + n > t->cap) {
		size_t cap = 2 * (t->n + n);
		char *p = realloc(t->b, cap);

		if (!p)
			return -etme_nomem;
		t->b = p;
		t->cap = cap;
	}
	memcpy(t->b + t->n, s, n);
	t->n += n;
	return 0;
}

static void fz_saved(const struct etm_cov *c, struct fz_text *t)
{
	t->b = NULL;
	t->n = t->cap = 0;
	FZ_ASSERT(etm_cov_save(c, fz_write, t) == 0);
}

static void load_mode(const uint8_t *p, size_t n)
{
	struct etm_cov *c = etm_cov_alloc(), *d = etm_cov_alloc();
	struct fz_text a, b;
	int r;

	FZ_ASSERT(c && d);
	r = etm_cov_load(c, (const char *)p, n, NULL);
	FZ_ASSERT(r == 0 || r == -etme_parse);
	fz_saved(c, &a);
	FZ_ASSERT(etm_cov_load(d, a.b, a.n, NULL) == 0);
	fz_saved(d, &b);
	FZ_ASSERT(a.n == b.n && !memcmp(a.b, b.b, a.n));
	free(a.b);
	free(b.b);
	etm_cov_free(c);
	etm_cov_free(d);
}

/* 64 KiB of varied opcodes at 0x10000 (and 0xfffff000: the top page). */
static struct etm_image *fz_image(void)
{
	static uint8_t code[1u << 16];
	struct etm_image *img = etm_image_alloc();
	uint32_t x = 0x12345678;
	size_t i;

	for (i = 0; i < sizeof(code); i++) {
		x = x * 1103515245u + 12345u;
		code[i] = (uint8_t)(x >> 16);
	}
	if (!img || etm_image_add_buffer(img, etm_space_any, 0x10000, code, sizeof(code)) ||
	    etm_image_add_buffer(img, etm_space_any, 0xfffff000u, code, 4096)) {
		etm_image_free(img);
		return NULL;
	}
	return img;
}

static size_t fz_elems(struct fz_in *in, struct etm_elem *el, size_t max)
{
	static const enum etm_elem_kind kinds[] = { etmk_range, etmk_range,
						    etmk_range, etmk_exception, etmk_trace_on, etmk_nosync,
						    etmk_error, etmk_timestamp };
	size_t n = 0;

	while (in->n >= 12 && n < max) {
		struct etm_elem *e = &el[n++];
		uint8_t k = fz_u8(in), fl = fz_u8(in);
		uint16_t cnt = (uint16_t)(fz_u8(in) | fz_u8(in) << 8);
		uint32_t a = fz_u32(in), r = fz_u32(in);

		memset(e, 0, sizeof(*e));
		e->kind = kinds[k & 7];
		e->id = (uint8_t)(k & 0x80 ? 0x11 : 0x10);
		e->isa = fl & 1 ? etmi_t32 : etmi_a32;
		e->start = fl & 2 ? 0xfffff000u + (a & 0xffe) : 0x10000 + (a & 0xfffe);
		e->ninsn = cnt % 300;
		e->end = e->start + (uint64_t)e->ninsn * (fl & 1 ? 3 : 4);
		e->last_addr = e->end - (fl & 1 ? 2 : 4);
		e->last_exec = (fl >> 2) & 1;
		e->last_atom = (fl >> 3) & 1;
		e->has_ret = (fl >> 4) & 1;
		e->ret_addr = r;
	}
	return n;
}

static void check_counts(const struct etm_cov *c)
{
	struct etm_cov_insn ci;
	uint64_t a = 0;

	while (etm_cov_next_insn(c, a, &ci) == 0) {
		FZ_ASSERT(ci.exec && ci.fail + ci.unknown <= ci.exec);
		FZ_ASSERT(ci.addr >= a && ci.size >= 2);
		if (ci.addr > UINT64_MAX - 2)
			break;
		a = ci.addr + 2;
	}
}

static struct etm_cov *fz_cov(const struct etm_image *img, int part)
{
	struct etm_cov *c = etm_cov_alloc();

	FZ_ASSERT(c);
	if (part)
		FZ_ASSERT(etm_cov_set_part(c) == 0);
	FZ_ASSERT(etm_cov_set_source(c, 0x10, etm_proto_etmv3, img) == 0);
	FZ_ASSERT(etm_cov_set_source(c, 0x11, etm_proto_ptm, img) == 0);
	return c;
}

static void elem_mode(struct fz_in *in)
{
	static struct etm_image *img;
	struct etm_elem el[256];
	struct etm_cov *all, *d, *p1, *p2;
	struct fz_text a, b;
	size_t n, cut;

	if (!img)
		img = fz_image();
	FZ_ASSERT(img);
	cut = fz_u8(in);
	n = fz_elems(in, el, 256);
	cut = n ? cut % (n + 1) : 0;
	all = fz_cov(img, 0);
	FZ_ASSERT(etm_cov_add_elems(all, el, n) == 0 && etm_cov_end(all) == 0);
	check_counts(all);
	d = fz_cov(img, 0);
	p1 = fz_cov(img, 1);
	p2 = fz_cov(img, 1);
	FZ_ASSERT(etm_cov_add_elems(p1, el, cut) == 0);
	FZ_ASSERT(etm_cov_add_elems(p2, el + cut, n - cut) == 0);
	FZ_ASSERT(etm_cov_append(d, p1) == 0 && etm_cov_append(d, p2) == 0);
	FZ_ASSERT(etm_cov_end(d) == 0);
	fz_saved(all, &a);
	fz_saved(d, &b);
	if (a.n != b.n || memcmp(a.b, b.b, a.n))
		fprintf(stderr, "cut at %zu of %zu: whole\n%.*s---\nparts\n%.*s",
			cut, n, (int)a.n, a.b, (int)b.n, b.b);
	FZ_ASSERT(a.n == b.n && !memcmp(a.b, b.b, a.n));
	free(a.b);
	free(b.b);
	etm_cov_free(all);
	etm_cov_free(d);
	etm_cov_free(p1);
	etm_cov_free(p2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	uint8_t mode = fz_u8(&in);

	if (mode & 1)
		elem_mode(&in);
	else
		load_mode(in.p, in.n);
	return 0;
}
