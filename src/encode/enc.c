/* encode/enc.c - trace encoder object and the packet fields both protocols
 * share: A-sync, branch-style addresses with compression, exception bytes,
 * cycle counts, timestamps (IHI 0014Q §7.3, IHI 0035B §4.5). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "encode/enc_int.h"

void etm_obuf_put(struct etm_obuf *b, const uint8_t *d, size_t n)
{
	uint8_t *p;

	if (b->err || !n)
		return;
	p = etm_grow(b->p, &b->cap, b->len + n, 1, 256);
	if (!p) {
		b->err = 1;
		return;
	}
	b->p = p;
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

void etm_obuf_free(struct etm_obuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

struct etm_enc *etm_enc_alloc(const struct etm_enc_opts *o, size_t size,
			      const struct etm_image *img)
{
	struct etm_enc *e;
	const struct etm_config *c;

	if (!o || !img || size < sizeof(size_t))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	memcpy(&e->o, o, size < sizeof(e->o) ? size : sizeof(e->o));
	e->o.size = sizeof(e->o);
	c = &e->o.cfg;
	if (etm_config_check(c, NULL) < 0) {
		free(e);
		return NULL;
	}
	e->img = img;
	e->rng.s = e->o.seed ^ 0x5eedc0de12345678ull;
	e->ptm = c->protocol == etm_proto_ptm;
	e->ca = (uint8_t)etm_cfg_cycle_acc(c);
	e->cid_bytes = (uint8_t)etm_cfg_ctxid_bytes(c);
	e->vmid_on = (uint8_t)etm_cfg_vmid(c);
	e->d_addr = (uint8_t)etm_cfg_data_addr(c);
	e->d_value = (uint8_t)etm_cfg_data_value(c);
	e->d_only = (uint8_t)etm_cfg_data_only(c);
	e->ts_on = (uint8_t)etm_cfg_timestamps(c);
	e->ts64 = (uint8_t)etm_cfg_ts_64bit(c);
	e->tsbin = (uint8_t)etm_cfg_ts_binary(c);
	e->rs_on = (uint8_t)etm_cfg_ret_stack(c);
	e->alt = (uint8_t)etm_cfg_alt_branch(c);
	e->bcast = (uint8_t)etm_cfg_branch_bcast(c);
	e->minor = (uint8_t)etm_cfg_arch_minor(c);
	/* ETMv3 timestamps exist from v3.5 (IHI 0014Q §7.3.7) */
	if (!e->ptm && e->minor < 5)
		e->ts_on = 0;
	e->isa = e->pisa = etmi_a32;
	e->ts_full = 1;
	if (c->protocol == etm_proto_etmv1 && enc_e1_init(e) < 0) {
		free(e);
		return NULL;
	}
	return e;
}

void etm_enc_free(struct etm_enc *e)
{
	if (!e)
		return;
	etm_obuf_free(&e->out);
	free(e->e1);
	free(e);
}

/* After event @ev: where the next instruction event must be, as the
 * classifier sees it (a non-branch or a branch not taken falls through, a
 * taken direct branch goes to its target, a taken indirect one to the
 * event's target); nothing is expected after an exception-generating
 * instruction that executed or across exceptions and trace gaps. */
static void enc_expect(struct etm_enc *e, const struct etm_ev *ev)
{
	struct etm_insn in;

	e->expect_on = 0;
	if (ev->kind != etmev_insn || enc_classify(e, ev, &in) < 0)
		return;
	e->expect_addr = ev->addr + in.size;
	e->expect_isa = ev->isa;
	if (ev->exec && in.cls == etmc_br_direct) {
		e->expect_addr = in.target;
		e->expect_isa = in.target_isa;
	} else if (ev->exec && in.cls == etmc_br_indirect) {
		e->expect_addr = ev->target;
		e->expect_isa = ev->target_isa;
	} else if (ev->exec && in.cls == etmc_exc_gen) {
		return;
	}
	e->expect_on = 1;
}

int etm_enc_put(struct etm_enc *e, const struct etm_ev *ev)
{
	int err;

	if (!e || !ev || ev->kind <= etmev_invalid || ev->kind >= etmev_num_kinds)
		return -etme_invalid;
	/* a step the classifier cannot explain (a non-branch followed by a
	 * jump, a direct branch to elsewhere) is refused, so that a
	 * classifier error surfaces instead of cancelling out in a round
	 * trip through the decoder */
	if (ev->kind == etmev_insn && e->expect_on &&
	    (ev->addr != e->expect_addr || ev->isa != e->expect_isa))
		return -etme_mismatch;
	err = e->e1  ? enc_e1_put(e, ev) :
	      e->ptm ? enc_ptm_put(e, ev) :
		       enc_etm3_put(e, ev);
	if (!err && e->out.err)
		err = -etme_nomem;
	if (!err && ev->kind != etmev_context && ev->kind != etmev_timestamp &&
	    ev->kind != etmev_trigger && ev->kind != etmev_data &&
	    ev->kind != etmev_data_value)
		enc_expect(e, ev);
	return err;
}

