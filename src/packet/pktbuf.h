/* packet/pktbuf.h - the packet parser core shared by ETMv3 and PTM: chunks,
 * the assembly buffer for packets straddling pushes, sync state. */
#ifndef ETM_PACKET_PKTBUF_H
#define ETM_PACKET_PKTBUF_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/packet.h>

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
	uint32_t daddr;   /* ETMv3 data address compression base */
};

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

/* Offset map of a pushed buffer whose bytes are not at consecutive input
 * offsets (deformatted data): byte pos >= seg.pos has offset
 * seg.off + (pos - seg.pos) up to the next segment. */
struct etm_offseg {
	size_t pos;
	uint64_t off;
};

/* A one-byte atom packet in compact form (the decoder's fast path). */
struct etm_atomc {
	uint8_t n;                     /* atoms */
	uint8_t w_tail;                /* W atoms after the last atom */
	uint16_t bits;                 /* bit i = 1: atom i is N */
	uint16_t w[ETM_PKT_MAX_ATOMS]; /* W atoms of atom i */
};

/* A branch address packet in compact form: what the branch readers decode
 * (the etm_packet fields of a branch), also used directly by the decoder's
 * fast path. */
struct etm_brc {
	uint64_t offset;
	uint64_t addr;
	enum etm_isa isa;
	uint32_t cycle_count; /* PTM cycle-accurate (has_cc) */
	uint16_t exc_num;
	uint8_t addr_bits;
	uint8_t isa_changed;
	uint8_t has_exc;
	uint8_t cancel;
	uint8_t resume;
	uint8_t has_state;
	uint8_t ns, hyp, altisa, jazelle;
	uint8_t has_cc;
};

/* A PTM atom packet in compact form (the decoder's fast path). */
struct etm_patom {
	uint64_t offset;
	uint32_t bits; /* bit i = 1: atom i is N */
	uint32_t cc;   /* cycle count (has_cc) */
	uint8_t n;     /* atoms */
	uint8_t has_cc;
};

/* The branch fields of @pkt from @br (the rest of @pkt is left alone), and
 * back (@pkt a branch packet). */
void etm_brc_to_pkt(const struct etm_brc *br, struct etm_packet *pkt);
void etm_brc_from_pkt(struct etm_brc *br, const struct etm_packet *pkt);

struct etm_pktp {
	enum etm_protocol proto;
	struct etm_config cfg;
	struct etm_pkt_opts o;
	uint8_t hdr[256]; /* header byte -> enum etm_hdr */
	struct etm_pkt_state st;

	const uint8_t *buf; /* borrowed chunk */
	size_t len, pos;
	uint64_t off;                 /* input offset of buf[0] */
	const struct etm_offseg *map; /* borrowed with buf, or NULL */
	size_t nmap, mapi;            /* segments, lookup cursor */
	/* with map, optionally: byte pos has offset rel_base + rel[pos]
	 * (borrowed with buf; one load instead of a segment search) */
	const uint32_t *rel;
	uint64_t rel_base;

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
	 * decoder's fast path hands these to the flow decoder directly. */
	uint8_t aok[256];
	struct etm_atomc ac[256];
	struct etm_packet atab[256];
	/* One-byte packets that neither read nor change the state, as
	 * compact records by header byte (offset not set): the batch path
	 * of etm_pktp_next_recs(). */
	uint8_t rok[256];
	struct etm_pkt_rec rt[256];
	unsigned qn, qi;
	uint8_t finished;
};

/* Protocol reader: decode the packet at @b[0..n) (b[0] is a header, never
 * 0x00) into @pkt against @st (a copy of the parser state it may update).
 * Returns the packet size, -etme_again if more bytes are needed, or
 * -etme_bad_opc / -etme_bad_packet with pkt->size = bytes to drop. Readers
 * look at bytes strictly in order, so a reader that returned -etme_again for
 * k bytes never reports an error or a size within those k bytes. */
int etm_etm3_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		  struct etm_packet *pkt, struct etm_pkt_state *st);
int etm_ptm_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		 struct etm_packet *pkt, struct etm_pkt_state *st);

/* The PTM atom packet reader in compact form, same contract. */
int etm_ptm_read_atom(const struct etm_pktp *p, const uint8_t *b, size_t n,
		      struct etm_patom *a);

