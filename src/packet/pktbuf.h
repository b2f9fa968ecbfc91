/* packet/pktbuf.h - private to packet/: the packet decoder's state shared
 * by ETMv3 and PTM (chunks, the assembly buffer for packets straddling
 * pushes, sync state, the compression state, the per-protocol readers). */
#ifndef ETM_PACKET_PKTBUF_H
#define ETM_PACKET_PKTBUF_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/packet.h>

#include "packet/addr.h"
#include "packet/pktdec.h"

/* Longest packet other than A-sync: ETMv3 I-sync with cycle count, 4-byte
 * Context ID and an LSiP field = 1 + 5 + 4 + 1 + 4 + 8 = 23 bytes. */
#define ETM_PKT_ASM_MAX 32

/* Header classes: one per packet layout (the header byte picks it through
 * the per-parser table built from the configuration). */
enum etm_hdr {
	etmh_reserved = 0,
	etmh_async,
	etmh_branch,
	etmh_atom,
	etmh_isync,
	etmh_isync_cc,    /* ETMv3 0x70 */
	etmh_cycle_count, /* ETMv3 0x04 */
	etmh_trigger,
	etmh_ctxid,
	etmh_vmid,
	etmh_timestamp,
	etmh_exc_return,
	etmh_exc_entry,
	etmh_ignore,
	etmh_waypoint, /* PTM 0x72 */
	etmh_data,     /* ETMv3 normal data */
	etmh_ooo_data,
	etmh_ooo_place,
	etmh_val_not_traced,
	etmh_data_suppressed,
	etmh_store_failed,
};

/* Compression state a packet is decoded against. Readers get a copy, update
 * it, and the core commits it only when the packet is complete. */
struct etm_pkt_state {
	uint32_t addr;    /* branch address compression base */
	enum etm_isa isa; /* current instruction set (address alignment) */
	uint64_t ts;      /* last timestamp as transmitted (Gray or binary) */
	uint32_t daddr;   /* ETMv3 data address compression base; ITM: the
			   * stimulus port page (extension packet) */
};

/* The compression state of a fresh or reset parser. */
void etm_pkt_state_init(struct etm_pkt_state *st);

/* Configuration facts the readers need, decoded once from the registers. */
struct etm_pkt_opts {
	uint8_t cycle_acc;
	uint8_t ctxid_bytes;
	uint8_t alt_branch;
	uint8_t ts64;
	uint8_t ts_binary;
	uint8_t data_addr;
	uint8_t data_only;
	uint8_t arch_minor;
	uint8_t ts_ok; /* ETMv3 timestamp packets possible: ETMCR[28] set,
			     * ETMv3.5 or later */
	uint8_t id;
};

enum etm_pkt_mode {
	etm_pm_search = 0, /* looking for A-sync; bytes become notsync packets */
	etm_pm_sync,       /* at a packet boundary (or assembling one) */
	etm_pm_zrun,       /* synchronised, inside a run of 0x00 headers */
};

struct etm_pktp {
	enum etm_protocol proto;
	const struct etm_pkt_proto *ops;
	struct etm_config cfg;
	struct etm_pkt_opts o;
	uint8_t hdr[256]; /* header byte -> enum etm_hdr */
	struct etm_pkt_state st;

	const uint8_t *buf; /* borrowed chunk */
	size_t len, pos;
	uint64_t off;                 /* input offset of buf[0] */
	const struct etm_offseg *map; /* borrowed with buf, or NULL */
	size_t nmap, mapi;            /* segments, lookup cursor */
	/* with map, once the batch records ask for it (pktrec.c): byte pos
	 * has offset rel_base + rel[pos] (one load instead of a segment
	 * search); rel points into the table relbuf the decoder owns */
	const uint32_t *rel;
	uint64_t rel_base;
	uint32_t *relbuf;
	size_t nrelbuf;
	uint8_t rel_tried; /* built (or not possible) for this push */

	uint8_t asmb[ETM_PKT_ASM_MAX]; /* packet straddling pushes */
	size_t asm_len;
	uint64_t asm_off;
	uint64_t asm_offs[ETM_PKT_ASM_MAX]; /* input offset of each byte */

	enum etm_pkt_mode mode;
	uint64_t zrun; /* pending 0x00 bytes */
	uint64_t zrun_off;
	struct etm_packet ns; /* notsync packet being filled */

