/* tests/fuzz/fuzz-pkt.h - body shared by the ETMv3 and PTM packet parser
 * fuzz targets: invariants on every packet, chunk invariance, reset. */
#ifndef ETM_TESTS_FUZZ_PKT_H
#define ETM_TESTS_FUZZ_PKT_H

#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "fuzz.h"

/* The parser under test, as function pointers over an opaque object. */
struct fz_parser {
	enum etm_protocol proto;
	void *(*alloc)(const struct etm_config *cfg);
	void (*free)(void *p);
	int (*push)(void *p, const uint8_t *buf, size_t n, uint64_t off);
	int (*finish)(void *p);
	int (*next)(void *p, struct etm_packet *pkt, size_t size);
	void (*reset)(void *p);
};

/* The packet decoder of etmtrace/packet.h as an fz_parser (each target
 * that includes this header fuzzes it for one protocol). */
static inline void *fz_pkt_alloc(const struct etm_config *c)
{
	return etm_pkt_alloc(c);
}
static inline void fz_pkt_free(void *p)
{
	etm_pkt_free(p);
}
static inline int fz_pkt_push(void *p, const uint8_t *b, size_t n, uint64_t o)
{
	return etm_pkt_push(p, b, n, o);
}
static inline int fz_pkt_finish(void *p)
{
	return etm_pkt_finish(p);
}
static inline int fz_pkt_next(void *p, struct etm_packet *k, size_t n)
{
	return etm_pkt_next(p, k, n);
}
static inline void fz_pkt_reset(void *p)
{
	etm_pkt_reset(p);
}
#define FZ_PKT_PARSER(proto)                                                  \
	{                                                                     \
		proto, fz_pkt_alloc, fz_pkt_free, fz_pkt_push, fz_pkt_finish, \
			fz_pkt_next, fz_pkt_reset                             \
	}

struct pkt_sum {
	int describe; /* also format every packet */
	uint64_t hash;
	uint64_t last_off;
	size_t npkt, bytes;
};

static inline uint64_t pkt_hash(uint64_t h, const struct etm_packet *p)
{
#define H(f) (h = fz_mix(h, (uint64_t)p->f))
	H(offset);
	H(type);
	H(id);
	H(raw_len);
	H(size);
	H(err);
	h = fz_hash(h, p->raw, p->raw_len);
	H(atom_count);
	H(atom_bits);
	H(w_tail);
	h = fz_hash(h, p->atom_w, sizeof(p->atom_w));
	H(addr);
	H(addr_bits);
	H(isa);
	H(isa_changed);
	H(reason);
	H(lsip);
	H(lsip_next);
	H(lsip_isa);
	H(has_state);
	H(ns);
	H(hyp);
	H(altisa);
	H(jazelle);
	H(has_exc);
	H(exc_num);
	H(cancel);
	H(resume);
	H(has_cc);
	H(cycle_count);
	H(has_ctxid);
	H(ctxid);
	H(vmid);
	H(timestamp);
	H(ts_bits);
	H(ts_freq_change);
	H(has_daddr);
	H(has_dvalue);
	H(dvalue_size);
	H(dtag);
	H(daddr);
	H(dvalue);
	H(itm_port);
	H(itm_cmp);
	H(itm_fn);
	H(itm_flags);
#undef H
	return h;
}

