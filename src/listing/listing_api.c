/* listing/listing_api.c - the public listing (etmtrace/listing.h): the
 * decode formatter of listing/listing.c on one thread, its text gathered in
 * memory blocks (listing/wbuf.h) and handed to the caller's write callback
 * whenever a few blocks are full and at each flush. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/listing.h>

#include "listing/listing.h"
#include "listing/listing_par.h"

/* Hand the text over once this much is held. */
#define LISTING_HANDOVER (4u * WBLK_SIZE)

struct etm_listing {
	struct decfmt f;
	struct wbuf w;
	struct etm_listing_source *src;
	int nsrc;
	etm_write_fn write;
	void *write_ctx;
	int err; /* the first error of the write callback */
	struct line_annot_opts ann;
	struct etm_disasm_hook (*dis_open)(void *ctx);
	void (*dis_close)(void *ctx, struct etm_disasm_hook *h);
	void *dis_ctx;
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

	*out = NULL;
	if (!o || o->size < offsetof(struct etm_listing_opts, dis_open) || !o->write ||
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
	l->nsrc = (int)o->nsrc;
	l->write = o->write;
	l->write_ctx = o->write_ctx;
	l->ann.sym = o->sym;
	l->ann.source = o->source_lines;
	l->ann.offsets = o->offsets;
	l->ann.hz = o->clock_hz;
	if (o->size >= offsetof(struct etm_listing_opts, ctx_img)) {
		l->dis_open = o->dis_open;
		l->dis_close = o->dis_close;
		l->dis_ctx = o->dis_ctx;
	}
	if (o->size >= sizeof(*o)) {
		l->ann.ctx_img = o->ctx_img;
		l->ann.ctx_img_arg = o->ctx_img_arg;
	}
	if (!l->dis_open || !l->dis_close)
		l->dis_open = NULL;
	if (decfmt_init(&l->f, l->src, (int)o->nsrc, &l->w,
			listing_fmt(o->format), &o->dis, NULL, &l->ann) < 0) {
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

/* The parallel listing's writer: the text to the write callback. */
static int listing_sink(void *ctx, const char *s, size_t n)
{
	struct etm_listing *l = ctx;
	int r = l->write(l->write_ctx, s, n);

	if (r < 0 && !l->err)
		l->err = r;
	return r;
}

static int listing_item_fn(void *ctx, const struct etm_item *it)
{
	return etm_listing_item(ctx, it);
}

int etm_listing_run(struct etm_listing *l, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs)
{
	const struct wsink sink = { listing_sink, l };
	struct listing_par p = {
		.f = NULL,
		.ann = NULL,
		.dis_open = NULL,
		.dis_close = NULL,
		.dis_ctx = NULL,
	};
	struct wbuf out;
	int r;

	if (!l || !dec || !rd)
		return -etme_invalid;
	if (l->err || hand_over(l) < 0)
		return l->err;
	if (line_annot_sequential(&l->ann)) {
		r = etm_decoder_run(dec, rd, rctx, size, jobs, listing_item_fn,
				    l);
		return r < 0 ? r : maybe_hand_over(l);
	}
	p.f = &l->f;
	p.ann = &l->ann;
	p.src = l->src;
	p.nsrc = l->nsrc;
	p.dis_open = l->dis_open;
	p.dis_close = l->dis_close;
	p.dis_ctx = l->dis_ctx;
	wbuf_init_sink(&out, &sink);
	l->f.w = &out;
	r = listing_par_run(&p, dec, rd, rctx, size, jobs, NULL);
	wbuf_flush(&out);
	l->f.w = &l->w;
	if (l->err)
		return l->err;
	if (out.err)
		return l->err = -etme_io;
	return r < 0 ? r : 0;
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
