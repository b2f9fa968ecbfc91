/* packet/pktdec.h - the packet decoder's library-internal interface, for
 * the layers above it (flow decoder, pipeline, deformatter): pushes with an
 * offset map, state save, and the compact token reader the fast paths of
 * both protocols pull packets through without building struct etm_packet.
 * The decoder's own state (packet/pktbuf.h) stays private to packet/. */
#ifndef ETM_PACKET_PKTDEC_H
#define ETM_PACKET_PKTDEC_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/packet.h>

#include "packet/inline_fields.h"
#include "source/offseg.h"

/* Input offset of byte @pos through offset map @m of @n segments; *@mi
 * is the segment a lookup starts from (moved to @pos's). */
static inline uint64_t etm_offseg_off(const struct etm_offseg *m, size_t n,
				      size_t *mi, size_t pos)
{
	size_t i = *mi;

	while (i + 1 < n && m[i + 1].pos <= pos)
		i++;
	while (i > 0 && m[i].pos > pos)
		i--;
	*mi = i;
	return m[i].off + (pos - m[i].pos);
}

/* How many malformed packets (or reserved headers) @b[0..n) makes as
 * @pd's packet stream (packet/trial.c), not counting the first bytes (they
 * may begin inside a packet), and in *@good the bytes in well-formed
 * packets and A-syncs; @pd is not changed. For choosing a frame
 * alignment. */
int etm_pkt_trial(const struct etm_pkt_decoder *pd, const uint8_t *b,
		  size_t n, size_t *good);

/* Input offset one past the last byte the latest error packet was
 * decided on (its reader's lookahead: the same however the input is cut;
 * for the realignment's rewind). */
uint64_t etm_pkt_err_end(const struct etm_pkt_decoder *pd);

/* Push with an offset map (@map[0].pos == 0, positions increasing); @map
 * is borrowed like @buf. */
int etm_pkt_push_map(struct etm_pkt_decoder *pd, const uint8_t *buf,
		     size_t n, const struct etm_offseg *map, size_t nmap);

/* etm_pkt_push_map() with the per-byte offset table of @map already made
 * (etm_offseg_rel(); @rel borrowed like @buf, NULL: made when needed):
 * one table for decoders that push the same staged data (the
 * configuration probe's variants, decoder/dfmt_replay.c). */
int etm_pkt_push_map_rel(struct etm_pkt_decoder *pd, const uint8_t *buf,
			 size_t n, const struct etm_offseg *map, size_t nmap,
			 const uint32_t *rel);

/* The per-byte offset table of @len bytes with offset map @map: @rel[pos]
 * = offset of byte pos less @map[0].off, into @rel[0..@len + 16) (the
 * last 16 are slack it may overwrite). -1 if the map spans 4 GiB (no
 * table: the segments serve). */
int etm_offseg_rel(const struct etm_offseg *map, size_t nmap, size_t len,
		   uint32_t *rel);

/* etm_pkt_next() but an error packet stays where it is (returns 1, *@pkt
 * not set): the next etm_pkt_next() gives it, as if this call had not
 * been made. The flow decoders' fast paths decode the packets that are
 * not errors themselves and leave an error to the decoder, which judges
 * it (realignment). Returns 0 with a packet, 1, or what etm_pkt_next()
 * returns. */
int etm_pkt_next_ok(struct etm_pkt_decoder *pd, struct etm_packet *pkt);

/* The compact record of @pkt (struct etm_pkt_rec). */
void etm_pkt_rec_from(struct etm_pkt_rec *r, const struct etm_packet *pkt);

/* Write the state that decides the decoder's future output (compression
 * state, sync mode, partial packet) to @s; parallel decode compares it. */
struct etm_sbuf;
void etm_pkt_save(const struct etm_pkt_decoder *pd, struct etm_sbuf *s);

/* ---- compact tokens ------------------------------------------------------
 * The fast paths read the packets at the decoder's position as compact
 * tokens: one-byte atom packets by header byte (struct etm_atomc, decoded
 * once at alloc), runs of them in a batch (struct etm_atom_run), branch
 * address packets (struct etm_brc) and PTM atom packets of any size
 * (struct etm_patom). The packet decoder still does all the parsing and
 * keeps the compression state; a token is the packet next() would give,
 * in compact form. Tokens exist only while the decoder is synchronised at
 * a packet boundary of the pushed chunk (etm_pkt_tok_ready()); anything
 * else goes through etm_pkt_next(). */

