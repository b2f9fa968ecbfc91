/* run/chunk.c - chunk plans and the decoder of one chunk
 * (etmtrace/chunk.h): the stitching rule of parallel decode
 * (run/worker.c, run/cut.h) with each chunk decoded on its own, so that
 * chunks can go to other processes or machines. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/chunk.h>
#include <etmtrace/error.h>

#include "common/grow.h"
#include "common/pagebuf.h"
#include "common/sbuf.h"
#include "run/cut.h"
#include "decoder/clone.h"

#define CH_READ ETM_CUT_SEARCH /* bytes read and pushed at once */

enum ch_phase {
	ch_head = 1, /* the chunk's head: elements are the predecessor's */
	ch_own,      /* up to the chunk's end */
	ch_runon,    /* into a successor's head, comparing states */
	ch_tail,     /* converged: on to the successor's head end */
	ch_through,  /* not converged: through the successor */
	ch_fin,      /* end of input: what the decoder keeps back */
	ch_done,
};

struct etm_chunk_dec {
	const struct etm_decoder *tmpl;
	etm_read_fn rd;
	void *rctx;
	uint64_t size, target;
	int frames;
	struct etm_decoder *f;     /* the chunk's decoder */
	struct etm_decoder *g;     /* a fresh decoder of the successor */
	uint64_t pos, gpos;        /* input pushed to f, to g */
	uint64_t to;               /* where the phase (or piece) ends */
	uint64_t end;              /* the chunk's end */
	uint64_t s, s_end, s_head; /* successor: start, end, head end */
	enum ch_phase ph;
	uint64_t next; /* etm_chunk_dec_next_chunk() */
	uint8_t *buf;
	struct etm_sbuf *sf, *sg;
};

/* TPIU input is never cut (as in parallel decode). */
static int is_tpiu(enum etm_input_format fmt)
{
	return fmt == etm_fmt_tpiu || fmt == etm_fmt_tpiu_nofsync;
}

/* Input decoded only whole, as one chunk: TPIU captures (no cut points),
 * circular buffers in pieces (decoded piece by piece, doc/circular.md). */
static int whole_only(const struct etm_decoder *d)
{
	return is_tpiu(etm_decoder_format(d)) || etm_decoder_in_pieces(d);
}

static uint64_t chunk_end(const struct etm_decoder *d, int tpiu, int frames,
			  etm_read_fn rd, void *rctx, uint64_t size,
			  uint64_t target, uint8_t *buf, uint64_t start)
{
	unsigned align = etm_decoder_cut_align(d);

	if (tpiu || size - start <= target)
		return size;
	if (align) /* records (ETMv1 samples), as in parallel decode */
		return etm_cut_find_record(d, align, rd, rctx, size, buf,
					   start + target);
	return etm_cut_find_start(frames, rd, rctx, size, buf, start + target);
}

/* Trace IDs named by the ID changes of the frames in [c->offset, end). */
static int scan_ids(etm_read_fn rd, void *rctx, uint8_t *buf,
		    struct etm_chunk *c)
{
	uint64_t pos = c->offset, end = c->offset + c->length;
	size_t i, j;

	while (pos < end) {
		size_t n = end - pos > CH_READ ? CH_READ : (size_t)(end - pos);

		if (rd(rctx, pos, buf, n) != n)
			return -etme_io;
		for (i = 0; i + 16 <= n; i += 16)
			for (j = 0; j < 15; j += 2) {
				unsigned id = buf[i + j] >> 1;

				if ((buf[i + j] & 1) && id && id < 0x70)
					c->ids[id >> 6] |= 1ull << (id & 63);
			}
		pos += n;
	}
	return 0;
}

int etm_chunk_plan(const struct etm_decoder *d, etm_read_fn rd, void *rctx,
		   uint64_t size, uint64_t target, int want_ids,
		   struct etm_chunk **chunks, size_t *n)
{
	enum etm_input_format fmt = d ? etm_decoder_format(d) : etm_fmt_unknown;
	int frames = fmt == etm_fmt_coresight, err = 0;
	uint8_t *buf = malloc(CH_READ);
	struct etm_chunk *v = NULL, *nv;
	size_t cnt = 0, cap = 0, i;
	uint64_t s = 0, e;

	if (!d || !rd || !chunks || !n) {
		free(buf);
		return -etme_invalid;
	}
	if (!buf)
		return -etme_nomem;
	if (!target)
		target = ETM_CHUNK_TARGET;
	for (; s < size && !err; s = e) {
		e = chunk_end(d, whole_only(d), frames, rd, rctx, size,
			      target, buf, s);
		nv = etm_grow(v, &cap, cnt + 1, sizeof(*v), 16);
		if (!nv) {
			err = -etme_nomem;
			break;
		}
		v = nv;
		memset(&v[cnt], 0, sizeof(v[cnt]));
		v[cnt].offset = s;
		v[cnt].length = e - s;
		cnt++;
	}
	for (i = 0; want_ids && frames && !err && i < cnt; i++)
		err = scan_ids(rd, rctx, buf, &v[i]);
	free(buf);
	if (err) {
		free(v);
		return err;
	}
	*chunks = v;
	*n = cnt;
	return 0;
}

