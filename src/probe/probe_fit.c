/* probe/probe_fit.c - one fit of the configuration probe: the item path
 * (every packet and element an item, as etm_diag_item() counts them) and
 * the batch path that gives the same counts from element batches and
 * compact packet records. */
#include <stdlib.h>

#include <etmtrace/decoder.h>
#include <etmtrace/diag.h>
#include <etmtrace/error.h>

#include "decoder/dfmt_replay.h"
#include "probe/diag_int.h"
#include "probe/probe_fit.h"

/* Packet records and elements a batch call takes. */
#define FIT_BATCH 256

static uint64_t diag_score(const struct etm_diag_counts *c)
{
	return c->pkt_errors + c->sync_lost + c->mismatch + c->n_uncond +
	       c->undef + c->mid_insn + c->nomem / 4;
}

/* Whether the counts so far @c put the variant past @bd. */
static int diag_over(const struct etm_diag_counts *c,
		     const struct diag_bound *bd)
{
	if (bd->on == 1)
		return diag_score(c) > bd->max;
	return bd->on == 2 && c->pkt_errors + c->sync_lost > bd->max;
}

/* Whether item @it shows the timestamp configuration may have mattered:
 * a packet whose first byte is a timestamp header (b01000R10, the only
 * one ETMv3 and PTM readers consult ETMCR[28] / ETMCCER[29:28] for), or
 * not known, or a realignment that resets the parsers (their unfinished
 * packets are dropped unseen). */
static int diag_ts_touched(const struct etm_item *it)
{
	if (it->kind == etm_item_elem)
		return it->elem.kind == etmk_error &&
		       it->elem.err == etme_frame_align;
	return !it->pkt.raw_len || (it->pkt.raw[0] & 0xfb) == 0x42;
}

/* A decoder of @in in @mode with the one source @cfg (element mode: with
 * packet items if @packets), the realignment off (a wrong configuration
 * makes bad packets: that is what is measured, not a lost frame
 * alignment), its input pushed; NULL on failure. */
static struct etm_decoder *fit_decoder(const struct diag_input *in,
				       const struct etm_config *cfg,
				       const struct etm_image *img,
				       enum etm_decoder_mode mode, int packets)
{
	int replay = in->replay && etm_cfg_trace_id(cfg) == in->replay_id;
	struct etm_decoder *dec = replay ? etm_dec_replay_decoder(in->replay, mode) :
					   etm_decoder_alloc(in->fmt, mode);

	if (!dec || etm_decoder_add_source(dec, cfg, img) < 0)
		goto fail;
	if (packets)
		etm_decoder_set_packets(dec, 1);
	if (etm_decoder_set_realign(dec, etm_realign_off) < 0 ||
	    (!replay && etm_decoder_push(dec, in->buf, in->n) < 0))
		goto fail;
	return dec;
fail:
	etm_decoder_free(dec);
	return NULL;
}

/* The fit of final counts @c. */
static void fit_from(struct diag_fit *fit, const struct etm_diag_counts *c)
{
	fit->score = (int64_t)diag_score(c);
	fit->errors = diag_score(c) - c->nomem / 4;
	fit->insns = c->insns;
	fit->parse_bad = c->pkt_errors + c->sync_lost;
	fit->packets = c->packets;
}

struct diag_fit etm_probe_fit(const struct diag_input *in,
			      const struct etm_config *cfg,
			      const struct etm_image *img,
			      const struct diag_bound *bd)
{
	struct etm_decoder *dec = fit_decoder(in, cfg, img, etm_dec_elements, 1);
	struct etm_diag *d = etm_diag_alloc(cfg, img);
	struct etm_item *it = malloc(sizeof(*it));
	struct diag_fit fit = { -1, 0, 0, 0, 0, 0, 0 };
	int ts_seen = 0;
	struct etm_diag_counts c;
	unsigned id = etm_cfg_trace_id(cfg);
	int rc = dec && d && it ? 0 : -etme_nomem;

	while (!rc) {
		rc = etm_decoder_next(dec, it, sizeof(*it));
		if (rc == -etme_again) {
			rc = etm_decoder_finish(dec);
			continue; /* no item: *it is not read */
		}
		if (rc)
			break;
		etm_diag_item(d, it);
		if (bd && bd->on && etm_diag_counts(d, &c, sizeof(c)) == 0 &&
		    diag_over(&c, bd))
			break; /* rc 0: score -1 */
		if (it->kind != etm_item_elem && it->pkt.id == id &&
		    it->pkt.type == etmp_async)
			fit.async = 1;
		ts_seen |= diag_ts_touched(it);
	}
	if (rc == -etme_eos && etm_diag_counts(d, &c, sizeof(c)) == 0) {
		fit_from(&fit, &c);
		fit.ts_free = !ts_seen;
	}
	free(it);
	etm_diag_free(d);
	etm_decoder_free(dec);
	return fit;
}

