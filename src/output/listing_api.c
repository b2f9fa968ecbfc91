/* output/listing_api.c - the public listing (etmtrace/listing.h): the
 * decode formatter of output/listing.c on one thread, its text gathered in
 * memory blocks (output/wbuf.h) and handed to the caller's write callback
 * whenever a few blocks are full and at each flush. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/listing.h>

#include "output/listing.h"

/* Hand the text over once this much is held. */
#define LISTING_HANDOVER (4u * WBLK_SIZE)

struct etm_listing {
	struct decfmt f;
	struct wbuf w;
	struct etm_listing_source *src;
	etm_write_fn write;
	void *write_ctx;
	int err; /* the first error of the write callback */
};

static enum dec_fmt listing_fmt(enum etm_listing_format f)
{
	return f == etm_listing_canon ? DF_CANON :
	       f == etm_listing_jsonl ? DF_JSONL :
					DF_TEXT;
}

int etm_listing_alloc(struct etm_listing **out,
		      const struct etm_listing_opts *o)
{
	struct etm_listing *l;
	struct decsym_opts ann;

	*out = NULL;
	if (!o || o->size < offsetof(struct etm_listing_opts, ctx_img) || !o->write ||
	    (o->nsrc && !o->src) ||
	    o->nsrc > 256 || (unsigned)o->format > etm_listing_jsonl)
		return -etme_invalid;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -etme_nomem;
	l->src = malloc((o->nsrc ? o->nsrc : 1) * sizeof(*l->src));
	if (!l->src || wbuf_init_mem(&l->w, NULL) < 0) {
		free(l->src);
		free(l);
		return -etme_nomem;
	}
	if (o->nsrc)
		memcpy(l->src, o->src, o->nsrc * sizeof(*l->src));
	l->write = o->write;
	l->write_ctx = o->write_ctx;
	memset(&ann, 0, sizeof(ann));
	ann.sym = o->sym;
	ann.source = o->source_lines;
	ann.offsets = o->offsets;
	ann.hz = o->clock_hz;
	if (o->size >= sizeof(*o)) {
		ann.ctx_img = o->ctx_img;
		ann.ctx_img_arg = o->ctx_img_arg;
	}
	if (decfmt_init(&l->f, l->src, (int)o->nsrc, &l->w,
			listing_fmt(o->format), &o->dis, NULL, &ann) < 0) {
		etm_listing_free(l);
		return -etme_nomem;
	}
	*out = l;
	return 0;
}

/* The text held so far to the write callback. */
static int hand_over(struct etm_listing *l)
{
	size_t bytes;
	struct wblk *chain = wbuf_take(&l->w, &bytes), *b;

	for (b = chain; b && !l->err; b = b->next) {
		int r = b->len ? l->write(l->write_ctx, b->data, b->len) : 0;

		if (r < 0)
			l->err = r;
	}
	wbuf_free_chain(NULL, chain);
	if (!l->err && l->w.err)
		l->err = -etme_nomem;
	return l->err < 0 ? l->err : 0;
}

static int maybe_hand_over(struct etm_listing *l)
{
	if (wbuf_held(&l->w) < LISTING_HANDOVER && !l->w.err)
		return l->err;
	return hand_over(l);
}

int etm_listing_item(struct etm_listing *l, const struct etm_item *it)
{
	if (!l || !it)
		return -etme_invalid;
	if (l->err)
		return l->err;
	decfmt_item(&l->f, it);
	return maybe_hand_over(l);
}

int etm_listing_elems(struct etm_listing *l, const struct etm_elem *els,
		      size_t n)
{
	if (!l || (!els && n))
		return -etme_invalid;
	if (l->err)
		return l->err;
	decfmt_elems(&l->f, els, n);
	return maybe_hand_over(l);
}

int etm_listing_flush(struct etm_listing *l)
{
	if (!l)
		return -etme_invalid;
	if (l->err)
		return l->err;
	decfmt_flush(&l->f);
	return hand_over(l);
}

uint64_t etm_listing_insns(const struct etm_listing *l)
{
	return l ? l->f.n.insns : 0;
}

void etm_listing_free(struct etm_listing *l)
{
	if (!l)
		return;
	decfmt_fini(&l->f);
	wbuf_fini(&l->w);
	free(l->src);
	free(l);
}