struct etm_chunk_dec *etm_chunk_dec_alloc(const struct etm_decoder *d,
					  etm_read_fn rd, void *rctx,
					  uint64_t size, uint64_t target,
					  uint64_t offset, uint64_t length)
{
	struct etm_chunk_dec *c;

	if (!d || !rd || !etm_decoder_elems_ok(d) || length > size ||
	    offset > size - length ||
	    (whole_only(d) && (offset || length != size)))
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->tmpl = d;
	c->rd = rd;
	c->rctx = rctx;
	c->size = size;
	c->target = target ? target : ETM_CHUNK_TARGET;
	c->frames = etm_decoder_format(d) == etm_fmt_coresight;
	c->pos = offset;
	c->end = offset + length;
	c->ph = offset ? ch_head : ch_own;
	c->to = offset ? offset + etm_cut_head_len(length) : c->end;
	c->f = whole_only(d) ? etm_decoder_clone_whole(d) :
			       etm_decoder_clone(d, offset);
	c->buf = etm_skewed_alloc(CH_READ);
	c->sf = malloc(sizeof(*c->sf));
	c->sg = malloc(sizeof(*c->sg));
	if (!c->f || !c->buf || !c->sf || !c->sg) {
		etm_chunk_dec_free(c);
		return NULL;
	}
	return c;
}

void etm_chunk_dec_free(struct etm_chunk_dec *c)
{
	if (!c)
		return;
	etm_decoder_free(c->f);
	etm_decoder_free(c->g);
	etm_skewed_free(c->buf);
	free(c->sf);
	free(c->sg);
	free(c);
}

/* Push up to CH_READ bytes of [*pos, to) to @d. */
static int push(struct etm_chunk_dec *c, struct etm_decoder *d, uint64_t *pos,
		uint64_t to)
{
	size_t n = to - *pos > CH_READ ? CH_READ : (size_t)(to - *pos);

	if (c->rd(c->rctx, *pos, c->buf, n) != n)
		return -etme_io;
	*pos += n;
	return etm_decoder_push(d, c->buf, n);
}

/* Start running on into the chunk at @s (or finish at the end of input). */
static int runon_start(struct etm_chunk_dec *c, uint64_t s)
{
	if (s >= c->size) {
		c->ph = ch_fin;
		return etm_decoder_finish(c->f);
	}
	c->s = s;
	c->s_end = chunk_end(c->tmpl, 0, c->frames, c->rd, c->rctx, c->size, c->target,
			     c->buf, s);
	c->s_head = s + etm_cut_head_len(c->s_end - s);
	etm_decoder_free(c->g);
	c->g = etm_decoder_clone(c->tmpl, s);
	if (!c->g)
		return -etme_nomem;
	c->gpos = s;
	c->ph = ch_runon;
	c->to = etm_cut_next_piece(s, c->s_head, c->pos);
	return 0;
}

/* The successor's fresh decoder up to f's position, drained; whether the
 * two states are equal there. Returns 1, 0, or a negative error. */
static int converged(struct etm_chunk_dec *c)
{
	const struct etm_elem *els;
	int err = 0;

	while (c->gpos < c->pos && err >= 0) {
		err = push(c, c->g, &c->gpos, c->pos);
		while (err >= 0)
			err = etm_decoder_next_elems(c->g, &els, 4096);
		if (err == -etme_again)
			err = 0;
	}
	if (err < 0)
		return err;
	etm_sbuf_reset(c->sf);
	etm_sbuf_reset(c->sg);
	etm_decoder_save(c->f, c->sf);
	etm_decoder_save(c->g, c->sg);
	/* a frame starting with 0xFF may be an FSYNC (run/cut.h): the
	 * deformatters tell whether they met one since their start */
	if (c->frames && (!etm_decoder_frames_fast(c->f) ||
			  !etm_decoder_frames_fast(c->g)))
		return 0;
	return !c->sf->over && !c->sg->over &&
	       c->sf->len == c->sg->len && !memcmp(c->sf->b, c->sg->b, c->sf->len);
}

/* f is drained: push its next input, or move to the next phase. */
static int advance(struct etm_chunk_dec *c)
{
	int eq;

	if (c->pos < c->to)
		return push(c, c->f, &c->pos, c->to);
	switch (c->ph) {
	case ch_head:
		c->ph = ch_own;
		c->to = c->end;
		return 0;
	case ch_own:
		return runon_start(c, c->end);
	case ch_runon:
		eq = converged(c);
		if (eq < 0)
			return eq;
		if (eq) {
			c->ph = ch_tail;
			c->to = c->s_head;
		} else if (c->pos >= c->s_head) {
			c->ph = ch_through;
			c->to = c->s_end;
		} else {
			c->to = etm_cut_next_piece(c->s, c->s_head, c->pos);
		}
		return 0;
	case ch_tail:
		c->ph = ch_done;
		c->next = c->s;
		return 0;
	case ch_through:
		return runon_start(c, c->s_end);
	case ch_fin:
	case ch_done:
		break;
	}
	return -etme_internal; /* finished decoders return -etme_eos */
}

int etm_chunk_dec_next(struct etm_chunk_dec *c, const struct etm_elem **els,
		       size_t max)
{
	int n;

	if (!c || !els || !max)
		return -etme_invalid;
	for (;;) {
		if (c->ph == ch_done)
			return -etme_eos;
		n = etm_decoder_next_elems(c->f, els, max);
		if (n > 0 && c->ph != ch_head)
			return n;
		if (n == -etme_eos) {
			c->ph = ch_done;
			c->next = c->size;
			return n;
		}
		if (n == -etme_again)
			n = advance(c);
		if (n < 0)
			return n;
	}
}

uint64_t etm_chunk_dec_next_chunk(const struct etm_chunk_dec *c)
{
	return c && c->ph == ch_done ? c->next : 0;
}
