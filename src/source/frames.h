/* source/frames.h - the deformatter's fast path for memory-aligned
 * CoreSight frames (private to source/, used by dfmt.c): demultiplexes
 * whole frames straight into a per-source staging buffer with its offset
 * map (segments), with the deformatter's exact semantics. */
#ifndef ETM_SOURCE_FRAMES_H
#define ETM_SOURCE_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "source/frame_rules.h"
#include "source/offseg.h"

#define ETM_FR_STAGE (64u << 10)
#define ETM_FR_SEGS (ETM_FR_STAGE / 15 + 8)
#define ETM_FR_ID_UNKNOWN (-1)
#define ETM_FR_KMANY 17u
/* Runs of consecutive known IDs the bulk path compares with at a fixed
 * cost (TC2: ID 0x00 and the sources 0x10-0x14, two). */
#define ETM_FR_KRUNS 3u

struct etm_frames {
	int cur_id;
	/* borrowed input */
	const uint8_t *buf;
	size_t n, pos;
	uint64_t off; /* input offset of buf[0] */
	/* a frame cut by the end of a push (after back_up(): up to 31
	 * bytes, the frame before it too) */
	uint8_t part[32];
	size_t npart;
	uint64_t part_off;
	/* the last whole frame of the last input, at last_off (UINT64_MAX:
	 * none), for back_up() */
	uint8_t last[16];
	uint64_t last_off;
	/* the staged data of the last whole frame (from stg[held_pos], in
	 * seg[held_seg...]) is held back at the end of an input until the
	 * next frame is judged (push_held()) */
	size_t held_n, held_pos, held_seg, held_nseg;
	/* a frame being applied operation by operation */
	struct etm_frop ops[16];
	unsigned nops, opi;
	uint64_t ops_off;
	/* staged data of one trace ID, its input offsets as segments; room
	 * for a 16-byte store past the end */
	int stg_id;
	size_t stg_n, nseg;
	uint8_t stg[ETM_FR_STAGE + 16];
	struct etm_offseg seg[ETM_FR_SEGS];
	/* the selected IDs (copy of the caller's table), and the only one if
	 * a single ID is selected (else ETM_FR_ID_UNKNOWN) */
	uint8_t sel[128];
	int single;
	/* IDs frames may name without a lost alignment being suspected:
	 * sources, noted IDs (etm_decoder_note_id()), 0x00, 0x7B, 0x7D;
	 * for the bulk path (etm_frames_known_changed()): the ID bytes of
	 * the known IDs below 0x70, each in 16 copies, how many (0: every
	 * ID is known, ETM_FR_KMANY: too many to compare) */
	uint8_t known[128];
	uint8_t kvec[16][16];
	unsigned nkvec;
	/* the same known IDs as at most ETM_FR_KRUNS runs of consecutive
	 * IDs (krun 0: more), for a test of fixed cost: the ID byte b is of
	 * a known ID when (uint8_t)(b - klo[r]) <= kspan[r] for some r (its
	 * bit 0 set: the byte of an ID in the run); unused runs repeat run 0
	 * (etm_frames_ids_known()) */
	uint8_t klo[ETM_FR_KRUNS][16], kspan[ETM_FR_KRUNS][16];
	unsigned nkrun;
	/* error item to deliver */
	int err;
	uint64_t err_off;
	/* a frame suspect of a lost alignment (names_suspect()) hands the
	 * input to the deformatter's realignment, from the frame before it
	 * where that one can still be taken back (back_up()); the input
	 * offset the last push of staged data ended at */
	int suspect;
	uint64_t pushed_end;
	/* no more input: nothing is held back */
	int final;
};

/* Constant tables (source/frames_tab.c, by scripts/gen-frames-tab.py).
 * Which of four frame pairs belong to the single ID: index bit 2k = byte
 * 2k is an ID change, bit 2k + 1 = to the single ID, bit 8 = its bytes are
 * current before; value bit 2k = ... before pair k, bit 8 = after the four */
extern const uint16_t etm_fr_fill[512];
/* bit i of a byte -> bit 2i */
extern const uint16_t etm_fr_spread[256];
/* auxiliary byte -> bit 0 of the even bytes of a frame, as the two 64-bit
 * halves of a little-endian load */
extern const uint64_t etm_fr_aux[256][2];

enum etm_fr_res {
	etm_fr_again = 0, /* input consumed (staging flushed) */
	etm_fr_push,      /* push stg[0..stg_n) of stg_id, then clear */
	etm_fr_error,     /* deliver an error item (err, err_off) */
	etm_fr_dfmt,      /* input from pos on needs the deformatter */
};

/* A zeroed struct etm_frames but for its staging arrays stg, rel and seg
 * (320 KiB, written before they are read), or NULL. */
struct etm_frames *etm_frames_alloc(void);
void etm_frames_init(struct etm_frames *x);
/* Borrow @n input bytes at offset @off. */
void etm_frames_input(struct etm_frames *x, const uint8_t *buf, size_t n,
		      uint64_t off);
/* known[] was changed. */
void etm_frames_known_changed(struct etm_frames *x);

/* Whether the ID bytes of 16-byte frame @f (bit 2k of @idm: byte 2k is
 * one) name IDs known to @x only, and an ID in byte 14 has no reserved
 * auxiliary bit 7: the bulk path's test (for tests). */
int etm_frames_ids_known(const struct etm_frames *x, const uint8_t *f,
			 unsigned idm);
/* The bulk loop's test where the known IDs are runs (x->nkrun; for
 * tests): nonzero where frame @f, whose ID changes @idm are not 0, goes to
 * the general path; *@vm: its ID changes to ID @t. -1 without SSE2. */
int etm_frames_runs_bad(const struct etm_frames *x, const uint8_t *f,
			unsigned idm, int t, unsigned *vm);
/* Consume frames; @sel[id] is nonzero for the IDs with a source. */
enum etm_fr_res etm_frames_step(struct etm_frames *x, const uint8_t *sel);
/* The staged data was pushed: forget it. */
static inline void etm_frames_pushed(struct etm_frames *x)
{
	if (x->nseg)
		x->pushed_end = x->seg[x->nseg - 1].off +
				(x->stg_n - x->seg[x->nseg - 1].pos);
	x->stg_n = 0;
	x->nseg = 0;
}
/* Forget what is staged and held (a rewind reads it again). */
void etm_frames_drop(struct etm_frames *x);

#endif
