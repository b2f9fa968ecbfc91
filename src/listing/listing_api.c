/* listing/listing_api.c - the public listing (etmtrace/listing.h): the
 * decode formatter of listing/listing.c, its text written through the
 * caller's write callback whenever its buffer (listing/wbuf.h) is full and
 * at each flush; on worker threads by listing/listing_par.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/caprun.h>
#include <etmtrace/error.h>
#include <etmtrace/listing.h>

#include "listing/listing.h"
#include "listing/listing_par.h"

struct etm_listing {
	struct decfmt f;
	struct etm_listing_source *src;
	int nsrc;
	etm_write_fn write;
	void *write_ctx;
	struct wsink sink; /* the write callback, as l->w writes */
	int err;           /* the first error of the write callback */
	struct line_annot_opts ann;
	struct line_fields_spec fields;
	struct etm_run_stats *run_stats;
	struct etm_disasm_hook (*dis_open)(void *ctx);
	void (*dis_close)(void *ctx, struct etm_disasm_hook *h);
	void *dis_ctx;
	struct wbuf w; /* last: its buffer is not cleared (listing_new()) */
};

/* A zeroed listing but for its writer's buffer (64 KiB, not read before
 * it is written). */
static struct etm_listing *listing_new(void)
{
	struct etm_listing *l = malloc(sizeof(*l));

	if (l)
		memset(l, 0, offsetof(struct etm_listing, w) + offsetof(struct wbuf, own));
	return l;
}

static enum dec_fmt listing_fmt(enum etm_listing_format f)
{
	return f == etm_listing_canon ? DF_CANON :
	       f == etm_listing_jsonl ? DF_JSONL :
	       f == etm_listing_data  ? DF_DATA :
	       f == etm_listing_count ? DF_STATS :
					DF_TEXT;
}

/* The write callback, as the writer's sink: its first error kept. */
static int listing_sink(void *ctx, const char *s, size_t n)
{
	struct etm_listing *l = ctx;
	int r = l->write(l->write_ctx, s, n);

	if (r < 0 && !l->err)
		l->f.werr = l->err = r;
	return r;
}

/* The options of @o after those of the first version (a shorter @o: off).
 * Returns 0 or -etme_invalid (an unknown field). */
static int listing_later_opts(struct etm_listing *l,
			      const struct etm_listing_opts *o)
{
	if (o->size >= offsetof(struct etm_listing_opts, ctx_img)) {
		l->dis_open = o->dis_open;
		l->dis_close = o->dis_close;
		l->dis_ctx = o->dis_ctx;
	}
	if (o->size >= offsetof(struct etm_listing_opts, fields)) {
		l->ann.ctx_img = o->ctx_img;
		l->ann.ctx_img_arg = o->ctx_img_arg;
	}
	if (!l->dis_open || !l->dis_close)
		l->dis_open = NULL;
	if (o->size < sizeof(*o))
		return 0;
	l->ann.srcpath = o->srcpath;
	l->run_stats = o->run_stats;
	l->f.df.only = o->data_only;
	l->f.df.range = o->data_range;
	l->f.df.lo = o->data_lo;
	l->f.df.hi = o->data_hi;
	l->f.df.on = o->data_only || o->data_range;
	if (!o->fields)
		return 0;
	if (line_fields_parse(o->fields, &l->fields, o->err,
			      o->err ? o->errlen : 0) < 0)
		return -etme_invalid;
	l->fields.hex = o->offsets == LINE_ANNOT_OFF_HEX;
	l->ann.fields = &l->fields;
	return 0;
}

int etm_listing_alloc(struct etm_listing **out,
		      const struct etm_listing_opts *o)
{
	struct etm_listing *l;
	struct dec_dfilter df;
	int r;

	*out = NULL;
	if (!o || o->size < offsetof(struct etm_listing_opts, dis_open) || !o->write ||
	    (o->nsrc && !o->src) ||
	    o->nsrc > 256 || (unsigned)o->format > etm_listing_count)
		return -etme_invalid;
	l = listing_new();
	if (!l)
		return -etme_nomem;
	l->src = malloc((o->nsrc ? o->nsrc : 1) * sizeof(*l->src));
	if (!l->src) {
		free(l);
		return -etme_nomem;
	}
	if (o->nsrc)
		memcpy(l->src, o->src, o->nsrc * sizeof(*l->src));
	l->nsrc = (int)o->nsrc;
	l->write = o->write;
	l->write_ctx = o->write_ctx;
	l->sink.fn = listing_sink;
	l->sink.ctx = l;
	wbuf_init_sink(&l->w, &l->sink);
	l->ann.sym = o->sym;
	l->ann.source = o->source_lines;
	l->ann.offsets = o->offsets;
	l->ann.hz = o->clock_hz;
	r = listing_later_opts(l, o);
	df = l->f.df; /* decfmt_init() clears the formatter */
	if (!r && decfmt_init(&l->f, l->src, (int)o->nsrc, &l->w,
			      listing_fmt(o->format), &o->dis,
			      o->size >= sizeof(*o) ? o->diag : NULL, &l->ann) < 0)
		r = -etme_nomem;
	if (r) {
		etm_listing_free(l);
		return r;
	}
	l->f.df = df;
	*out = l;
	return 0;
}

