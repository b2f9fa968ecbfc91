/* load/caprun_pull.c - the pull form of a capture run: etm_capture_next(),
 * etm_capture_next_elems(), etm_capture_next_packets() read each buffer
 * through the capture's reader (load/capread.c) as its decoder asks for
 * input. With jobs > 1 the elements come from etm_capture_run() on a
 * thread of its own, in batches through a small ring (bounded memory). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/caprun.h>
#include <etmtrace/error.h>

#include "load/open_int.h"

#define BG_SLOTS 4
#define BG_BATCH 4096 /* elements per slot */

struct cap_bg {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct etm_elem *slot[BG_SLOTS];
	size_t n[BG_SLOTS], buf[BG_SLOTS];
	unsigned head, count; /* the consumer's slot; full slots */
	size_t off;           /* elements of slot head handed out */
	int done, err, stop;
	/* producer */
	unsigned fill;
	size_t cur;
	struct etm_capture *cap;
};

enum pull_kind { pull_item,
		 pull_elems,
		 pull_packets };

/* Push the current buffer's next bytes, or finish its decoder. */
static int feed(struct etm_capture *cap, struct etm_decoder *d)
{
	const uint8_t *p;
	size_t n;
	int e = cap_reader_next(&cap->rd, &p, &n);

	if (e < 0)
		return e;
	if (n)
		return etm_decoder_push(d, p, n);
	cap->finished = 1;
	return etm_decoder_finish(d);
}

static void next_buffer(struct etm_capture *cap)
{
	if (cap->rd_open)
		cap_reader_close(&cap->rd);
	cap->rd_open = 0;
	cap->finished = 0;
	cap->cur++;
}

static int pull_one(struct etm_decoder *d, enum pull_kind k, void *out,
		    size_t max)
{
	switch (k) {
	case pull_item: return etm_decoder_next(d, out, max);
	case pull_elems: return etm_decoder_next_elems(d, out, max);
	case pull_packets: return etm_decoder_next_packets(d, out, max);
	}
	return -etme_invalid;
}

/* The next result of the capture's decoders, buffer by buffer. */
static int pull(struct etm_capture *cap, enum pull_kind k, void *out,
		size_t max, size_t *buffer)
{
	struct etm_capture_buffer *b;
	int r;

	if (!cap || !out || cap->stream)
		return -etme_invalid;
	while (cap->cur < cap->nbuf) {
		b = &cap->buf[cap->cur];
		if (etm_capture_load(cap, cap->cur) < 0) { /* skipped */
			next_buffer(cap);
			continue;
		}
		if (b->dec && !cap->rd_open) {
			r = cap_reader_open(&cap->rd, b, cap->snap != NULL, NULL);
			cap->rd_open = 1;
			if (r < 0)
				return r;
		}
		r = b->dec ? pull_one(b->dec, k, out, max) : -etme_eos;
		if (r > 0 || (r == 0 && k == pull_item)) {
			if (buffer)
				*buffer = cap->cur;
			return r;
		}
		if (r == -etme_again && !cap->finished) {
			r = feed(cap, b->dec);
			if (r < 0)
				return r;
			continue;
		}
		if (r != -etme_eos && r != -etme_again)
			return r;
		next_buffer(cap);
	}
	return -etme_eos;
}

int etm_capture_next(struct etm_capture *cap, struct etm_item *it, size_t size)
{
	return pull(cap, pull_item, it, size, NULL);
}

int etm_capture_next_packets(struct etm_capture *cap,
			     struct etm_pkt_rec *recs, size_t max,
			     size_t *buffer)
{
	return pull(cap, pull_packets, recs, max, buffer);
}

/* ---- jobs > 1: the decode on a thread of its own ---------------------- */

/* Producer: hand the filled slot over; wait for a free one. */
static int bg_publish(struct cap_bg *g)
{
	int stop;

	pthread_mutex_lock(&g->mu);
	g->buf[g->fill] = g->cur;
	g->count++;
	g->fill = (g->fill + 1) % BG_SLOTS;
	pthread_cond_broadcast(&g->cv);
	while (g->count == BG_SLOTS && !g->stop)
		pthread_cond_wait(&g->cv, &g->mu);
	stop = g->stop;
	pthread_mutex_unlock(&g->mu);
	return stop ? -1 : 0;
}

