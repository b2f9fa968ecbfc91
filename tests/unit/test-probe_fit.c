/* tests/unit/test-probe_fit.c - the configuration probe's batch fit
 * (probe/probe_fit.h: element batches and compact packet records) gives
 * the fit of the item path (every packet and element an item) on
 * hand-built raw input, random bytes with A-syncs in them, and TC2's
 * CoreSight capture eight times in a row (256 KiB, as the CLI's probe
 * reads) for each of its five sources, as configured and with wrong
 * configurations (cycle-accurate, Context ID size, the other protocol),
 * through the deformatter's recording and without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "decoder/dfmt_replay.h"
#include "etest.h"
#include "probe/probe_fit.h"

#define COPIES 8

static int nfits;

/* The batch fit of @cfg equals the item path's in all but ts_free (the
 * batch path does not tell it); the item path's into *@out (may be
 * NULL). */
static void same_fit(const struct diag_input *in, const struct etm_config *cfg,
		     const struct etm_image *img, struct diag_fit *out)
{
	struct diag_fit a = etm_probe_fit(in, cfg, img, NULL);
	struct diag_fit b = etm_probe_fit_batch(in, cfg, img);

	if (out)
		*out = a;
	nfits++;

	ET_CHECK(etm_probe_fit_batchable(cfg));
	ET_EQ(b.score, a.score);
	ET_EQ(b.insns, a.insns);
	ET_EQ(b.parse_bad, a.parse_bad);
	ET_EQ(b.packets, a.packets);
	ET_EQ(b.async, a.async);
	ET_EQ(b.errors, a.errors);
	ET_EQ(b.ts_free, 0);
	if (a.score != b.score || a.packets != b.packets ||
	    a.parse_bad != b.parse_bad)
		printf("  id 0x%02x proto %d etmcr 0x%08x: item %lld/%llu/%llu, "
		       "batch %lld/%llu/%llu\n",
		       cfg->traceid, cfg->protocol, cfg->etmcr, (long long)a.score,
		       (unsigned long long)a.packets,
		       (unsigned long long)a.parse_bad, (long long)b.score,
		       (unsigned long long)b.packets,
		       (unsigned long long)b.parse_bad);
}

static void raw_cfg(struct etm_config *c, enum etm_protocol proto)
{
	etm_config_init(c);
	c->protocol = proto;
	c->traceid = 0x10;
	c->etmidr = proto == etm_proto_ptm ? 0x411cf312 : 0x410cf250;
}

/* Hand-built raw input. PTM: two bytes out of sync, then an A-sync (five
 * 0x00, 0x80; ptm.md "A-sync"): a notsync packet and the A-sync, two
 * packets, no symptom (nothing was in sync before, so no sync is lost).
 * ETMv3.5 with timestamps off (ETMCR[28] 0): the same, then a timestamp
 * header 0x42, which is then reserved (IHI 0014Q section 7.3.7): one
 * error packet, a packet-level symptom. */
static void hand_built(void)
{
	static const uint8_t ptm[] = { 0x11, 0x22, 0, 0, 0, 0, 0, 0x80 };
	static const uint8_t e3[] = { 0x11, 0x22, 0, 0, 0, 0, 0, 0x80, 0x42 };
	struct diag_input in = { etm_fmt_raw, ptm, sizeof(ptm), NULL, 0 };
	struct etm_config c;
	struct diag_fit f;

	raw_cfg(&c, etm_proto_ptm);
	same_fit(&in, &c, NULL, &f);
	ET_EQ(f.packets, 2);
	ET_EQ(f.async, 1);
	ET_EQ(f.score, 0);
	ET_EQ(f.parse_bad, 0);

	raw_cfg(&c, etm_proto_etmv3);
	in.buf = e3;
	in.n = sizeof(e3);
	same_fit(&in, &c, NULL, &f);
	ET_EQ(f.packets, 3);
	ET_EQ(f.async, 1);
	ET_EQ(f.parse_bad, 1);
	ET_EQ(f.score, 1);

	in.n = 0; /* nothing at all */
	same_fit(&in, &c, NULL, &f);
	ET_EQ(f.packets, 0);
	ET_EQ(f.score, 0);
}

/* Random bytes with an A-sync every 512: every kind of packet error,
 * losses of sync and truncation, ETMv3 and PTM in several
 * configurations. */
