/* tests/fuzz/fuzz-flow.h - body shared by the ETMv3 and PTM flow fuzz
 * targets: the whole pipeline (raw or formatted input, parser, flow decoder)
 * over the fixed image, with element invariants and a chunked, cache-off
 * differential run. */
#ifndef ETM_TESTS_FUZZ_FLOW_H
#define ETM_TESTS_FUZZ_FLOW_H

#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/diag.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>
#include <etmtrace/verify.h>

#include "fuzz.h"
#include "fuzz-image.h"

struct flow_sum {
	int check; /* check every element (first run only) */
	uint64_t hash;
	size_t nelem, nitems;
	/* with packets: the items also go through the verified-output
	 * filter (a small hold, to reach its limit), which must give back
	 * the same elements in the same order, plus its markers */
	struct etm_verify *v;
	uint64_t vhash;
	size_t vitems, markers;
};

static uint64_t elem_hash(uint64_t h, const struct etm_elem *e);

static void verify_take(struct flow_sum *s)
{
	struct etm_item it;
	int rc;

	while ((rc = etm_verify_next(s->v, &it)) == 0) {
		if (it.kind == etm_item_elem && it.elem.kind == etmk_error &&
		    it.elem.err == etme_unverified) {
			FZ_ASSERT(it.elem.id != 0);
			s->markers++;
			continue;
		}
		s->vitems++;
		if (it.kind == etm_item_elem)
			s->vhash = elem_hash(s->vhash, &it.elem);
	}
	FZ_ASSERT(rc == -etme_again || rc == -etme_eos);
}

static void verify_put(struct flow_sum *s, const struct etm_item *it)
{
	int rc;

	while ((rc = etm_verify_put(s->v, it)) == -etme_busy)
		verify_take(s);
	FZ_ASSERT(rc == 0);
	verify_take(s);
}

static void range_check(const struct etm_image *img, const struct etm_elem *e)
{
	struct etm_walk w;
	struct etm_insn insn;
	uint8_t buf[256];
	uint32_t k = 0;
	uint64_t last = 0;

	FZ_ASSERT(e->ninsn > 0 && e->start < e->end);
	FZ_ASSERT(e->end - e->start <= sizeof(buf));
	FZ_ASSERT(e->isa == etmi_a32 || e->isa == etmi_t32 ||
		  e->isa == etmi_tee);
	FZ_ASSERT(e->ninsn <= (e->end - e->start) / 2);
	FZ_ASSERT(e->last_size == 2 || e->last_size == 4);
	FZ_ASSERT(e->last_addr >= e->start &&
		  e->last_addr + e->last_size == e->end);
	/* every instruction of a range comes from the image */
	FZ_ASSERT(etm_image_read(img, etm_space_any, e->start, buf,
				 e->end - e->start) == e->end - e->start);
	FZ_ASSERT(etm_walk_init(&w, img, e) == 0);
	while (etm_walk_next(&w, &insn) == 0) {
		FZ_ASSERT(insn.addr >= e->start && insn.addr < e->end);
		last = insn.addr;
		FZ_ASSERT(++k <= e->ninsn);
	}
	FZ_ASSERT(k == e->ninsn && last == e->last_addr);
}

static uint64_t elem_hash(uint64_t h, const struct etm_elem *e)
{
#define H(f) (h = fz_mix(h, (uint64_t)e->f))
	H(offset);
	H(kind);
	H(id);
	H(start);
	H(end);
	H(isa);
	H(ninsn);
	H(last_addr);
	H(last_size);
	H(last_cls);
	H(last_link);
	H(last_exec);
	H(last_atom);
	H(has_cycles);
	H(cycles);
	H(exc_num);
	H(exc_cancel);
	H(ret_addr);
	H(has_ret);
	H(addr);
	H(reason);
	H(has_ctxid);
	H(has_vmid);
	H(ctxid);
	H(vmid);
	H(ns);
	H(hyp);
	H(timestamp);
	H(err);
#undef H
	return h;
}

static void elem_check(const struct etm_image *img, const struct etm_elem *e,
		       size_t n)
{
	FZ_ASSERT(e->kind > etmk_invalid && e->kind < etmk_num_kinds);
	FZ_ASSERT(e->offset <= n);
	FZ_ASSERT(etm_elem_kind_name(e->kind));
	if (e->kind == etmk_range)
		range_check(img, e);
	if (e->kind == etmk_error)
		FZ_ASSERT(e->err > 0 && e->err < 64);
}

static void flow_drain(struct etm_decoder *d, const struct etm_image *img,
		       size_t n, struct flow_sum *s, int final,
		       struct etm_diag *dg)
{
	struct etm_item it;
	int rc;

