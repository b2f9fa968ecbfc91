/* listing/wbuf.c - buffered output writer (see wbuf.h). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "listing/wbuf.h"

/* Nothing staged by reference (the references handed on or freed). */
static void stage_reset(struct wbuf *w)
{
	w->shead = w->stail = NULL;
	w->mark = w->kept = 0;
	w->arena = NULL;
	w->pins = 0;
}

void wbuf_init(struct wbuf *w, int fd)
{
	w->fd = fd;
	w->sink = NULL;
	w->len = 0;
	w->err = 0;
	w->buf = w->own;
	w->cur = w->head = w->tail = NULL;
	w->held = 0;
	w->pool = NULL;
	w->out = 0;
	w->refs = 0;
	stage_reset(w);
}

void wbuf_init_sink(struct wbuf *w, const struct wsink *sink)
{
	wbuf_init(w, -1);
	w->sink = sink;
}

/* @n bytes at @p to the sink. */
static void sink_write(struct wbuf *w, const char *p, size_t n)
{
	if (n && !w->err && w->sink->fn(w->sink->ctx, p, n) < 0)
		w->err = EIO;
	if (!w->err)
		w->out += n;
}

void wpool_init(struct wpool *p, size_t max)
{
	pthread_mutex_init(&p->mu, NULL);
	p->free = NULL;
	p->n = 0;
	p->max = max;
}

void wpool_fini(struct wpool *p)
{
	struct wblk *b;

	while ((b = p->free)) {
		p->free = b->next;
		free(b);
	}
	pthread_mutex_destroy(&p->mu);
}

void wpool_trim(struct wpool *p)
{
	struct wblk *b, *n;

	pthread_mutex_lock(&p->mu);
	b = p->free;
	p->free = NULL;
	p->n = 0;
	pthread_mutex_unlock(&p->mu);
	for (; b; b = n) {
		n = b->next;
		free(b);
	}
}

static struct wblk *blk_get(struct wpool *p)
{
	struct wblk *b = NULL;

	if (p) {
		pthread_mutex_lock(&p->mu);
		b = p->free;
		if (b) {
			p->free = b->next;
			p->n--;
		}
		pthread_mutex_unlock(&p->mu);
	}
	return b ? b : malloc(sizeof(*b));
}

int wbuf_init_mem(struct wbuf *w, struct wpool *pool)
{
	wbuf_init(w, -1);
	w->pool = pool;
	if (pool) /* staged in w->own, streamed to blocks (keep_block) */
		return 0;
	w->cur = blk_get(pool);
	if (!w->cur) {
		w->err = ENOMEM;
		return -1;
	}
	w->buf = w->cur->data;
	return 0;
}

void wbuf_free_chain(struct wpool *p, struct wblk *b)
{
	struct wblk *n;

	if (p && b) { /* under one lock: the writers take blocks meanwhile */
		pthread_mutex_lock(&p->mu);
		for (; b && p->n < p->max; b = n) {
			n = b->next;
			b->next = p->free;
			p->free = b;
			p->n++;
		}
		pthread_mutex_unlock(&p->mu);
	}
	for (; b; b = n) {
		n = b->next;
		free(b);
	}
}

void wbuf_fini(struct wbuf *w)
{
	struct wpiece p = { NULL, w->shead, w->arena, w->pins };

	wbuf_free_piece(w->pool, &p);
	stage_reset(w);
	wbuf_free_chain(w->pool, w->head);
	if (w->cur) {
		w->cur->next = NULL;
		wbuf_free_chain(w->pool, w->cur);
	}
	w->head = w->tail = w->cur = NULL;
	w->buf = w->own;
	w->len = w->held = 0;
}

/* Copy @n bytes to @dst (16-byte aligned) with non-temporal stores where
 * the machine has them: the block goes to memory without being read into
 * the cache first and without evicting the writer's working set. */
static void copy_stream(char *dst, const char *src, size_t n)
{
	size_t i = 0;

#if defined(__SSE2__)
	for (; i + 64 <= n; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 32));
		__m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 48));

		_mm_stream_si128((__m128i *)(void *)(dst + i), a);
		_mm_stream_si128((__m128i *)(void *)(dst + i + 16), b);
		_mm_stream_si128((__m128i *)(void *)(dst + i + 32), c);
		_mm_stream_si128((__m128i *)(void *)(dst + i + 48), d);
	}
	_mm_sfence(); /* ordered before the block is handed over */
#endif
	memcpy(dst + i, src + i, n - i);
}

/* Memory mode: the current block joins the chain and a new one is
 * started. With a pool, the output is staged in w->own (which stays in
 * the cache) and streamed to a block from the pool here: a parallel
 * decode's blocks wait, up to tens of MiB, for their turn to be written,
 * and written in place they would push the worker's decoder and listing
 * cache out of its cache (issue 19: cachegrind of TC2 text, --jobs 2: 3.7 M
 * more last-level write misses in copying text, 2 M more read misses in
 * the listing cache). */