/* A one-byte atom packet in compact form. */
struct etm_atomc {
	uint8_t n;                     /* atoms */
	uint8_t w_tail;                /* W atoms after the last atom */
	uint16_t bits;                 /* bit i = 1: atom i is N */
	uint16_t w[ETM_PKT_MAX_ATOMS]; /* W atoms of atom i */
};

/* A branch address packet in compact form: the etm_packet fields of a
 * branch. */
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

/* A PTM atom packet in compact form. */
struct etm_patom {
	uint64_t offset;
	uint32_t bits; /* bit i = 1: atom i is N */
	uint32_t cc;   /* cycle count (has_cc) */
	uint8_t n;     /* atoms */
	uint8_t has_cc;
};

/* The branch fields of @br from branch packet @pkt. */
void etm_brc_from_pkt(struct etm_brc *br, const struct etm_packet *pkt);

/* Whether the decoder is synchronised at a packet boundary with nothing
 * queued (tokens may be read; bytes may still be needed). */
int etm_pkt_tok_ready(const struct etm_pkt_decoder *pd);

/* Whether a packet is queued or bytes of the pushed chunk are left to read:
 * if not, etm_pkt_next() only says it needs input (or, after finish, gives
 * what is held), which the fast paths leave to the general path. */
int etm_pkt_has_bytes(const struct etm_pkt_decoder *pd);

/* Token kinds. */
enum etm_tok_kind {
	etm_tk_none = 0, /* no token: the general path (etm_pkt_next()) */
	etm_tk_atom,     /* an atom packet of any size (PTM) */
	etm_tk_branch,   /* a branch address packet */
};

/* A token. */
struct etm_tok {
	union {
		struct etm_patom atom; /* etm_tk_atom */
		struct etm_brc br;     /* etm_tk_branch */
	};
};

/* The next packet as a token into @t, consumed: its kind, or etm_tk_none
 * (nothing consumed) when it has no token form here - not ready, no bytes,
 * cut by the end of the chunk, bad, another packet type, or a one-byte
 * atom packet of a protocol that reads them as batches
 * (etm_pkt_tok_atom_run()). */
enum etm_tok_kind etm_pkt_tok_next(struct etm_pkt_decoder *pd,
				   struct etm_tok *t);

/* Only a branch address packet as a token into @br: 1, else 0. */
int etm_pkt_tok_branch(struct etm_pkt_decoder *pd, struct etm_brc *br);

/* Only an ETMv3 data packet (normal or out-of-order data, placeholder,
 * value not traced, data suppressed, store failed) into @pkt, consumed:
 * 1, else 0 (nothing consumed; as etm_pkt_tok_next()). Of @pkt only the
 * fields a data packet has are set (type, id, offset, size, dtag, daddr,
 * dvalue and their flags); the caller zeroes it once, then it equals what
 * etm_pkt_next() gives but for the raw bytes (raw_len 0). The data
 * trace's token: the flow decoder's fast path with data trace on keeps
 * data packets off the general path. */
int etm_pkt_tok_data(struct etm_pkt_decoder *pd, struct etm_packet *pkt);

/* Only an ETMv3 packet of the kinds between atom runs and branch addresses
 * - A-sync (fewer than 32 zeros), I-sync without LSiP (instruction
 * trace), timestamp, cycle count, Context ID, VMID, trigger, exception
 * return and entry, ignore - whole in the chunk, into @pkt, consumed: 1,
 * and @pkt is what etm_pkt_next() would give but for the raw bytes
 * (raw_len 0). Else 0, nothing consumed (@pkt scribbled): any other
 * packet, an error, a packet cut by the end of the chunk, not ready
 * (etm_pkt_tok_ready()) or not ETMv3; etm_pkt_next() gives it. The ETMv3
 * fast paths' general packet without the queue. */
int etm_pkt_tok_sync(struct etm_pkt_decoder *pd, struct etm_packet *pkt);

/* Most atoms in one etm_atom_run. */
#define ETM_ATOM_RUN_MAX 64

/* Most packets in one etm_atom_run, and how a slot of its cw[] holds an
 * atom's packet index, whether it is N and the run's W sum (see cw[]):
 * the index in the top 6 bits (from ETM_ATOM_RUN_WBITS), the N flag in
 * bit ETM_ATOM_RUN_NBIT (cycle-accurate only), the sum in the low 9 bits
 * (at most 8 W atoms a packet: 504). */
#define ETM_ATOM_RUN_PKTS 63
#define ETM_ATOM_RUN_WBITS 10
#define ETM_ATOM_RUN_NBIT 9
#define ETM_ATOM_RUN_WMASK ((1u << ETM_ATOM_RUN_NBIT) - 1)

