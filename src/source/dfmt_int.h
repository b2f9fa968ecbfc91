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
#include "source/dfmt_window.h"

struct etm_frames;

#define DFMT_NEV 4

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
	unsigned fsyncs;    /* FSYNCs in the current run at a boundary */
	uint64_t fsync_off; /* offset of the first FSYNC of that run */

	/* Borrowed input. */
	const uint8_t *buf;
	size_t n, pos;
	uint64_t in_off; /* input offset of buf[pos] */

	/* the window the realignment reads, and its decision */
	struct etm_dfmt_window w;
	int realign; /* a frame named a reserved ID: check alignment */
	/* the realignment is decided above (etm_dfmt_set_decide()): the
	 * deformatter stops and asks (ask, ETM_DFMT_ASK) where it would */
	int decide, ask;
	uint64_t pre_floor; /* during a rewind, how far it may reach */

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
	/* the byte path took the input since the start (etm_dfmt_restart()):
	 * a frame maybe an FSYNC, a suspect one, or a rewind
	 * (etm_dfmt_stayed_fast()) */
	int left_fast;
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
	/* with sources not decoded (etm_dfmt_keep_history()): the history of
	 * the input where a late realignment looks for its damage
	 * (dfmt_damage_start.c), else NULL */
	struct dfmt_retro *rt;
};

/* The byte path takes over at input offset @from: keep the whole frames
 * before it that are still at hand (dfmt_bulk.c). */
void etm_dfmt_keep_pre(struct etm_dfmt *d, uint64_t from);
/* A realignment's cut waits at the held frame at input offset d->cut_at:
 * 1 if it was done there now, -1 if the realignment is asked first (a
 * frame of the cut tried; w.try_i), else 0 (dfmt_realign.c). */
int etm_dfmt_cut_due(struct etm_dfmt *d);
/* Where do the frames start again, by the frame structure alone
 * (dfmt_realign.c; without etm_dfmt_set_decide())? */
void etm_dfmt_realign_plain(struct etm_dfmt *d);
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

#endif