static void random_bytes(void)
{
	static const uint32_t etmcr[] = { 0, 1u << 12, 3u << 14, 1u << 28,
					  1u << 12 | 1u << 14 };
	uint8_t *buf = malloc(1 << 14);
	uint32_t x = 12345;
	struct diag_input in = { etm_fmt_raw, buf, 1 << 14, NULL, 0 };
	struct etm_config c;
	size_t i, k;
	int p;

	ET_CHECK(buf != NULL);
	for (i = 0; i < (1u << 14); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
		if (i % 512 >= 500)
			buf[i] = i % 512 == 505 ? 0x80 : 0;
	}
	for (p = 0; p < 2; p++)
		for (k = 0; k < sizeof(etmcr) / sizeof(etmcr[0]); k++) {
			raw_cfg(&c, p ? etm_proto_ptm : etm_proto_etmv3);
			c.etmcr = etmcr[k];
			if (etm_config_check(&c, NULL) == 0)
				same_fit(&in, &c, NULL, NULL);
		}
	free(buf);
}

/* TC2 source @cfg as configured and in wrong configurations, through the
 * recording @t and without one. */
static void tc2_source(const struct diag_input *rec, const struct diag_input *direct,
		       const struct etm_config *cfg, const struct etm_image *img)
{
	struct etm_config v[4];
	size_t i;

	for (i = 0; i < 4; i++)
		v[i] = *cfg;
	v[1].etmcr ^= 1u << 12; /* cycle-accurate */
	v[2].etmcr ^= 1u << 14; /* Context ID size */
	v[3].protocol = cfg->protocol == etm_proto_ptm ? etm_proto_etmv3 :
							 etm_proto_ptm;
	v[3].etmidr = v[3].protocol == etm_proto_ptm ? 0x411cf312 : 0x410cf250;
	for (i = 0; i < 4; i++) {
		if (etm_config_check(&v[i], NULL) < 0)
			continue;
		same_fit(rec, &v[i], img, NULL);
		if (i < 2)
			same_fit(direct, &v[i], img, NULL);
	}
}

static void tc2(void)
{
	char path[4096], err[256];
	struct etm_snapshot *s;
	uint8_t *buf;
	size_t n1, i;
	FILE *f;

	if (!etest_shared("snapshots/TC2/cstrace.bin", path, sizeof(path))) {
		etest_skip("TC2 snapshot missing");
		return;
	}
	buf = malloc((size_t)COPIES << 15);
	ET_CHECK(buf != NULL);
	f = fopen(path, "rb");
	ET_CHECK(f != NULL);
	n1 = fread(buf, 1, (size_t)1 << 15, f);
	fclose(f);
	ET_EQ(n1, (size_t)1 << 15);
	for (i = 1; i < COPIES; i++)
		memcpy(buf + i * n1, buf, n1);
	*strrchr(path, '/') = 0;
	ET_CHECK(etm_snapshot_load(&s, path, err, sizeof(err)) == 0);
	for (i = 0; i < s->nsources; i++) {
		const struct etm_config *cfg = &s->sources[i].cfg;
		unsigned id = etm_cfg_trace_id(cfg);
		struct diag_input direct = { etm_fmt_coresight, buf, COPIES * n1,
					     NULL, 0 };
		struct diag_input rec = direct;
		struct etm_image *img = etm_image_alloc();

		ET_CHECK(img != NULL);
		ET_EQ(etm_snapshot_add_memory(&s->sources[i], img, err,
					      sizeof(err)),
		      0);
		rec.replay = etm_dec_replay_record(etm_fmt_coresight, id, buf,
						   COPIES * n1);
		rec.replay_id = id;
		ET_CHECK(rec.replay != NULL);
		tc2_source(&rec, &direct, cfg, img);
		if (id == 0x10) { /* loses sync: the ETMv3 source the CLI probes */
			struct diag_fit a = etm_probe_fit(&rec, cfg, img, NULL);

			/* one loss of sync where each copy joins the next */
			ET_CHECK(a.parse_bad >= COPIES - 1);
			ET_CHECK(a.packets > 8000 * COPIES);
		}
		etm_dec_replay_free(rec.replay);
		etm_image_free(img);
	}
	etm_snapshot_free(s);
	free(buf);
}

int main(void)
{
	ETEST(hand_built);
	ETEST(random_bytes);
	ETEST(tc2);
	printf("  %d fits compared\n", nfits);
	return etest_end();
}
