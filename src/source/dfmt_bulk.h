/* source/dfmt_bulk.h - the deformatter's library-internal interface for the
 * decoder pipeline: a deformatter whose memory-aligned CoreSight frames go
 * through the fast path of frames.c, which hands out staged runs of one
 * trace ID with their offset map, until a frame needs the byte path (an
 * FSYNC, a reserved ID); then the byte path goes on in the same state. And
 * its state save and restart for the parallel runner. */
#ifndef ETM_SOURCE_DFMT_BULK_H
#define ETM_SOURCE_DFMT_BULK_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/source.h>

#include "source/offseg.h"

/* The realignment's plumbing between the deformatter and the decoder (the
 * library's own: not public API). */
/* Trace IDs known to be live (@ids[id] nonzero, @ids of 0x70 entries),
 * for realignment after a lost frame alignment: frames naming them fit
 * (the decoder passes them when its frames fast path hands a buffer over). */
void etm_dfmt_seen_ids(struct etm_dfmt *d, const uint8_t *ids);

/* Whether the realignment after a lost frame alignment is decided above
 * (@on: by src/realign/, with trial parses of each live source's bytes;
 * then etm_dfmt_next_bulk() returns ETM_DFMT_ASK where a decision is due,
 * and the caller answers with etm_realign_decide() before it calls again)
 * or here, by the frame structure only (@on 0, the default). */
void etm_dfmt_set_decide(struct etm_dfmt *d, int on);
/* etm_dfmt_next_bulk(): a realignment waits for its decision (negative,
 * below every -etme_* code, so callers test it on their error path). */
#define ETM_DFMT_ASK (-1000)

/* CoreSight frames: the data delivered last did not parse as packets;
 * check the frame alignment at the next frame boundary (an etme_frame_align
 * error and a sync item if the frames start elsewhere). */
void etm_dfmt_suspect(struct etm_dfmt *d);

/* Trace IDs in the input that are not decoded (@ids[id] nonzero, @ids of
 * 0x70 entries). After this call the live and these IDs are taken as all
 * the IDs of the input: with the decision above, an ID change to another makes the
 * deformatter check the frame alignment, and misaligned frames name such
 * IDs. */
void etm_dfmt_known_ids(struct etm_dfmt *d, const uint8_t *ids);

/* CoreSight frames: whether the deformatter is between frames with nothing
 * held or pending (no sync run, no alignment check): then the rest of the
 * pushed input (@rest, @n bytes at offset @off; it stays borrowed) and the
 * current trace ID (-1: unknown) are all its state, and a caller with a
 * faster path for aligned frames may take over. Returns 1 or 0. */
int etm_dfmt_idle(const struct etm_dfmt *d, const uint8_t **rest, size_t *n,
		  uint64_t *off, int *cur_id);

/* Bytes @b (offsets @off...) that come before the next pushed input (a
 * frame cut by the end of the fast path's last input). Returns 0 or
 * -etme_invalid (no room). */
int etm_dfmt_hold_bytes(struct etm_dfmt *d, const uint8_t *b, size_t n,
			uint64_t off);

/* Data of one trace ID from the fast path: @n bytes at @data, their input
 * offsets in the map @seg of @nseg segments (the one offset scheme of
 * deformatted data, source/offseg.h). Valid until the next
 * etm_dfmt_next_bulk(). */
struct etm_dfmt_stage {
	unsigned id;
	const uint8_t *data;
	size_t n;
	const struct etm_offseg *seg;
	size_t nseg;
};

/* How far before the latest data handed out a realignment's cut can
 * fall, in bytes: a rewind reaches 512 bytes back (the tail kept of the
 * inputs before, etm_dfmt_rewind()), the cut 24 frames before that
 * (DFMT_PRE, the frames replayed), and one frame for the rounding. What
 * came from input before that is final (decoder/elem_hold.c). */
#define ETM_DFMT_REACH (512 + 24 * 16 + 16)

