/* flow/etm1_int.h - internals of the ETMv1 decoder shared by its files:
 * the sample window, the decode state (copied whole before a step that may
 * need samples not yet pushed, restored if it did), the element queue. */
#ifndef ETM_FLOW_ETM1_INT_H
#define ETM_FLOW_ETM1_INT_H

#include <stdint.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>
#include <etmtrace/insn.h>

#include "common/e1cfg.h"
#include "image/bcache.h"

/* A sample resolved (e1_word()): status, flags, TRACEPKT. */
#define E1_PS(w) ((w)&7u)
#define E1_PSHI 0x08u /* PIPESTAT[3] set: impossible in ETMv1 */
#define E1_SYNC 0x10u
#define E1_TRIG 0x20u
#define E1_NOPKT 0x40u /* TD or TR: no packet byte this cycle */
#define E1_PKT(w) ((w) >> 16)

#define E1_QMAX 256       /* element queue */
#define E1_QHIGH 192      /* stop decoding when this many are queued */
#define E1_LOOKAHEAD 4096 /* most cycles from a branch to its address */
#define E1_NOFULL 256     /* addresses without a full one: an error */
#define E1_CHUNK 262144   /* samples taken from the pushed buffer at once */

/* e1_cyc_tab[byte 0 of a raw record]: the fast loop's action ... */
enum { e1a_pass,  /* WT, TD: no instruction */
       e1a_exec,  /* IE */
       e1a_nexec, /* IN */
       e1a_slow /* anything else: the general step (e1_cycle()) */ };
#define E1C_ACT 3u
#define E1C_PKT 4u /* ... and whether TRACEPKT holds a byte this cycle */
extern const uint8_t e1_cyc_tab[64];

/* The decode state (restored when a step ran out of samples). */
struct e1_st {
	uint64_t i;         /* next cycle to decode */
	uint64_t cc;        /* byte cursor: cycle ... */
	unsigned lane;      /* ... and lane (16-bit: 0 low, 1 high byte;
				 * 4-bit: always 0) */
	uint64_t last_sync; /* last TRACESYNC cycle whose address was read
				 * (+1; 0 = none) */
	uint32_t pc;
	enum etm_isa isa;
	int pc_valid;
	int synced_once; /* a full address was seen */
	int after_error; /* the next trace-on is a resync */
	unsigned nofull; /* addresses read without a PC since one */
	uint32_t br_base, br_known;
	uint32_t da_base, da_known;
	int dsync; /* data byte count known since the last seek */
	uint32_t ctxid;
	int has_ctx;
	uint64_t last_cyc; /* cycle of the previous instruction status */
	/* the range being built */
	int rng_open;
	struct etm_elem rng;
	/* the current straight-line block and the index of pc in it */
	int blk_ok;
	struct etm_block blk;
	uint32_t bidx;
};

struct etm_e1 {
	struct etm_config cfg;
	const struct etm_image *img;
	struct etm_bcache *bc;
	struct etm_e1_cfg o; /* options from the registers */
	/* input: the pushed buffer not yet taken, a partial record */
	const uint8_t *in;
	size_t in_n;
	uint8_t part[ETM_E1_REC];
	unsigned npart;
	uint64_t nsamples; /* samples taken into the window so far */
	int finishing;
	/* the window: samples wbase .. wbase + wn - 1, raw records */
	uint32_t *w;
	size_t wn, wcap;
	uint64_t wbase;
	int shortage;          /* a step read past the window */
	uint64_t trig_pend[2]; /* triggers in the APO cycles of a branch */
	unsigned ntrig_pend;
	struct e1_st s;
	struct etm_elem rng_tmpl; /* a new range's fixed fields */
	struct etm_elem q[E1_QMAX];
	unsigned qh, qn;
	int done;
	struct etm_e1_stats st;
};

/* A record as the window holds it: the 4 bytes as a little-endian word
 * (byte 0: PIPESTAT | TRACESYNC << 4 | TRIGGER << 5; TRACEPKT at 8). */
static inline uint32_t e1_raw(const uint8_t *r)
{
	return (uint32_t)r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 |
	       (uint32_t)r[3] << 24;
}

/* A window word resolved: TR takes its status from TRACEPKT[2:0] (IHI
 * 0014Q Table 5.2), TD and TR are cycles without a packet byte; TRACEPKT
 * moves to bits [31:16]. */
static inline uint32_t e1_word(uint32_t raw)
{
	uint32_t b0 = raw & 0xff, ps = b0 & 15u, pkt = raw >> 8 & 0xffff;
	uint32_t w = (b0 & (E1_SYNC | E1_TRIG)) | pkt << 16;

	if (ps < etm_e1_tr && !(b0 & E1_TRIG))
		return w | ps; /* the common case */
	if (ps & 8u)
		return w | ps; /* E1_PSHI: reported by the loop */
	if (b0 & E1_TRIG)
		return w | ps | E1_NOPKT; /* pre-resolved trigger cycle */
	if (ps == etm_e1_tr)
		return w | (pkt & 7u) | E1_TRIG | E1_NOPKT;
	return w | ps | E1_NOPKT; /* TD */
}

/* Sample @k resolved, or a no-packet TD if it is not in the window
 * (noted). */
static inline uint32_t e1_sample(struct etm_e1 *d, uint64_t k)
{
	if (k >= d->wbase && k - d->wbase < d->wn)
		return e1_word(d->w[k - d->wbase]);
	d->shortage = 1;
	return etm_e1_td | E1_NOPKT;
}

/* Queue the open range (the queue has room: decoding stops at E1_QHIGH). */
static inline void e1_close_range_in(struct etm_e1 *d)
{
	if (!d->s.rng_open)
		return;
	d->s.rng_open = 0;
	if (d->qh + d->qn >= E1_QMAX) {
		memmove(d->q, d->q + d->qh, d->qn * sizeof(*d->q));
		d->qh = 0;
	}
	d->q[d->qh + d->qn++] = d->s.rng;
}

/* etm1.c */
struct etm_elem *e1_push_elem(struct etm_e1 *d, enum etm_elem_kind k,
			      uint64_t cycle);
void e1_close_range(struct etm_e1 *d);
void e1_error(struct etm_e1 *d, uint64_t cycle, int err);
int e1_insn_at(struct etm_e1 *d, struct etm_insn *in);
int e1_insn_cached(struct etm_e1 *d, struct etm_insn *in);
/* etm1_br.c */
void e1_branch(struct etm_e1 *d, uint64_t p, unsigned ps);
void e1_data(struct etm_e1 *d, uint64_t cycle);
void e1_bump(struct etm_e1 *d, uint64_t cycle);

#endif
