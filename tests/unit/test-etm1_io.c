/* tests/unit/test-etm1_io.c - ETMv1 sample files and configuration: ETB
 * RAM words unpacked per port width (layouts of OpenOCD's etb.c, the words
 * below packed by hand), the OpenOCD `etm dump` layout (big-endian triples,
 * written by hand), our binary and text formats, demultiplexed captures,
 * and the ETMCR/ETMCCR accessors and checks (doc/etmv1.md §1-2). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>

#include "etest.h"

static void sample_is(const struct etm_e1_capture *c, size_t i, unsigned ps,
		      unsigned sync, unsigned pkt, unsigned trig)
{
	struct etm_e1_sample s;

	ET_CHECK(i < c->n);
	if (i >= c->n)
		return;
	etm_e1_rec_get(c->rec + i * ETM_E1_REC, &s);
	ET_EQ(s.ps, ps);
	ET_EQ(s.sync, sync);
	ET_EQ(s.pkt, pkt);
	ET_EQ(s.trig, trig);
}

/* ETB words: sample = PIPESTAT | TRACEPKT << 3 | TRACESYNC << (3 + w). */
static void t_etb(void)
{
	/* 4-bit, three per word in bytes: (BE, 9, sync) = 4|0x48|0x80 =
	 * 0xCC; (IE, 5) = 0x28; (TD, 0xA, sync) = 7|0x50|0x80 = 0xD7 */
	static const uint8_t w4[4] = { 0xcc, 0x28, 0xd7, 0x00 };
	/* 8-bit, two per word in 12 bits: (WT, 0xA5, sync) = 3|0x528|0x800
	 * = 0xD2B; (BE, 0x12) = 4|0x90 = 0x094: word 0x094D2B */
	static const uint8_t w8[4] = { 0x2b, 0x4d, 0x09, 0x00 };
	/* 16-bit, one per word: (BD, 0xBEEF, sync) = 5|0x5F778|0x80000 =
	 * 0xDF77D */
	static const uint8_t w16[4] = { 0x7d, 0xf7, 0x0d, 0x00 };
	struct etm_e1_capture c;

	memset(&c, 0, sizeof(c));
	c.cfg.etmcr = 0x00;
	ET_EQ(etm_e1_read(&c, etm_e1f_etb, w4, 4, NULL, 0), 0);
	ET_EQ(c.n, 3);
	sample_is(&c, 0, 4, 1, 0x9, 0);
	sample_is(&c, 1, 0, 0, 0x5, 0);
	sample_is(&c, 2, 7, 1, 0xa, 0);
	etm_e1_capture_fini(&c);
	c.cfg.etmcr = 0x10;
	ET_EQ(etm_e1_read(&c, etm_e1f_etb, w8, 4, NULL, 0), 0);
	ET_EQ(c.n, 2);
	sample_is(&c, 0, 3, 1, 0xa5, 0);
	sample_is(&c, 1, 4, 0, 0x12, 0);
	etm_e1_capture_fini(&c);
	c.cfg.etmcr = 0x20;
	ET_EQ(etm_e1_read(&c, etm_e1f_etb, w16, 4, NULL, 0), 0);
	ET_EQ(c.n, 1);
	sample_is(&c, 0, 5, 1, 0xbeef, 0);
	etm_e1_capture_fini(&c);
	/* a size that is not whole words */
	c.cfg.etmcr = 0x10;
	ET_EQ(etm_e1_read(&c, etm_e1f_etb, w16, 3, NULL, 0), -etme_parse);
}

/* OpenOCD dump: BE u32 status 1, control 0x10, depth 2, then (IE, 0x80,
 * TRACESYNC) and (WT as a resolved trigger: flags 2, packet 0x42). */
static void t_openocd(void)
{
	static const uint8_t f[36] = {
		0, 0, 0, 1, 0, 0, 0, 0x10, 0, 0, 0, 2,
		0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 1,
		0, 0, 0, 3, 0, 0, 0, 0x42, 0, 0, 0, 2
	};
	struct etm_e1_capture c;
	uint8_t *out;
	size_t n;

	memset(&c, 0, sizeof(c));
	ET_EQ(etm_e1_sniff(f, sizeof(f)), etm_e1f_openocd);
	ET_EQ(etm_e1_read(&c, etm_e1f_unknown, f, sizeof(f), NULL, 0), 0);
	ET_EQ(c.status, 1);
	ET_EQ(c.cfg.etmcr, 0x10);
	ET_EQ(c.cfg.protocol, etm_proto_etmv1);
	ET_EQ(etm_cfg_e1_minor(&c.cfg), 3); /* no ETMCCR: v1.3 */
	ET_EQ(c.n, 2);
	sample_is(&c, 0, 0, 1, 0x80, 0);
	sample_is(&c, 1, 3, 0, 0x42, 1);
	/* written back: the same bytes */
	ET_EQ(etm_e1_write(&c, etm_e1f_openocd, &out, &n), 0);
	ET_EQ(n, sizeof(f));
	ET_CHECK(!memcmp(out, f, sizeof(f)));
	free(out);
	etm_e1_capture_fini(&c);
	/* depth larger than the file */
	ET_EQ(etm_e1_read(&c, etm_e1f_openocd, f, 24, NULL, 0), -etme_parse);
}

