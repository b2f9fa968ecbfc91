/* tests/unit/pkttest.h - the harness of the ETMv3 and PTM packet parser
 * tests (test-etm3_pkt.c, test-ptm_pkt.c; header only: each test includes
 * it once): parsing in chunks through the public API with its status codes
 * checked, A-sync first, the every-byte-covered-once rule, random input
 * with A-syncs in it, and the single-byte corruption sweep. The invariants
 * on every packet and the chunk invariance under fuzzing are the fuzz
 * targets' (tests/fuzz/fuzz-pkt.h). Define PKT_BASE (the offset the input
 * starts at) before including it; 0 if not. */
#ifndef ETM_TESTS_PKTTEST_H
#define ETM_TESTS_PKTTEST_H

#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#ifndef PKT_BASE
#define PKT_BASE 0
#endif
#define MAXP 512

static struct etm_packet pk[MAXP];
static const uint8_t async6[] = { 0, 0, 0, 0, 0, 0x80 };
/* chunk sizes 1 to 7 */
static const size_t pkt_chunks7[] = { 1, 2, 3, 4, 5, 6, 7 };

/* A configuration of protocol @proto with those registers and trace ID. */
static struct etm_config pkt_cfg(enum etm_protocol proto, uint32_t etmcr,
				 uint32_t etmidr, uint32_t ccer, uint32_t id)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = proto;
	c.etmcr = etmcr;
	c.etmidr = etmidr;
	c.etmccer = ccer;
	c.traceid = id;
	return c;
}

/* Parse @b (at offset PKT_BASE) in chunks of @chunk bytes into @out;
 * returns the packet count, or -1 if the API misbehaved (wrong status
 * codes). Past @max packets the last slot is overwritten. */
static int parse(const struct etm_config *c, const uint8_t *b, size_t n,
		 size_t chunk, struct etm_packet *out, int max)
{
	struct etm_pkt_decoder *p = etm_pkt_alloc(c);
	size_t off = 0;
	int k = 0, r;

	if (!p)
		return -1;
	do {
		size_t m = n - off < chunk ? n - off : chunk;

		if (etm_pkt_push(p, b + off, m, PKT_BASE + off) != 0)
			return -1;
		while ((r = etm_pkt_next(p, &out[k < max ? k : max - 1],
					 sizeof(*out))) == 0)
			k += k < max;
		if (r != -etme_again)
			return -1;
		off += m;
	} while (off < n);
	etm_pkt_finish(p);
	while ((r = etm_pkt_next(p, &out[k < max ? k : max - 1],
				 sizeof(*out))) == 0)
		k += k < max;
	etm_pkt_free(p);
	return r == -etme_eos ? k : -1;
}

/* 1 if @b parsed in chunks of each of the @nch sizes @chunks gives the
 * @nref packets @ref to the byte, else 0. */
static int pkt_same_in_chunks(const struct etm_config *c, const uint8_t *b,
			      size_t n, const size_t *chunks, size_t nch,
			      const struct etm_packet *ref, int nref)
{
	static struct etm_packet out[MAXP];
	size_t k;
	int m;

	for (k = 0; k < nch; k++) {
		m = parse(c, b, n, chunks[k], out, MAXP);
		if (m != nref || (m > 0 && memcmp(out, ref, (size_t)m * sizeof(*out))))
			return 0;
	}
	return 1;
}

/* Parse A-sync + @b with configuration @c: the packets after the A-sync
 * in pk[] and their count, or -1. */
static int after_async(const struct etm_config *c, const uint8_t *b,
		       size_t n)
{
	static uint8_t buf[4096];
	int k;

	memcpy(buf, async6, 6);
	memcpy(buf + 6, b, n);
	k = parse(c, buf, n + 6, 4096, pk, MAXP);
	if (k < 1 || pk[0].type != etmp_async || pk[0].offset != PKT_BASE)
		return -1;
	memmove(pk, pk + 1, (size_t)(k - 1) * sizeof(pk[0]));
	return k - 1;
}

/* Every byte of the @len from PKT_BASE is covered once: offsets are
 * contiguous, sizes add up, no packet is empty or keeps too many bytes. */
static int covers(const struct etm_packet *p, int n, size_t len)
{
	uint64_t off = PKT_BASE;
	int i;

	for (i = 0; i < n; i++) {
		if (p[i].offset != off || p[i].size == 0 ||
		    p[i].raw_len > ETM_PKT_MAX_RAW)
			return 0;
		off += p[i].size;
	}
	return off == PKT_BASE + len;
}

/* @n random bytes into @buf from *@seed (an LCG), with an A-sync (five
 * zeros, 0x80) where the generator's bits 8.. are a multiple of @every. */
static void pkt_random_fill(uint8_t *buf, size_t n, unsigned *seed,
			    unsigned every)
{
	size_t i;

	for (i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(*seed >> 16);
		if ((*seed >> 8) % every == 0 && i + 7 < n) {
			memset(buf + i, 0, 6);
			buf[i + 6] = 0x80;
			i += 6;
		}
	}
}

/* Each of the first @hn bytes of @buf (@n bytes; its packets without
 * damage in @ref, @nr of them) set to 0, @step, 2 * @step ... < 256 in
 * turn and parsed in chunks of @chunk: every byte still covered once,
 * the last @intact packets as in @ref and an A-sync before them. Returns
 * the error packets seen in all, or -1 at the first rule broken. */
static int pkt_corruption_sweep(const struct etm_config *c, uint8_t *buf,
				size_t n, size_t hn, int step, size_t chunk,
				const struct etm_packet *ref, int nr, int intact)
{
	static struct etm_packet out[128];
	int no, errors = 0, v, j, bad = 0;
	size_t i;

	for (i = 0; i < hn && !bad; i++) {
		for (v = 0; v < 256 && !bad; v += step) {
			uint8_t save = buf[i];

			buf[i] = (uint8_t)v;
			no = parse(c, buf, n, chunk, out, 128);
			buf[i] = save;
			bad = no <= intact || !covers(out, no, n) ||
			      out[no - intact - 1].type != etmp_async;
			for (j = 0; j < no && !bad; j++)
				errors += out[j].type == etmp_error;
			for (j = 1; j <= intact && !bad; j++)
				bad = memcmp(&out[no - j], &ref[nr - j], sizeof(ref[0])) != 0;
		}
	}
	return bad ? -1 : errors;
}

#endif
