/* decoder/dec_int.h - the decoder object's state, shared by the pipeline
 * (decoder.c) and its frame realignment glue (realign.c). */
#ifndef ETM_DECODER_DEC_INT_H
#define ETM_DECODER_DEC_INT_H

#include <stdint.h>

#include <etmtrace/decoder.h>

#include "realign/elem_hold.h"
#include "realign/realign.h"
#include "source/dfmt_bulk.h"

#define ETM_DEC_MAX_SOURCES 128
/* The frame realignment a decoder starts with (doc/realign.md: why). */
#define ETM_DEC_REALIGN_DEFAULT etm_realign_precise

struct etm_dec_replay;
struct etm_realign_left;
struct etm_sbuf;

/* The hold and the left-out sources tell the decoder's sources apart. */
_Static_assert(ETM_DEC_MAX_SOURCES == ETM_REALIGN_HOLD_IDS &&
		       ETM_DEC_MAX_SOURCES == ETM_REALIGN_LEFT_IDS,
	       "one trace ID space");

struct dec_source {
	struct etm_config cfg;
	/* the packet decoder: the flow decoder's own (element mode), else
	 * owned here (packet mode) */
	struct etm_pkt_decoder *pd;
	struct etm_flow *flow;
	int finished;
	/* a source that is no flow decoder (ETMv1: decoder/dec_e1.c): its
	 * kind's operations and its state */
	const struct dec_kind *kind;
	void *kstate;
};

/* A kind of source other than a flow decoder with its packet decoder: it
 * takes the raw input alone (one source) and makes elements only. A
 * protocol of this kind is a file of its own (decoder/dec_e1.c) and one
 * line in etm_decoder_add_source(). */
struct dec_kind {
	enum etm_protocol proto; /* what its items say */
	/* up to @max elements in place (etm_decoder_next_elems()), taking the
	 * decoder's pushed input (raw_buf) and its end (finishing) */
	int (*next_elems)(struct etm_decoder *d, const struct etm_elem **els,
			  size_t max);
	void (*set_cache)(void *kstate, int on);
	void (*free)(void *kstate);
	/* cut decode (NULL: the input is decoded on one thread only): the
	 * kind's input may start at a sync point found by cut_find in the @n
	 * bytes @buf (which start at a multiple of cut_align: the index, @n
	 * if none); restart for input from offset @base (a multiple of
	 * cut_align), nothing pushed; save writes the state that decides
	 * the future output */
	size_t (*cut_find)(const uint8_t *buf, size_t n);
	unsigned cut_align;
	void (*restart)(void *kstate, uint64_t base);
	void (*save)(const void *kstate, struct etm_sbuf *s);
};

