/* source/dfmt_damage_start.c - the history of the consumed input that a
 * frame realignment's damage start reads (src/realign/damage_start.c),
 * when the input holds sources the decoder does not decode (a selection,
 * `--id`): their data is not parsed on the way, so damage among it shows
 * only when a decoded source's data comes, up to hundreds of frames on.
 * Undamaged input pays one copy of each input's last bytes
 * (doc/robustness.md, "Frame realignment"; measured in
 * doc/measurements/2026-11-26-damage-start-with-id.md). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/source.h>

#include "common/sbuf.h"
#include "source/dfmt_bulk.h"
#include "source/dfmt_int.h"

/* The history kept (DFMT_RETRO_REACH, dfmt_window.h): that, and how far
 * the window may begin before the current input (a rewind into the kept
 * tail, the frames kept before it, the byte path's held bytes), so the
 * bytes looked at are the same however the input was cut. */
#define DFMT_RETRO_HIST (DFMT_RETRO_REACH + 1024)

struct dfmt_retro {
	/* the last bytes of the inputs before the current one, ending where
	 * it begins: hist[0..n) at input offset off */
	uint8_t hist[DFMT_RETRO_HIST];
	size_t n;
	uint64_t off;
	/* the current input (borrowed) */
	const uint8_t *in;
	size_t in_n;
	uint64_t in_off;
};

void etm_dfmt_keep_history(struct etm_dfmt *d, int on)
{
	if (!d || !d->fr)
		return;
	if (!on) {
		free(d->rt);
		d->rt = NULL;
		return;
	}
	if (!d->rt) {
		d->rt = calloc(1, sizeof(*d->rt));
		if (!d->rt)
			return; /* no memory: the report stays where it was */
		d->rt->off = d->rt->in_off = d->in_off;
	}
}

void etm_dfmt_retro_free(struct etm_dfmt *d)
{
	free(d->rt);
	d->rt = NULL;
}

void etm_dfmt_retro_restart(struct etm_dfmt *d, struct dfmt_retro *rt)
{
	d->rt = rt;
	if (rt) {
		rt->n = rt->in_n = 0;
		rt->in = NULL;
		rt->off = rt->in_off = d->in_off;
	}
}

void etm_dfmt_retro_input(struct etm_dfmt *d, const uint8_t *buf, size_t n,
			  uint64_t off)
{
	struct dfmt_retro *rt = d->rt;

	if (rt->off + rt->n != off) {
		rt->n = 0; /* not where the last one ended (a restart) */
		rt->off = off;
	}
	rt->in = buf;
	rt->in_n = n;
	rt->in_off = off;
}

void etm_dfmt_retro_keep(struct etm_dfmt *d)
{
	struct dfmt_retro *rt = d->rt;
	size_t k, old;

	if (!rt->in_n)
		return;
	k = rt->in_n < DFMT_RETRO_HIST ? rt->in_n : DFMT_RETRO_HIST;
	old = rt->n + k > DFMT_RETRO_HIST ? DFMT_RETRO_HIST - k : rt->n;
	memmove(rt->hist, rt->hist + rt->n - old, old);
	memcpy(rt->hist + old, rt->in + rt->in_n - k, k);
	rt->n = old + k;
	rt->off = rt->in_off + rt->in_n - rt->n;
	rt->in_off += rt->in_n;
	rt->in = NULL;
	rt->in_n = 0;
}

void etm_dfmt_retro_save(const struct etm_dfmt *d, struct etm_sbuf *s)
{
	if (d->rt)
		etm_sbuf_u64(s, d->rt->n);
}

int etm_dfmt_history(const struct etm_dfmt *d, uint64_t lo, uint64_t hi,
		     uint8_t *b)
{
	const struct dfmt_retro *rt = d->rt;
	uint64_t o;

	if (!rt || lo < rt->off || hi > rt->in_off + rt->in_n)
		return 0;
	for (o = lo; o < hi && o < rt->in_off; o++)
		*b++ = rt->hist[o - rt->off];
	if (o < hi)
		memcpy(b, rt->in + (o - rt->in_off), (size_t)(hi - o));
	return 1;
}
