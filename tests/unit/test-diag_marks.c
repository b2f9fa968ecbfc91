/* tests/unit/test-diag_marks.c - the diagnostics' count of N atoms on
 * instructions that cannot fail their condition (etm_mark_n_uncond), whose
 * image reads are kept in a memo by (address, ISA): counts derived by hand
 * from the encodings below, for an address asked again, two addresses in
 * one memo slot, one address asked in A32 and in T32, and the same address
 * after the image changes (etm_diag_set_image(): the memo is forgotten);
 * one element at a time and in batches (etm_diag_elems_byid()), and
 * etm_diag_elem_marks() (no memo) agreeing element by element. */
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"
#include "probe/diag_int.h"

/* Memo slots are (address >> 1) mod 4096 (probe/diag_marks.h): A_FAR
 * shares A_MOV's slot. */
#define A_MOV 0x8000u  /* E1A00000 MOV r0, r0: condition AL */
#define A_COND 0x8004u /* 01A00000 MOVEQ r0, r0: may fail */
#define A_FAR 0xa000u  /* 01A00000 MOVEQ: may fail */
/* 00 BF 00 BF: T32 two NOPs (no IT in the 16 bytes before: zeros, T16
 * MOVS); as A32 the word 0xBF00BF00, condition LT (may fail) */
#define A_NOP 0x9000u

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

/* 0x8000-0xa00f; @mov_cond: MOVEQ at A_MOV instead of MOV */
static struct etm_image *image(int mov_cond)
{
	static uint8_t m[0x2010];
	struct etm_image *img = etm_image_alloc();

	memset(m, 0, sizeof(m));
	put32(m + (A_MOV - 0x8000), mov_cond ? 0x01A00000u : 0xE1A00000u);
	put32(m + (A_COND - 0x8000), 0x01A00000u);
	put32(m + (A_FAR - 0x8000), 0x01A00000u);
	put32(m + (A_NOP - 0x8000), 0xBF00BF00u);
	if (img && etm_image_add_buffer(img, etm_space_any, 0x8000, m,
					sizeof(m)) < 0) {
		etm_image_free(img);
		return NULL;
	}
	return img;
}

/* A one-instruction range at @a in @isa whose atom was N. */
static struct etm_elem n_range(uint64_t a, enum etm_isa isa)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = etmk_range;
	e.id = 0x10;
	e.start = a;
	e.last_addr = a;
	e.last_size = isa == etmi_t32 ? 2 : 4;
	e.end = a + e.last_size;
	e.isa = isa;
	e.ninsn = 1;
	e.last_cls = etmc_other;
	e.last_atom = 1;
	e.last_exec = 0;
	return e;
}

static uint64_t n_uncond(const struct etm_diag *d)
{
	struct etm_diag_counts c;

	memset(&c, 0, sizeof(c));
	if (etm_diag_counts(d, &c, sizeof(c)) < 0)
		return ~0ull;
	return c.n_uncond;
}

/* The sequence, its hand-derived marks (1: cannot fail) in @want. */
static const struct {
	uint64_t a;
	enum etm_isa isa;
	unsigned want;
} seq[] = {
	{ A_MOV, etmi_a32, 1 },
	{ A_MOV, etmi_a32, 1 },
	{ A_COND, etmi_a32, 0 },
	{ A_MOV, etmi_a32, 1 },
	{ A_FAR, etmi_a32, 0 },
	{ A_MOV, etmi_a32, 1 },
	{ A_FAR, etmi_a32, 0 },
	{ A_NOP, etmi_t32, 1 },
	{ A_NOP, etmi_a32, 0 },
	{ A_NOP, etmi_t32, 1 },
	{ A_NOP, etmi_a32, 0 },
	{ A_COND, etmi_a32, 0 },
};
#define NSEQ (sizeof(seq) / sizeof(seq[0]))
#define NSEQ_UNCOND 6

static void feed(int batched)
{
	struct etm_image *img = image(0), *img2 = image(1);
	struct etm_config cfg;
	struct etm_diag *d, *byid[128] = { NULL };
	struct etm_elem els[NSEQ];
	unsigned i, round;

	ET_CHECK(img && img2);
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_ptm;
	cfg.traceid = 0x10;
	d = etm_diag_alloc(&cfg, img);
	ET_CHECK(d);
	byid[0x10] = d;
	for (i = 0; i < NSEQ; i++) {
		els[i] = n_range(seq[i].a, seq[i].isa);
		ET_EQ(etm_diag_elem_marks(img, &els[i]),
		      seq[i].want ? etm_mark_n_uncond : 0);
	}
	for (round = 1; round <= 3; round++) {
		if (batched)
			etm_diag_elems_byid(byid, els, NSEQ);
		else
			for (i = 0; i < NSEQ; i++)
				etm_diag_elem(d, &els[i]);
		ET_EQ(n_uncond(d), round * NSEQ_UNCOND);
	}
	/* A_MOV last in its slot, then the image where it holds MOVEQ: 4
	 * fewer a round */
	etm_diag_elem(d, &els[0]);
	ET_EQ(n_uncond(d), 3 * NSEQ_UNCOND + 1);
	etm_diag_set_image(d, img2);
	ET_EQ(etm_diag_elem_marks(img2, &els[0]), 0);
	if (batched)
		etm_diag_elems_byid(byid, els, NSEQ);
	else
		for (i = 0; i < NSEQ; i++)
			etm_diag_elem(d, &els[i]);
	ET_EQ(n_uncond(d), 4 * NSEQ_UNCOND + 1 - 4);
	/* and back */
	etm_diag_set_image(d, img);
	etm_diag_elem(d, &els[0]);
	ET_EQ(n_uncond(d), 4 * NSEQ_UNCOND + 1 - 4 + 1);
	etm_diag_free(d);
	etm_image_free(img);
	etm_image_free(img2);
}

static void one_at_a_time(void)
{
	feed(0);
}

static void in_batches(void)
{
	feed(1);
}

int main(void)
{
	ETEST(one_at_a_time);
	ETEST(in_batches);
	return etest_end();
}
