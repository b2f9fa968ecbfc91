/* encode/enc_int.h - internals of the trace encoder: the encoder object, the
 * output buffer, the seeded PRNG, and field writers shared by both protocols. */
#ifndef ETM_ENCODE_ENC_INT_H
#define ETM_ENCODE_ENC_INT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/encode.h>
#include <etmtrace/insn.h>
#include <etmtrace/packet.h>

/* Growable byte buffer; a failed allocation sets err and drops data. */
struct etm_obuf {
	uint8_t *p;
	size_t len, cap;
	int err;
};

void etm_obuf_put(struct etm_obuf *b, const uint8_t *d, size_t n);
void etm_obuf_free(struct etm_obuf *b);

static inline void etm_obuf_byte(struct etm_obuf *b, uint8_t c)
{
	etm_obuf_put(b, &c, 1);
}

/* splitmix64: small, seedable, good enough for test generation. */
struct etm_rng {
	uint64_t s;
};

static inline uint64_t etm_rng_next(struct etm_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0). */
static inline uint32_t etm_rng_below(struct etm_rng *r, uint32_t n)
{
	return (uint32_t)(etm_rng_next(r) % n);
}

/* 1 with probability num/den. */
static inline int etm_rng_chance(struct etm_rng *r, uint32_t num, uint32_t den)
{
	return etm_rng_below(r, den) < num;
}

struct enc_rsent {
	uint64_t addr;
	enum etm_isa isa;
	uint8_t ns;
};

#define ENC_MAX_ATOMS 64

struct etm_enc {
	struct etm_enc_opts o;
	const struct etm_image *img;
	struct etm_rng rng;
	struct etm_obuf out;
	uint64_t consumed; /* bytes dropped by etm_enc_consume() */
	/* configuration, decoded once */
	uint8_t ptm, ca, cid_bytes, vmid_on, ts_on, ts64, tsbin, rs_on;
	uint8_t alt, bcast, minor;
	/* trace state */
	uint8_t on;        /* tracing enabled */
	uint8_t need_sync; /* I-sync before the next traced item */
	uint8_t ever_synced;
	uint8_t reason;              /* reason of the pending I-sync */
	uint32_t gap;                /* gap cycles of the pending I-sync */
	uint64_t async_at, isync_at; /* output position of the last syncs */
	uint32_t base;               /* address compression base */
	enum etm_isa pisa;           /* ISA stated by the last full address */
	uint8_t force_full;          /* next address in 5 bytes (after a WPU) */
	uint64_t next;               /* address of the next instruction */
	uint8_t next_valid;
	/* where the classifier says the next instruction event must be (see
	 * enc_expect()): an execution it cannot explain is refused */
	uint8_t expect_on;
	uint64_t expect_addr;
	enum etm_isa expect_isa;
	enum etm_isa isa; /* processor state */
	uint8_t ns, hyp;
	uint8_t pns, phyp; /* state the trace last stated */
	uint32_t ctxid;
	uint8_t vmid;
	uint8_t cid_pend, vmid_pend;
	uint64_t ts_last;
	uint8_t ts_full; /* next timestamp in full */
	/* pending atoms, oldest first: N flag and cycles (W atoms) */
	uint8_t atom_n[ENC_MAX_ATOMS];
	uint32_t atom_w[ENC_MAX_ATOMS];
	unsigned natoms;
	unsigned atom_goal; /* PTM random packing: flush at this count */
	uint32_t cyc;       /* PTM: cycles since the last count */
	/* PTM waypoint bookkeeping */
	uint8_t have_nonwp; /* non-waypoints executed since a waypoint */
	uint64_t nonwp_addr;
	enum etm_isa nonwp_isa;
	uint64_t blk_start; /* target of the previous waypoint */
	uint8_t off_pend;   /* PTM trace_off waiting for a waypoint */
	struct enc_rsent rs[ETM_ENC_RS_DEPTH];
	unsigned rs_top, rs_count;
	/* ETMv3: the previous traced item was an instruction (cancel) */
	uint8_t last_insn;
	/* ETMv3 data trace (enc_etm3_data.c): ETMCR[3] address, [2] value,
	 * [20] data-only; the last data address; the next one in full (after
	 * a sync, where a decoder may start) */
	uint8_t d_addr, d_value, d_only, d_full;
	uint32_t d_last;
	void *e1; /* ETMv1 back end state (enc_etm1.c) */
};

static inline uint64_t enc_pos(const struct etm_enc *e)
{
	return e->consumed + e->out.len;
}

static inline void enc_byte(struct etm_enc *e, uint8_t c)
{
	etm_obuf_byte(&e->out, c);
}

/* enc.c: fields shared by both protocols */
void enc_async(struct etm_enc *e);
void enc_ctxid_bytes(struct etm_enc *e, uint32_t v);
/* Branch-style address field for @addr in @isa: sets *exc_pos to the
 * index of the byte carrying the E flag (or -1). @need_exc: exception
 * bytes will follow. Updates the compression base. */
void enc_address(struct etm_enc *e, uint32_t addr, enum etm_isa isa,
		 int need_exc, int full);
/* Exception information bytes (byte 0 and, when needed, byte 1). */
void enc_exc_bytes(struct etm_enc *e, unsigned num, int cancel, int ns,
		   int hyp, int altisa);
/* PTM cycle count field (../shared/docs/ptm.md §7). */
void enc_ptm_cc(struct etm_enc *e, uint32_t cc);
/* ETMv3 cycle count payload (../shared/docs/etmv3.md §7). */
void enc_etm3_cc(struct etm_enc *e, uint32_t cc);
void enc_timestamp(struct etm_enc *e, uint64_t ts);
/* Classify the instruction of an insn event. Returns 0 or -etme_*. */
int enc_classify(struct etm_enc *e, const struct etm_ev *ev,
		 struct etm_insn *in);
/* I-sync info byte. */
uint8_t enc_isync_info(struct etm_enc *e, unsigned reason);
/* After a Debug Halt exception (A/R exception 1) trace restarts with an
 * I-sync, reason debug exit, at the next traced instruction. */
void enc_after_halt(struct etm_enc *e, const struct etm_ev *ev);
/* A-sync due by the period (or first sync). */
int enc_async_due(const struct etm_enc *e);
int enc_isync_due(const struct etm_enc *e);

/* protocol back ends */
int enc_ptm_put(struct etm_enc *e, const struct etm_ev *ev);
int enc_ptm_finish(struct etm_enc *e);
int enc_etm3_put(struct etm_enc *e, const struct etm_ev *ev);
int enc_etm3_finish(struct etm_enc *e);
/* enc_etm3_data.c: etmev_data / etmev_data_value, and the instruction
 * events of data-only mode (no instruction trace: syncs only). */
int enc_etm3_data(struct etm_enc *e, const struct etm_ev *ev);
int enc_etm3_donly_insn(struct etm_enc *e, const struct etm_ev *ev);
int enc_e1_init(struct etm_enc *e);
int enc_e1_put(struct etm_enc *e, const struct etm_ev *ev);
int enc_e1_finish(struct etm_enc *e);

#endif
