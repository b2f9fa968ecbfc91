/* source/samples_io.c - ETMv1 sample files: our binary (".etm1") and text
 * (".etm1.txt") formats (doc/etmv1.md §Sample formats), OpenOCD's `etm dump`
 * file (big-endian u32: status, ETMCR shadow, depth, then pipestat / packet /
 * flags per sample, triggers already resolved) and ETB RAM images (the ETM9
 * packing as OpenOCD's etb.c unpacks it). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "common/bits.h"
#include "common/strbuf.h"

static const char e1_magic[8] = "ETM1TRC";

static uint32_t e1_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void e1_cfg_init(struct etm_config *cfg)
{
	etm_config_init(cfg);
	cfg->protocol = etm_proto_etmv1;
	cfg->traceid = 0x10;
}

enum etm_e1_format etm_e1_sniff(const uint8_t *buf, size_t n)
{
	if (n >= 32 && !memcmp(buf, e1_magic, 8))
		return etm_e1f_bin;
	if (n >= 1 && (buf[0] == '@' || buf[0] == '#' || isdigit(buf[0])))
		return etm_e1f_text;
	if (n >= 12 && (n - 12) % 12 == 0 &&
	    (uint64_t)e1_be32(buf + 8) * 12 == n - 12)
		return etm_e1f_openocd;
	return etm_e1f_unknown;
}

/* ---- binary ------------------------------------------------------------- */

int etm_e1_bin_header(const uint8_t *b, size_t n, struct etm_config *cfg,
		      uint32_t *count)
{
	unsigned major, minor, port, ctx, data, fl;
	static const unsigned ctxbits[5] = { 0, 1, 2, 0, 3 };

	if (!b || !cfg || !count || n < 32 || memcmp(b, e1_magic, 8) ||
	    etm_le16(b + 8) != 1)
		return -etme_parse;
	major = b[10], minor = b[11], port = b[12], ctx = b[13];
	data = b[14], fl = b[15];
	if ((major != 1 && major != 2) || minor > 3 ||
	    (port != 4 && port != 8 && port != 16) || ctx > 4 || ctx == 3)
		return -etme_parse;
	e1_cfg_init(cfg);
	cfg->protocol = major == 1 ? etm_proto_etmv1 : etm_proto_etmv2;
	cfg->etmcr = etm_le32(b + 16);
	if (!cfg->etmcr)
		cfg->etmcr = (port == 4 ? 0u : port == 8 ? 1u :
							   2u)
				     << 4 |
			     ctxbits[ctx] << 14 | (data & 1u) << 3 |
			     (data >> 1 & 1u) << 2 | (fl & 1u) << 12 |
			     (fl >> 1 & 1u) << 8;
	cfg->etmccr = (uint32_t)minor << 28;
	*count = etm_le32(b + 20);
	return 0;
}

static int e1_read_bin(struct etm_e1_capture *c, const uint8_t *b, size_t n,
		       char *eb, size_t el)
{
	uint32_t cnt;

	if (etm_e1_bin_header(b, n, &c->cfg, &cnt) < 0)
		return etm_err_msg(eb, el, -etme_parse,
				   "not an ETM1TRC v1 file (or a bad header field)");
	if ((uint64_t)cnt * ETM_E1_REC != n - 32)
		return etm_err_msg(eb, el, -etme_parse,
				   "sample count %u does not match the file size",
				   cnt);
	c->rec = malloc(cnt ? (size_t)cnt * ETM_E1_REC : 1);
	if (!c->rec)
		return -etme_nomem;
	memcpy(c->rec, b + 32, (size_t)cnt * ETM_E1_REC);
	c->n = c->cap = cnt;
	return 0;
}

/* ---- text ----------------------------------------------------------------- */

static const char *const e1_names[8] = {
	"IE", "ID", "IN", "WT", "BE", "BD", "TR", "TD"
};

static int e1_ps_token(const char *t)
{
	char *end;
	long v;
	int k;

	for (k = 0; k < 8; k++)
		if (!strcmp(t, e1_names[k]))
			return k;
	v = strtol(t, &end, 0);
	return *end || v < 0 || v > 15 ? -1 : (int)v;
}