static int bg_item(void *ctx, const struct etm_item *it)
{
	struct cap_bg *g = ctx;

	if (it->kind != etm_item_elem)
		return 0;
	g->slot[g->fill][g->n[g->fill]++] = it->elem;
	return g->n[g->fill] == BG_BATCH ? bg_publish(g) : 0;
}

static int bg_end(void *ctx)
{
	struct cap_bg *g = ctx;

	return g->n[g->fill] ? bg_publish(g) : 0;
}

static void *bg_main(void *ctx)
{
	const struct etm_capture_sink sk = { .item = bg_item, .end = bg_end };
	struct etm_capture_run_opts ro = { .size = sizeof(ro) };
	struct cap_bg *g = ctx;
	int e = 0;

	ro.jobs = g->cap->jobs;
	for (g->cur = 0; g->cur < g->cap->nbuf && e >= 0; g->cur++) {
		e = etm_capture_run_buffer(g->cap, g->cur, &ro, &sk, g);
		e = e > 0 ? 0 : e;
	}
	pthread_mutex_lock(&g->mu);
	g->done = 1;
	g->err = g->stop ? 0 : e;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

static void bg_free(struct cap_bg *g)
{
	unsigned i;

	for (i = 0; i < BG_SLOTS; i++)
		free(g->slot[i]);
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

static int bg_start(struct etm_capture *cap)
{
	struct cap_bg *g = calloc(1, sizeof(*g));
	unsigned i;

	if (!g)
		return -etme_nomem;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->cap = cap;
	for (i = 0; i < BG_SLOTS; i++)
		if (!(g->slot[i] = malloc(BG_BATCH * sizeof(struct etm_elem)))) {
			bg_free(g);
			return -etme_nomem;
		}
	if (pthread_create(&g->th, NULL, bg_main, g) != 0) {
		bg_free(g);
		return -etme_nomem;
	}
	cap->bg = g;
	return 0;
}

/* Consumer: the rest of the head slot, after releasing a used-up one. */
static int bg_next(struct cap_bg *g, const struct etm_elem **els, size_t max,
		   size_t *buffer)
{
	size_t n;
	int r;

	pthread_mutex_lock(&g->mu);
	if (g->count && g->off == g->n[g->head]) {
		g->n[g->head] = 0;
		g->off = 0;
		g->head = (g->head + 1) % BG_SLOTS;
		g->count--;
		pthread_cond_broadcast(&g->cv);
	}
	while (!g->count && !g->done)
		pthread_cond_wait(&g->cv, &g->mu);
	if (g->count) {
		n = g->n[g->head] - g->off;
		n = n < max ? n : max;
		*els = g->slot[g->head] + g->off;
		g->off += n;
		if (buffer)
			*buffer = g->buf[g->head];
		r = (int)n;
	} else {
		r = g->err < 0 ? g->err : -etme_eos;
	}
	pthread_mutex_unlock(&g->mu);
	return r;
}

int etm_capture_next_elems(struct etm_capture *cap, const struct etm_elem **els,
			   size_t max, size_t *buffer)
{
	int r;

	if (!cap || !els || !max)
		return -etme_invalid;
	if (cap->jobs > 1 && !cap->bg && cap->cur == 0 && !cap->rd_open &&
	    cap->mode != etm_dec_packets && !cap->stream &&
	    (r = bg_start(cap)) < 0)
		return r;
	if (cap->bg)
		return bg_next(cap->bg, els, max > INT32_MAX ? INT32_MAX : max,
			       buffer);
	return pull(cap, pull_elems, (void *)els, max, buffer);
}

int etm_capture_set_jobs(struct etm_capture *cap, unsigned jobs)
{
	if (!cap || cap->bg || cap->rd_open || cap->cur)
		return -etme_invalid;
	cap->jobs = jobs;
	return 0;
}

void cap_pull_free(struct etm_capture *cap)
{
	struct cap_bg *g = cap->bg;

	if (g) {
		pthread_mutex_lock(&g->mu);
		g->stop = 1;
		pthread_cond_broadcast(&g->cv);
		pthread_mutex_unlock(&g->mu);
		pthread_join(g->th, NULL);
		bg_free(g);
		cap->bg = NULL;
	}
	if (cap->rd_open)
		cap_reader_close(&cap->rd);
	cap->rd_open = 0;
}
