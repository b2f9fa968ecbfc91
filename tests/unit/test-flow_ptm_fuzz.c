/* tests/unit/test-flow_ptm_fuzz.c - robustness of the PTM flow decoder:
 * random images and random packet streams, the walk bound, API misuse. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "etest.h"

static struct etm_config mkcfg(uint32_t etmcr, uint32_t etmccer)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = etm_proto_ptm;
	c.etmcr = etmcr;
	c.etmccer = etmccer;
	c.etmidr = 0x411CF312; /* PFTv1.1 */
	c.traceid = 0x13;
	return c;
}

static struct etm_packet pk_base(enum etm_pkt_type type)
{
	struct etm_packet p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	return p;
}

static struct etm_packet pk_isync(uint32_t addr, unsigned reason)
{
	struct etm_packet p = pk_base(etmp_isync);

	p.addr = addr;
	p.isa = etmi_a32;
	p.reason = (uint8_t)reason;
	p.has_state = 1;
	return p;
}

/* 0x1000: mov r0,r0 (e1a00000) then b 0x1000 (eafffffd) */
static struct etm_image *img_small(void)
{
	static const uint8_t b[8] = {
		0x00, 0x00, 0xa0, 0xe1, 0xfd, 0xff, 0xff, 0xea
	};
	struct etm_image *img = etm_image_alloc();

	etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b));
	return img;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

static struct etm_packet pk_random(void)
{
	static const enum etm_pkt_type types[] = {
		etmp_isync, etmp_atom, etmp_atom, etmp_atom, etmp_branch,
		etmp_branch, etmp_waypoint, etmp_error, etmp_ctxid, etmp_vmid,
		etmp_timestamp, etmp_exc_return, etmp_trigger, etmp_data,
		etmp_cycle_count, etmp_notsync, 99
	};
	struct etm_packet p = pk_base(types[rnd() % 17]);

	/* addresses mostly inside the random image at 0x8000..0x9000 */
	p.addr = rnd() % 8 ? 0x8000 + (rnd() & 0xfff) : rnd();
	p.isa = (enum etm_isa)(rnd() % 5);
	p.atom_count = (uint8_t)(rnd() % 40);
	p.atom_bits = rnd();
	p.has_exc = rnd() & 1;
	p.exc_num = (uint16_t)(rnd() % 20);
	p.has_state = rnd() & 1;
	p.ns = rnd() & 1;
	p.reason = rnd() % 6;
	p.has_cc = rnd() & 1;
	p.cycle_count = rnd();
	p.err = (int)(rnd() % 25);
	return p;
}

static void t_random(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t *b = malloc(0x1000);
	unsigned i, k, bad = 0;
	struct etm_elem e;

	for (i = 0; i < 0x1000; i++)
		b[i] = (uint8_t)rnd();
	etm_image_add_buffer(img, etm_space_any, 0x8000, b, 0x1000);
	free(b);
	for (k = 0; k < 4; k++) {
		/* k: 0 plain, 1 return stack, 2 cycle-accurate + DMB, 3 no
		 * image */
		static const uint32_t cr[4] = { 0, 0x20000000, 0x1000, 0 };
		struct etm_config c = mkcfg(cr[k], k == 2 ? 1u << 24 : 0);
		struct etm_flow *f = etm_flow_alloc(&c, k == 3 ? NULL : img);

		ET_CHECK(f);
		if (k == 1)
			etm_flow_set_cache(f, 0);
		for (i = 0; i < 100000; i++) {
			struct etm_packet p = pk_random();

			ET_EQ(etm_flow_put(f, &p), 0);
			while (etm_flow_next(f, &e, sizeof(e)) == 0) {
				if (e.kind <= etmk_invalid ||
				    e.kind >= etmk_num_kinds)
					bad++;
				if (e.kind == etmk_range &&
				    (!e.ninsn || e.end <= e.start ||
				     e.last_addr < e.start ||
				     e.last_addr >= e.end))
					bad++;
			}
		}
		ET_EQ(etm_flow_finish(f), 0);
		etm_flow_reset(f);
		etm_flow_free(f);
	}
	ET_EQ(bad, 0);
	etm_image_free(img);
}

/* API misuse */
static void t_api(void)
{
	struct etm_image *img = img_small();
	struct etm_config c = mkcfg(0, 0);
	struct etm_flow *f = etm_flow_alloc(&c, img);
	struct etm_packet p = pk_isync(0x1000, 1);
	struct etm_elem e;

	ET_CHECK(f);
	ET_EQ(etm_flow_put(f, &p), 0);
	/* elements still queued */
	ET_EQ(etm_flow_put(f, &p), -etme_busy);
	ET_EQ(etm_flow_next(f, &e, sizeof(e) - 1), -etme_invalid);
	etm_flow_reset(f);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), -etme_again);
	/* after a reset the next I-sync is a resync */
	p = pk_isync(0x1000, 0);
	ET_EQ(etm_flow_put(f, &p), 0);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.kind, etmk_trace_on);
	ET_EQ(e.reason, etm_on_resync);
	etm_flow_free(f);
	etm_image_free(img);
}

/*
 * 64 KiB of zeros (A32 andeq r0,r0,r0: no waypoint). An E atom cannot find a
 * waypoint within the walk bound (the PTM would have sent a waypoint update
 * after 4096 bytes): the walked part is reported, then an error.
 */
static void t_walk_bound(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t *z = calloc(1, 0x10000);
	struct etm_config c = mkcfg(0, 0);
	struct etm_flow *f;
	struct etm_packet p;
	struct etm_elem e;

	etm_image_add_buffer(img, etm_space_any, 0, z, 0x10000);
	free(z);
	f = etm_flow_alloc(&c, img);
	ET_CHECK(f);
	p = pk_isync(0, 1);
	ET_EQ(etm_flow_put(f, &p), 0);
	while (etm_flow_next(f, &e, sizeof(e)) == 0)
		;
	p = pk_base(etmp_atom);
	p.atom_count = 1;
	ET_EQ(etm_flow_put(f, &p), 0);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.kind, etmk_range);
	ET_EQ(e.start, 0);
	ET_EQ(e.last_atom, 0);
	ET_CHECK(e.ninsn > 4096 && e.ninsn < 0x10000 / 4);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.kind, etmk_error);
	ET_EQ(e.err, etme_mismatch);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), -etme_again);
	etm_flow_free(f);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t_random);
	ETEST(t_walk_bound);
	ETEST(t_api);
	return etest_end();
}