/* A batch of consecutive one-byte atom packets: their atoms oldest first,
 * each with its packet and, for cycle-accurate trace, the W atoms before
 * it as running sums. Packets without E/N atoms (W only) add to the next
 * atom's W count or to w_tail. */
struct etm_atom_run {
	unsigned n;      /* atoms */
	unsigned npkt;   /* packets consumed (at most ETM_ATOM_RUN_PKTS) */
	uint64_t bits;   /* bit i = 1: atom i is N */
	uint32_t w_tail; /* W atoms after the last atom */
	/* slot j + 1 is atom j's: the index in the run of its packet (W-only
	 * packets counted: packet p is the byte at pos0 + p) shifted left by
	 * ETM_ATOM_RUN_WBITS (etm_atom_run_pkt()), plus, cycle-accurate only,
	 * whether it is N (bit ETM_ATOM_RUN_NBIT, as in bits) and the W atoms
	 * of the run up to atom j included; cw[0] = 0. One slot per atom,
	 * written by one vector store per packet with the packet's running
	 * sums: no separate per-atom packet index or E/N bit. The W atoms of
	 * atoms i..l-1 are etm_atom_run_w(cw[l], cw[i]) (atom j's own:
	 * etm_atom_run_w(cw[j + 1], cw[j])). Room for a whole packet past the
	 * end. */
	uint16_t cw[ETM_ATOM_RUN_MAX + ETM_PKT_MAX_ATOMS + 1];
	/* position in the pushed buffer of packet 0; etm_atom_run_off()
	 * gives a packet's input offset */
	size_t pos0;
	/* the offset map of the pushed buffer (see struct etm_offseg) */
	const struct etm_offseg *map;
	size_t nmap, mapi;
	const uint32_t *rel; /* per-byte offsets (rel_base + rel[pos]) or NULL */
	uint64_t rel_base;
	uint64_t off0; /* offset of position 0, no map */
};

/* The index in run @r of the packet of atom @i (< r->n). */
static inline unsigned etm_atom_run_pkt(const struct etm_atom_run *r,
					unsigned i)
{
	return (unsigned)r->cw[i + 1] >> ETM_ATOM_RUN_WBITS;
}

/* The W atoms between two slots of a run's cw[], @hi's (the later) and
 * @lo's: the packet indices and N flags they also hold fall out of the
 * mask (a run's W atoms fit in it). */
static inline uint32_t etm_atom_run_w(uint16_t hi, uint16_t lo)
{
	return (uint16_t)(hi - lo) & ETM_ATOM_RUN_WMASK;
}

/* Input offset of packet @j of @r (etm_atom_run_pkt()); for increasing @j
 * only (a cursor moves forwards through the map). Offsets are needed for
 * elements only, far fewer than packets, so they are found here. */
static inline uint64_t etm_atom_run_off(struct etm_atom_run *r, unsigned j)
{
	const struct etm_offseg *m = r->map;
	size_t pos = r->pos0 + j;

	if (!m)
		return r->off0 + pos;
	if (r->rel)
		return r->rel_base + r->rel[pos];
	while (r->mapi + 1 < r->nmap && m[r->mapi + 1].pos <= pos)
		r->mapi++;
	return m[r->mapi].off + (pos - m[r->mapi].pos);
}

/* Input offset of the packet of atom @i of @r; as etm_atom_run_off(). */
static inline uint64_t etm_atom_run_aoff(struct etm_atom_run *r, unsigned i)
{
	return etm_atom_run_off(r, etm_atom_run_pkt(r, i));
}

/* If the decoder is synchronised at a packet boundary, consume up to
 * @maxpk (>= 1) consecutive one-byte atom packets (at most
 * ETM_ATOM_RUN_PKTS packets and ETM_ATOM_RUN_MAX atoms) into @r. Returns the packets consumed (r->npkt;
 * when 0, @r is left alone). */
unsigned etm_pkt_tok_atom_run(struct etm_pkt_decoder *pd,
			      struct etm_atom_run *r, unsigned maxpk);

/* After the offsets of run @r were looked up (etm_atom_run_off()): the
 * decoder's own offset cursor goes on from where the run's ended, so the
 * segments of the offset map are not walked again. */
void etm_pkt_tok_run_done(struct etm_pkt_decoder *pd,
			  const struct etm_atom_run *r);

/* ---- the token reader: a window on the pushed chunk in locals ------------
 * For a loop that reads one-byte atom packets and short branch addresses
 * itself, with the hot state in registers: etm_pkt_tok_open() copies the
 * position, compression state and tables out, etm_tok_*() read tokens
 * through it, etm_pkt_tok_close() commits what was consumed. Nothing else
 * may be called on the decoder in between. */
