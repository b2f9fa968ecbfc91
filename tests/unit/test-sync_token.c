/* tests/unit/test-sync_token.c - the ETMv3 sync token (etm_pkt_tok_sync():
 * I-syncs, timestamps and the other packets between atom runs and branch
 * addresses, A-syncs, read in place by the flow decoder's fast path) against the
 * general path (etm_pkt_next()), which reads every packet with the spec's
 * reader and checks for A-sync: two packet decoders over the same bytes,
 * one taking these packets as tokens wherever it can and the other packet
 * by packet, must see the same packets (every field but the raw bytes) in
 * the same order. The bytes are random streams of I-syncs (0x08, 0x70 with
 * cycle counts of 1-5 bytes, Context IDs, LSiP fields), timestamps, cycle
 * count, Context ID and VMID packets, one-byte packets, P-headers, random
 * bytes and runs of 3-9 zeros ended by 0x80 (A-syncs or broken), payloads full of zero bytes (A-sync patterns inside
 * packets), pushed in random chunks, under ETMCR settings of every Context
 * ID size, cycle-accurate or not, timestamps on or off, data-only, and
 * ETMv3.5 / v3.3 / v3.0 IDs. Then hand-derived packets and a hand-built
 * stream whose periodic I-sync disagrees with the walk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "etest.h"
#include "etest_elems.h"
#include "etest_lockstep.h"
#include "packet/pktdec.h"

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

/* A payload byte: zero a third of the time (A-sync patterns), else random. */
static uint8_t pay(void)
{
	return rnd() % 3 ? (uint8_t)rnd() : 0;
}

/* 1-5 bytes with continuation bits (cycle counts, timestamps' start). */
static size_t cont_bytes(uint8_t *b, unsigned max)
{
	size_t n = 0;

	while (n < max) {
		b[n] = pay();
		if (n + 1 < max && rnd() % 3)
			b[n] |= 0x80;
		else
			b[n] &= 0x7f;
		if (!(b[n++] & 0x80))
			break;
	}
	return n;
}

/* One packet of a random kind at @b; returns its length (at most 24). */
static size_t sync_packet(uint8_t *b)
{
	static const uint8_t one[] = { 0x0c, 0x76, 0x7e, 0x66, 0x84, 0xbc };
	unsigned k = rnd() % 10, i;
	size_t n = 1;

	switch (k) {
	case 0:
	case 1:
	case 2: /* I-sync: [CC] CID info addr[4] [LSiP], more bytes than any
		 * Context ID size needs (the rest: the next packets) */
		b[0] = k ? 0x70 : 0x08;
		if (b[0] == 0x70)
			n += cont_bytes(b + 1, 5);
		for (i = rnd() % 5; i; i--)
			b[n++] = pay();
		b[n++] = (uint8_t)(rnd() % 8 ? rnd() & 0x7f : rnd());
		for (i = 0; i < 4; i++)
			b[n++] = pay();
		return n;
	case 3: /* timestamp 0x42 / 0x46 */
		b[0] = rnd() % 2 ? 0x42 : 0x46;
		n += cont_bytes(b + 1, 5);
		for (i = rnd() % 5; i; i--)
			b[n++] = pay();
		return n;
	case 4: /* cycle count */
		b[0] = 0x04;
		return 1 + cont_bytes(b + 1, 5);
	case 5: /* Context ID, VMID */
		b[0] = rnd() % 2 ? 0x6e : 0x3c;
		for (i = rnd() % 5; i; i--)
			b[n++] = pay();
		return n;
	default:
		b[0] = one[rnd() % sizeof(one)];
		return 1;
	}
}

/* A random stream into @b (at most @max bytes); returns its length. */
static size_t stream(uint8_t *b, size_t max)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	size_t n = 0;
	unsigned z;

	memcpy(b, async, sizeof(async));
	n = sizeof(async);
	while (n + 32 < max) {
		unsigned c = rnd() % 24;

		if (c < 19) {
			n += sync_packet(b + n);
		} else if (c < 23) {
			b[n++] = (uint8_t)rnd();
		} else {
			/* 3-9 zeros, then 0x80: A-syncs and broken ones */
			for (z = 3 + rnd() % 7; z; z--)
				b[n++] = 0;
			b[n++] = 0x80;
		}
	}
	return n;
}