static int e1_header(struct etm_config *cfg, const char *key,
		     const char *val)
{
	unsigned long v = strtoul(val, NULL, 0);

	if (!strcmp(key, "etm")) {
		cfg->protocol = val[0] == '2' ? etm_proto_etmv2 :
						etm_proto_etmv1;
		cfg->etmccr = (uint32_t)(val[0] && val[1] == '.' ?
						 (val[2] - '0') & 7 :
						 0)
			      << 28;
	} else if (!strcmp(key, "port")) {
		if (v != 4 && v != 8 && v != 16)
			return -1;
		cfg->etmcr = (cfg->etmcr & ~0x70u) |
			     (v == 4 ? 0u : v == 8 ? 1u :
						     2u)
				     << 4;
	} else if (!strcmp(key, "ctxid")) {
		if (v == 3 || v > 4)
			return -1;
		cfg->etmcr = (cfg->etmcr & ~0xc000u) |
			     (uint32_t)(v == 4 ? 3 : v) << 14;
	} else if (!strcmp(key, "data")) {
		cfg->etmcr &= ~0xcu;
		if (!strcmp(val, "addr") || !strcmp(val, "both"))
			cfg->etmcr |= 8u;
		if (!strcmp(val, "value") || !strcmp(val, "both"))
			cfg->etmcr |= 4u;
	} else if (!strcmp(key, "cycleacc")) {
		cfg->etmcr = (cfg->etmcr & ~0x1000u) | (v ? 0x1000u : 0);
	} else if (!strcmp(key, "brout")) {
		cfg->etmcr = (cfg->etmcr & ~0x100u) | (v ? 0x100u : 0);
	} else if (!strcmp(key, "latency")) {
		cfg->flags = (cfg->flags & ~ETM_CFG_E1_LATENCY1) |
			     (v ? ETM_CFG_E1_LATENCY1 : 0);
	} else if (!strcmp(key, "etmcr")) {
		cfg->etmcr = (uint32_t)v;
	} else if (!strcmp(key, "etmccr")) {
		cfg->etmccr = (uint32_t)v;
	} else if (strcmp(key, "trresolved")) {
		return -1;
	}
	return 0;
}

/* One sample line: <cycle> <PS> <SYNC> <PKT hex> [T]. */
static int e1_line(struct etm_e1_capture *c, char *s, unsigned long *cyc)
{
	char *t[6], *save = NULL;
	struct etm_e1_sample smp = { 0 };
	int k = 0, ps;

	for (char *p = strtok_r(s, " \t", &save); p && k < 6;
	     p = strtok_r(NULL, " \t", &save))
		t[k++] = p;
	if (k < 4 || k > 5 || strtoul(t[0], NULL, 0) != *cyc)
		return -1;
	ps = e1_ps_token(t[1]);
	if (ps < 0 || (t[2][0] != '0' && t[2][0] != '1') || t[2][1])
		return -1;
	smp.ps = (uint8_t)ps;
	smp.sync = (uint8_t)(t[2][0] - '0');
	smp.pkt = (uint16_t)strtoul(t[3], NULL, 16);
	smp.trig = k == 5 && !strcmp(t[4], "T");
	if (k == 5 && !smp.trig)
		return -1;
	(*cyc)++;
	return etm_e1_append(c, &smp);
}

static int e1_read_text(struct etm_e1_capture *c, const uint8_t *b, size_t n,
			char *eb, size_t el)
{
	char line[256];
	unsigned long cyc = 0, lno = 0;
	size_t i = 0, k;

	while (i < n) {
		for (k = 0; i < n && b[i] != '\n'; i++)
			if (k + 1 < sizeof(line))
				line[k++] = (char)b[i];
		i++;
		lno++;
		line[k] = 0;
		char *h = strchr(line, '#'), *s = line;

		if (h)
			*h = 0;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			continue;
		if (*s == '@') {
			char key[32] = "", val[64] = "";

			if (sscanf(s + 1, "%31s %63s", key, val) < 1 ||
			    e1_header(&c->cfg, key, val) < 0)
				return etm_err_msg(eb, el, -etme_parse,
						   "line %lu: bad header", lno);
			continue;
		}
		int err = e1_line(c, s, &cyc);

		if (err == -etme_nomem)
			return err;
		if (err < 0)
			return etm_err_msg(eb, el, -etme_parse,
					   "line %lu: bad sample (expected cycle "
					   "%lu)",
					   lno, cyc);
	}
	return 0;
}

