/* source/dfmt_int.h - the deformatter's state, shared by its byte path
 * (dfmt.c), its frame realignment (dfmt_realign.c) and its bulk interface
 * over the frames fast path (dfmt_bulk.c). */
#ifndef ETM_SOURCE_DFMT_INT_H
#define ETM_SOURCE_DFMT_INT_H

#include "source/frame_rules.h"
#include <stddef.h>
#include <stdint.h>

#include <etmtrace/source.h>

#include "source/dfmt_bulk.h"

struct etm_frames;

#define DFMT_FRAME 16
#define DFMT_NDATA 15
#define DFMT_NEV 4
#define DFMT_ID_UNKNOWN -1
/* Realignment (CoreSight frames): bytes looked at after a frame naming a
 * reserved ID, or when the packets of the frames did not parse - every
 * shift of up to 15 bytes, DFMT_WIN frames each. */
#define DFMT_SHIFTS 16
#define DFMT_WIN 32
#define DFMT_HOLD (DFMT_SHIFTS + DFMT_WIN * DFMT_FRAME)
#define DFMT_PLAIN_HOLD (DFMT_SHIFTS + 8 * DFMT_FRAME)
#define DFMT_UNFIT (-1000000)
/* Frames before the judged window that a realignment may still cut in
 * (they went out at the old alignment: replayed at the new one; the
 * hold's reach, ETM_DFMT_REACH, counts them), and the bytes before them
 * searched for the ID current there (496 bytes before the take-over,
 * within the kept tail, 1024 bytes: a take-over in a frame cut by the
 * end of an input may begin up to a frame and a read-ahead into it, and
 * with 512 kept the scan reached before the tail in some cuts of the
 * input only - TC2 x8 damaged, seed 1, --id 0x13 --chunk 97 - so the ID
 * at the kept frames' start, and the cut, depended on the cuts). A cut before the last
 * DFMT_PRE_NEAR bytes of them needs clearer evidence (dfmt_cut_far()). */
#define DFMT_PRE (24 * DFMT_FRAME)
#define DFMT_PRE_NEAR (8 * DFMT_FRAME)
#define DFMT_PRE_SCAN (31 * DFMT_FRAME)
/* Live IDs judged per shift, most. */
#define DFMT_JUDGE_IDS 8

/* One decoded data byte of the current frame; id < 0 means "discard". */
struct dfmt_out {
	int id;
	uint8_t b;
	uint64_t off;
};

/* An event (error or sync) waiting for delivery. In a decoded frame, pos is
 * the index of the first data byte that follows it. */
struct dfmt_ev {
	enum etm_dfmt_kind kind;
	int err;
	uint64_t off;
	size_t pos;
};

struct etm_dfmt {
	enum etm_input_format fmt;
	int finished;
	int eos_done;
	int aligned;        /* frame boundary known */
	int lead;           /* TPIU without FSYNC: frames from lead_end */
	uint64_t lead_end;  /* (etm_dfmt_set_start()) */
	int cur_id;         /* DFMT_ID_UNKNOWN before the first ID byte */
	unsigned fsyncs;    /* FSYNCs in the current run at a boundary */
	uint64_t fsync_off; /* offset of the first FSYNC of that run */

	/* Borrowed input. */
	const uint8_t *buf;
	size_t n, pos;
	uint64_t in_off; /* input offset of buf[pos] */

	/* Bytes held back while deciding whether they start a sync pattern,
	 * or (realign) where the frames start again. */
	uint8_t hold[DFMT_HOLD + DFMT_PRE];
	uint64_t hold_off[DFMT_HOLD + DFMT_PRE];
	size_t nhold;
	int realign;             /* a frame named a reserved ID: check alignment */
	uint8_t seen[128];       /* live trace IDs (etm_dfmt_seen_ids()) */
	uint8_t other[128];      /* IDs present, not decoded (known_ids()) */
	int ids_all;             /* seen and other are all the IDs */
	int last_id;             /* the last live ID made current */
	etm_dfmt_judge_fn judge; /* packet-level plausibility (optional) */
	void *judge_ctx;
	etm_dfmt_sign_fn sign; /* where trouble began (etm_dfmt_set_sign()) */
	uint64_t judged_at;    /* frame start the realignment kept (+1) */
	/* the whole frames before the window (the input offset the byte path
	 * took over at) that went out already, at pre_off, with the ID
	 * current at their start (DFMT_ID_UNKNOWN: none seen); pre_lo, the
	 * frame start of the last realignment (no frames before it); during
	 * a rewind, pre_floor, how far it may reach (etm_dfmt_rewind()) */
	uint8_t pre[DFMT_PRE];
	size_t npre;
	uint64_t pre_off, pre_lo, pre_floor;
	int pre_id;
	/* a realignment whose judged frames before its cut went out in
	 * place (etm_dfmt_cut_due()): at the frame at cut_at, the error, a
	 * sync cut_k bytes on (the bytes between dropped) and the ID cut_id;
	 * rewound, the judged frames begin with frames that went out already
	 * (etm_dfmt_rewind()) */
	int cut_on, cut_id, rewound;
	uint64_t cut_at;
	size_t cut_k;
	/* the cut tried at the old alignment (dfmt_cut_try()): the frames
	 * from the best cut, at try_at[0], to the latest cut fitting near
	 * as well, at cut_at, go out in place; at the frame try_at[i] after
	 * a sign of trouble from try_at[0] on (with the flows' elements:
	 * flow_trial), the cut is due there with the ID try_id[i], its
	 * error at cut_err (the sign's frame) */
	int try_on, flow_trial;
	size_t try_n;
	uint64_t try_at[DFMT_WIN], cut_err;
	/* where the damage began among the data of sources not decoded
	 * (etm_dfmt_retro_at(); UINT64_MAX: not looked for), if before */
	uint64_t cut_retro;
	int try_id[DFMT_WIN];