static inline void pkt_check(const struct fz_parser *fp, const struct etm_packet *p,
			     const uint8_t *in, size_t n, struct pkt_sum *s)
{
	char small[8], big[512];
	int r;

	FZ_ASSERT(p->type > etmp_invalid && p->type < etmp_num_types);
	FZ_ASSERT(p->offset >= s->last_off);
	FZ_ASSERT(p->raw_len <= ETM_PKT_MAX_RAW && p->raw_len <= p->size);
	FZ_ASSERT(p->offset <= n);
	if (p->type != etmp_notsync && p->type != etmp_async)
		FZ_ASSERT(p->size <= n - p->offset);
	/* a fully recorded packet shows its input bytes (long A-sync runs
	 * may keep their tail instead) */
	if (p->raw_len && p->raw_len == p->size)
		FZ_ASSERT(p->raw_len <= n - p->offset &&
			  !memcmp(p->raw, in + p->offset, p->raw_len));
	FZ_ASSERT(p->atom_count <= ETM_PKT_MAX_ATOMS);
	if (p->type == etmp_error)
		FZ_ASSERT(p->err > 0 && p->err < 64);
	FZ_ASSERT(p->isa <= etmi_jazelle);
	s->last_off = p->offset;
	s->bytes += p->size;
	if (!s->describe)
		return;
	/* describe into a tiny and a large buffer: snprintf semantics */
	r = etm_pkt_describe(p, fp->proto, small, sizeof(small));
	FZ_ASSERT(r >= 0 && strlen(small) < sizeof(small));
	r = etm_pkt_describe(p, fp->proto, big, sizeof(big));
	FZ_ASSERT(r >= 0 && strlen(big) == (size_t)(r < 511 ? r : 511));
	r = etm_pkt_json_fields(p, fp->proto, big, sizeof(big));
	FZ_ASSERT(r >= 0 && strlen(big) < sizeof(big));
	FZ_ASSERT(etm_pkt_type_name(p->type, fp->proto));
}

static inline void pkt_drain(const struct fz_parser *fp, void *prs, const uint8_t *in,
			     size_t n, struct pkt_sum *s, int final)
{
	struct etm_packet p;
	int rc;

	for (;;) {
		memset(&p, 0xa5, sizeof(p));
		rc = fp->next(prs, &p, sizeof(p));
		if (rc < 0) {
			FZ_ASSERT(rc == (final ? -etme_eos : -etme_again));
			return;
		}
		pkt_check(fp, &p, in, n, s);
		s->hash = pkt_hash(s->hash, &p);
		/* every packet consumes input, except one closing error */
		FZ_ASSERT(++s->npkt <= n + 2);
	}
}

static inline struct pkt_sum pkt_run(const struct fz_parser *fp, void *prs,
				     const uint8_t *in, size_t n, uint8_t sel,
				     int describe)
{
	struct pkt_sum s = { describe, FZ_HASH_INIT, 0, 0, 0 };
	size_t pos = 0;
	unsigned k = 0;

	while (pos < n) {
		size_t c = fz_chunk(sel, k++, n - pos);

		FZ_ASSERT(fp->push(prs, in + pos, c, pos) == 0);
		pkt_drain(fp, prs, in, n, &s, 0);
		pos += c;
	}
	FZ_ASSERT(fp->finish(prs) == 0);
	pkt_drain(fp, prs, in, n, &s, 1);
	FZ_ASSERT(s.bytes <= n);
	return s;
}

/* Input: config header, chunk selector, trace bytes. Run A decodes in one
 * chunk; run B, on the same parser after a reset, in the chunks chosen by
 * the selector: both must give the same packets. */
static inline int pkt_fuzz(const struct fz_parser *fp, const uint8_t *data,
			   size_t size)
{
	struct fz_in in = { data, size };
	struct etm_config cfg;
	struct pkt_sum a, b;
	uint8_t sel;
	void *prs;

	fz_config(&in, &cfg, fp->proto);
	sel = fz_u8(&in);
	prs = fp->alloc(&cfg);
	if (!prs) {
		FZ_ASSERT(etm_config_check(&cfg, NULL) < 0);
		return 0;
	}
	a = pkt_run(fp, prs, in.p, in.n, 0, 1);
	fp->reset(prs);
	b = pkt_run(fp, prs, in.p, in.n, sel, 0);
	FZ_ASSERT(a.hash == b.hash && a.npkt == b.npkt);
	fp->free(prs);
	return 0;
}

#endif
