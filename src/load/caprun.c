/* load/caprun.c - etm_capture_run(): each trace buffer read (load/capread.c),
 * pushed into its decoder and drained into the caller's sink, on the
 * calling thread or, for a regular file (whole or a part of it), on worker threads
 * through etm_decoder_run(). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/caprun.h>
#include <etmtrace/error.h>

#include "load/capread.h"
#include "load/open_int.h"

static int full_opts(const struct etm_capture_run_opts *ro,
		     struct etm_capture_run_opts *z);

/* A decoder error (not a sink's value) gets its reason. */
static int decoder_fail(struct cap_reader *r, int e)
{
	char what[96];

	snprintf(what, sizeof(what), "decoder: %s", etm_errstr(e));
	cap_reader_fail(r, what);
	return e;
}

/* The decoder's items since the last push into the sink; @final: after
 * finish (where -etme_again is an error). Returns 0 (push more), 1 at the
 * end of stream, a sink's negative value or a decoder error (its reason
 * given). */
static int drain(struct etm_decoder *d, struct cap_reader *r,
		 const struct etm_capture_sink *sk, void *ctx, int final)
{
	const struct etm_elem *els;
	struct etm_item it;
	int e, batch = sk->elems != NULL;

	for (;;) {
		if (batch) {
			e = etm_decoder_next_elems(d, &els, 256);
			if (e == -etme_invalid) { /* packet items: one by one */
				batch = 0;
				continue;
			}
			if (e > 0 && (e = sk->elems(ctx, els, (size_t)e)) < 0)
				return e;
		} else {
			e = etm_decoder_next(d, &it, sizeof(it));
			if (e == 0 && (e = sk->item(ctx, &it)) < 0)
				return e;
			e = e > 0 ? 0 : e;
		}
		if (e >= 0)
			continue;
		if (e == -etme_eos)
			return 1;
		if (e == -etme_again && !final)
			return 0;
		return decoder_fail(r, e);
	}
}

struct seq_sink {
	const struct etm_capture_sink *sk;
	void *ctx;
	int stopped; /* the sink's value */
};

static int seq_item(void *vctx, const struct etm_item *it)
{
	struct seq_sink *s = vctx;
	int e = s->sk->item(s->ctx, it);

	if (e < 0)
		s->stopped = e;
	return e;
}

/* Whether the capture switches images by Context ID (a perf.data file):
 * the runner's workers do not, so such a buffer is decoded in order. */
static int ctx_images(const struct etm_capture *cap)
{
	etm_ctx_image_fn fn;
	void *arg;

	return etm_capture_ctx_images(cap, &fn, &arg) != 0;
}

/* The buffer's regular file (or its part) on @jobs threads
 * (etm_decoder_run()). */
static int run_jobs(struct etm_decoder *d, struct cap_reader *r, uint64_t size,
		    unsigned jobs, const struct etm_capture_sink *sk, void *ctx)
{
	struct seq_sink s = { sk, ctx, 0 };
	int e;

	r->total = size;
	e = etm_decoder_run(d, cap_pread, r, size, jobs, seq_item, &s);
	if (e < 0 && s.stopped)
		return s.stopped;
	if (e < 0)
		return decoder_fail(r, e);
	return sk->end ? sk->end(ctx) : 0;
}

/* Read, push, drain; at the end of input finish and drain the rest. */
static int run_seq(struct etm_decoder *d, struct cap_reader *r,
		   const struct etm_capture_sink *sk, void *ctx)
{
	const uint8_t *p;
	size_t n;
	int e;

	for (;;) {
		e = cap_reader_next(r, &p, &n);
		if (e < 0)
			return e;
		if (!n)
			break;
		etm_decoder_push(d, p, n);
		e = drain(d, r, sk, ctx, 0);
		if (e < 0 || (sk->pushed && (e = sk->pushed(ctx)) < 0))
			return e;
	}
	if (sk->input_end)
		sk->input_end(ctx, r->total);
	etm_decoder_finish(d);
	e = drain(d, r, sk, ctx, 1);
	if (e < 0)
		return e;
	return sk->end ? sk->end(ctx) : 0;
}