struct etm_tok_reader {
	const uint8_t *buf;
	size_t pos, len;
	const uint8_t *aok;         /* header byte -> one-byte atom packet */
	const struct etm_atomc *ac; /* header byte -> its atoms */
	const uint8_t *hdr;         /* header byte -> header class */
	uint8_t br_hdr;             /* the class of branch headers */
	uint8_t alt;                /* ETMv3 alternative branch encoding */
	/* PTM cycle-accurate: the class of atom headers (an atom packet is
	 * its header and cycle count; ETM_TOK_NO_HDR otherwise), and a cycle
	 * count follows each branch address */
	uint8_t ca_atom_hdr;
	uint8_t br_cc;
	uint32_t addr;                /* compression state: address base */
	enum etm_isa isa;             /* and the trace's ISA */
	uint64_t off;                 /* input offset of buf[0], no map */
	const struct etm_offseg *map; /* offset map or NULL */
	size_t nmap, mapi;
	const uint32_t *rel; /* per-byte offsets or NULL */
	uint64_t rel_base;
};

/* No header class (struct etm_tok_reader's ca_atom_hdr). */
#define ETM_TOK_NO_HDR 0xff

/* Open @r on @pd: 1 if the decoder is ready for tokens (etm_pkt_tok_ready()),
 * else 0 (@r unusable). */
int etm_pkt_tok_open(struct etm_pkt_decoder *pd, struct etm_tok_reader *r);
/* Commit @r's position and compression state to @pd. */
void etm_pkt_tok_close(struct etm_pkt_decoder *pd,
		       const struct etm_tok_reader *r);

/* The packet at @pos of @r's chunk read by the general reader, when it is
 * whole there, not an error and not an A-sync: into @pkt (all fields, as
 * etm_pkt_next() would give it), the reader's compression state and the
 * decoder's other packet state (timestamp base) advanced; its size. Else
 * 0 and nothing changed: the packet is etm_pkt_next()'s to give. For the
 * plain loops' packets other than their tokens (PTM: I-sync, timestamp),
 * so that the loop goes on after them; the caller moves past it. */
int etm_pkt_tok_packet(struct etm_pkt_decoder *pd, struct etm_tok_reader *r,
		       size_t pos, struct etm_packet *pkt);

/* Input offset of byte @pos of the chunk. */
static inline uint64_t etm_tok_off(struct etm_tok_reader *r, size_t pos)
{
	if (!r->map)
		return r->off + pos;
	if (r->rel)
		return r->rel_base + r->rel[pos];
	return etm_offseg_off(r->map, r->nmap, &r->mapi, pos);
}

/* The atoms of the one-byte atom packet with header @h, or NULL if @h does
 * not begin one. */
static inline const struct etm_atomc *etm_tok_atom(
	const struct etm_tok_reader *r, uint8_t h)
{
	return r->aok[h] ? &r->ac[h] : NULL;
}

/* The PTM cycle-accurate atom packet at @pos, if the reader's trace has
 * them and one begins there: its size (0: none, or cut), its atom in
 * *@nbit (1 = N) and its cycle count in *@cc. Does not consume it. */
static inline int etm_tok_ca_atom(const struct etm_tok_reader *r, size_t pos,
				  unsigned *nbit, uint32_t *cc)
{
	uint8_t h = r->buf[pos];

	if (r->hdr[h] != r->ca_atom_hdr)
		return 0;
	*nbit = (h >> 1) & 1;
	return etm_ptm_cc_short(r->buf + pos, r->len - pos, cc);
}

/* The cycle count at @pos after a branch address (r->br_cc): its size,
 * or 0 when cut. */
static inline int etm_tok_br_cc(const struct etm_tok_reader *r, size_t pos,
				uint32_t *cc)
{
	return etm_ptm_cc_short(r->buf + pos, r->len - pos, cc);
}

/* Whether @h begins a branch address packet. */
static inline int etm_tok_is_branch(const struct etm_tok_reader *r, uint8_t h)
{
	return r->hdr[h] == r->br_hdr;
}

/* The ETMv3 branch address packet at @pos in its short form (inline_fields.h)
 * against the reader's compression state, into @bs: its size, or 0 if it
 * is not of that form (or cut). Does not consume it or change the state:
 * the caller does (r->pos, r->addr, r->isa). */
static inline int etm_tok_br_short(const struct etm_tok_reader *r,
				   size_t pos, struct etm_br_short *bs)
{
	return etm_br_short(r->addr, r->isa, r->buf + pos, r->len - pos,
			    r->alt, bs);
}

#endif