static void keep_block(struct wbuf *w)
{
	struct wblk *b = w->cur;

	if (!w->len)
		return;
	if (w->pool) {
		b = blk_get(w->pool);
		if (b)
			copy_stream(b->data, w->own, w->len);
	}
	if (!b) { /* out of memory (now or before): output lost */
		w->len = 0;
		w->err = ENOMEM;
		return;
	}
	b->len = w->len;
	b->next = NULL;
	if (w->tail)
		w->tail->next = b;
	else
		w->head = b;
	w->tail = b;
	w->held += sizeof(*b);
	w->kept += w->len;
	w->len = 0;
	if (w->pool) {
		w->cur = NULL;
		return;
	}
	w->cur = blk_get(w->pool);
	if (!w->cur)
		w->err = ENOMEM;
	/* out of memory: further output is lost (w->err tells) */
	w->buf = w->cur ? w->cur->data : w->own;
}

struct wblk *wbuf_take(struct wbuf *w, size_t *bytes)
{
	struct wblk *b;

	keep_block(w);
	b = w->head;
	*bytes = w->held;
	w->head = w->tail = NULL;
	w->held = 0;
	return b;
}

/* Blocks per writev(): a call costs several microseconds even to /dev/null
 * (the text of a parallel decode is written by one thread: 64 blocks a
 * call took 0.05 s of 2.4 s on 9 GB of synthetic text). */
#define WBUF_IOV 1024

/* Write the @n iovecs @iov whole (retrying partial writes). */
static void writev_all(struct wbuf *w, struct iovec *iov, int n)
{
	size_t off = 0, tot = 0;
	ssize_t r;
	int i;

	if (w->sink) {
		for (i = 0; i < n; i++)
			sink_write(w, iov[i].iov_base, iov[i].iov_len);
		return;
	}
	for (i = 0; i < n; i++)
		tot += iov[i].iov_len;
	while (off < tot && !w->err) {
		size_t skip = off;

		i = 0;
		while (skip >= iov[i].iov_len) {
			skip -= iov[i].iov_len;
			i++;
		}
		iov[i].iov_base = (char *)iov[i].iov_base + skip;
		iov[i].iov_len -= skip;
		r = writev(w->fd, iov + i, n - i);
		iov[i].iov_base = (char *)iov[i].iov_base - skip;
		iov[i].iov_len += skip;
		if (r < 0) {
			if (errno != EINTR)
				w->err = errno;
			continue;
		}
		off += (size_t)r;
	}
}

void wbuf_write_chain(struct wbuf *w, const struct wblk *b)
{
	struct iovec iov[WBUF_IOV];
	int n;

	wbuf_flush(w);
	while (b && !w->err) {
		for (n = 0; b && n < WBUF_IOV; b = b->next, n++) {
			iov[n].iov_base = (void *)b->data;
			iov[n].iov_len = b->len;
		}
		writev_all(w, iov, n);
	}
}

/* Iovecs being gathered for writev_all(). */
struct wgather {
	struct iovec iov[WBUF_IOV];
	int n;
};

static void gather(struct wbuf *w, struct wgather *g, const char *p, size_t n)
{
	if (g->n == WBUF_IOV) {
		writev_all(w, g->iov, g->n);
		g->n = 0;
	}
	g->iov[g->n].iov_base = (void *)p;
	g->iov[g->n++].iov_len = n;
}

/* Segments read ahead by wbuf_write_piece(): 24 lines (PTM loop text,
 * --jobs 2: its samples 183-197 -> 116-136 of ~5200 a run). */
#define WBUF_PREFETCH 96

void wbuf_write_piece(struct wbuf *w, const struct wpiece *p)
{
	struct wgather g;
	const struct wblk *s, *t = p->text;
	size_t i, toff = 0;

	if (!p->segs) {
		wbuf_write_chain(w, p->text);
		return;
	}
	wbuf_flush(w);
	g.n = 0;
	for (s = p->segs; s && !w->err; s = s->next) {
		for (i = 0; i < s->len; i++) {
			size_t k = s->seg[i].iov_len;

			/* the segments were written on another CPU (a worker
			 * formatting ahead): their lines are fetched ahead
			 * (an address past the block is not read) */
			__builtin_prefetch((const void *)((uintptr_t)&s->seg[i] +
							  WBUF_PREFETCH *
								  sizeof(s->seg[0])));

			if (s->seg[i].iov_base) {
				gather(w, &g, s->seg[i].iov_base, k);
				continue;
			}
			while (k && t) { /* the next k bytes of text */
				size_t m = t->len - toff < k ? t->len - toff : k;

				gather(w, &g, t->data + toff, m);
				toff += m;
				k -= m;
				if (toff == t->len) {
					t = t->next;
					toff = 0;
				}
			}
		}
	}
	if (g.n && !w->err)
		writev_all(w, g.iov, g.n);
}