int etm_listing_set_images(struct etm_listing *l,
			   const struct etm_listing_source *src, size_t nsrc)
{
	size_t i;

	if (!l || (nsrc && !src) || nsrc != (size_t)l->nsrc)
		return -etme_invalid;
	for (i = 0; i < nsrc; i++)
		if (src[i].id != l->src[i].id)
			return -etme_invalid;
	for (i = 0; i < nsrc; i++)
		l->src[i].img = src[i].img;
	return 0;
}

/* The first error of the write callback (once it failed, the listing
 * stops). */
static int listing_status(struct etm_listing *l)
{
	if (!l->err && l->w.err)
		l->f.werr = l->err = -etme_io;
	return l->err;
}

int etm_listing_item(struct etm_listing *l, const struct etm_item *it)
{
	if (!l || !it)
		return -etme_invalid;
	if (!l->err)
		decfmt_item(&l->f, it);
	return l->err;
}

int etm_listing_elems(struct etm_listing *l, const struct etm_elem *els,
		      size_t n)
{
	if (!l || (!els && n))
		return -etme_invalid;
	if (!l->err) /* the write callback's error, set by listing_sink() */
		decfmt_elems(&l->f, els, n);
	return l->err;
}

/* The capture sink's callbacks. The formatter comes first, so that the
 * sink's context, @l, is the formatter's: elems() goes to the formatter
 * at once (it returns the write callback's first error itself). */
_Static_assert(offsetof(struct etm_listing, f) == 0, "formatter first");

static int listing_sink_item(void *l, const struct etm_item *it)
{
	return etm_listing_item(l, it);
}

static int listing_sink_end(void *l)
{
	return etm_listing_flush(l);
}

int etm_listing_capture_sink(struct etm_listing *l,
			     struct etm_capture_sink *out, void **ctx)
{
	if (!l || !out || !ctx)
		return -etme_invalid;
	memset(out, 0, sizeof(*out));
	out->item = listing_sink_item;
	out->elems = decfmt_elems;
	out->end = listing_sink_end;
	*ctx = l;
	return 0;
}

int etm_listing_flush(struct etm_listing *l)
{
	if (!l)
		return -etme_invalid;
	if (l->err)
		return l->err;
	decfmt_flush(&l->f);
	wbuf_flush(&l->w);
	return listing_status(l);
}

int etm_listing_write_out(struct etm_listing *l)
{
	if (!l)
		return -etme_invalid;
	if (!l->err)
		wbuf_flush(&l->w);
	return listing_status(l);
}

static int listing_item_fn(void *ctx, const struct etm_item *it)
{
	return etm_listing_item(ctx, it);
}

int etm_listing_run(struct etm_listing *l, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs)
{
	struct listing_par p = {
		.f = NULL,
		.ann = NULL,
		.dis_open = NULL,
		.dis_close = NULL,
		.dis_ctx = NULL,
	};
	int r;

	if (!l || !dec || !rd)
		return -etme_invalid;
	if (l->err)
		return l->err;
	if (line_annot_sequential(&l->ann)) {
		r = etm_decoder_run(dec, rd, rctx, size, jobs, listing_item_fn,
				    l);
		return r < 0 && !l->err ? r : listing_status(l);
	}
	p.f = &l->f;
	p.ann = &l->ann;
	p.src = l->src;
	p.nsrc = l->nsrc;
	p.dis_open = l->dis_open;
	p.dis_close = l->dis_close;
	p.dis_ctx = l->dis_ctx;
	wbuf_flush(&l->w); /* the text before, then the workers' */
	r = l->err ? l->err :
		     listing_par_run(&p, dec, rd, rctx, size, jobs, l->run_stats);
	wbuf_flush(&l->w);
	if (listing_status(l))
		return l->err;
	return r < 0 ? r : 0;
}

uint64_t etm_listing_insns(const struct etm_listing *l)
{
	return l ? l->f.n.insns : 0;
}

void etm_listing_counts(const struct etm_listing *l,
			struct etm_listing_counts *c)
{
	int k;

	memset(c, 0, sizeof(*c));
	if (!l)
		return;
	c->insns = l->f.n.insns;
	c->errors = l->f.n.errors;
	for (k = 0; k < etmk_num_kinds; k++)
		c->elems[k] = l->f.n.elems[k];
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