/* How far a rewind after a bad packet reaches before the frame of the
 * last byte its parser looked at (etm_dfmt_rewind()), in bytes: the
 * 512-byte tail kept of the inputs before, less the frame whose data is
 * held back at the end of an input and the one that releases it. So the
 * bytes it reaches (and the frames kept before them, clamped to it) are
 * at hand however the input was cut: the parser decides once the data of
 * that frame is pushed, at the latest in the input that completes the
 * next frame (31 bytes on). */
#define ETM_DFMT_REWIND (512 - 2 * 16)

/* etm_dfmt_alloc() with the fast path for etm_fmt_coresight (other formats:
 * the byte path only). */
struct etm_dfmt *etm_dfmt_alloc_bulk(enum etm_input_format fmt,
				     uint64_t base_offset);
/* Next output for the trace IDs @sel[id] nonzero (0x80 entries; others are
 * dropped by the fast path). Returns 1 with staged data in *@st, 0 with an
 * item in *@it (as etm_dfmt_next()), ETM_DFMT_ASK (etm_dfmt_set_decide()),
 * -etme_again, -etme_eos. */
int etm_dfmt_next_bulk(struct etm_dfmt *d, const uint8_t *sel,
		       struct etm_dfmt_item *it, struct etm_dfmt_stage *st);

struct etm_sbuf;
/* Write the state that decides the future output to @s (parallel decode
 * compares it); a CoreSight deformatter on its byte path cannot say it and
 * marks @s unusable. */
void etm_dfmt_save(const struct etm_dfmt *d, struct etm_sbuf *s);
/* Start again at input offset @base as if new (fast path deformatters
 * only; others keep their state). */
void etm_dfmt_restart(struct etm_dfmt *d, uint64_t base);

/* The IDs the input holds, for the realignment (CoreSight frames): the
 * live ones @sel[id] nonzero (0x80 entries), and, when @noted is not NULL,
 * the others @noted[id] nonzero; then a frame naming another ID makes the
 * deformatter check the frame alignment. Without @noted, every ID may be
 * in the input. */
void etm_dfmt_note_ids(struct etm_dfmt *d, const uint8_t *sel,
		       const uint8_t *noted);
/* Whether the first sign of trouble the decoder gives a decision
 * (etm_realign_in) sees the flows' elements as the byte path's frames go
 * out (the decoder's element hold is on): a cut among several fitting
 * near as well is then tried at the old alignment (realign/decide.c,
 * cut_try()), the deformatter asking at each of its frames. */
void etm_dfmt_set_flow_trial(struct etm_dfmt *d, int on);
/* Keep a history of the input (@on) for the damage start of a late
 * realignment among the data of the sources not decoded
 * (src/realign/damage_start.c, etm_dfmt_history()), or not (the default). */
void etm_dfmt_keep_history(struct etm_dfmt *d, int on);
/* Whether the fast path has the input (etm_dfmt_rewind() applies). */
int etm_dfmt_fast(const struct etm_dfmt *d);
/* Whether the fast path has read all the input since the start (or
 * etm_dfmt_restart()): it leaves every frame that begins with 0xFF (maybe
 * an FSYNC, whose state etm_dfmt_save() does not show) to the byte path,
 * so then none of the frames read so far, all on the grid of the start,
 * began with 0xFF. 0 without the fast path. */
int etm_dfmt_stayed_fast(const struct etm_dfmt *d);
/* A packet of ID @id ending at input offset @at did not parse on the fast
 * path, its parser having looked at the input up to @end (>= @at): the
 * byte path takes the input again from the frame of @at (not before the
 * frame end of the last data staged for another ID, nor more than
 * ETM_DFMT_REWIND bytes before the frame of @end's last byte, nor before
 * the last hand-back to the fast path), with @id current, and checks the
 * frame alignment first (etm_dfmt_suspect()). Returns 0, -etme_invalid
 * (not on the fast path or no room). */
int etm_dfmt_rewind(struct etm_dfmt *d, const uint8_t *sel, uint64_t at,
		    uint64_t end, int id);

#endif