	struct etm_packet q[2]; /* ready packets */
	/* One-byte atom packets by header byte (decoded once at init): the
	 * atom tokens of the fast paths. */
	uint8_t aok[256];
	struct etm_atomc ac[256];
	/* ... and packed for the cycle-accurate run loop, one 64-byte entry a
	 * header (one shift indexes it, every field a displacement off it) */
	struct etm_acv {
		/* W atoms of atoms 0..j together (running sums) */
		uint16_t cw[8];
		/* all its W atoms, in every lane */
		uint16_t wt[8];
		uint8_t run;  /* 1: the loop takes the packet (<= 8 atoms) */
		uint8_t n;    /* atoms */
		uint8_t bits; /* E/N bits of its atoms */
		uint8_t pad[29];
	} acv[256];
	/* One-byte packets that neither read nor change the state, as
	 * compact records by header byte (offset not set): the batch path
	 * of etm_pktp_next_recs(). */
	uint8_t rok[256];
	struct etm_pkt_rec rt[256];
	/* aok/ac and rok/rt built (etm_pktp_tables()): at the first fast
	 * path, not at init, so a decoder that never takes one (the
	 * configuration probe's trial decoders) does not pay for them */
	uint8_t tables;
	unsigned qn, qi;
	uint8_t finished;
	uint8_t cut; /* etm_pktp_cut(): flush as at the end, then go on */
	/* input offset one past the last byte the latest error packet's
	 * reader looked at before deciding (the shortest prefix it does not
	 * ask more for): the same however the input is cut */
	uint64_t err_end;
};

/* A protocol's packet readers (etm3_pkt.c, ptm_pkt.c; a new protocol adds
 * its file and its entry in pktdec.c). All readers decode the packet at
 * @b[0..n) (b[0] is a header, never 0x00) against @st (a copy of the
 * decoder state they may update), and return the packet size,
 * -etme_again if more bytes are needed, or -etme_bad_opc (a bad header:
 * the core drops that byte) /
 * -etme_bad_packet with the bytes to drop. Readers look at bytes strictly
 * in order, so a reader that returned -etme_again for k bytes never
 * reports an error or a size within those k bytes. */
struct etm_pkt_proto {
	enum etm_protocol proto;
	/* header byte -> enum etm_hdr, from the configuration */
	void (*hdr_table)(const struct etm_config *cfg, uint8_t hdr[256]);
	/* any packet into @pkt (bytes to drop in pkt->size) */
	int (*read)(const struct etm_pktp *p, const uint8_t *b, size_t n,
		    struct etm_packet *pkt, struct etm_pkt_state *st);
	/* a branch address packet in compact form (@br zeroed by the
	 * caller; bytes to drop in *@drop) */
	int (*read_branch)(const struct etm_pktp *p, const uint8_t *b,
			   size_t n, struct etm_brc *br,
			   struct etm_pkt_state *st, uint32_t *drop);
	/* an atom packet of any size in compact form (NULL: the protocol's
	 * atom packets are the one-byte ones of the atom table) */
	int (*read_atom)(const struct etm_pktp *p, const uint8_t *b,
			 size_t n, struct etm_patom *a);
	/* a data packet (ETMv3; header class @h from etmh_data to
	 * etmh_store_failed) for etm_pkt_tok_data(): the fields of @pkt a
	 * data packet has are set, the others left as they are (NULL: no
	 * data packets) */
	int (*read_data)(const struct etm_pktp *p, unsigned h,
			 const uint8_t *b, size_t n, struct etm_packet *pkt,
			 struct etm_pkt_state *st);
	/* cycle-accurate branch address packets end with a cycle count */
	uint8_t br_cc;
	/* a fresh decoder reads its first byte as a header (ITM/DWT:
	 * self-delimiting packets, and SWO streams often carry no sync)
	 * instead of searching for A-sync first */
	uint8_t starts_synced;
};

/* The class of header byte @b if it means the same in ETMv3 and PTM
 * (IHI 0014Q Table 7.1, IHI 0035B Table 4.1: branch, atom, A-sync, I-sync
 * 0x08, trigger, VMID, timestamp, ignore, Context ID, exception return),
 * else etmh_reserved. */
enum etm_hdr etm_pktp_hdr_common(unsigned b);

extern const struct etm_pkt_proto etm_etm3_proto;
extern const struct etm_pkt_proto etm_ptm_proto;
extern const struct etm_pkt_proto etm_itm_proto;

/* The address field of a branch address packet at @b (etm_addr_read()
 * with @flags against @st) into @a: its size, or an error with the bytes
 * to drop in *@drop. */
static inline int etm_brc_read_addr(const uint8_t *b, size_t n,
				    unsigned flags,
				    const struct etm_pkt_state *st,
				    struct etm_addr_res *a, uint32_t *drop)
{
	int r = etm_addr_read(b, n, flags, st->addr, st->isa, a);

	*drop = r < 0 ? a->len : 0;
	return r;
}

/* The address of branch packet @br from its address field @a (AltISA of
 * the exception bytes picks T32 or ThumbEE), committed to @st. */
