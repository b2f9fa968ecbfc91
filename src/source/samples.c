/* source/samples.c - ETMv1 sample records and configuration: the record
 * layout of the decoder's input, the ETMCR/ETMCCR accessors and checks, and
 * port-mode normalisation (the decoder only sees one sample per core cycle).
 * File readers and writers are in samples_io.c. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/bits.h"

void etm_e1_rec_put(uint8_t *rec, const struct etm_e1_sample *s)
{
	rec[0] = (uint8_t)((s->ps & 15u) | (s->sync ? 0x10u : 0) |
			   (s->trig ? 0x20u : 0));
	rec[1] = (uint8_t)(s->pkt & 0xff);
	rec[2] = (uint8_t)(s->pkt >> 8);
	rec[3] = 0;
}

void etm_e1_rec_get(const uint8_t *rec, struct etm_e1_sample *s)
{
	s->ps = rec[0] & 15u;
	s->sync = (rec[0] >> 4) & 1u;
	s->trig = (rec[0] >> 5) & 1u;
	s->pkt = (uint16_t)(rec[1] | rec[2] << 8);
}

void etm_e1_capture_fini(struct etm_e1_capture *c)
{
	if (!c)
		return;
	free(c->rec);
	c->rec = NULL;
	c->n = 0;
	c->cap = 0;
}

int etm_cfg_e1_port(const struct etm_config *cfg)
{
	/* ETMCR[6:4] port size (IHI 0014Q §3.5, ETMv1 encodings) */
	switch (etm_bits(cfg->etmcr, 6, 4)) {
	case 0: return 4;
	case 1: return 8;
	case 2: return 16;
	default: return 0;
	}
}

int etm_cfg_e1_minor(const struct etm_config *cfg)
{
	/* ETMCCR[30:28] protocol number, IHI 0014Q Table 1.1 */
	static const int8_t minor[8] = { 0, 1, 2, 3, 2, 3, -1, 3 };

	return minor[etm_bits(cfg->etmccr, 30, 28)];
}

int etm_e1_config_check(const struct etm_config *cfg, const char **why)
{
	if (cfg->protocol == etm_proto_etmv2) {
		*why = "ETMv2 (ETM10) is not decoded: its PIPESTAT table, TFO "
		       "header values and branch address layout are not "
		       "confirmed (doc/etmv1.md)";
		return -etme_bad_config;
	}
	if (etm_bit(cfg->etmccr, 31)) {
		*why = "ETMCCR[31] = 1: an ETMv2+ ETM, not ETMv1";
		return -etme_bad_config;
	}
	if (etm_cfg_e1_minor(cfg) < 0) {
		*why = "reserved ETMv1 protocol number ETMCCR[30:28] = 6";
		return -etme_bad_config;
	}
	if (!etm_cfg_e1_port(cfg)) {
		*why = "reserved ETMv1 port size ETMCR[6:4]";
		return -etme_bad_config;
	}
	if (etm_cfg_trace_id(cfg) == 0 || etm_cfg_trace_id(cfg) >= 0x70) {
		*why = "trace ID must be 0x01-0x6f";
		return -etme_bad_config;
	}
	return 0;
}

int etm_e1_append(struct etm_e1_capture *c, const struct etm_e1_sample *s)
{
	if (c->n >= c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1024;
		uint8_t *r = realloc(c->rec, cap * ETM_E1_REC);

		if (!r)
			return -etme_nomem;
		c->rec = r;
		c->cap = cap;
	}
	etm_e1_rec_put(c->rec + c->n * ETM_E1_REC, s);
	c->n++;
	return 0;
}

int etm_e1_normalise(struct etm_e1_capture *c, enum etm_e1_port_mode mode,
		     unsigned width, const struct etm_e1_sample *in, size_t n)
{
	struct etm_e1_sample a;
	size_t i;
	int err;

	if (!c || (!in && n) || (width != 4 && width != 8 && width != 16))
		return -etme_invalid;
	for (i = 0; i < n; i++) {
		if (mode == etm_e1m_normal) {
			err = etm_e1_append(c, &in[i]);
		} else if (mode == etm_e1m_demux && width <= 8) {
			/* one capture sample = two cycles on twice the pins:
			 * A (the earlier cycle) on PIPESTAT[2:0], TRACESYNC
			 * bit 0, TRACEPKT[w-1:0]; B on PIPESTAT[6:4], bit 1,
			 * TRACEPKT[2w-1:w] (doc/etmv1.md, UNCONFIRMED order) */
			a.ps = in[i].ps & 7u;
			a.sync = in[i].sync & 1u;
			a.trig = 0;
			a.pkt = (uint16_t)(in[i].pkt & ((1u << width) - 1));
			err = etm_e1_append(c, &a);
			if (err < 0)
				return err;
			a.ps = in[i].ps >> 4 & 7u;
			a.sync = in[i].sync >> 1 & 1u;
			a.pkt = (uint16_t)(in[i].pkt >> width &
					   ((1u << width) - 1));
			err = etm_e1_append(c, &a);
		} else {
			return -etme_invalid; /* multiplexed: layout unknown */
		}
		if (err < 0)
			return err;
	}
	return 0;
}
