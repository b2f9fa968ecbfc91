/* tests/unit/test-atom_run.c - runs of one-byte ETMv3 P-headers taken as
 * one batch (etm_pkt_tok_atom_run(), the fast path of the flow decoder),
 * cycle-accurate and not, against the general path (etm_pkt_next()),
 * which reads every packet with the spec's reader: two packet decoders
 * over the same bytes, one taking runs wherever it can, the other packet
 * by packet; what a run says (atoms, E/N bits, the running W sums of
 * cycle-accurate trace, the W atoms after the last atom, each atom's
 * packet and that packet's offset) must be what the packets it took say.
 * The bytes are random P-headers of every format (IHI 0014Q §7.3, a few
 * reserved ones) mixed with one-byte branch address packets and A-syncs,
 * pushed in random chunks. Plus one run derived by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "etest.h"
#include "etest_lockstep.h"
#include "etest_pktcmp.h"
#include "packet/pktdec.h"

#define CA 0x1000u /* ETMCR[12] cycle accurate */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

/* A random P-header of cycle-accurate (@ca) or other trace, of every
 * format (IHI 0014Q §7.3.1 Tables 7-2, 7-3); one in 200 any b1xxxxxx0
 * (may be reserved: an error, then the reader waits for an A-sync). */
static uint8_t pheader(int ca)
{
	unsigned f = rnd();

	if (f % 200 == 0)
		return (uint8_t)(0x80 | (rnd() & 0x7e));
	if (!ca)
		return f % 2 ? (uint8_t)(0x80 | (f >> 8 & 0x7c)) /* 1NEEEE00 */
			       :
			       (uint8_t)(0x82 | (f >> 8 & 0x0c)); /* 1000FF10 */
	switch (f % 4) {
	case 0: /* format 1 b1N0EEE00, not 0x80 */
		return (uint8_t)(0x80 | (f >> 8 & 0x5c) | (f & 0x100 ? 0 : 4));
	case 1: /* format 2 b1000FF10 */
		return (uint8_t)(0x82 | (f >> 8 & 0x0c));
	case 2: /* format 3 b1E1WWW00 */
		return (uint8_t)(0xa0 | (f >> 8 & 0x5c));
	default: /* format 4 b10010F10 */
		return (uint8_t)(0x92 | (f >> 8 & 0x04));
	}
}

/* A random stream into @b (@n bytes): A-sync, then P-headers and now and
 * then a one-byte branch address packet (bxxxxxxx1, bit 7 clear) or an
 * A-sync. */
static void stream(uint8_t *b, size_t n, int ca)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	size_t i;

	memcpy(b, async, sizeof(async));
	for (i = sizeof(async); i < n; i++) {
		unsigned c = rnd() % 64;

		if (c == 0 && i + sizeof(async) <= n) {
			memcpy(b + i, async, sizeof(async));
			i += sizeof(async) - 1;
		} else if (c < 5) {
			b[i] = (uint8_t)((rnd() & 0x7e) | 1);
		} else {
			b[i] = pheader(ca);
		}
	}
}

static struct etm_pkt_decoder *decoder(uint32_t etmcr)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = etm_proto_etmv3;
	c.etmcr = etmcr;
	c.etmidr = 0x410cf250; /* ETMv3.5 */
	c.traceid = 0x10;
	return etm_pkt_alloc(&c);
}

/* What lockstep() is told and counts. */
struct run_counts {
	int ca; /* cycle-accurate */
	unsigned long nrun, natoms;
};

/* Both decoders through the pushed bytes (etest_lockstep_fn, @ctx a
 * struct run_counts); counts runs and their atoms. */
static int lockstep(struct etm_pkt_decoder *t, struct etm_pkt_decoder *g,
		    void *ctx)
{
	struct run_counts *rc = ctx;
	int ca = rc->ca;
	unsigned long *nrun = &rc->nrun, *natoms = &rc->natoms;
	struct etm_atom_run r;
	struct etm_packet a, b;
	unsigned k;
	int ra, rb;

	for (;;) {
		k = etm_pkt_tok_atom_run(t, &r, 1 + rnd() % 300);
		if (k) {
			if (!etest_run_matches(&r, k, g, ca))
				return -1;
			etm_pkt_tok_run_done(t, &r);
			(*nrun)++;
			*natoms += r.n;
			continue;
		}
		ra = etm_pkt_next(t, &a, sizeof(a));
		rb = etm_pkt_next(g, &b, sizeof(b));
		if (ra != rb || (ra == 0 && (a.type != b.type ||
					     a.offset != b.offset ||
					     a.size != b.size)))
			return -1;
		if (ra)
			return ra;
	}
}

static void atom_runs_equal_general_path(void)
{
	static uint8_t buf[4096];
	struct run_counts rc = { 0 };
	unsigned long seed;

	for (seed = 1; seed <= 600; seed++) {
		struct etm_pkt_decoder *t, *g;
		size_t n;

		rc.ca = seed % 2 == 0;
		rng_state = seed;
		n = 64 + rnd() % (sizeof(buf) - 64);
		stream(buf, n, rc.ca);
		t = decoder(rc.ca ? CA : 0);
		g = decoder(rc.ca ? CA : 0);
		ET_CHECK(t && g);
		if (t && g)
			etest_lockstep(t, g, buf, n, rnd, lockstep, &rc);
	}
	printf("%lu runs, %lu atoms\n", rc.nrun, rc.natoms);
	/* runs are taken (not everything left to the general path) */
	ET_CHECK(rc.nrun > 10000);
}

