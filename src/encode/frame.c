/* encode/frame.c - CoreSight formatter: packs (trace ID, byte) items into
 * 16-byte frames with ID bytes, the aux byte and mid-frame ID changes
 * (../shared/docs/coresight-formatter.md §3-4). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "encode/enc_int.h"

struct fitem {
	uint8_t id, b;
};

struct etm_fenc {
	uint32_t flags;
	struct etm_rng rng;
	struct fitem *q; /* queued items */
	size_t qlen, qcap, qhead;
	int cur;           /* ID the deformatter is on; -1 unknown */
	unsigned since_id; /* frames since the last ID byte */
	struct etm_obuf out;
};

struct etm_fenc *etm_fenc_alloc(uint32_t flags, uint64_t seed)
{
	struct etm_fenc *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->flags = flags;
	f->rng.s = seed ^ 0xf4a3e5c0ffee1234ull;
	f->cur = -1;
	return f;
}

void etm_fenc_free(struct etm_fenc *f)
{
	if (!f)
		return;
	free(f->q);
	etm_obuf_free(&f->out);
	free(f);
}

static int fenc_rnd(struct etm_fenc *f, uint32_t num, uint32_t den)
{
	return (f->flags & ETM_FENC_RANDOM) && etm_rng_chance(&f->rng, num, den);
}

/* Item @k positions ahead, or NULL (end of queue). */
static const struct fitem *fpeek(const struct etm_fenc *f, size_t k)
{
	return f->qhead + k < f->qlen ? &f->q[f->qhead + k] : NULL;
}

/* Fill byte pair (2k, 2k+1) of @fr; @aux collects the aux bits. */
static void fenc_pair(struct etm_fenc *f, uint8_t *fr, unsigned k,
		      uint8_t *aux)
{
	const struct fitem *a = fpeek(f, 0), *b = fpeek(f, 1);

	if (!a) {
		/* padding: switch to the NULL ID 0x00 */
		fr[2 * k] = 0x01;
		fr[2 * k + 1] = 0;
		f->cur = 0;
		return;
	}
	if (a->id != f->cur || fenc_rnd(f, 1, 40)) {
		/* ID byte, its data byte belongs to the new ID (aux 0) */
		fr[2 * k] = (uint8_t)(a->id << 1 | 1);
		fr[2 * k + 1] = a->b;
		f->cur = a->id;
		f->qhead++;
		f->since_id = 0;
		return;
	}
	if (b && b->id == f->cur) {
		/* two data bytes; bit 0 of the first goes to the aux byte */
		fr[2 * k] = a->b & 0xfe;
		*aux |= (uint8_t)((a->b & 1) << k);
		fr[2 * k + 1] = b->b;
		f->qhead += 2;
		return;
	}
	/* ID change after this byte: ID byte with aux 1, the data byte
	 * still belongs to the previous ID */
	fr[2 * k] = (uint8_t)((b ? b->id : 0) << 1 | 1);
	*aux |= (uint8_t)(1u << k);
	fr[2 * k + 1] = a->b;
	f->cur = b ? b->id : 0;
	f->qhead++;
	f->since_id = 0;
}

static void fenc_frame(struct etm_fenc *f)
{
	uint8_t fr[16], aux = 0;
	const struct fitem *a;
	unsigned k;

	for (k = 0; k < 7; k++)
		fenc_pair(f, fr, k, &aux);
	/* byte 14: data of the current ID, or an ID for the next frame */
	a = fpeek(f, 0);
	if (a && a->id == f->cur && !fenc_rnd(f, 1, 30)) {
		fr[14] = a->b & 0xfe;
		aux |= (uint8_t)((a->b & 1) << 7);
		f->qhead++;
	} else if (a) {
		fr[14] = (uint8_t)(a->id << 1 | 1);
		f->cur = a->id;
	} else {
		fr[14] = 0x01;
		f->cur = 0;
	}
	fr[15] = aux;
	etm_obuf_put(&f->out, fr, sizeof(fr));
	f->since_id++;
}

static void fenc_compact(struct etm_fenc *f)
{
	if (f->qhead < 4096 && f->qhead < f->qlen / 2)
		return;
	memmove(f->q, f->q + f->qhead, (f->qlen - f->qhead) * sizeof(*f->q));
	f->qlen -= f->qhead;
	f->qhead = 0;
}

int etm_fenc_put(struct etm_fenc *f, unsigned id, const uint8_t *buf,
		 size_t n)
{
	struct fitem *q;
	size_t i;

	if (!f || (!buf && n) || id == 0 || id >= 0x70)
		return -etme_invalid;
	q = etm_grow(f->q, &f->qcap, f->qlen + n, sizeof(*q), 1024);
	if (!q)
		return -etme_nomem;
	f->q = q;
	for (i = 0; i < n; i++) {
		f->q[f->qlen].id = (uint8_t)id;
		f->q[f->qlen].b = buf[i];
		f->qlen++;
	}
	/* a frame takes at most 15 items and looks one further ahead */
	while (f->qlen - f->qhead > 16)
		fenc_frame(f);
	fenc_compact(f);
	return f->out.err ? -etme_nomem : 0;
}

int etm_fenc_finish(struct etm_fenc *f)
{
	if (!f)
		return -etme_invalid;
	while (f->qhead < f->qlen)
		fenc_frame(f);
	fenc_compact(f);
	return f->out.err ? -etme_nomem : 0;
}

const uint8_t *etm_fenc_data(const struct etm_fenc *f, size_t *n)
{
	if (!f || !n)
		return NULL;
	*n = f->out.len;
	return f->out.p;
}