int etm_probe_fit_batchable(const struct etm_config *cfg)
{
	return cfg->protocol == etm_proto_etmv3 || cfg->protocol == etm_proto_ptm;
}

/* What the item path's packet items of source @id tell the counts: how
 * many, the error packets counted as symptoms (not one cut by the end of
 * the buffer), whether an A-sync was among them, and the input offset of
 * the first (UINT64_MAX: none). */
struct fit_pkts {
	uint64_t packets, errors, first;
	int async;
};

/* The packets of @cfg's source as compact records (the same packets as
 * the items: etm_decoder_next_packets()); 0 or an error. */
static int fit_pkts(const struct diag_input *in, const struct etm_config *cfg,
		    const struct etm_image *img, struct fit_pkts *pk)
{
	struct etm_decoder *dec = fit_decoder(in, cfg, img, etm_dec_packets, 0);
	struct etm_pkt_rec *r = malloc(FIT_BATCH * sizeof(*r));
	unsigned id = etm_cfg_trace_id(cfg);
	int n = dec && r ? 0 : -etme_nomem, i;

	*pk = (struct fit_pkts){ 0, 0, UINT64_MAX, 0 };
	while (n >= 0) {
		n = etm_decoder_next_packets(dec, r, FIT_BATCH);
		if (n == -etme_again)
			n = etm_decoder_finish(dec);
		for (i = 0; i < n; i++) {
			if (r[i].id != id)
				continue;
			if (!pk->packets++)
				pk->first = r[i].offset;
			pk->errors += r[i].type == etmp_error &&
				      r[i].value != etme_truncated;
			pk->async |= r[i].type == etmp_async;
		}
	}
	free(r);
	etm_decoder_free(dec);
	return n == -etme_eos ? 0 : n;
}

/* An error element the item path counts as a packet-level symptom only
 * before the source's first packet item (etm_diag_item(): saw_packets). */
static int fit_pkt_err(const struct etm_elem *e)
{
	return e->kind == etmk_error &&
	       (e->err == etme_bad_opc || e->err == etme_bad_packet ||
		e->err == etme_truncated);
}

/* The item path's counts of @cfg's elements, the packets' facts @pk
 * added; 0 or an error. Without packet items the diagnostics count every
 * packet-level error element; with them, those before the first packet
 * (an error element comes after the packet it is made from, at its
 * offset: the elements before the first packet are those at an earlier
 * offset). */
static int fit_elems(const struct diag_input *in, const struct etm_config *cfg,
		     const struct etm_image *img, const struct fit_pkts *pk,
		     struct etm_diag_counts *c)
{
	struct etm_decoder *dec = fit_decoder(in, cfg, img, etm_dec_elements, 0);
	struct etm_diag **byid = calloc(128, sizeof(*byid));
	struct etm_diag *d = etm_diag_alloc(cfg, img);
	unsigned id = etm_cfg_trace_id(cfg);
	uint64_t before = 0;
	const struct etm_elem *els;
	int n = dec && byid && d ? 0 : -etme_nomem, i;

	if (!n)
		byid[id & 0x7f] = d;
	while (n >= 0) {
		n = etm_decoder_next_elems(dec, &els, FIT_BATCH);
		if (n == -etme_again)
			n = etm_decoder_finish(dec);
		for (i = 0; i < n; i++)
			before += els[i].id == id && fit_pkt_err(&els[i]) &&
				  els[i].offset < pk->first;
		if (n > 0)
			etm_diag_elems_byid(byid, els, (size_t)n);
	}
	if (n == -etme_eos && etm_diag_counts(d, c, sizeof(*c)) == 0) {
		n = 0;
		c->pkt_errors = pk->errors + before;
		c->packets = pk->packets;
	}
	etm_diag_free(d);
	free(byid);
	etm_decoder_free(dec);
	return n;
}

struct diag_fit etm_probe_fit_batch(const struct diag_input *in,
				    const struct etm_config *cfg,
				    const struct etm_image *img)
{
	struct diag_fit fit = { -1, 0, 0, 0, 0, 0, 0 };
	struct etm_diag_counts c;
	struct fit_pkts pk;

	if (fit_pkts(in, cfg, img, &pk) == 0 &&
	    fit_elems(in, cfg, img, &pk, &c) == 0) {
		fit_from(&fit, &c);
		fit.async = pk.async;
	}
	return fit;
}