/* Hand-derived, cycle-accurate (IHI 0014Q §7.3.1 Table 7-3, etmv3.md
 * §5.2): after the A-sync (offsets 0-5), at offsets 6-11:
 *   0xBC b10111100 format 3 without E: WWW = 7 -> 8 W, no atom;
 *   0xC8 b11001000 format 1: EEE = 2, N -> W E W E W N;
 *   0x8A b10001010 format 2: W, then N (bit 3) and E (bit 2);
 *   0xE8 b11101000 format 3: WWW = 2 -> 3 W, then E;
 *   0x92 b10010010 format 4: E, no W;
 *   0xBC 8 W again.
 * Atoms E E N N E E E: bits (1 = N) 0b0001100. W before each atom since
 * the run began: 8+1 = 9, 10, 11, 12, 12 (E of format 2: no W of its
 * own), 15, 15; 8 W after the last. Atoms 0-2 are of the run's packet 1
 * (offset 7; packet 0 is the W-only 0xBC at 6), 3-4 of packet 2 (8), 5 of
 * packet 3 (9), 6 of packet 4 (10). */
static void cycle_accurate_run_by_hand(void)
{
	static const uint8_t t[] = { 0, 0, 0, 0, 0, 0x80,
				     0xbc, 0xc8, 0x8a, 0xe8, 0x92, 0xbc };
	static const uint16_t cw[] = { 0, 9, 10, 11, 12, 12, 15, 15 };
	static const uint8_t apk[] = { 1, 1, 1, 2, 2, 3, 4 };
	struct etm_pkt_decoder *d = decoder(CA);
	struct etm_atom_run r;
	struct etm_packet p;
	unsigned i;

	ET_CHECK(d);
	ET_EQ(etm_pkt_push(d, t, sizeof(t), 0), 0);
	ET_EQ(etm_pkt_next(d, &p, sizeof(p)), 0);
	ET_EQ(p.type, etmp_async);
	ET_EQ(etm_pkt_tok_atom_run(d, &r, 256), 6);
	ET_EQ(r.npkt, 6);
	ET_EQ(r.n, 7);
	ET_EQ(r.bits, 0x0c);
	ET_EQ(r.w_tail, 8);
	ET_EQ(r.cw[0], 0);
	for (i = 0; i < 8; i++)
		ET_EQ(etm_atom_run_w(r.cw[i], r.cw[0]), cw[i]);
	for (i = 0; i < 7; i++)
		ET_EQ(etm_atom_run_pkt(&r, i), apk[i]);
	for (i = 0; i < 6; i++)
		ET_EQ(etm_atom_run_off(&r, i), 6 + i);
	etm_pkt_tok_run_done(d, &r);
	etm_pkt_finish(d);
	ET_EQ(etm_pkt_next(d, &p, sizeof(p)), -etme_eos);
	etm_pkt_free(d);
}

/* The most W atoms a run holds (pktdec.h: 9 bits of each slot), by hand
 * (IHI 0014Q Table 7-3, etmv3.md §5.2): after the A-sync (offsets 0-5),
 * 64 x 0xFC b11111100, format 3 with E: WWW = 7 -> 8 W, then E; then
 * 3 x 0xC0 b11000000, format 1: EEE = 0, N -> W N. A run takes at most 63
 * packets, so the first is the 63 0xFC: atom j (E) of packet j at offset
 * 6 + j, 8 (j + 1) W atoms up to it (504 in all, none after). The second
 * run: the 64th 0xFC (8 W, E), then W N three times: bits 0b1110, W sums
 * 8, 9, 10, 11, packets 0-3 (offsets 69-72). */
static void cycle_accurate_run_w_limit(void)
{
	static uint8_t t[6 + 67] = { 0, 0, 0, 0, 0, 0x80 };
	struct etm_pkt_decoder *d = decoder(CA);
	struct etm_atom_run r;
	struct etm_packet p;
	unsigned i;

	memset(t + 6, 0xfc, 64);
	memset(t + 70, 0xc0, 3);
	ET_CHECK(d);
	ET_EQ(etm_pkt_push(d, t, sizeof(t), 0), 0);
	ET_EQ(etm_pkt_next(d, &p, sizeof(p)), 0);
	ET_EQ(etm_pkt_tok_atom_run(d, &r, 256), 63);
	ET_EQ(r.n, 63);
	ET_EQ(r.bits, 0);
	ET_EQ(r.w_tail, 0);
	for (i = 0; i < 63; i++) {
		ET_EQ(etm_atom_run_w(r.cw[i + 1], r.cw[0]), 8 * (i + 1));
		ET_EQ(etm_atom_run_w(r.cw[i + 1], r.cw[i]), 8);
		ET_EQ(etm_atom_run_aoff(&r, i), 6 + i);
	}
	etm_pkt_tok_run_done(d, &r);
	ET_EQ(etm_pkt_tok_atom_run(d, &r, 256), 4);
	ET_EQ(r.n, 4);
	ET_EQ(r.bits, 0x0e);
	ET_EQ(r.w_tail, 0);
	for (i = 0; i < 4; i++) {
		ET_EQ(etm_atom_run_w(r.cw[i + 1], r.cw[0]), 8 + i);
		ET_EQ(etm_atom_run_aoff(&r, i), 69 + i);
	}
	etm_pkt_tok_run_done(d, &r);
	etm_pkt_free(d);
}

int main(void)
{
	ETEST(atom_runs_equal_general_path);
	ETEST(cycle_accurate_run_by_hand);
	ETEST(cycle_accurate_run_w_limit);
	return etest_end();
}
