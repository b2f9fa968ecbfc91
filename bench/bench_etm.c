/* bench/bench_etm.c - the etmtrace side of the benchmark: the public
 * decoder API over the streamed input, items delivered to a counter. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static void count_elem(struct bench_result *r, const struct etm_elem *el)
{
	r->elems++;
	if (el->kind == etmk_range)
		r->insns += el->ninsn;
	else if (el->kind == etmk_error || el->kind == etmk_nosync)
		r->errors++;
}

/* A batch of elements, counted in locals (the counters in memory would
 * make every element wait for the previous one's store). Also the
 * workers' consumer (etm_run_ops.elems, @state a struct bench_result):
 * one call per batch on both paths, as ITM's batches are one element. */
static int count_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct bench_result *r = state;
	uint64_t insns = 0, errors = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (els[i].kind == etmk_range)
			insns += els[i].ninsn;
		else if (els[i].kind == etmk_error ||
			 els[i].kind == etmk_nosync)
			errors++;
	}
	r->elems += n;
	r->insns += insns;
	r->errors += errors;
	return 0;
}

static void count_item(struct bench_result *r, const struct etm_item *it)
{
	if (it->kind != etm_item_elem) {
		r->packets++;
		return;
	}
	count_elem(r, &it->elem);
}

static int par_count(void *ctx, const struct etm_item *it)
{
	count_item(ctx, it);
	return 0;
}

static size_t par_read(void *ctx, uint64_t off, uint8_t *buf, size_t n)
{
	ssize_t k = pread(*(int *)ctx, buf, n, (off_t)off);

	return k > 0 ? (size_t)k : 0;
}

/* Packet mode: packets in compact form, in batches. */
static int drain_packets(struct etm_decoder *d, struct bench_result *r)
{
	struct etm_pkt_rec recs[256];
	int n;

	while ((n = etm_decoder_next_packets(d, recs, 256)) > 0)
		r->packets += (uint64_t)n;
	return n == -etme_again || n == -etme_eos ? 0 : n;
}

/* Element mode: elements in batches, read in place. */
static int drain(struct etm_decoder *d, struct bench_result *r, int full)
{
	const struct etm_elem *els;
	int n;

	if (!full)
		return drain_packets(d, r);
	while ((n = etm_decoder_next_elems(d, &els, 256)) > 0)
		count_elems(r, els, (size_t)n);
	return n == -etme_again || n == -etme_eos ? 0 : n;
}

static int run_stream(struct etm_decoder *d, int fd,
		      const struct bench_case *c, struct bench_result *r)
{
	uint8_t *buf = malloc(BENCH_CHUNK);
	int err = 0;

	if (!buf)
		return -etme_nomem;
	for (;;) {
		size_t want = BENCH_CHUNK;
		ssize_t n;

		if (c->limit && c->limit - r->bytes < want)
			want = (size_t)(c->limit - r->bytes);
		n = want ? read(fd, buf, want) : 0;
		if (n <= 0)
			break;
		r->bytes += (uint64_t)n;
		err = etm_decoder_push(d, buf, (size_t)n);
		if (!err)
			err = drain(d, r, c->full);
		if (err)
			break;
	}
	if (!err) {
		etm_decoder_finish(d);
		err = drain(d, r, c->full);
	}
	free(buf);
	return err;
}

/* Parallel decode with the counting done where the items are decoded
 * (etm_decoder_run_ops, elements in batches as etm_decoder_next_elems()
 * gives them): each worker counts into a piece per stretch of items, the
 * calling thread adds the pieces up in input order. (Through
 * etm_decoder_run() every item would be copied to the calling thread just
 * to be counted there.) */
static void *ops_open(void *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(struct bench_result));
}

static int ops_item(void *state, const struct etm_item *it)
{
	count_item(state, it);
	return 0;
}

static int ops_cut(void *state, void **piece, size_t *bytes)
{
	struct bench_result *p = malloc(sizeof(*p));

	if (!p)
		return -1;
	*p = *(struct bench_result *)state;
	memset(state, 0, sizeof(*p));
	*piece = p;
	*bytes = sizeof(*p);
	return 0;
}

static int ops_emit(void *ctx, void *piece)
{
	struct bench_result *r = ctx, *p = piece;

	r->packets += p->packets;
	r->insns += p->insns;
	r->elems += p->elems;
	r->errors += p->errors;
	free(p);
	return 0;
}

static void ops_drop(void *ctx, void *piece)
{
	(void)ctx;
	free(piece);
}

static const struct etm_run_ops count_ops = {
	.open = ops_open, .item = ops_item, .cut = ops_cut, .emit = ops_emit, .drop = ops_drop, .close = free, .elems = count_elems
};

static int run_parallel(struct etm_decoder *d, int fd,
			const struct bench_case *c, struct bench_result *r)
{
	uint64_t size = (uint64_t)lseek(fd, 0, SEEK_END);

	if (c->limit && c->limit < size)
		size = c->limit;
	r->bytes = size;
	struct etm_run_stats st;
	int err;

	if (c->run_items)
		return etm_decoder_run(d, par_read, (void *)&fd, size, c->jobs,
				       par_count, r);
	memset(&st, 0, sizeof(st));
	err = etm_decoder_run_ops_stats(d, par_read, (void *)&fd, size,
					c->jobs, &count_ops, r, &st);
	r->worker_wait = st.worker_wait;
	r->idle_end = st.worker_idle_end;
	r->decoded = st.decoded;
	r->chunks = st.chunks;
	r->chunks_void = st.chunks_void;
	return err;
}

int bench_etm_run(const struct bench_case *c, struct bench_result *r)
{
	struct etm_image *img = NULL;
	struct etm_decoder *d;
	struct timespec t0, t1, tc;
	int fd, i, err = -etme_nomem;

	d = etm_decoder_alloc(c->fmt, c->full ? etm_dec_elements :
						etm_dec_packets);
	if (c->full)
		img = etm_image_alloc();
	for (i = 0; img && i < c->nmem; i++)
		if (etm_image_add_file(img, etm_space_any, c->mem[i].addr,
				       c->mem[i].path, c->mem[i].offset,
				       c->mem[i].length) < 0)
			goto out;
	if (!d || (c->full && !img))
		goto out;
	err = etm_decoder_add_source(d, &c->cfg, img);
	if (err < 0)
		goto out;
	fd = open(c->trace, O_RDONLY);
	if (fd < 0) {
		err = -etme_io;
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (c->jobs > 1)
		err = run_parallel(d, fd, c, r);
	else
		err = run_stream(d, fd, c, r);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	/* this child's calling thread, from its start: setup included */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &tc);
	r->caller_cpu = (double)tc.tv_sec + (double)tc.tv_nsec / 1e9;
	r->secs = (double)(t1.tv_sec - t0.tv_sec) +
		  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
out:
	if (err < 0)
		snprintf(r->msg, sizeof(r->msg), "etmtrace: %s", etm_errstr(err));
	r->ok = err >= 0;
	etm_decoder_free(d);
	etm_image_free(img);
	return err < 0 ? -1 : 0;
}
