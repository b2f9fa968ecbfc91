/* tests/unit/test-etm3_memo_context.c - the ETMv3 fast path's walk memo
 * (flow/walk_memo.h) keeps walks apart by the context they ran in: a walk
 * kept under one Context ID is never replayed under another, also after
 * more context changes than the memo's key counts (ETM_WALK_MEMO_GENS,
 * 65536: the memo is emptied then). Each range must carry the Context ID
 * of the I-sync before it (etmv3.md 4: I-sync = header 0x08, the Context
 * ID, the information byte, the address). And a memoised walk of two
 * ranges (the plain loop's case of its own, flow_etm3_plain.c) gives the
 * ranges derived by hand below, as the general path does. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "etest.h"

/* I-syncs in the middle phase, with no P-header: more than the 65536
 * generations the memo's key tells apart, less the phases around it, so
 * that the last phase's contexts come 65536 changes after the first's. */
#define MIDDLE (65536 - 16 - 8)
#define FIRST 16
#define LAST 32

/* An I-sync at 0x1000 (A32, periodic) with the one-byte Context ID @cid. */
static size_t isync(uint8_t *p, uint8_t cid)
{
	static const uint8_t rest[] = { 0x01, 0x00, 0x10, 0x00, 0x00 };

	p[0] = 0x08;
	p[1] = cid;
	memcpy(p + 2, rest, sizeof(rest));
	return 2 + sizeof(rest);
}

/* The trace: A-sync; FIRST times an I-sync with Context ID 100 + j and
 * the P-header 0x84 (one E atom: the mov at 0x1000, a range of one
 * instruction); MIDDLE I-syncs alternating Context IDs 1 and 2; LAST
 * times an I-sync with Context ID 200 + j and the P-header 0x84. Every
 * I-sync changes the Context ID. Its size. */
static size_t trace(uint8_t *b)
{
	static const uint8_t async[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x80 };
	size_t n = 0;
	int j;

	memcpy(b, async, sizeof(async));
	n += sizeof(async);
	for (j = 0; j < FIRST; j++) {
		n += isync(b + n, (uint8_t)(100 + j));
		b[n++] = 0x84;
	}
	for (j = 0; j < MIDDLE; j++)
		n += isync(b + n, (uint8_t)(1 + (j & 1)));
	for (j = 0; j < LAST; j++) {
		n += isync(b + n, (uint8_t)(200 + j));
		b[n++] = 0x84;
	}
	return n;
}

/* Decode @b[0..n) on the fast path (cache on: the walk memo) or the
 * general one (@packets); the ranges' Context IDs into @cid (at most
 * FIRST + LAST + 1), their count into *@nr. Each range is one
 * instruction at 0x1000 with a Context ID. */
static void ranges(const uint8_t *b, size_t n, int packets, uint32_t *cid,
		   int *nr)
{
	static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3, 0x00, 0x00,
					0xa0, 0xe1 }; /* mov r0, #1; nop */
	struct etm_config cfg;
	struct etm_image *img = etm_image_alloc();
	struct etm_decoder *d;
	struct etm_item it;
	int rc;

	*nr = 0;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmcr = 1u << 14; /* one-byte Context IDs */
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	ET_CHECK(img && etm_image_add_buffer(img, etm_space_any, 0x1000, code,
					     sizeof(code)) == 0);
	d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	ET_CHECK(d != NULL);
	ET_EQ(etm_decoder_add_source(d, &cfg, img), 0);
	etm_decoder_set_packets(d, packets);
	ET_EQ(etm_decoder_push(d, b, n), 0);
	ET_EQ(etm_decoder_finish(d), 0);
	while ((rc = etm_decoder_next(d, &it, sizeof(it))) == 0) {
		if (it.kind != etm_item_elem || it.elem.kind != etmk_range)
			continue;
		ET_EQ(it.elem.start, 0x1000);
		ET_EQ(it.elem.ninsn, 1);
		ET_EQ(it.elem.has_ctxid, 1);
		if (*nr <= FIRST + LAST)
			cid[(*nr)++] = it.elem.ctxid;
	}
	ET_EQ(rc, -etme_eos);
	etm_decoder_free(d);
	etm_image_free(img);
}

