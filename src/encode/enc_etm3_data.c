/* encode/enc_etm3_data.c - ETMv3 data trace in the encoder: data packets
 * for etmev_data / etmev_data_value events as the ETMCR data settings
 * allow (normal data, out-of-order placeholder and data, value not traced,
 * data suppressed, store failed; IHI 0014Q §7.4, ../shared/docs/etmv3.md
 * §13), data address compression, and data-only mode's I-syncs. */
#include <etmtrace/error.h>

#include "encode/enc_int.h"

/* Data address field: 7 bits a byte, bit 7 = more; the 5th byte A[31:28].
 * The fewest bytes that carry every bit that differs from the last
 * address, or all five (after a sync, and at random under ETM_ENC_RANDOM:
 * a D-sync). */
static void d_address(struct etm_enc *e, uint32_t a)
{
	uint32_t diff = a ^ e->d_last;
	unsigned n, i;

	for (n = 1; n < 5; n++)
		if (!(diff >> (7 * n)))
			break;
	if (e->d_full || ((e->o.flags & ETM_ENC_RANDOM) &&
			  etm_rng_chance(&e->rng, 1, 16)))
		n = 5;
	for (i = 0; i < n && i < 4; i++)
		enc_byte(e, (uint8_t)(((a >> (7 * i)) & 0x7f) |
				      (i + 1 < n ? 0x80 : 0)));
	if (n == 5)
		enc_byte(e, (uint8_t)((a >> 28) & 0x0f));
	e->d_last = a;
	e->d_full = 0;
}

static unsigned d_ss(unsigned size)
{
	return size == 1 ? 1 : size == 2 ? 2 :
					   3;
}

static void d_value(struct etm_enc *e, uint32_t v, unsigned size)
{
	unsigned i, n = size == 1 || size == 2 ? size : 4;

	for (i = 0; i < n; i++)
		enc_byte(e, (uint8_t)(v >> (8 * i)));
}

int enc_etm3_data(struct etm_enc *e, const struct etm_ev *ev)
{
	unsigned a = e->d_addr && (ev->dflags & ETM_EVD_ADDR);
	unsigned tag = ev->dtag & 3, ss;

	if (!e->d_addr && !e->d_value)
		return 0; /* data trace off */
	if (ev->kind == etmev_data_value) {
		if (!e->d_value || !tag)
			return 0; /* the transfer was traced in order */
		enc_byte(e, (uint8_t)(tag << 5 | d_ss(ev->dsize) << 2));
		d_value(e, ev->dvalue, ev->dsize);
		return 0;
	}
	if (ev->dflags & ETM_EVD_SUPPRESSED) {
		enc_byte(e, 0x62);
		return 0;
	}
	if (ev->dflags & ETM_EVD_FAILED) {
		enc_byte(e, 0x50);
		return 0;
	}
	if (tag && e->d_value) { /* placeholder b01A1TT00 */
		enc_byte(e, (uint8_t)(0x50 | a << 5 | tag << 2));
		if (a)
			d_address(e, (uint32_t)ev->daddr);
		return 0;
	}
	if (e->d_value && !(ev->dflags & ETM_EVD_VALUE)) {
		enc_byte(e, (uint8_t)(0x6a | a << 4)); /* value not traced */
		if (a)
			d_address(e, (uint32_t)ev->daddr);
		return 0;
	}
	ss = e->d_value ? d_ss(ev->dsize) : 0;
	enc_byte(e, (uint8_t)(0x02 | a << 5 | ss << 2)); /* b00A0SS10 */
	if (a)
		d_address(e, (uint32_t)ev->daddr);
	if (ss)
		d_value(e, ev->dvalue, ev->dsize);
	return 0;
}

/* Data-only I-sync: header, Context ID, information byte (no address). */
static void d_isync(struct etm_enc *e, unsigned reason)
{
	if (!e->ever_synced || enc_async_due(e))
		enc_async(e);
	enc_byte(e, 0x08);
	enc_ctxid_bytes(e, e->ctxid);
	enc_byte(e, enc_isync_info(e, reason));
	e->isync_at = enc_pos(e);
	e->pns = e->ns;
	e->phyp = e->hyp;
	e->ever_synced = 1;
	e->need_sync = 0;
	e->d_full = 1;
}

int enc_etm3_donly_insn(struct etm_enc *e, const struct etm_ev *ev)
{
	(void)ev;
	if (e->need_sync)
		d_isync(e, e->reason);
	else if (enc_isync_due(e))
		d_isync(e, etm_isync_periodic);
	else if (enc_async_due(e))
		enc_async(e);
	return 0;
}

/* ---- the ground truth ----------------------------------------------------- */

struct dx {
	const struct etm_config *cfg;
	int donly, daddr, dvalue;
	struct etm_data_xfer *out;
	size_t max, n;
	struct etm_data_xfer ooo[4];
};

static void dx_put(struct dx *x, const struct etm_data_xfer *t)
{
	if (x->n < x->max)
		x->out[x->n] = *t;
	x->n++;
}

/* Transfer @k of the instruction at @insn, event @ev. */
static void dx_data(struct dx *x, const struct etm_ev *ev, uint64_t insn,
		    unsigned k)
{
	struct etm_data_xfer t = { 0 };
	unsigned lost = ev->dflags & (ETM_EVD_SUPPRESSED | ETM_EVD_FAILED);

	t.flags = (uint8_t)lost;
	t.has_insn = (uint8_t)!x->donly;
	t.insn = t.has_insn ? insn : 0;
	t.dir = x->donly ? '?' : (ev->dflags & ETM_EVD_WRITE) ? 'W' :
								'R';
	t.has_addr = (uint8_t)(x->daddr && !lost &&
			       ((ev->dflags & ETM_EVD_ADDR) || (k && !x->donly)));
	t.daddr = t.has_addr ? (uint32_t)ev->daddr : 0;
	t.has_value = (uint8_t)(x->dvalue && !lost && (ev->dflags & ETM_EVD_VALUE));
	t.value = t.has_value ? ev->dvalue : 0;
	t.size = x->donly ? (t.has_value ? ev->dsize : 0) : ev->dsize;
	if (ev->dtag && x->dvalue && !lost) {
		x->ooo[ev->dtag & 3] = t; /* listed where its value comes */
		return;
	}
	dx_put(x, &t);
}

size_t etm_enc_data_expect(const struct etm_config *cfg,
			   const struct etm_ev *ev, size_t n,
			   struct etm_data_xfer *out, size_t max)
{
	struct dx x = { 0 };
	uint64_t insn = 0;
	unsigned k = 0;
	size_t i;

	if (!cfg || (!ev && n))
		return 0;
	x.cfg = cfg;
	x.donly = etm_cfg_data_only(cfg);
	x.daddr = etm_cfg_data_addr(cfg);
	x.dvalue = etm_cfg_data_value(cfg);
	x.out = out;
	x.max = out ? max : 0;
	if (!x.daddr && !x.dvalue)
		return 0;
	for (i = 0; i < n; i++) {
		if (ev[i].kind == etmev_insn) {
			insn = ev[i].addr;
			k = 0;
		} else if (ev[i].kind == etmev_data) {
			dx_data(&x, &ev[i], insn, k++);
		} else if (ev[i].kind == etmev_data_value && x.dvalue &&
			   ev[i].dtag) {
			struct etm_data_xfer *t = &x.ooo[ev[i].dtag & 3];

			t->has_value = 1;
			t->value = ev[i].dvalue;
			if (x.donly)
				t->size = ev[i].dsize;
			dx_put(&x, t);
		}
	}
	return x.n;
}