void wbuf_free_piece(struct wpool *pool, struct wpiece *p)
{
	uint32_t b;

	wbuf_free_chain(pool, p->text);
	wbuf_free_chain(pool, p->segs);
	for (b = 0; p->pins; b++, p->pins >>= 1)
		if (p->pins & 1)
			text_arena_unpin(p->arena, b);
	if (p->arena)
		text_arena_release(p->arena);
	p->text = p->segs = NULL;
	p->arena = NULL;
}

void wbuf_refs(struct wbuf *w)
{
	w->refs = w->pool != NULL;
}

/* Append a segment (@p NULL: the next @n bytes of text). -1: no memory. */
static int seg_add(struct wbuf *w, const char *p, size_t n)
{
	struct wblk *s = w->stail;

	if (!s || s->len == WBLK_SEGS) {
		s = blk_get(w->pool);
		if (!s)
			return -1;
		s->len = 0;
		s->next = NULL;
		if (w->stail)
			w->stail->next = s;
		else
			w->shead = s;
		w->stail = s;
	}
	s->seg[s->len].iov_base = (void *)p;
	s->seg[s->len++].iov_len = n;
	return 0;
}

void wbuf_ref_stage(struct wbuf *w, const char *p, size_t n, struct text_arena *a,
		    uint32_t blk)
{
	unsigned long long pos = w->kept + w->len;
	struct iovec *last;

	if ((w->arena && w->arena != a) || blk >= 64 ||
	    (pos > w->mark && seg_add(w, NULL, (size_t)(pos - w->mark)) < 0)) {
		wbuf_put(w, p, n);
		return;
	}
	w->mark = pos; /* the text so far is in segments */
	last = w->stail && w->stail->len ? &w->stail->seg[w->stail->len - 1] : NULL;
	if (last && last->iov_base && (char *)last->iov_base + last->iov_len == p &&
	    (w->pins >> blk & 1))
		last->iov_len += n; /* contiguous with the previous reference */
	else if (seg_add(w, p, n) < 0) {
		wbuf_put(w, p, n);
		return;
	}
	if (!(w->pins >> blk & 1)) {
		text_arena_pin(a, blk);
		w->pins |= 1ull << blk;
	}
	if (!w->arena) {
		w->arena = a;
		text_arena_hold(a);
	}
	w->held += n;
}

size_t wbuf_take_piece(struct wbuf *w, struct wpiece *p)
{
	size_t bytes;

	keep_block(w);
	if (w->shead && w->kept > w->mark &&
	    seg_add(w, NULL, (size_t)(w->kept - w->mark)) < 0)
		w->err = ENOMEM;
	p->text = wbuf_take(w, &bytes);
	p->segs = w->shead;
	p->arena = w->arena;
	p->pins = w->pins;
	stage_reset(w);
	return bytes;
}

size_t wbuf_piece_mem(const struct wpiece *p)
{
	const struct wblk *b;
	size_t n = 0;

	for (b = p->text; b; b = b->next)
		n += sizeof(*b);
	for (b = p->segs; b; b = b->next)
		n += sizeof(*b);
	return n;
}

void wbuf_flush(struct wbuf *w)
{
	size_t off = 0;

	if (w->fd < 0) {
		if (!w->sink) {
			keep_block(w);
			return;
		}
		sink_write(w, w->buf, w->len);
		w->len = 0;
		return;
	}

	while (off < w->len && !w->err) {
		ssize_t r = write(w->fd, w->buf + off, w->len - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			w->err = errno;
			break;
		}
		off += (size_t)r;
	}
	w->out += off;
	w->len = 0;
}

char *wbuf_reserve(struct wbuf *w, size_t n)
{
	if (w->len + n > WBLK_SIZE)
		wbuf_flush(w);
	return w->buf + w->len;
}

void wbuf_commit(struct wbuf *w, size_t n)
{
	w->len += n;
}

void wbuf_put(struct wbuf *w, const char *s, size_t n)
{
	while (n) {
		size_t room, k;

		if (w->len == WBLK_SIZE)
			wbuf_flush(w);
		room = WBLK_SIZE - w->len;
		k = n < room ? n : room;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
	}
}

void wbuf_str(struct wbuf *w, const char *s)
{
	wbuf_put(w, s, strlen(s));
}

void wbuf_char(struct wbuf *w, char c)
{
	if (w->len == WBLK_SIZE)
		wbuf_flush(w);
	w->buf[w->len++] = c;
}

void wbuf_hex8(struct wbuf *w, uint32_t v)
{
	static const char hx[] = "0123456789ABCDEF";
	char *p = wbuf_reserve(w, 8);
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = hx[v & 0xf];
		v >>= 4;
	}
	wbuf_commit(w, 8);
}

void wbuf_printf(struct wbuf *w, const char *fmt, ...)
{
	va_list ap;
	char *p = wbuf_reserve(w, 4096);
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, 4096, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	wbuf_commit(w, (size_t)n < 4096 ? (size_t)n : 4095);
}