struct etm_decoder {
	enum etm_input_format fmt;
	enum etm_decoder_mode mode;
	int want_packets;
	struct etm_dfmt *dfmt;                       /* formatted input (NULL: raw) */
	uint8_t sel[ETM_DEC_MAX_SOURCES];            /* IDs with a source */
	struct dec_source *src[ETM_DEC_MAX_SOURCES]; /* indexed by trace ID */
	struct dec_source *raw;                      /* the source of raw input */
	struct dec_source *cur;                      /* source whose parser is being drained */
	/* raw input: the pushed buffer until it is handed to the parser */
	const uint8_t *raw_buf;
	size_t raw_len;
	uint64_t offset;   /* input offset of the next pushed byte */
	int finishing;     /* finish() called */
	unsigned fin_id;   /* next ID to finish */
	int cache_off;     /* set_cache(0) was called */
	uint64_t npackets; /* packets parsed */
	/* sources in trace-ID order, for clone/save */
	const struct etm_image *img[ETM_DEC_MAX_SOURCES];
	/* etm_decoder_next_elems(): an item that did not come from a flow
	 * queue (e.g. an error of the deformatter) is handed out from here */
	struct etm_item xit;
	/* the element drain_source() popped last from a flow queue */
	const struct etm_elem *popped;
	/* Frame realignment (CoreSight frames, realign.c): IDs noted in the
	 * input (etm_decoder_note_id()), realignment off; a source's packet
	 * did not parse on the deformatter's fast path: input offset re_at
	 * after the bad packet of ID re_id (0: none), re_end one past the
	 * last byte its parser looked at to decide it; lose_id, the next flow
	 * to drain after a realignment */
	uint8_t noted[ETM_DEC_MAX_SOURCES];
	int noted_any;
	/* the frame realignment's switch (etm_decoder_set_realign();
	 * no_realign: it is off; in basic, whether the hold is engaged is the
	 * hold's own: realign/elem_hold_rule.c) */
	enum etm_realign realign;
	int no_realign;
	/* TPIU without FSYNC: frames from input offset frame_start (when
	 * frame_set; etm_decoder_set_frame_start()) */
	int frame_set;
	uint64_t frame_start;
	uint64_t re_at, re_end;
	int re_id;
	unsigned lose_id;
	/* deformatter output replayed from a recording (decoder/dfmt_replay.h)
	 * instead of dfmt (NULL): the next event */
	const struct etm_dec_replay *replay;
	size_t replay_at;
	/* the per-byte offset table of the stage the recording handed out
	 * last (NULL: none, the packet decoder makes it if it needs it) */
	const uint32_t *replay_rel;
	/* CoreSight frames with the realignment on, elements only (no
	 * packets): every element goes through the hold (its stage
	 * elem_hold.c, its ring and rules realign/elem_hold.h) */
	int hold_on;
	struct etm_realign_hold hold;
	/* with the hold on, the source being drained between calls (cur is
	 * NULL then: etm_decoder_next()'s common case does not apply) */
	struct dec_source *hold_cur;
	/* sources of the input not decoded, with their configurations
	 * (etm_decoder_note_source(), left_sources.c); NULL: none */
	struct etm_realign_left *left;
	/* a circular buffer's pieces (pieces.c; NULL: off) */
	struct dec_pieces *pc;
};

struct etm_dfmt_stage;
/* The next output of the recording @d replays (dfmt_replay.c), as
 * etm_dfmt_next_bulk() gave it: 1 staged data, 0 an item, or an error. */
int etm_dec_replay_next(struct etm_decoder *d, struct etm_dfmt_item *x,
			struct etm_dfmt_stage *st);
/* A recording (dfmt_replay.c) of everything the deformatter of @d (its
 * input pushed, of format @fmt, trace ID @id selected) gives, finishing the
 * input where it wants more (dfmt_record.c); NULL on no memory. Its
 * format. */
struct etm_dec_replay *etm_dec_replay_fill(enum etm_input_format fmt,
					   unsigned id, struct etm_decoder *d);
enum etm_input_format etm_dec_replay_fmt(const struct etm_dec_replay *t);

/* ETMv1 source (decoder/dec_e1.c): @s (configured, owned from here on)
 * becomes the raw input's source of @d. Returns 0 or an error. */
int etm_dec_add_e1(struct etm_decoder *d, struct dec_source *s,
		   const struct etm_image *img);

/* The IDs of the input changed (a source added, an ID noted): the
 * deformatter is told. */
void etm_dec_ids_changed(struct etm_decoder *d);
/* The realignment's switch for a new deformatter of @d (decided by
 * src/realign/ unless off). */
void etm_dec_set_judge(struct etm_decoder *d);
/* The deformatter of @d asked for a realignment's decision
 * (etm_dfmt_next_bulk() returned ETM_DFMT_ASK): decide it (realign.c). */
void etm_dec_decide(struct etm_decoder *d);
/* A packet of source @s did not parse (CoreSight frames): the alignment
 * may be lost; on the deformatter's fast path the decoder stops draining
 * (re_at) until etm_dec_rewind(). */
void etm_dec_bad_packet(struct etm_decoder *d, const struct etm_packet *pkt);
/* Damage suspected at input offset @off (a bad packet, a realignment): in
 * etm_realign_basic, the hold engages (from the next call on) until the
 * input is 2 * ETM_DFMT_REACH past the latest suspicion (the rule:
 * etm_realign_hold_suspect()). */