	/* Frame being assembled. */
	uint8_t frame[DFMT_FRAME];
	uint64_t frame_off[DFMT_FRAME];
	size_t flen;

	/* Events before the next frame's data. */
	struct dfmt_ev ev[DFMT_NEV];
	size_t nev, evpos;

	/* Output of the last decoded frame, with its own events. */
	struct dfmt_out out[DFMT_NDATA];
	size_t nout, outpos;
	struct dfmt_ev fev[DFMT_NDATA];
	size_t nfev, fevpos;
	uint8_t run[DFMT_NDATA];

	/* etm_dfmt_alloc_bulk() of CoreSight frames: the fast path (NULL:
	 * byte path only), and whether it has the input */
	struct etm_frames *fr;
	int fast;
	/* the byte path stopped where the fast path takes the input again
	 * (etm_dfmt_next() returns -etme_busy once) */
	int give_back;
	/* Realignment after a bad packet on the fast path (dfmt_bulk.c):
	 * from, the input offset the byte path took over at (it hands back
	 * only after that frame); re_lo, the frame end of the last data
	 * staged for another ID than push_id's (a rewind never goes before
	 * it); tail, the last bytes of the consumed input, at tail_off (a
	 * rewind reaches ETM_DFMT_REWIND into it, the ID scan further) */
	uint64_t from, re_lo, push_end;
	int push_id;
	uint8_t tail[1024];
	size_t ntail;
	uint64_t tail_off;
	/* with sources not decoded (etm_dfmt_set_scan()): the history of
	 * the input where a late realignment looks for its damage
	 * (dfmt_damage_start.c), else NULL */
	struct dfmt_retro *rt;
};

/* The ID current after the @nf frames at @h, from @id: the last one an
 * ID byte names. */
static inline int dfmt_id_after(const uint8_t *h, size_t nf, int id)
{
	size_t j;

	for (j = 0; j < nf * DFMT_FRAME; j += 2)
		if (h[j] & 1)
			id = h[j] >> 1;
	return id;
}

/* The data bytes of @nf frames at @f as the formatter rules give them (as
 * dfmt_decode_frame()), each with its trace ID in @ids (0xFF: unknown)
 * and, if @pos, its index in the frames, from the current ID @id
 * (dfmt_realign.c). Returns how many, or -1 if a frame from the
 * @tolerant-th on names a reserved ID; those before count in *@nres
 * (their data then goes to no source). */
int etm_dfmt_split(const uint8_t *f, size_t nf, int id, size_t tolerant,
		   uint8_t *ids, uint8_t *bytes, uint16_t *pos, int *nres);

/* Queue an event (error or sync) before the next frame's data. */
void etm_dfmt_event(struct etm_dfmt *d, enum etm_dfmt_kind kind, int err,
		    uint64_t off);
/* The byte path takes over at input offset @from: keep the whole frames
 * before it that are still at hand (dfmt_bulk.c). */
void etm_dfmt_keep_pre(struct etm_dfmt *d, uint64_t from);
/* Keep the last DFMT_PRE_NEAR bytes of the frames kept before the window
 * only (dfmt_bulk.c). */
void etm_dfmt_trim_pre(struct etm_dfmt *d);
/* A realignment's cut waits at the held frame at input offset d->cut_at:
 * 1 if it was done there now (dfmt_realign.c). */
int etm_dfmt_cut_due(struct etm_dfmt *d);
/* Drop the first @k held bytes. */
void etm_dfmt_drop_hold(struct etm_dfmt *d, size_t k);
/* Where do the frames start again (dfmt_realign.c)? Clears d->realign. */
void etm_dfmt_realign(struct etm_dfmt *d);
/* ID @id is in the input after all (a source the decoder does not have):
 * the fast path no longer suspects frames naming it (dfmt_bulk.c). */
void etm_dfmt_other_id(struct etm_dfmt *d, int id);
/* Whether frame @f, about to be decoded at offset @off, is suspect of a
 * lost alignment (with every ID of the input known, it names one nobody
 * announced) and not judged already: the realignment judges from it
 * before any of its data goes out (dfmt_realign.c). A reserved ID is
 * judged after its frame (valid frames may name one). */
int etm_dfmt_frame_suspect(const struct etm_dfmt *d, const uint8_t *f,
			   uint64_t off);

/* The history of a late realignment's damage (dfmt_damage_start.c): a new
 * input @buf (@n bytes at input offset @off), the current one consumed
 * (kept), the state after etm_dfmt_restart() (@rt kept), free, save. */
struct dfmt_retro;
struct etm_sbuf;
void etm_dfmt_retro_input(struct etm_dfmt *d, const uint8_t *buf, size_t n,
			  uint64_t off);
void etm_dfmt_retro_keep(struct etm_dfmt *d);
void etm_dfmt_retro_restart(struct etm_dfmt *d, struct dfmt_retro *rt);
void etm_dfmt_retro_free(struct etm_dfmt *d);
void etm_dfmt_retro_save(const struct etm_dfmt *d, struct etm_sbuf *s);
/* A realignment decided with its cut at the judged window, whose frames
 * (those kept before it included) begin at input offset @w on the old
 * grid, shift @k, its error at @at: where the damage began among the
 * data of the sources not decoded in the input before (<= @at). */
uint64_t etm_dfmt_retro_at(const struct etm_dfmt *d, uint64_t w, size_t k,
			   uint64_t at);

#endif