int etm_enc_finish(struct etm_enc *e)
{
	int err;

	if (!e)
		return -etme_invalid;
	err = e->e1  ? enc_e1_finish(e) :
	      e->ptm ? enc_ptm_finish(e) :
		       enc_etm3_finish(e);
	if (!err && e->out.err)
		err = -etme_nomem;
	return err;
}

const uint8_t *etm_enc_data(const struct etm_enc *e, size_t *n)
{
	if (!e || !n)
		return NULL;
	*n = e->out.len;
	return e->out.p;
}

void etm_enc_consume(struct etm_enc *e, size_t n)
{
	if (!e)
		return;
	if (n > e->out.len)
		n = e->out.len;
	memmove(e->out.p, e->out.p + n, e->out.len - n);
	e->out.len -= n;
	e->consumed += n;
}

/* ---- shared fields ------------------------------------------------------- */

void enc_async(struct etm_enc *e)
{
	static const uint8_t as[6] = { 0, 0, 0, 0, 0, 0x80 };

	etm_obuf_put(&e->out, as, sizeof(as));
	e->async_at = enc_pos(e);
	/* a decoder may start here: send the next timestamp and data
	 * address in full */
	e->ts_full = 1;
	e->d_full = 1;
}

int enc_async_due(const struct etm_enc *e)
{
	return e->o.async_period &&
	       enc_pos(e) - e->async_at >= e->o.async_period;
}

void enc_after_halt(struct etm_enc *e, const struct etm_ev *ev)
{
	if (ev->exc_num != 1 || etm_cfg_m_profile(&e->o.cfg))
		return;
	e->need_sync = 1;
	e->reason = etm_isync_debug_exit;
	e->gap = 0;
}

int enc_isync_due(const struct etm_enc *e)
{
	return e->o.isync_period &&
	       enc_pos(e) - e->isync_at >= e->o.isync_period;
}

void enc_ctxid_bytes(struct etm_enc *e, uint32_t v)
{
	unsigned i;

	for (i = 0; i < e->cid_bytes; i++)
		enc_byte(e, (uint8_t)(v >> (8 * i)));
}

static unsigned isa_shift(enum etm_isa isa)
{
	return isa == etmi_a32 ? 2 : isa == etmi_jazelle ? 0 :
							   1;
}

/* Address bits carried by an n-byte (1-4) field before the alignment shift:
 * original encoding 6 + 7 per further byte; alternative encoding (ETMv3.4+,
 * PTM) has only 6 bits in a last byte 1-3 (../shared/docs/etmv3.md §6.2-6.3). */
static unsigned addr_bits(int alt, unsigned n)
{
	if (n == 1)
		return 6;
	return alt ? 6 + 7 * (n - 2) + 6 : 6 + 7 * (n - 1);
}

/* Fewest bytes that carry every bit of @addr that differs from the base. */
static unsigned addr_len(struct etm_enc *e, uint32_t addr, enum etm_isa isa,
			 int need_exc)
{
	unsigned n, nmin = need_exc ? (e->alt ? 2 : 5) : 1;

	for (n = nmin; n < 5; n++) {
		unsigned nb = addr_bits(e->alt, n) + isa_shift(isa);

		if (!((addr ^ e->base) >> nb))
			break;
	}
	if (n < 5 && (e->o.flags & ETM_ENC_RANDOM) &&
	    etm_rng_chance(&e->rng, 1, 5))
		n += etm_rng_below(&e->rng, 5 - n + 1);
	return n;
}

void enc_address(struct etm_enc *e, uint32_t addr, enum etm_isa isa,
		 int need_exc, int full)
{
	/* a 1-4 byte address keeps the ISA the trace last stated (I-sync,
	 * 5-byte address): the only one a packet parser knows */
	enum etm_isa cmp = e->pisa;
	uint32_t v = addr >> isa_shift(isa);
	unsigned n, i;

	if (full || isa != cmp || e->force_full ||
	    (e->o.flags & ETM_ENC_FULL_ADDR))
		n = 5;
	else
		n = addr_len(e, addr, isa, need_exc);
	if (n > 5)
		n = 5;
	enc_byte(e, (uint8_t)(((v & 0x3f) << 1) | 1 | (n > 1 ? 0x80 : 0)));
	v >>= 6;
	for (i = 1; i < n && i < 4; i++) {
		int last = i == n - 1;

		if (last && e->alt) {
			enc_byte(e, (uint8_t)((v & 0x3f) | (need_exc ? 0x40 : 0)));
			v >>= 6;
		} else {
			enc_byte(e, (uint8_t)((v & 0x7f) | (last ? 0 : 0x80)));
			v >>= 7;
		}
	}
	if (n == 5) {
		/* b0E001aaa ARM (A[31:29]), b0E01aaaa Thumb (A[31:28]) */
		uint8_t c = isa == etmi_a32 ? (uint8_t)(0x08 | (v & 7)) :
					      (uint8_t)(0x10 | (v & 0xf));

		enc_byte(e, (uint8_t)(c | (need_exc ? 0x40 : 0)));
		e->pisa = isa;
	}
	e->base = addr;
	e->force_full = 0;
}

