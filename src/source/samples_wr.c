/* source/samples_wr.c - writers of ETMv1 sample files: our binary and text
 * formats and OpenOCD's `etm dump` layout (big-endian u32 status, ETMCR
 * shadow, depth, then pipestat / packet / flags per sample; a TR cycle is
 * written resolved, as OpenOCD stores it: its real status and flag 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/bits.h"

static void e1_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void e1_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int e1_write_bin(const struct etm_e1_capture *c, uint8_t *o)
{
	const struct etm_config *cfg = &c->cfg;
	int ctx = etm_cfg_ctxid_bytes(cfg);

	memcpy(o, "ETM1TRC", 8);
	o[8] = 1, o[9] = 0;
	o[10] = cfg->protocol == etm_proto_etmv2 ? 2 : 1;
	o[11] = (uint8_t)(etm_cfg_e1_minor(cfg) < 0 ? 0 :
						      etm_cfg_e1_minor(cfg));
	o[12] = (uint8_t)etm_cfg_e1_port(cfg);
	o[13] = (uint8_t)ctx;
	o[14] = (uint8_t)(etm_cfg_data_addr(cfg) | etm_cfg_data_value(cfg) << 1);
	o[15] = (uint8_t)(etm_cfg_cycle_acc(cfg) |
			  etm_cfg_branch_bcast(cfg) << 1);
	e1_put_le32(o + 16, cfg->etmcr);
	e1_put_le32(o + 20, (uint32_t)c->n);
	memset(o + 24, 0, 8);
	memcpy(o + 32, c->rec, c->n * ETM_E1_REC);
	return 0;
}

static void e1_write_ocd(const struct etm_e1_capture *c, uint8_t *o)
{
	struct etm_e1_sample s;
	size_t i;

	e1_put_be32(o, c->status);
	e1_put_be32(o + 4, c->cfg.etmcr);
	e1_put_be32(o + 8, (uint32_t)c->n);
	for (i = 0; i < c->n; i++) {
		uint8_t *r = o + 12 + i * 12;
		uint32_t fl;

		etm_e1_rec_get(c->rec + i * ETM_E1_REC, &s);
		fl = (s.sync ? 1u : 0) | (s.trig ? 2u : 0);
		if (!s.trig && s.ps == 6) { /* raw TR: resolve it */
			s.ps = (uint8_t)(s.pkt & 7u);
			fl |= 2u;
		}
		e1_put_be32(r, s.ps & 7u);
		e1_put_be32(r + 4, s.pkt);
		e1_put_be32(r + 8, fl);
	}
}

static size_t e1_write_text(const struct etm_e1_capture *c, char *o,
			    size_t cap)
{
	static const char *const nm[8] = {
		"IE", "ID", "IN", "WT", "BE", "BD", "TR", "TD"
	};
	const struct etm_config *cfg = &c->cfg;
	struct etm_e1_sample s;
	size_t k, i;
	int port = etm_cfg_e1_port(cfg);

	k = (size_t)snprintf(o, cap,
			     "@etm %d.%d\n@port %d\n@ctxid %d\n@data %s\n@cycleacc %d\n"
			     "@brout %d\n@latency %d\n",
			     cfg->protocol == etm_proto_etmv2 ? 2 : 1,
			     etm_cfg_e1_minor(cfg) < 0 ? 0 : etm_cfg_e1_minor(cfg), port,
			     etm_cfg_ctxid_bytes(cfg),
			     etm_cfg_data_addr(cfg)  ? (etm_cfg_data_value(cfg) ? "both" :
										  "addr") :
			     etm_cfg_data_value(cfg) ? "value" :
						       "none",
			     etm_cfg_cycle_acc(cfg), etm_cfg_branch_bcast(cfg),
			     (cfg->flags & ETM_CFG_E1_LATENCY1) != 0);
	for (i = 0; i < c->n && k < cap; i++) {
		etm_e1_rec_get(c->rec + i * ETM_E1_REC, &s);
		k += (size_t)snprintf(o + k, cap - k, "%zu %s %u %0*X%s\n", i,
				      s.ps < 8 ? nm[s.ps] : "15", s.sync,
				      port / 4, s.pkt, s.trig ? " T" : "");
	}
	return k;
}

int etm_e1_write(const struct etm_e1_capture *c, enum etm_e1_format fmt,
		 uint8_t **out, size_t *outn)
{
	size_t n;

	if (!c || !out || !outn)
		return -etme_invalid;
	switch (fmt) {
	case etm_e1f_bin:
		n = 32 + c->n * ETM_E1_REC;
		break;
	case etm_e1f_openocd:
		n = 12 + c->n * 12;
		break;
	case etm_e1f_text:
		n = 256 + c->n * 24;
		break;
	default:
		return -etme_invalid;
	}
	*out = malloc(n);
	if (!*out)
		return -etme_nomem;
	if (fmt == etm_e1f_bin)
		e1_write_bin(c, *out);
	else if (fmt == etm_e1f_openocd)
		e1_write_ocd(c, *out);
	else
		n = e1_write_text(c, (char *)*out, n);
	*outn = n;
	return 0;
}