/* The branch address packet readers in compact form, same contract as
 * the readers above (b[0] is a branch header; @br zeroed by the caller);
 * on an error *@drop gets the bytes to drop. */
int etm_etm3_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			 struct etm_brc *br, struct etm_pkt_state *st,
			 uint32_t *drop);
int etm_ptm_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			struct etm_brc *br, struct etm_pkt_state *st,
			uint32_t *drop);

/* A branch address packet as struct etm_packet, through the compact reader
 * of @p's protocol (same contract as the readers above). */
int etm_pktp_read_branch(const struct etm_pktp *p, const uint8_t *b, size_t n,
			 struct etm_packet *pkt, struct etm_pkt_state *st);

/* Header tables for the two protocols (filled from the configuration). */
void etm_etm3_hdr_table(const struct etm_config *cfg, uint8_t hdr[256]);
void etm_ptm_hdr_table(const struct etm_config *cfg, uint8_t hdr[256]);

/* Initialise @p for @cfg (protocol already checked by the caller). */
void etm_pktp_init(struct etm_pktp *p, const struct etm_config *cfg);
/* Forget all state and search for A-sync again. */
void etm_pktp_reset(struct etm_pktp *p);
/* How many malformed packets (or reserved headers) @b[0..n) makes as @p's
 * packet stream (packet/trial.c), not counting the first bytes (they may
 * begin inside a packet), and in *@good the bytes in well-formed packets
 * and A-syncs; @p is not changed. For choosing a frame alignment. */
int etm_pktp_trial(const struct etm_pktp *p, const uint8_t *b, size_t n,
		   size_t *good);
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
int etm_pktp_next(struct etm_pktp *p, struct etm_packet *pkt, size_t size);

/* Up to @max packets as compact records (see etmtrace/packet.h). */
int etm_pktp_next_recs(struct etm_pktp *p, struct etm_pkt_rec *recs,
		       size_t max);
/* The compact record of @pkt. */
void etm_pkt_rec_from(struct etm_pkt_rec *r, const struct etm_packet *pkt);

/* Push with an offset map (@map[0].pos == 0, positions increasing); @map
 * is borrowed like @buf. */
int etm_pktp_push_map(struct etm_pktp *p, const uint8_t *buf, size_t n,
		      const struct etm_offseg *map, size_t nmap);
/* The same with the offsets also given per byte: byte pos has offset
 * @rel_base + @rel[pos] (the same offsets as @map gives). */
int etm_pktp_push_rel(struct etm_pktp *p, const uint8_t *buf, size_t n,
		      const struct etm_offseg *map, size_t nmap,
		      const uint32_t *rel, uint64_t rel_base);

/* Input offset of byte @pos of the pushed buffer. */
static inline uint64_t etm_pktp_off(struct etm_pktp *p, size_t pos)
{
	const struct etm_offseg *m = p->map;
	size_t i = p->mapi;

	if (!m)
		return p->off + pos;
	if (p->rel)
		return p->rel_base + p->rel[pos];
	while (i + 1 < p->nmap && m[i + 1].pos <= pos)
		i++;
	while (i > 0 && m[i].pos > pos)
		i--;
	p->mapi = i;
	return m[i].off + (pos - m[i].pos);
}

/* Fast path: if the parser is synchronised at a packet boundary and the
 * next byte is a one-byte atom packet, consume it and return its decoded
 * form (offset not set: *@off gets it); else NULL (use next()). */
static inline const struct etm_packet *etm_pktp_fast_atom(struct etm_pktp *p,
							  uint64_t *off)
{
	uint8_t b;

	if (p->pos >= p->len || p->mode != etm_pm_sync || p->asm_len ||
	    p->qi < p->qn)
		return NULL;
	b = p->buf[p->pos];
	if (!p->aok[b])
		return NULL;
	*off = etm_pktp_off(p, p->pos);
	p->pos++;
	return &p->atab[b];
}

/* The header class (enum etm_hdr) of the next packet if the parser is
 * synchronised at a packet boundary with bytes to read, else etmh_reserved:
 * which fast-path reader to try. */