static void context_ids_across_generations(void)
{
	uint8_t *b = malloc(6 + (FIRST + LAST) * 8 + MIDDLE * 7);
	uint32_t cid[FIRST + LAST + 1];
	int path, j, nr;

	ET_CHECK(b != NULL);
	if (!b)
		return;
	for (path = 0; path < 2; path++) {
		size_t n = trace(b);

		ranges(b, n, path, cid, &nr);
		ET_EQ(nr, FIRST + LAST);
		for (j = 0; j < FIRST; j++)
			ET_EQ(cid[j], 100u + (unsigned)j);
		for (j = 0; j < LAST; j++)
			ET_EQ(cid[FIRST + j], 200u + (unsigned)j);
	}
	free(b);
}

/* ---- a memo hit of two new ranges ------------------------------------ */

#define REPS 40

/* A32 code at 0x1000: mov r0, #1; b 0x1010 (0xea000001: 0x1004 + 8 + 1 *
 * 4); nop; nop; mov r0, #1 (0x1010); bx lr (0x1014). */
static const uint8_t code2[] = {
	0x01, 0x00, 0xa0, 0xe3, 0x01, 0x00, 0x00, 0xea, 0x00, 0x00, 0xa0, 0xe1,
	0x00, 0x00, 0xa0, 0xe1, 0x01, 0x00, 0xa0, 0xe3, 0x1e, 0xff, 0x2f, 0xe1
};

/* The trace: A-sync (offsets 0-5); I-sync at 0x1000, A32 (6-11: header
 * 0x08, information byte, address 0x00001000); then REPS times the
 * P-header 0x90 (format 1 b1NEEEE00: four E, no N) at 12 + 2j and the
 * one-byte branch address 0x01 at 13 + 2j (bits [6:1] are address bits
 * [7:2], 0: 0x1000 against the last address 0x1000). Each P-header walks
 * mov, b (taken: the range [0x1000, 0x1008) ends there), mov, bx (the
 * range [0x1010, 0x1018) waits for its target, the branch packet: back to
 * 0x1000). The first walk is kept in the memo, the others are hits of two
 * ranges, no merge (a branch ended the range before). */
static size_t trace2(uint8_t *b)
{
	static const uint8_t head[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
					0x08, 0x01, 0x00, 0x10, 0x00, 0x00 };
	size_t n = sizeof(head);
	int j;

	memcpy(b, head, sizeof(head));
	for (j = 0; j < REPS; j++) {
		b[n++] = 0x90;
		b[n++] = 0x01;
	}
	return n;
}

static void two_range_hits(void)
{
	uint8_t b[12 + 2 * REPS];
	size_t n = trace2(b);
	int path;

	for (path = 0; path < 2; path++) {
		struct etm_config cfg;
		struct etm_image *img = etm_image_alloc();
		struct etm_decoder *d;
		struct etm_item it;
		int rc, nr = 0;

		etm_config_init(&cfg);
		cfg.protocol = etm_proto_etmv3;
		cfg.etmidr = 0x410CF250;
		cfg.traceid = 0x10;
		ET_CHECK(img && etm_image_add_buffer(img, etm_space_any, 0x1000,
						     code2, sizeof(code2)) == 0);
		d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
		ET_CHECK(d != NULL);
		ET_EQ(etm_decoder_add_source(d, &cfg, img), 0);
		etm_decoder_set_packets(d, path);
		ET_EQ(etm_decoder_push(d, b, n), 0);
		ET_EQ(etm_decoder_finish(d), 0);
		while ((rc = etm_decoder_next(d, &it, sizeof(it))) == 0) {
			const struct etm_elem *e = &it.elem;
			int j = nr / 2, second = nr % 2;

			if (it.kind != etm_item_elem || e->kind != etmk_range)
				continue;
			ET_EQ(e->start, second ? 0x1010 : 0x1000);
			ET_EQ(e->end, second ? 0x1018 : 0x1008);
			ET_EQ(e->ninsn, 2);
			ET_EQ(e->isa, etmi_a32);
			ET_EQ(e->last_addr, second ? 0x1014 : 0x1004);
			ET_EQ(e->last_exec, 1);
			ET_EQ(e->offset, 12u + 2u * (unsigned)j);
			nr++;
		}
		ET_EQ(rc, -etme_eos);
		ET_EQ(nr, 2 * REPS);
		etm_decoder_free(d);
		etm_image_free(img);
	}
}

int main(void)
{
	ETEST(context_ids_across_generations);
	ETEST(two_range_hits);
	return etest_end();
}
