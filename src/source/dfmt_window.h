/* source/dfmt_window.h - what the deformatter offers the frame realignment
 * (src/realign/) when a lost alignment is suspected (CoreSight frames): the
 * bytes in question (the held window and the whole frames kept before it,
 * with their input offsets), the IDs of the input, and the decision it
 * acts on (a shift now, or a cut waiting at a later frame). The
 * deformatter stops and asks (etm_dfmt_next_bulk() returns ETM_DFMT_ASK);
 * the realignment reads the window, trial-parses it through the packet
 * layer and writes its decision back through the functions here; the
 * deformatter calls nothing above it. */
#ifndef ETM_SOURCE_DFMT_WINDOW_H
#define ETM_SOURCE_DFMT_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/source.h>

#define DFMT_FRAME 16
#define DFMT_NDATA 15
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

struct etm_dfmt_window {
	/* Bytes held back while deciding whether they start a sync pattern,
	 * or (realign) where the frames start again. */
	uint8_t hold[DFMT_HOLD + DFMT_PRE];
	uint64_t hold_off[DFMT_HOLD + DFMT_PRE];
	size_t nhold;
	int cur_id;         /* DFMT_ID_UNKNOWN before the first ID byte */
	uint8_t seen[128];  /* live trace IDs (etm_dfmt_seen_ids()) */
	uint8_t other[128]; /* IDs present, not decoded (known_ids()) */
	int ids_all;        /* seen and other are all the IDs */
	int last_id;        /* the last live ID made current */
	uint64_t judged_at; /* frame start the realignment kept (+1) */
	/* the whole frames before the window (the input offset the byte path
	 * took over at) that went out already, at pre_off, with the ID
	 * current at their start (DFMT_ID_UNKNOWN: none seen); pre_lo, the
	 * frame start of the last realignment (no frames before it) */
	uint8_t pre[DFMT_PRE];
	size_t npre;
	uint64_t pre_off, pre_lo;
	int pre_id;
	/* a realignment whose judged frames before its cut went out in
	 * place (etm_dfmt_cut_due()): at the frame at cut_at, the error, a
	 * sync cut_k bytes on (the bytes between dropped) and the ID cut_id;
	 * rewound, the judged frames begin with frames that went out already
	 * (etm_dfmt_rewind()) */
	int cut_on, cut_id, rewound;
	uint64_t cut_at;
	size_t cut_k;
	/* the cut tried at the old alignment (realign/, cut_try()): the
	 * frames from the best cut, at try_at[0], to the latest cut fitting
	 * near as well, at cut_at, go out in place; at the frame try_at[i]
	 * after a sign of trouble from try_at[0] on (with the flows'
	 * elements: flow_trial), the cut is due there with the ID try_id[i],
	 * its error at cut_err (the sign's frame) */
	int try_on, flow_trial;
	size_t try_n;
	uint64_t try_at[DFMT_WIN], cut_err;
	/* where the damage began among the data of sources not decoded
	 * (etm_realign_damage_start(); UINT64_MAX: not looked for), if before */
	uint64_t cut_retro;
	int try_id[DFMT_WIN];
	/* the question is about the frame of the cut tried next (try_ask,
	 * etm_dfmt_cut_due()), the index of its try_at[]; the last frame
	 * asked about (its offset + 1) */
	int try_ask;
	size_t try_i;
	uint64_t try_asked;
};

/* The window of @d (a CoreSight deformatter that asked, ETM_DFMT_ASK). */
struct etm_dfmt_window *etm_dfmt_window(struct etm_dfmt *d);

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

/* The decision, as the deformatter acts on it. */
/* Queue an event (error or sync) before the next frame's data. */
void etm_dfmt_event(struct etm_dfmt *d, enum etm_dfmt_kind kind, int err,
		    uint64_t off);
/* Drop the first @k held bytes. */
void etm_dfmt_drop_hold(struct etm_dfmt *d, size_t k);
/* Keep the last DFMT_PRE_NEAR bytes of the frames kept before the window
 * only (dfmt_bulk.c). */
void etm_dfmt_trim_pre(struct etm_dfmt *d);
/* ID @id is in the input after all (a source the decoder does not have):
 * the fast path no longer suspects frames naming it (dfmt_bulk.c). */
void etm_dfmt_other_id(struct etm_dfmt *d, int id);
/* How far before the judged window (its kept frames included) the damage
 * of a late realignment is looked for among the data of the sources not
 * decoded (src/realign/damage_start.c), in the history the deformatter
 * keeps of its input (etm_dfmt_keep_history()); and the bytes of the frames
 * before the cut, at most. */
#define DFMT_RETRO_REACH 4096
#define DFMT_RETRO_MAX (DFMT_RETRO_REACH + DFMT_PRE + DFMT_WIN * DFMT_FRAME)
/* Whether the deformatter keeps that history. */
int etm_dfmt_keeps_history(const struct etm_dfmt *d);
/* The input at [@lo, @hi) into @b if at hand (the history and the current
 * input): 1, else 0. */
int etm_dfmt_history(const struct etm_dfmt *d, uint64_t lo, uint64_t hi,
		     uint8_t *b);

#endif