/* Every field a packet of the token's kinds has, but the raw bytes. */
static int same_sync(const struct etm_packet *a, const struct etm_packet *b)
{
	return a->type == b->type && a->offset == b->offset &&
	       a->size == b->size && a->id == b->id && a->err == b->err &&
	       a->has_cc == b->has_cc && a->cycle_count == b->cycle_count &&
	       a->has_ctxid == b->has_ctxid && a->ctxid == b->ctxid &&
	       a->reason == b->reason && a->has_state == b->has_state &&
	       a->ns == b->ns && a->hyp == b->hyp &&
	       a->jazelle == b->jazelle && a->altisa == b->altisa &&
	       a->isa == b->isa && a->isa_changed == b->isa_changed &&
	       a->addr == b->addr && a->addr_bits == b->addr_bits &&
	       a->lsip == b->lsip && a->lsip_next == b->lsip_next &&
	       a->timestamp == b->timestamp && a->ts_bits == b->ts_bits &&
	       a->ts_freq_change == b->ts_freq_change && a->vmid == b->vmid;
}

/* Both decoders through the pushed bytes (etest_lockstep_fn, @ctx an
 * unsigned long); counts the tokens taken. */
static int lockstep(struct etm_pkt_decoder *t, struct etm_pkt_decoder *g,
		    void *ctx)
{
	unsigned long *ntok = ctx;
	struct etm_packet tok, a, b;
	int ra, rb;

	for (;;) {
		if (etm_pkt_tok_sync(t, &tok)) {
			(*ntok)++;
			if (etm_pkt_next(g, &b, sizeof(b)) != 0 ||
			    !same_sync(&tok, &b) || tok.raw_len != 0)
				return -1;
			continue;
		}
		ra = etm_pkt_next(t, &a, sizeof(a));
		rb = etm_pkt_next(g, &b, sizeof(b));
		if (ra != rb || (ra == 0 && !same_sync(&a, &b)))
			return -1;
		if (ra)
			return ra;
	}
}

static void sync_token_equals_general_path(void)
{
	/* ETMCR: Context ID size [15:14], cycle-accurate [12], timestamps
	 * [28], data-only [20] */
	static const uint32_t etmcr[] = { 0x0, 0x4000, 0x8000,
					  0xc000, 0x1000, 0x10001000,
					  0x1000d000, 0x10000000, 0x00100000 };
	static const uint32_t etmidr[] = { 0x410cf250, 0x410cf230,
					   0x410cf200 };
	static uint8_t buf[4096];
	unsigned long ntok = 0, seed;

	for (seed = 1; seed <= 2700; seed++) {
		struct etm_config c;
		struct etm_pkt_decoder *t, *g;
		size_t n;

		rng_state = seed;
		etm_config_init(&c);
		c.protocol = etm_proto_etmv3;
		c.etmcr = etmcr[seed % 9];
		c.etmidr = etmidr[seed / 9 % 3];
		c.traceid = 0x10;
		n = stream(buf, 256 + rnd() % (sizeof(buf) - 256));
		t = etm_pkt_alloc(&c);
		g = etm_pkt_alloc(&c);
		ET_CHECK(t && g);
		if (t && g)
			etest_lockstep(t, g, buf, n, rnd, lockstep, &ntok);
	}
	printf("%lu sync tokens\n", ntok);
	/* the tokens are taken (not everything left to the general path) */
	ET_CHECK(ntok > 50000);
}

/* Hand-derived (../shared/docs/etmv3.md §4 examples; TC2 0x10, ETMCR
 * 0x10001860: cycle-accurate, timestamps, no Context ID):
 *   0  00 00 00 00 00 80     A-sync (the decoder is not in sync yet: no
 *                            token)
 *   6  08 01 5d 11 02 c0     I-sync: info 0x01, reason 00 periodic, NS 0;
 *                            address 0xc002115d: bit 0 set, T32,
 *                            0xc002115c
 *  12  70 8f 3c 21 99 f6 04 c0  I-sync + CC: 0x0f | 0x3c << 7 = 7695;
 *                            info 0x21, reason 01 trace on; address
 *                            0xc004f699: T32 0xc004f698
 *  20  42 df 1e              timestamp: 0x5f | 0x1e << 7 = 0xf5f, two
 *                            value bytes (14 bits)
 *  23  76                    exception return
 *  24  00 x 6, 80            A-sync, six zeros: size 7
 *  31  08 81 ...             I-sync with LSiP (info bit 7): not a token */