static void t_bin_text(void)
{
	static const char txt[] =
		"# a comment\n@etm 1.2\n@port 16\n@ctxid 2\n@data both\n"
		"@cycleacc 1\n@brout 1\n@latency 1\n"
		"0 TD 0 0000\n1 BE 0 0000   # trace on\n2 0 1 80C0\n3 TR 0 0003 T\n";
	struct etm_e1_capture c, d;
	uint8_t *out;
	size_t n;
	char err[128];

	memset(&c, 0, sizeof(c));
	ET_EQ(etm_e1_read(&c, etm_e1f_text, (const uint8_t *)txt,
			  strlen(txt), err, sizeof(err)),
	      0);
	ET_EQ(c.cfg.protocol, etm_proto_etmv1);
	ET_EQ(etm_cfg_e1_port(&c.cfg), 16);
	ET_EQ(etm_cfg_e1_minor(&c.cfg), 2);
	ET_EQ(etm_cfg_ctxid_bytes(&c.cfg), 2);
	ET_EQ(etm_cfg_data_addr(&c.cfg), 1);
	ET_EQ(etm_cfg_data_value(&c.cfg), 1);
	ET_EQ(etm_cfg_cycle_acc(&c.cfg), 1);
	ET_EQ(etm_cfg_branch_bcast(&c.cfg), 1);
	ET_CHECK(c.cfg.flags & ETM_CFG_E1_LATENCY1);
	ET_EQ(c.n, 4);
	sample_is(&c, 1, 4, 0, 0, 0);
	sample_is(&c, 2, 0, 1, 0x80c0, 0);
	sample_is(&c, 3, 6, 0, 3, 1);
	/* binary round trip keeps records and configuration */
	ET_EQ(etm_e1_write(&c, etm_e1f_bin, &out, &n), 0);
	ET_EQ(n, 32 + 4 * ETM_E1_REC);
	ET_EQ(etm_e1_sniff(out, n), etm_e1f_bin);
	memset(&d, 0, sizeof(d));
	ET_EQ(etm_e1_read(&d, etm_e1f_unknown, out, n, NULL, 0), 0);
	ET_EQ(d.n, c.n);
	ET_CHECK(!memcmp(d.rec, c.rec, c.n * ETM_E1_REC));
	ET_EQ(d.cfg.etmcr, c.cfg.etmcr);
	ET_EQ(etm_cfg_e1_minor(&d.cfg), 2);
	out[20] = 9; /* sample count no longer matches the size */
	etm_e1_capture_fini(&d);
	ET_EQ(etm_e1_read(&d, etm_e1f_bin, out, n, NULL, 0), -etme_parse);
	free(out);
	etm_e1_capture_fini(&c);
	/* a dropped line: cycle 2 after cycle 0 */
	ET_EQ(etm_e1_read(&c, etm_e1f_text, (const uint8_t *)"0 IE 0 0\n2 IE 0 0\n",
			  18, err, sizeof(err)),
	      -etme_parse);
	ET_CHECK(strstr(err, "line 2") != NULL);
}

/* Demultiplexed: A (earlier cycle) on PIPESTAT[2:0] / TRACESYNC bit 0 /
 * TRACEPKT[w-1:0], B on PIPESTAT[6:4] / bit 1 / TRACEPKT[2w-1:w]. */
static void t_demux(void)
{
	struct etm_e1_sample in = { 0x43, 0x2, 0, 0x1280 };
	struct etm_e1_capture c;

	memset(&c, 0, sizeof(c));
	ET_EQ(etm_e1_normalise(&c, etm_e1m_demux, 8, &in, 1), 0);
	ET_EQ(c.n, 2);
	sample_is(&c, 0, 3, 0, 0x80, 0);
	sample_is(&c, 1, 4, 1, 0x12, 0);
	ET_EQ(etm_e1_normalise(&c, etm_e1m_mux, 8, &in, 1), -etme_invalid);
	etm_e1_capture_fini(&c);
}

