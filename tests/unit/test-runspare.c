/* tests/unit/test-runspare.c - a worker's spare raw buffers (run/defer.c):
 * raw element buffers consumed are kept for the worker's next raw pieces
 * instead of freed (a new one's pages are faulted in again). Checked by
 * hand: the largest spare is taken first, with its own capacity; a worker
 * keeps at most PAR_RAW_SPARE of them and PAR_RAW_HEAD bytes; and a piece
 * flushed into a reused buffer holds exactly the elements added since the
 * last flush, never one of the buffer's old ones. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "run/runner.h"
#include "etest.h"

static struct etm_elem *buf(size_t cap)
{
	return calloc(cap, sizeof(struct etm_elem));
}

/* Three spares of 10, 30 and 20 elements: taken largest first, each with
 * its capacity; then a new buffer of the asked capacity. */
static void t_take_order(void)
{
	struct pwork w;
	struct etm_elem *a = buf(10), *b = buf(30), *c = buf(20), *x;
	size_t cap = 5;

	memset(&w, 0, sizeof(w));
	etm_run_spare_put(&w, a, 10);
	etm_run_spare_put(&w, b, 30);
	etm_run_spare_put(&w, c, 20);
	etm_run_spare_put(&w, NULL, 99); /* nothing kept */
	ET_EQ(w.nspare, 3);
	ET_EQ(w.spare_elems, 60);
	x = etm_run_spare_take(&w, &cap);
	ET_CHECK(x == b);
	ET_EQ(cap, 30);
	cap = 5;
	x = etm_run_spare_take(&w, &cap);
	ET_CHECK(x == c);
	ET_EQ(cap, 20);
	x = etm_run_spare_take(&w, &cap);
	ET_CHECK(x == a);
	ET_EQ(cap, 10);
	ET_EQ(w.nspare, 0);
	ET_EQ(w.spare_elems, 0);
	cap = 7;
	x = etm_run_spare_take(&w, &cap); /* none left: a new one */
	ET_CHECK(x != NULL && x != a && x != b && x != c);
	ET_EQ(cap, 7);
	free(a);
	free(b);
	free(c);
	free(x);
}

/* Bounds: PAR_RAW_SPARE buffers of one element are kept, the next is
 * freed; a buffer of more than PAR_RAW_HEAD bytes is never kept, one of
 * exactly PAR_RAW_HEAD bytes only while nothing else is. */
static void t_bounds(void)
{
	const size_t all = PAR_RAW_HEAD / sizeof(struct etm_elem);
	struct pwork w;
	unsigned i;

	memset(&w, 0, sizeof(w));
	for (i = 0; i < PAR_RAW_SPARE + 1; i++)
		etm_run_spare_put(&w, buf(1), 1);
	ET_EQ(w.nspare, PAR_RAW_SPARE);
	ET_EQ(w.spare_elems, PAR_RAW_SPARE);
	etm_run_defer_free(&w);
	ET_EQ(w.nspare, 0);
	ET_EQ(w.spare_elems, 0);
	etm_run_spare_put(&w, malloc((all + 1) * sizeof(struct etm_elem)),
			  all + 1);
	ET_EQ(w.nspare, 0);
	etm_run_spare_put(&w, buf(1), 1);
	etm_run_spare_put(&w, malloc(all * sizeof(struct etm_elem)), all);
	ET_EQ(w.nspare, 1); /* 1 + all elements would pass the bound */
	etm_run_defer_free(&w);
	etm_run_spare_put(&w, malloc(all * sizeof(struct etm_elem)), all);
	ET_EQ(w.nspare, 1);
	ET_EQ(w.spare_elems, all);
	etm_run_defer_free(&w);
}

/* Elements numbered by their ninsn. */
static void number(struct etm_elem *e, size_t n, uint32_t first)
{
	size_t i;

	memset(e, 0, n * sizeof(*e));
	for (i = 0; i < n; i++)
		e[i].ninsn = first + (uint32_t)i;
}

/* A worker's raw pieces with a spare buffer full of old elements
 * (ninsn 1000...): pieces of 3 elements (1, 2, 3), then 2 (4, 5) after
 * a reuse hold exactly those, in order; the buffer of the first piece,
 * consumed and put back, is taken for the third, which holds 6 only. */
static void t_flush_reuse(void)
{
	struct prun r;
	struct pchunk c;
	struct pwork w;
	struct etm_elem e[8], *old = buf(64), *first;
	struct ppiece *p;

	memset(&r, 0, sizeof(r));
	memset(&c, 0, sizeof(c));
	memset(&w, 0, sizeof(w));
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	pthread_cond_init(&r.cv_caller, NULL);
	w.r = &r;
	w.out = &c;
	number(old, 64, 1000);
	etm_run_spare_put(&w, old, 64);
	number(e, 6, 1);
	ET_EQ(etm_run_defer_add(&w, e, 3), 0);
	ET_EQ(etm_run_defer_flush(&w), 0);
	ET_CHECK(w.raw == old); /* the spare, for the next piece */
	ET_EQ(w.rawcap, 64);
	ET_EQ(w.nraw, 0);
	ET_EQ(etm_run_defer_add(&w, e + 3, 2), 0);
	ET_EQ(etm_run_defer_flush(&w), 0);
	p = c.qh;
	ET_CHECK(p && p->next && !p->next->next);
	if (!p || !p->next)
		return;
	ET_EQ(p->nraw, 3);
	ET_EQ(p->raw[0].ninsn, 1);
	ET_EQ(p->raw[2].ninsn, 3);
	ET_EQ(p->next->nraw, 2);
	ET_CHECK(p->next->raw == old);
	ET_EQ(p->next->raw[0].ninsn, 4);
	ET_EQ(p->next->raw[1].ninsn, 5);
	/* the first piece consumed: its buffer back as the only spare */
	first = p->raw;
	etm_run_spare_put(&w, first, p->rawcap);
	p->raw = NULL;
	free(w.raw);
	w.raw = NULL;
	w.rawcap = 0;
	ET_EQ(etm_run_defer_add(&w, e + 5, 1), 0);
	ET_CHECK(w.raw != first); /* no buffer: a new one */
	ET_EQ(etm_run_defer_flush(&w), 0);
	ET_CHECK(w.raw == first);
	ET_EQ(w.nraw, 0);
	ET_CHECK(c.qt && c.qt->nraw == 1 && c.qt->raw[0].ninsn == 6);
	etm_run_list_free(&r, c.qh);
	free(w.raw);
	etm_run_defer_free(&w);
	pthread_cond_destroy(&r.cv);
	pthread_cond_destroy(&r.cv_caller);
	pthread_mutex_destroy(&r.mu);
}

int main(void)
{
	etest_run("take_order", t_take_order);
	etest_run("bounds", t_bounds);
	etest_run("flush_reuse", t_flush_reuse);
	return etest_end();
}