/* ---- OpenOCD dump and ETB image ------------------------------------------ */

static int e1_read_ocd(struct etm_e1_capture *c, const uint8_t *b, size_t n,
		       char *eb, size_t el)
{
	uint32_t cnt, i;
	struct etm_e1_sample s;
	int err;

	if (n < 12 || (uint64_t)e1_be32(b + 8) * 12 != n - 12)
		return etm_err_msg(eb, el, -etme_parse,
				   "not an OpenOCD etm dump (depth/size)");
	c->status = e1_be32(b);
	c->cfg.etmcr = e1_be32(b + 4);
	/* the dump has no ETMCCR: ETMv1.3 (the superset) unless told */
	if (!c->cfg.etmccr)
		c->cfg.etmccr = 3u << 28;
	cnt = e1_be32(b + 8);
	for (i = 0; i < cnt; i++) {
		const uint8_t *r = b + 12 + (size_t)i * 12;
		uint32_t fl = e1_be32(r + 8);

		s.ps = (uint8_t)(e1_be32(r) & 7u);
		s.pkt = (uint16_t)e1_be32(r + 4);
		s.sync = (fl & 1u) != 0;
		s.trig = (fl & 2u) != 0;
		err = etm_e1_append(c, &s);
		if (err < 0)
			return err;
	}
	return 0;
}

static int e1_read_etb(struct etm_e1_capture *c, const uint8_t *b, size_t n,
		       char *eb, size_t el)
{
	int port = etm_cfg_e1_port(&c->cfg), k, per, bits;
	struct etm_e1_sample s = { 0 };
	size_t i;
	int err;

	if (!port || n % 4)
		return etm_err_msg(eb, el, -etme_parse,
				   "ETB image: size not a multiple of 4 or no "
				   "port width");
	per = port == 4 ? 3 : port == 8 ? 2 :
					  1;
	bits = port + 4; /* PIPESTAT[2:0], TRACEPKT, TRACESYNC */
	for (i = 0; i < n; i += 4) {
		uint32_t w = etm_le32(b + i);

		for (k = 0; k < per; k++) {
			uint32_t v = w >> (k * (port == 4 ? 8 : bits));

			s.ps = (uint8_t)(v & 7u);
			s.pkt = (uint16_t)(v >> 3 & ((1u << port) - 1));
			s.sync = (uint8_t)(v >> (3 + port) & 1u);
			err = etm_e1_append(c, &s);
			if (err < 0)
				return err;
		}
	}
	return 0;
}

int etm_e1_read(struct etm_e1_capture *c, enum etm_e1_format fmt,
		const uint8_t *buf, size_t n, char *errbuf, size_t errlen)
{
	struct etm_config keep;
	int err;

	if (!c || (!buf && n))
		return -etme_invalid;
	keep = c->cfg;
	memset(c, 0, sizeof(*c));
	e1_cfg_init(&c->cfg);
	if (fmt == etm_e1f_unknown)
		fmt = etm_e1_sniff(buf, n);
	switch (fmt) {
	case etm_e1f_bin:
		err = e1_read_bin(c, buf, n, errbuf, errlen);
		break;
	case etm_e1f_text:
		err = e1_read_text(c, buf, n, errbuf, errlen);
		break;
	case etm_e1f_openocd:
		c->cfg.etmccr = keep.etmccr;
		err = e1_read_ocd(c, buf, n, errbuf, errlen);
		break;
	case etm_e1f_etb:
		c->cfg = keep;
		err = e1_read_etb(c, buf, n, errbuf, errlen);
		break;
	default:
		err = etm_err_msg(errbuf, errlen, -etme_parse,
				  "unknown sample file format");
	}
	if (err < 0)
		etm_e1_capture_fini(c);
	return err;
}