static void tc2_packets_as_tokens(void)
{
	static const uint8_t b[] = { 0, 0, 0, 0, 0, 0x80,
				     0x08, 0x01, 0x5d, 0x11, 0x02, 0xc0,
				     0x70, 0x8f, 0x3c, 0x21, 0x99, 0xf6,
				     0x04, 0xc0, 0x42, 0xdf, 0x1e, 0x76,
				     0, 0, 0, 0, 0, 0,
				     0x80, 0x08, 0x81, 0x5d, 0x11, 0x02, 0xc0,
				     0x01 };
	struct etm_config c;
	struct etm_pkt_decoder *t;
	struct etm_packet tok;

	etm_config_init(&c);
	c.protocol = etm_proto_etmv3;
	c.etmcr = 0x10001860;
	c.etmidr = 0x410cf250;
	c.traceid = 0x10;
	t = etm_pkt_alloc(&c);
	ET_CHECK(t);
	if (!t)
		return;
	ET_EQ(etm_pkt_push(t, b, sizeof(b), 0), 0);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 0);
	ET_EQ(etm_pkt_next(t, &tok, sizeof(tok)), 0);
	ET_EQ(tok.type, etmp_async);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 1);
	ET_EQ(tok.type, etmp_isync);
	ET_EQ(tok.offset, 6);
	ET_EQ(tok.size, 6);
	ET_EQ(tok.reason, etm_isync_periodic);
	ET_EQ(tok.addr, 0xc002115c);
	ET_EQ(tok.isa, etmi_t32);
	ET_EQ(tok.has_cc, 0);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 1);
	ET_EQ(tok.offset, 12);
	ET_EQ(tok.size, 8);
	ET_EQ(tok.has_cc, 1);
	ET_EQ(tok.cycle_count, 7695);
	ET_EQ(tok.reason, etm_isync_trace_on);
	ET_EQ(tok.addr, 0xc004f698);
	ET_EQ(tok.isa, etmi_t32);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 1);
	ET_EQ(tok.type, etmp_timestamp);
	ET_EQ(tok.offset, 20);
	ET_EQ(tok.size, 3);
	ET_EQ(tok.ts_bits, 14);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 1);
	ET_EQ(tok.type, etmp_exc_return);
	ET_EQ(tok.offset, 23);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 1);
	ET_EQ(tok.type, etmp_async);
	ET_EQ(tok.offset, 24);
	ET_EQ(tok.size, 7);
	ET_EQ(etm_pkt_tok_sync(t, &tok), 0); /* LSiP */
	ET_EQ(etm_pkt_next(t, &tok, sizeof(tok)), 0);
	ET_EQ(tok.type, etmp_isync);
	ET_EQ(tok.lsip, 1);
	ET_EQ(tok.offset, 31);
	etm_pkt_free(t);
}

/* The flow decoder's fast path (etest_decode_elems() without packet
 * items: the I-syncs read as tokens) and its general path, ETMv3.5 not
 * cycle-accurate, A32 code at 0x1000: mov r0, #1; nop; nop; nop.
 *   0  00 00 00 00 00 80  A-sync
 *   6  08 01 00 10 00 00  I-sync 0x1000 A32, periodic (the first: trace on)
 *  12  84                 P-header "E": mov at 0x1000; next 0x1004
 *  13  08 01 04 10 00 00  periodic I-sync 0x1004: where the walk is, no
 *                         error
 *  19  84                 "E": nop at 0x1004; next 0x1008
 *  20  08 01 0c 10 00 00  periodic I-sync 0x100c: the walk is at 0x1008,
 *                         so a mismatch (etme_mismatch, addr 0x100c, at
 *                         offset 20), then re-anchored at 0x100c
 *  26  84                 "E": nop at 0x100c: a range [0x100c, 0x1010)
 * Both paths: one error element, of that error, address and offset. */
static void periodic_isync_checks_the_walk(void)
{
	static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3, 0x00, 0x00,
					0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
					0x00, 0x00, 0xa0, 0xe1 };
	static const uint8_t b[] = { 0, 0, 0, 0, 0, 0x80,
				     0x08, 0x01, 0x00, 0x10, 0x00, 0x00,
				     0x84, 0x08, 0x01, 0x04, 0x10, 0x00,
				     0x00, 0x84, 0x08, 0x01, 0x0c, 0x10,
				     0x00, 0x00, 0x84 };
	static struct etest_run r;
	struct etm_config cfg;
	int packets, i, nerr, last;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	for (packets = 0; packets < 2; packets++) {
		etest_decode_elems(&cfg, code, sizeof(code), b, sizeof(b),
				   packets, &r);
		nerr = 0;
		last = -1;
		for (i = 0; i < r.n; i++) {
			if (r.el[i].kind == etmk_range)
				last = i;
			if (r.el[i].kind != etmk_error)
				continue;
			nerr++;
			ET_EQ(r.el[i].err, etme_mismatch);
			ET_EQ(r.el[i].addr, 0x100c);
			ET_EQ(r.el[i].offset, 20);
		}
		ET_EQ(nerr, 1);
		ET_CHECK(last >= 0);
		if (last >= 0) {
			ET_EQ(r.el[last].start, 0x100c);
			ET_EQ(r.el[last].end, 0x1010);
			ET_EQ(r.el[last].offset, 26);
		}
	}
}

int main(void)
{
	ETEST(sync_token_equals_general_path);
	ETEST(tc2_packets_as_tokens);
	ETEST(periodic_isync_checks_the_walk);
	return etest_end();
}