int etm_capture_run_buffer(struct etm_capture *cap, size_t i,
			   const struct etm_capture_run_opts *ro,
			   const struct etm_capture_sink *sk, void *ctx)
{
	const struct etm_capture_buffer *b;
	struct cap_reader r;
	struct etm_capture_run_opts z;
	int64_t whole;
	int e;

	if (!cap || !sk || !sk->item || full_opts(ro, &z) < 0)
		return -etme_invalid;
	if (i >= cap->nbuf || (cap->stream && !z.read && !z.use_fd && !z.mem))
		return -etme_invalid;
	b = &cap->buf[i];
	if (etm_capture_load(cap, i) < 0 || !b->dec)
		return 1;
	e = cap_reader_open(&r, b, cap->snap != NULL, &z);
	if (e == 0) {
		whole = z.jobs > 1 && !z.chunk && !ctx_images(cap) ? cap_reader_range(&r) : -1;
		if (whole >= 0)
			e = run_jobs(b->dec, &r, (uint64_t)whole, z.jobs, sk, ctx);
		else
			e = run_seq(b->dec, &r, sk, ctx);
	}
	if (z.bytes)
		*z.bytes += r.total;
	cap_reader_close(&r);
	return e;
}

int etm_capture_range(struct etm_capture *cap, size_t i,
		      struct etm_fd_range *rg, uint64_t *size)
{
	struct cap_reader r;
	int64_t whole;
	int e;

	if (!cap || !rg || !size || i >= cap->nbuf)
		return -etme_invalid;
	if (cap->stream || ctx_images(cap) || etm_capture_load(cap, i) < 0)
		return 1;
	e = cap_reader_open(&r, &cap->buf[i], cap->snap != NULL, NULL);
	if (e < 0)
		return e;
	whole = cap_reader_range(&r);
	if (whole >= 0) {
		rg->fd = r.fd;
		rg->base = r.base;
		*size = (uint64_t)whole;
		r.own_fd = 0; /* the caller's now */
	}
	cap_reader_close(&r);
	return whole >= 0 ? 0 : 1;
}

int etm_capture_run(struct etm_capture *cap,
		    const struct etm_capture_run_opts *ro,
		    const struct etm_capture_sink *sk, void *ctx)
{
	size_t i;
	int e;

	if (!cap)
		return -etme_invalid;
	if (ro && ro->size >= sizeof(*ro) && (ro->mem || ro->use_fd || ro->read) &&
	    cap->nbuf != 1)
		return -etme_invalid;
	for (i = 0; i < cap->nbuf; i++) {
		e = etm_capture_run_buffer(cap, i, ro, sk, ctx);
		if (e < 0)
			return e;
	}
	return 0;
}

/* @ro in full (an older, shorter version zero-extended); 0 or -1. */
static int full_opts(const struct etm_capture_run_opts *ro,
		     struct etm_capture_run_opts *z)
{
	memset(z, 0, sizeof(*z));
	if (ro && ro->size < sizeof(size_t))
		return -1;
	if (ro)
		memcpy(z, ro, ro->size < sizeof(*z) ? ro->size : sizeof(*z));
	z->size = sizeof(*z);
	return 0;
}

int etm_capture_run_ops(struct etm_capture *cap, size_t i,
			const struct etm_capture_run_opts *ro,
			const struct etm_run_ops *ops, void *ctx,
			struct etm_run_stats *st)
{
	struct etm_capture_buffer *b;
	struct etm_capture_run_opts z;
	struct cap_reader r;
	int64_t whole;
	int e;

	if (!cap || !ops || i >= cap->nbuf || full_opts(ro, &z) < 0)
		return -etme_invalid;
	if (z.chunk || z.mem || z.use_fd || z.read || cap->stream)
		return 2;
	b = &cap->buf[i];
	if (etm_capture_load(cap, i) < 0 || !b->dec)
		return 1;
	e = cap_reader_open(&r, b, cap->snap != NULL, &z);
	whole = e == 0 && !ctx_images(cap) ? cap_reader_range(&r) : -1;
	if (e == 0 && whole < 0)
		e = 2;
	if (e == 0) {
		e = etm_decoder_run_ops_stats(b->dec, cap_pread, &r,
					      (uint64_t)whole, z.jobs, ops, ctx, st);
		if (z.bytes)
			*z.bytes += (uint64_t)whole;
	}
	cap_reader_close(&r);
	return e;
}
