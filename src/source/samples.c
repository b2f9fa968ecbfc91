/* source/samples.c - ETMv1 sample records: the record layout of the
 * decoder's input and port-mode normalisation (the decoder only sees one
 * sample per core cycle). File readers and writers are in samples_io.c;
 * the ETMCR/ETMCCR accessors and checks in common/config_e1.c. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/grow.h"

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

int etm_e1_append(struct etm_e1_capture *c, const struct etm_e1_sample *s)
{
	uint8_t *r = etm_grow(c->rec, &c->cap, c->n + 1, ETM_E1_REC, 1024);

	if (!r)
		return -etme_nomem;
	c->rec = r;
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