static inline enum etm_hdr etm_pktp_fast_hdr(const struct etm_pktp *p)
{
	if (p->pos >= p->len || p->mode != etm_pm_sync || p->asm_len ||
	    p->qi < p->qn)
		return etmh_reserved;
	return (enum etm_hdr)p->hdr[p->buf[p->pos]];
}

/* Most atoms in one etm_atom_run. */
#define ETM_ATOM_RUN_MAX 64

/* A run of consecutive one-byte atom packets, as the flow decoder takes
 * them (the decoder's fast path): their atoms oldest first, and for
 * cycle-accurate trace the W atoms of each. Packets without E/N atoms
 * (W only) add to the next atom's W count or to w_tail. */
struct etm_atom_run {
	unsigned n;      /* atoms */
	unsigned npkt;   /* packets consumed */
	unsigned nap;    /* packets with atoms */
	uint64_t bits;   /* bit i = 1: atom i is N */
	uint32_t w_tail; /* W atoms after the last atom */
	/* W atoms since the previous atom of the run, its own included
	 * (cycle-accurate only; room for a whole packet past the end) */
	uint16_t w[ETM_ATOM_RUN_MAX + ETM_PKT_MAX_ATOMS];
	/* atom i belongs to packet apk[i] (of those with atoms) */
	uint8_t apk[ETM_ATOM_RUN_MAX + ETM_PKT_MAX_ATOMS];
	/* position in the pushed buffer of packet j (and room for one more);
	 * etm_atom_run_off() gives its input offset */
	size_t ppos[ETM_ATOM_RUN_MAX + 1];
	/* the offset map of the pushed buffer (see struct etm_pktp) */
	const struct etm_offseg *map;
	size_t nmap, mapi;
	uint64_t off0; /* offset of position 0, no map */
};

/* Input offset of packet @j of @r (of those with atoms); for increasing
 * @j only (a cursor moves forwards through the map). Offsets are needed
 * for elements only, far fewer than packets, so they are found here. */
static inline uint64_t etm_atom_run_off(struct etm_atom_run *r, unsigned j)
{
	const struct etm_offseg *m = r->map;
	size_t pos = r->ppos[j];

	if (!m)
		return r->off0 + pos;
	while (r->mapi + 1 < r->nmap && m[r->mapi + 1].pos <= pos)
		r->mapi++;
	return m[r->mapi].off + (pos - m[r->mapi].pos);
}

/* After the offsets of run @r were looked up (etm_atom_run_off()): the
 * parser's own offset cursor goes on from where the run's ended, so the
 * segments of the offset map are not walked again. */
static inline void etm_pktp_run_done(struct etm_pktp *p,
				     const struct etm_atom_run *r)
{
	if (p->map == r->map)
		p->mapi = r->mapi;
}

/* If the parser is synchronised at a packet boundary, consume up to
 * @maxpk (>= 1) consecutive one-byte atom packets (at most
 * ETM_ATOM_RUN_MAX atoms) into @r. Returns the packets consumed (r->npkt;
 * when 0, @r is left alone). */
unsigned etm_pktp_atom_run(struct etm_pktp *p, struct etm_atom_run *r,
			   unsigned maxpk);

/* Fast path: if the parser is synchronised at a packet boundary and the
 * next bytes are a whole, valid branch address packet, consume it into @br
 * (zeroed here, offset set) and return 1; else 0 (use next()). */
int etm_pktp_fast_branch(struct etm_pktp *p, struct etm_brc *br);

/* The same for a whole PTM atom packet (any size), into @a. */
int etm_pktp_fast_patom(struct etm_pktp *p, struct etm_patom *a);

/* The shared core of a parser object. */
struct etm_pktp *etm_ptm_core(struct etm_ptm *p);
struct etm_pktp *etm_etm3_core(struct etm_etm3 *p);

/* Write the state that decides the parser's future output (compression
 * state, sync mode, partial packet) to @s; parallel decode compares it. */
struct etm_sbuf;
void etm_pktp_save(const struct etm_pktp *p, struct etm_sbuf *s);
void etm_ptm_save(const struct etm_ptm *p, struct etm_sbuf *s);
void etm_etm3_save(const struct etm_etm3 *p, struct etm_sbuf *s);

#endif