	for (;;) {
		rc = etm_decoder_next(d, &it, sizeof(it));
		if (rc < 0) {
			FZ_ASSERT(rc == (final ? -etme_eos : -etme_again));
			return;
		}
		s->nitems++;
		etm_diag_item(dg, &it);
		if (s->v)
			verify_put(s, &it);
		if (it.kind == etm_item_elem) {
			if (s->check)
				elem_check(img, &it.elem, n);
			s->hash = elem_hash(s->hash, &it.elem);
			s->nelem++;
		}
		/* linear output: atoms are at most 16 per byte (ETMv3
		 * P-header), each giving a range and maybe an exception */
		FZ_ASSERT(s->nitems <= 64 * n + 64);
	}
}

static struct flow_sum flow_run(const struct etm_config *cfg,
				const struct etm_image *img, unsigned opt,
				const uint8_t *in, size_t n, uint8_t sel,
				int cache, int realign)
{
	struct flow_sum s = { cache, FZ_HASH_INIT, 0, 0, NULL, FZ_HASH_INIT,
			      0, 0 };
	struct etm_diag *dg = etm_diag_alloc(cfg, img);
	struct etm_diag_counts dc;
	struct etm_decoder *d;
	char warn[256];
	size_t pos = 0;
	unsigned k = 0;

	d = etm_decoder_alloc(opt & FZF_FORMATTED ? etm_fmt_coresight :
						    etm_fmt_raw,
			      etm_dec_elements);
	FZ_ASSERT(d);
	FZ_ASSERT(etm_decoder_add_source(d, cfg, img) == 0);
	etm_decoder_set_packets(d, !!(opt & FZF_PACKETS));
	if (opt & FZF_PACKETS) {
		s.v = etm_verify_alloc(1 + (sel & 63));
		FZ_ASSERT(s.v);
	}
	etm_decoder_set_cache(d, cache);
	if (!realign)
		FZ_ASSERT(etm_decoder_set_realign(d, etm_realign_off) == 0);
	while (pos < n) {
		size_t c = fz_chunk(sel, k++, n - pos);

		FZ_ASSERT(etm_decoder_push(d, in + pos, c) == 0);
		flow_drain(d, img, n, &s, 0, dg);
		pos += c;
	}
	FZ_ASSERT(etm_decoder_finish(d) == 0);
	flow_drain(d, img, n, &s, 1, dg);
	etm_decoder_free(d);
	if (s.v) {
		FZ_ASSERT(etm_verify_finish(s.v) == 0);
		verify_take(&s);
		FZ_ASSERT(s.vitems == s.nitems && s.vhash == s.hash);
		FZ_ASSERT(s.markers <= s.nitems);
		etm_verify_free(s.v);
	}
	/* the diagnostics see every item; counts stay consistent */
	FZ_ASSERT(dg && etm_diag_counts(dg, &dc, sizeof(dc)) == 0);
	FZ_ASSERT(dc.ranges <= s.nelem && dc.insns <= 256 * dc.ranges);
	FZ_ASSERT(etm_diag_warning(dg, warn, sizeof(warn)) >= 0 &&
		  strlen(warn) < sizeof(warn));
	etm_diag_free(dg);
	return s;
}

static int flow_fuzz(enum etm_protocol proto, const uint8_t *data,
		     size_t size)
{
	static struct etm_image *img;
	struct fz_in in = { data, size };
	struct etm_config cfg;
	struct flow_sum a, b;
	unsigned opt;
	uint8_t sel;

	if (!img)
		img = fz_image(); /* built once, kept for the process */
	FZ_ASSERT(img);
	fz_config(&in, &cfg, proto);
	opt = fz_u8(&in);
	sel = fz_u8(&in);
	if (etm_config_check(&cfg, NULL) < 0)
		return 0;
	a = flow_run(&cfg, img, opt, in.p, in.n, 0, 1, 1);
	b = flow_run(&cfg, img, opt, in.p, in.n, sel, 0, 1);
	FZ_ASSERT(a.hash == b.hash && a.nelem == b.nelem);
	/* the general path (packet items: etm_flow_pull()) against the fast
	 * path (etm_flow_drain()): the same elements, offsets included;
	 * realignment off, as on CoreSight frames it withdraws elements
	 * only without packet items (doc/realign.md) */
	a = flow_run(&cfg, img, opt | FZF_PACKETS, in.p, in.n, 0, 1, 0);
	b = flow_run(&cfg, img, opt & ~FZF_PACKETS, in.p, in.n, sel, 0, 0);
	FZ_ASSERT(a.hash == b.hash && a.nelem == b.nelem);
	return 0;
}

#endif