/* Byte 0: C A Can e e e e NS; byte 1: C 0 H e e e e e (../shared/docs/etmv3.md §6.6,
 * ../shared/docs/ptm.md §6.2). Byte 1 only when Hyp or Exception[8:4] is needed. */
void enc_exc_bytes(struct etm_enc *e, unsigned num, int cancel, int ns,
		   int hyp, int altisa)
{
	int b1 = hyp || num > 15;

	enc_byte(e, (uint8_t)((b1 ? 0x80 : 0) | (altisa ? 0x40 : 0) |
			      (cancel ? 0x20 : 0) | ((num & 0xf) << 1) |
			      (ns ? 1 : 0)));
	if (b1)
		enc_byte(e, (uint8_t)((hyp ? 0x20 : 0) | ((num >> 4) & 0x1f)));
	e->pns = (uint8_t)ns;
	e->phyp = (uint8_t)hyp;
}

void enc_ptm_cc(struct etm_enc *e, uint32_t cc)
{
	uint32_t v = cc >> 4;
	unsigned i;

	enc_byte(e, (uint8_t)(((cc & 0xf) << 2) | (v ? 0x40 : 0)));
	for (i = 0; v && i < 4; i++) {
		uint8_t b = v & 0x7f;

		v >>= 7;
		enc_byte(e, (uint8_t)(b | (v && i < 3 ? 0x80 : 0)));
	}
}

void enc_etm3_cc(struct etm_enc *e, uint32_t cc)
{
	unsigned i;

	for (i = 0; i < 4; i++) {
		uint8_t b = cc & 0x7f;

		cc >>= 7;
		enc_byte(e, (uint8_t)(b | (cc ? 0x80 : 0)));
		if (!cc)
			return;
	}
	enc_byte(e, (uint8_t)(cc & 0xf));
}

/* Timestamp packet value bytes (../shared/docs/etmv3.md §10, ../shared/docs/ptm.md §12): 7 bits
 * per byte; the last byte of a full value holds 6 (48-bit) or 8 (64-bit)
 * bits. Only the bytes up to the highest bit that changed are sent;
 * compression works on the transmitted (possibly Gray) value. */
void enc_timestamp(struct etm_enc *e, uint64_t ts)
{
	unsigned maxb = e->ts64 ? 9 : 7, k, i;
	uint64_t v, diff;

	if (!e->ts64)
		ts &= (1ull << 48) - 1;
	v = e->tsbin ? ts : ts ^ (ts >> 1);
	diff = e->ts_full ? ~0ull : v ^ e->ts_last;
	for (k = 1; k < maxb; k++)
		if (!(diff >> (7 * k)))
			break;
	if (k < maxb && (e->o.flags & ETM_ENC_RANDOM) &&
	    etm_rng_chance(&e->rng, 1, 4))
		k = maxb;
	enc_byte(e, 0x42);
	for (i = 0; i < k; i++) {
		if (i == maxb - 1)
			enc_byte(e, (uint8_t)(v >> (7 * i)));
		else
			enc_byte(e, (uint8_t)(((v >> (7 * i)) & 0x7f) |
					      (i + 1 < k ? 0x80 : 0)));
	}
	e->ts_last = v;
	e->ts_full = 0;
}

uint8_t enc_isync_info(struct etm_enc *e, unsigned reason)
{
	/* bit 0: observed 1 in every I-sync of real captures */
	return (uint8_t)(((reason & 3) << 5) | (e->ns ? 0x08 : 0) |
			 (e->hyp ? 0x02 : 0) | 0x01);
}

int enc_classify(struct etm_enc *e, const struct etm_ev *ev,
		 struct etm_insn *in)
{
	enum etm_space sp = e->ns ? etm_space_nonsecure : etm_space_secure;
	uint8_t buf[4];
	size_t n;
	int r;

	if (ev->isa != etmi_a32 && ev->isa != etmi_t32)
		return -etme_invalid;
	n = etm_image_read(e->img, sp, ev->addr, buf, 4);
	if (n < 2)
		return -etme_nomap;
	r = etm_insn_decode(in, ev->isa, ev->addr, buf, n);
	if (r == -etme_again)
		return -etme_nomap;
	if (r < 0 || in->cls == etmc_undefined || in->cls == etmc_unknown)
		return -etme_bad_insn;
	return 0;
}