static void t_config(void)
{
	/* ETMCCR[30:28] protocol number -> minor (IHI 0014Q Table 1.1) */
	static const int minor[8] = { 0, 1, 2, 3, 2, 3, -1, 3 };
	struct etm_config c;
	const char *why;
	unsigned k;

	etm_config_init(&c);
	c.protocol = etm_proto_etmv1;
	c.traceid = 0x10;
	c.etmcr = 0x10;
	for (k = 0; k < 8; k++) {
		c.etmccr = k << 28;
		ET_EQ(etm_cfg_e1_minor(&c), minor[k]);
		ET_EQ(etm_config_check(&c, &why) == 0, minor[k] >= 0);
	}
	c.etmccr = 1u << 31;
	ET_EQ(etm_config_check(&c, &why), -etme_bad_config);
	c.etmccr = 0;
	c.etmcr = 0x30; /* port size 011: reserved for ETMv1 */
	ET_EQ(etm_cfg_e1_port(&c), 0);
	ET_EQ(etm_config_check(&c, &why), -etme_bad_config);
	c.etmcr = 0x10;
	c.protocol = etm_proto_etmv2;
	ET_EQ(etm_config_check(&c, &why), -etme_bad_config);
	ET_CHECK(why && strstr(why, "ETMv2"));
	ET_CHECK(!strcmp(etm_protocol_name(etm_proto_etmv1), "etmv1"));
}

/* Data packets are counted per load/store: vectors.json V9 (address and
 * value tracing): LDR at 0x8014 then STR, each a data address (5 bytes,
 * then 1 byte compressed) and a 4-byte value. */
static void t_data_counts(void)
{
	static const uint32_t prog[2] = { 0xe5921000, 0xe5821004 };
	/* PIPESTAT, TRACESYNC, TRACEPKT per cycle (V9 as in vectors.json) */
	static const uint8_t v9[22][3] = {
		{ 7, 0, 0x00 },
		{ 4, 0, 0x00 },
		{ 0, 1, 0x94 },
		{ 0, 0, 0x80 },
		{ 1, 0, 0x82 },
		{ 1, 0, 0x80 },
		{ 3, 0, 0x10 },
		{ 3, 0, 0x80 },
		{ 3, 0, 0xa0 },
		{ 3, 0, 0x80 },
		{ 3, 0, 0x80 },
		{ 3, 0, 0x02 },
		{ 3, 0, 0x0d },
		{ 3, 0, 0xf0 },
		{ 3, 0, 0xfe },
		{ 3, 0, 0xca },
		{ 3, 0, 0x04 },
		{ 3, 0, 0x0d },
		{ 3, 0, 0xf0 },
		{ 3, 0, 0xfe },
		{ 3, 0, 0xca },
		{ 7, 0, 0x00 },
	};
	struct etm_image *img = etm_image_alloc();
	struct etm_config cfg;
	struct etm_e1_stats st;
	struct etm_e1 *d;
	struct etm_elem el;
	uint8_t rec[22 * ETM_E1_REC], b[8];
	int k;

	for (k = 0; k < 8; k++)
		b[k] = (uint8_t)(prog[k / 4] >> (8 * (k % 4)));
	ET_CHECK(img && etm_image_add_buffer(img, etm_space_any, 0x8014, b,
					     8) == 0);
	for (k = 0; k < 22; k++) {
		struct etm_e1_sample s = { v9[k][0], v9[k][1], 0, v9[k][2] };

		etm_e1_rec_put(rec + k * ETM_E1_REC, &s);
	}
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv1;
	cfg.traceid = 0x10;
	cfg.etmcr = 0x1c; /* 8-bit, address and value */
	cfg.etmccr = 2u << 28;
	d = etm_e1_alloc(&cfg, img);
	ET_CHECK(d);
	ET_EQ(etm_e1_push(d, rec, sizeof(rec)), 0);
	ET_EQ(etm_e1_finish(d), 0);
	while (etm_e1_next(d, &el, sizeof(el)) == 0)
		ET_CHECK(el.kind != etmk_error);
	etm_e1_stats(d, &st);
	ET_EQ(st.samples, 22);
	ET_EQ(st.insns, 2);
	ET_EQ(st.branches, 1);
	ET_EQ(st.data_addrs, 2);
	ET_EQ(st.data_values, 2);
	ET_EQ(st.data_bytes, 8);
	etm_e1_free(d);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t_etb);
	ETEST(t_openocd);
	ETEST(t_bin_text);
	ETEST(t_demux);
	ETEST(t_config);
	ETEST(t_data_counts);
	return etest_end();
}
