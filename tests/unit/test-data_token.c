/* tests/unit/test-data_token.c - the ETMv3 data packet token
 * (etm_pkt_tok_data(), the fast path of data trace) against the general
 * path (etm_pkt_next()), which reads every packet with the spec's reader
 * and checks for A-sync: two packet decoders over the same bytes, one
 * taking data packets as tokens wherever it can and the other packet by
 * packet, must see the same packets (type, offset, size and every data
 * field) in the same order. The bytes are random streams of data packets
 * of every header kind (IHI 0014Q §7.4: normal data b00A0SS10, out-of-order
 * b0TT0SS00, placeholder b01A1TT00, value not traced b011A1010, suppressed
 * 0x62, store failed 0x72) with address continuation bits and values full
 * of zero bytes, mixed with random bytes (headers of other packets,
 * which swallow what follows, and bad ones) and A-syncs,
 * pushed in random chunks, under the four ETMCR data settings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "etest.h"
#include "etest_lockstep.h"
#include "etest_pktcmp.h"
#include "packet/pktdec.h"

static uint64_t rng_state;

static uint32_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

/* A payload byte: zero half the time (A-sync patterns), else random. */
static uint8_t pay(void)
{
	return rnd() % 2 ? 0 : (uint8_t)rnd();
}

/* One data packet of a random kind at @b; returns its length (at most 12). */
static size_t data_packet(uint8_t *b)
{
	static const uint8_t kinds[][2] = {
		/* header, mask of its random bits */
		{ 0x02, 0x2c }, /* normal data b00A0SS10 */
		{ 0x00, 0x6c }, /* out-of-order data b0TT0SS00 (TT != 0) */
		{ 0x50, 0x2c }, /* placeholder b01A1TT00 (TT != 0) */
		{ 0x6a, 0x10 }, /* value not traced b011A1010 */
		{ 0x62, 0x00 }, /* data suppressed */
		{ 0x72, 0x00 }, /* store failed */
	};
	unsigned k = rnd() % 6, i, n = 1;

	b[0] = (uint8_t)(kinds[k][0] | (rnd() & kinds[k][1]));
	if (k == 1 && !(b[0] & 0x60))
		b[0] |= 0x20;
	if (k == 2 && !(b[0] & 0x0c))
		b[0] |= 0x04;
	/* address bytes (continuation bit 7) and value bytes, more than any
	 * packet needs: the rest is read as the next packets */
	for (i = 0; i < 5; i++) {
		b[n++] = (uint8_t)(pay() | (rnd() % 3 ? 0x80 : 0));
		if (!(b[n - 1] & 0x80))
			break;
	}
	for (i = rnd() % 5; i; i--)
		b[n++] = pay();
	return n;
}

/* A random stream into @b (at most @max bytes); returns its length. */
static size_t stream(uint8_t *b, size_t max)
{
	static const uint8_t async[6] = { 0, 0, 0, 0, 0, 0x80 };
	size_t n = 0;

	memcpy(b, async, sizeof(async));
	n = sizeof(async);
	while (n + 16 < max) {
		unsigned c = rnd() % 20;

		if (c < 15) {
			n += data_packet(b + n);
		} else if (c < 19) {
			b[n++] = (uint8_t)rnd();
		} else if (n + sizeof(async) < max) {
			memcpy(b + n, async, sizeof(async));
			n += sizeof(async);
		}
	}
	return n;
}

/* Both decoders through the pushed bytes (etest_lockstep_fn, @ctx an
 * unsigned long); counts the tokens taken. */
static int lockstep(struct etm_pkt_decoder *t, struct etm_pkt_decoder *g,
		    void *ctx)
{
	unsigned long *ntok = ctx;
	struct etm_packet tok, a, b;
	int ra, rb;

	memset(&tok, 0, sizeof(tok));
	for (;;) {
		if (etm_pkt_tok_data(t, &tok)) {
			(*ntok)++;
			if (etm_pkt_next(g, &b, sizeof(b)) != 0 ||
			    !etest_same_data(&tok, &b))
				return -1;
			continue;
		}
		ra = etm_pkt_next(t, &a, sizeof(a));
		rb = etm_pkt_next(g, &b, sizeof(b));
		if (ra != rb || (ra == 0 && !etest_same_data(&a, &b)))
			return -1;
		if (ra)
			return ra;
	}
}

static void data_token_equals_general_path(void)
{
	static const uint32_t etmcr[] = { 0x04, 0x08, 0x0c, 0x0010000c };
	static uint8_t buf[4096];
	unsigned long ntok = 0, seed;

	for (seed = 1; seed <= 2000; seed++) {
		struct etm_config c;
		struct etm_pkt_decoder *t, *g;
		size_t n;

		rng_state = seed;
		etm_config_init(&c);
		c.protocol = etm_proto_etmv3;
		c.etmcr = etmcr[seed % 4];
		c.etmidr = 0x410cf250;
		c.traceid = 0x10;
		n = stream(buf, 256 + rnd() % (sizeof(buf) - 256));
		t = etm_pkt_alloc(&c);
		g = etm_pkt_alloc(&c);
		ET_CHECK(t && g);
		if (t && g)
			etest_lockstep(t, g, buf, n, rnd, lockstep, &ntok);
	}
	printf("%lu data tokens\n", ntok);
	/* the tokens are taken (not everything left to the general path) */
	ET_CHECK(ntok > 20000);
}

/* Hand-derived: A-sync (00 00 00 00 00 80, offsets 0-5), then normal data
 * 0x2e = b00101110 (A = 1, SS = 11: a 4-byte value) with address byte 0x00
 * (no continuation: one byte) and value 00 00 00 00 - six bytes at offset 6,
 * five of them zero but no 0x80 after them inside the packet, so no A-sync
 * in it (a valid data packet can hold none: address bytes but the last and
 * the fifth carry bit 7, and the value ends the packet) - then data
 * suppressed 0x62 at offset 12. */
static void zero_value_packets_are_tokens(void)
{
	static const uint8_t ok[] = { 0, 0, 0, 0, 0, 0x80, 0x2e, 0x00,
				      0, 0, 0, 0, 0x62 };
	struct etm_config c;
	struct etm_pkt_decoder *t;
	struct etm_packet tok;

	etm_config_init(&c);
	c.protocol = etm_proto_etmv3;
	c.etmcr = 0x0c;
	c.etmidr = 0x410cf250;
	c.traceid = 0x10;
	t = etm_pkt_alloc(&c);
	ET_CHECK(t);
	ET_EQ(etm_pkt_push(t, ok, sizeof(ok), 0), 0);
	memset(&tok, 0, sizeof(tok));
	ET_EQ(etm_pkt_next(t, &tok, sizeof(tok)), 0);
	ET_EQ(tok.type, etmp_async);
	ET_EQ(etm_pkt_tok_data(t, &tok), 1);
	ET_EQ(tok.type, etmp_data);
	ET_EQ(tok.offset, 6);
	ET_EQ(tok.size, 6);
	ET_EQ(tok.has_daddr, 1);
	ET_EQ(tok.has_dvalue, 1);
	ET_EQ(tok.dvalue, 0);
	ET_EQ(tok.dvalue_size, 4);
	ET_EQ(etm_pkt_tok_data(t, &tok), 1);
	ET_EQ(tok.type, etmp_data_suppressed);
	ET_EQ(tok.offset, 12);
	etm_pkt_free(t);
}

int main(void)
{
	ETEST(data_token_equals_general_path);
	ETEST(zero_value_packets_are_tokens);
	return etest_end();
}