static inline void etm_brc_set_addr(struct etm_brc *br,
				    const struct etm_addr_res *a,
				    struct etm_pkt_state *st)
{
	enum etm_isa isa = a->isa;

	if (br->has_state && (isa == etmi_t32 || isa == etmi_tee))
		isa = br->altisa ? etmi_tee : etmi_t32;
	br->addr = a->addr;
	br->addr_bits = a->nbits;
	br->isa = isa;
	br->isa_changed = a->isa_set || isa != st->isa;
	br->jazelle = isa == etmi_jazelle;
	st->addr = a->addr;
	st->isa = isa;
}

/* A branch address packet as struct etm_packet, through the compact reader
 * of @p's protocol (same contract as the readers). */
int etm_pktp_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			 struct etm_packet *pkt, struct etm_pkt_state *st);

/* Read one packet with the protocol's reader, reporting a packet that would
 * hold an A-sync as bad (see pktbuf.c). */
int etm_pktp_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		  struct etm_packet *pkt, struct etm_pkt_state *st);

/* The tables of one-byte packets, decoded against the state @st0 of a
 * fresh parser: atoms (pkttok.c) and compact records (pktrec.c). */
void etm_pktp_atom_table(struct etm_pktp *p, const struct etm_pkt_state *st0);
void etm_pktp_rec_table(struct etm_pktp *p, const struct etm_pkt_state *st0);
void etm_pktp_build_tables(struct etm_pktp *p);
/* Build the one-byte packet tables if not yet done: every fast path that
 * reads them calls this first. They depend only on the configuration. */
static inline void etm_pktp_tables(struct etm_pktp *p)
{
	if (!p->tables)
		etm_pktp_build_tables(p);
}

/* Initialise @p for @cfg with the readers of @ops. */
void etm_pktp_init(struct etm_pktp *p, const struct etm_config *cfg,
		   const struct etm_pkt_proto *ops);
/* Forget all state and search for A-sync again. */
void etm_pktp_reset(struct etm_pktp *p);
/* Set the current instruction set used to align compressed addresses. */
static inline void etm_pktp_set_isa(struct etm_pktp *p, enum etm_isa isa)
{
	if (isa != etmi_unknown)
		p->st.isa = isa;
}
/* The shared push / finish / next implementation (see etmtrace/packet.h). */
int etm_pktp_push(struct etm_pktp *p, const uint8_t *buf, size_t n,
		  uint64_t offset);
int etm_pktp_finish(struct etm_pktp *p);
int etm_pktp_cut(struct etm_pktp *p);
int etm_pktp_next(struct etm_pktp *p, struct etm_packet *pkt, size_t size);

/* The branch address packet at @b[0..n) (b[0] a branch header) into @br
 * (offset not set), the compression state updated: its size, or 0 when
 * cut or bad (nothing changed). The short form inline (inline_fields.h), the
 * rest through the protocol's reader (pkttok.c). */
int etm_pktp_branch_at(struct etm_pktp *p, const uint8_t *b, size_t n,
		       struct etm_brc *br);

/* Up to @max packets as compact records (see etmtrace/packet.h). */
int etm_pktp_next_recs(struct etm_pktp *p, struct etm_pkt_rec *recs,
		       size_t max);

/* The per-byte offset table of the pushed buffer's offset map (p->rel;
 * left NULL if the map spans 4 GiB or memory is short): pktrel.c. */
void etm_pktp_build_rel(struct etm_pktp *p);

/* Input offset of byte @pos of the pushed buffer. */
static inline uint64_t etm_pktp_off(struct etm_pktp *p, size_t pos)
{
	if (!p->map)
		return p->off + pos;
	if (__builtin_expect(!p->rel_tried, 0))
		etm_pktp_build_rel(p);
	if (p->rel)
		return p->rel_base + p->rel[pos];
	return etm_offseg_off(p->map, p->nmap, &p->mapi, pos);
}

/* A packet a token read in place (@r bytes at p->pos, into @pkt, with
 * the compression state after it in @st) taken: the state kept, the
 * packet's ID, offset and size set (not its bytes), the position moved
 * past it. Returns 1. */
static inline int etm_pktp_tok_take(struct etm_pktp *p,
				    const struct etm_pkt_state *st,
				    struct etm_packet *pkt, int r)
{
	p->st = *st;
	pkt->id = p->o.id;
	pkt->offset = etm_pktp_off(p, p->pos);
	pkt->size = (uint32_t)r;
	p->pos += (size_t)r;
	return 1;
}

/* The packet decoder object of etmtrace/packet.h: its state. */
struct etm_pkt_decoder {
	struct etm_pktp core;
};

#endif
