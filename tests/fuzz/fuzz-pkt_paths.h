/* tests/fuzz/fuzz-pkt_paths.h - body of the differential fuzz targets for
 * the packet decoder's two paths: the token path the flow decoder's fast
 * path reads (src/packet/pktdec.h: etm_pkt_tok_atom_run() runs of ETMv3
 * one-byte atom packets, etm_pkt_tok_next() PTM atom and branch tokens,
 * etm_pkt_tok_branch(), etm_pkt_tok_data() ETMv3 data tokens,
 * etm_pkt_tok_sync() ETMv3 I-sync, timestamp, A-sync and other tokens, and
 * etm_pkt_tok_packet() through the token reader: any packet read whole in
 * place, as the PTM plain loop reads I-syncs and timestamps) and the
 * general path (etm_pkt_next()). Two decoders of the same configuration
 * get the input in the same pieces; one takes a token wherever the call
 * chosen for that step gives one, else a packet, the other only packets.
 * Every token must equal the general path's packet(s) for the same bytes
 * (tests/unit/etest_pktcmp.h), and every packet the token decoder reads
 * with etm_pkt_next() must equal the other's in every field.
 * Input: configuration (fz_config(): ETMCR with its cycle-accurate and
 * data trace bits, ETMCCER, ETMIDR), piece selector (fz_chunk()), the
 * trace bytes: the layout of the etm3_pkt and ptm_pkt targets, whose
 * corpora these replay. The token call of each step is drawn from a
 * generator seeded by the selector and the first trace bytes. */
#ifndef ETM_TESTS_FUZZ_PKT_PATHS_H
#define ETM_TESTS_FUZZ_PKT_PATHS_H

#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "../unit/etest_pktcmp.h"
#include "fuzz-pkt.h"

struct paths_run {
	struct etm_pkt_decoder *t, *g; /* token path, general path */
	int ca;                        /* ETMv3 cycle-accurate */
	uint32_t rng;                  /* token call choice */
	size_t ntok, npkt;
};

static inline unsigned paths_rnd(struct paths_run *s)
{
	s->rng = s->rng * 1103515245u + 12345u;
	return s->rng >> 16;
}

/* The general path's next packet, which must exist (a token's packet). */
static inline void paths_general(struct paths_run *s, struct etm_packet *b)
{
	memset(b, 0, sizeof(*b));
	FZ_ASSERT(etm_pkt_next(s->g, b, sizeof(*b)) == 0);
}

/* A packet read in place through the token reader (etm_pkt_tok_packet()),
 * checked against the general path's in every field: 1, or 0 when it
 * gave none (nothing consumed). */
static inline int paths_in_place(struct paths_run *s)
{
	struct etm_tok_reader rd;
	struct etm_packet a, b;
	int k;

	if (!etm_pkt_tok_open(s->t, &rd))
		return 0;
	k = etm_pkt_tok_packet(s->t, &rd, rd.pos, &a);
	if (k > 0)
		rd.pos += (size_t)k;
	etm_pkt_tok_close(s->t, &rd);
	if (k <= 0)
		return 0;
	paths_general(s, &b);
	FZ_ASSERT(pkt_hash(FZ_HASH_INIT, &a) == pkt_hash(FZ_HASH_INIT, &b));
	return 1;
}

/* One token of the call chosen for this step, checked: 1, or 0 when that
 * call gave none (nothing consumed). */
static inline int paths_token(struct paths_run *s)
{
	struct etm_atom_run r;
	struct etm_packet tok, b;
	struct etm_tok tk;
	struct etm_brc br;
	unsigned k;

	switch (paths_rnd(s) % 6) {
	case 5: /* ETMv3 sync token: the packet but its raw bytes */
		if (!etm_pkt_tok_sync(s->t, &tok))
			return 0;
		paths_general(s, &b);
		b.raw_len = 0;
		FZ_ASSERT(pkt_hash(FZ_HASH_INIT, &tok) ==
			  pkt_hash(FZ_HASH_INIT, &b));
		return 1;
	case 4:
		return paths_in_place(s);
	case 0:
		k = etm_pkt_tok_atom_run(s->t, &r, 1 + paths_rnd(s) % 300);
		if (!k)
			return 0;
		FZ_ASSERT(etest_run_matches(&r, k, s->g, s->ca));
		etm_pkt_tok_run_done(s->t, &r);
		return 1;
	case 1:
		switch (etm_pkt_tok_next(s->t, &tk)) {
		case etm_tk_atom:
			paths_general(s, &b);
			FZ_ASSERT(etest_same_patom(&tk.atom, &b));
			return 1;
		case etm_tk_branch:
			paths_general(s, &b);
			FZ_ASSERT(etest_same_branch(&tk.br, &b));
			return 1;
		default:
			return 0;
		}
	case 2:
		if (!etm_pkt_tok_branch(s->t, &br))
			return 0;
		paths_general(s, &b);
		FZ_ASSERT(etest_same_branch(&br, &b));
		return 1;
	default:
		memset(&tok, 0, sizeof(tok));
		if (!etm_pkt_tok_data(s->t, &tok))
			return 0;
		paths_general(s, &b);
		FZ_ASSERT(etest_same_data(&tok, &b));
		return 1;
	}
}

/* Both decoders until both need input (@final: the end). */
static inline void paths_drain(struct paths_run *s, int final)
{
	struct etm_packet a, b;
	int ra, rb;

	for (;;) {
		if (paths_token(s)) {
			s->ntok++;
			continue;
		}
		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		ra = etm_pkt_next(s->t, &a, sizeof(a));
		rb = etm_pkt_next(s->g, &b, sizeof(b));
		FZ_ASSERT(ra == rb);
		if (ra < 0) {
			FZ_ASSERT(ra == (final ? -etme_eos : -etme_again));
			return;
		}
		FZ_ASSERT(pkt_hash(FZ_HASH_INIT, &a) ==
			  pkt_hash(FZ_HASH_INIT, &b));
		s->npkt++;
	}
}

static inline int pkt_paths_fuzz(enum etm_protocol proto, const uint8_t *data,
				 size_t size)
{
	struct fz_in in = { data, size };
	struct paths_run s;
	struct etm_config cfg;
	size_t pos = 0;
	unsigned k = 0;
	uint8_t sel;

	memset(&s, 0, sizeof(s));
	fz_config(&in, &cfg, proto);
	sel = fz_u8(&in);
	s.rng = fz_hash(FZ_HASH_INIT, in.p, in.n < 16 ? in.n : 16) ^ sel;
	s.ca = proto == etm_proto_etmv3 && (cfg.etmcr & 0x1000u); /* ETMCR[12] */
	s.t = etm_pkt_alloc(&cfg);
	s.g = etm_pkt_alloc(&cfg);
	FZ_ASSERT(!s.t == !s.g);
	if (!s.t)
		return 0;
	while (pos < in.n) {
		size_t c = fz_chunk(sel, k++, in.n - pos);

		FZ_ASSERT(etm_pkt_push(s.t, in.p + pos, c, pos) == 0);
		FZ_ASSERT(etm_pkt_push(s.g, in.p + pos, c, pos) == 0);
		paths_drain(&s, 0);
		pos += c;
	}
	FZ_ASSERT(etm_pkt_finish(s.t) == 0 && etm_pkt_finish(s.g) == 0);
	paths_drain(&s, 1);
	etm_pkt_free(s.t);
	etm_pkt_free(s.g);
	return 0;
}

#endif