void etm_dec_suspect(struct etm_decoder *d, uint64_t off);
/* In etm_realign_basic with the hold engaged and empty, nothing to withdraw
 * and the input past its engagement (etm_realign_hold_release()): the
 * hold disengages and the source being drained goes back to cur (between
 * calls). */
void etm_dec_hold_idle(struct etm_decoder *d);
/* After etm_dec_bad_packet() on the fast path: the source's packet decoder
 * forgets its unparsed bytes and the deformatter's byte path takes the
 * input from the frame of the bad packet, checking the alignment there.
 * Returns 0 or an error. */
int etm_dec_rewind(struct etm_decoder *d);
/* The deformatter realigned the frames at offset @off (etme_frame_align):
 * the hold withdraws what the damaged frames made (the flows' elements
 * still queued as they come: etm_realign_hold_retract()). */
void etm_dec_retract(struct etm_decoder *d, uint64_t cut);
/* The deformatter realigned the frames at offset @off (etme_frame_align):
 * every packet decoder searches for a sync again and every flow decoder
 * loses sync there; their elements are drained next (lose_id). */
void etm_dec_lose_all(struct etm_decoder *d, uint64_t off);

/* The pipeline (decoder.c), below the hold: the next item (an element
 * already queued in the source being drained, else etm_dec_next_slow());
 * the next elements in place, the queued ones of the source being drained
 * first; an element already queued moved to @it (1, else 0). */
int etm_dec_pipe_next(struct etm_decoder *d, struct etm_item *it);
int etm_dec_next_slow(struct etm_decoder *d, struct etm_item *it);
int etm_dec_pipe_next_elems(struct etm_decoder *d,
			    const struct etm_elem **els, size_t max);
int etm_dec_pipe_pop(struct etm_decoder *d, struct etm_item *it);
/* etm_decoder_push() and etm_decoder_free() of the pipeline (no pieces). */
int etm_dec_push(struct etm_decoder *d, const uint8_t *buf, size_t n);
void etm_dec_free(struct etm_decoder *d);

/* The element hold's stage (elem_hold.c), above the pipeline: its output
 * through the hold while it is on (d->hold_on); elements wait there until
 * no realignment can retract them. etm_dec_next(): through the hold if
 * on, else the pipeline (what etm_decoder_next() does without pieces). */
int etm_dec_hold_next(struct etm_decoder *d, struct etm_item *it);
int etm_dec_hold_next_elems(struct etm_decoder *d,
			    const struct etm_elem **els, size_t max);
int etm_dec_next(struct etm_decoder *d, struct etm_item *it);

/* The sources not decoded (left_sources.c): the deformatter told of them, freed,
 * copied to the clone @c of @d (0 or -etme_nomem). */
void etm_dec_left_wire(struct etm_decoder *d);
void etm_dec_left_free(struct etm_decoder *d);
int etm_dec_left_clone(struct etm_decoder *c, const struct etm_decoder *d);
/* Their configurations (trace ID in .traceid) into @cfg: how many. */
size_t etm_dec_left_cfgs(const struct etm_decoder *d, struct etm_config *cfg,
			 size_t max);

/* Pieces on (pieces.c): the input kept, then each piece decoded by a
 * fresh clone at the end; the decoder's own sources only configure them. */
void etm_dec_pieces_free(struct etm_decoder *d);
unsigned etm_dec_pieces_mode(const struct etm_decoder *d);
/* Pieces on in @mode, unchecked (a clone of a decoder with them on). */
int etm_dec_pieces_on(struct etm_decoder *d, unsigned mode);
int etm_dec_pieces_push(struct etm_decoder *d, const uint8_t *buf, size_t n);
int etm_dec_pieces_next(struct etm_decoder *d, struct etm_item *it);
int etm_dec_pieces_next_elems(struct etm_decoder *d,
			      const struct etm_elem **els, size_t max);

#endif
