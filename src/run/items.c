/* run/items.c - etm_decoder_run(): a parallel decode whose pieces of
 * output are blocks of items, handed to the caller's callback in input
 * order on the calling thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "run/runner.h"

#define PAR_BLOCK 1024u /* items per block (etm_decoder_run) */

/* A stored item: only the valid half of struct etm_item. */
struct pitem {
	uint8_t kind; /* enum etm_item_kind */
	uint8_t proto;
	union {
		struct etm_packet pkt;
		struct etm_elem elem;
	} u;
};

struct iblock {
	struct iblock *next; /* free list */
	unsigned n;
	struct pitem it[PAR_BLOCK];
};

struct irun {
	etm_item_fn fn;
	void *ctx;
	pthread_mutex_t mu;
	struct iblock *freeb;
};

struct iwork {
	struct irun *ir;
	struct iblock *cur;
};

static void *items_open(void *ctx)
{
	struct iwork *iw = calloc(1, sizeof(*iw));

	if (iw)
		iw->ir = ctx;
	return iw;
}

static int items_item(void *cs, const struct etm_item *it)
{
	struct iwork *iw = cs;
	struct iblock *b = iw->cur;
	struct pitem *p;

	if (!b) {
		pthread_mutex_lock(&iw->ir->mu);
		b = iw->ir->freeb;
		if (b)
			iw->ir->freeb = b->next;
		pthread_mutex_unlock(&iw->ir->mu);
		if (!b && !(b = malloc(sizeof(*b))))
			return -etme_nomem;
		b->n = 0;
		iw->cur = b;
	}
	p = &b->it[b->n++];
	p->kind = (uint8_t)it->kind;
	p->proto = (uint8_t)it->proto;
	if (it->kind == etm_item_elem)
		p->u.elem = it->elem;
	else
		p->u.pkt = it->pkt;
	return b->n == PAR_BLOCK;
}

static int items_cut(void *cs, void **piece, size_t *bytes)
{
	struct iwork *iw = cs;

	*piece = iw->cur;
	*bytes = iw->cur ? sizeof(*iw->cur) : 0;
	iw->cur = NULL;
	return 0;
}

static void items_drop(void *ctx, void *piece)
{
	struct irun *ir = ctx;
	struct iblock *b = piece;

	pthread_mutex_lock(&ir->mu);
	b->next = ir->freeb;
	ir->freeb = b;
	pthread_mutex_unlock(&ir->mu);
}

static int items_emit(void *ctx, void *piece)
{
	struct irun *ir = ctx;
	struct iblock *b = piece;
	struct etm_item it;
	unsigned i;
	int ret = 0;

	memset(&it, 0, sizeof(it));
	for (i = 0; i < b->n && ret >= 0; i++) {
		const struct pitem *p = &b->it[i];

		it.kind = (enum etm_item_kind)p->kind;
		it.proto = (enum etm_protocol)p->proto;
		if (p->kind == etm_item_elem)
			it.elem = p->u.elem;
		else
			it.pkt = p->u.pkt;
		ret = ir->fn(ir->ctx, &it);
	}
	items_drop(ctx, piece);
	return ret < 0 ? ret : 0;
}

static void items_close(void *cs)
{
	struct iwork *iw = cs;

	if (iw->cur)
		items_drop(iw->ir, iw->cur);
	free(iw);
}

int etm_decoder_run(struct etm_decoder *d, etm_read_fn rd, void *rctx,
		    uint64_t size, unsigned jobs, etm_item_fn fn, void *ctx)
{
	static const struct etm_run_ops ops = {
		.open = items_open, .item = items_item, .cut = items_cut, .emit = items_emit, .drop = items_drop, .close = items_close
	};
	struct irun ir = { .fn = fn, .ctx = ctx };
	struct iblock *b;
	int ret;

	if (!d || !rd || !fn)
		return -etme_invalid;
	pthread_mutex_init(&ir.mu, NULL);
	ret = etm_run_decode(d, rd, rctx, size, jobs, &ops, &ir, fn, ctx, NULL);
	while ((b = ir.freeb)) {
		ir.freeb = b->next;
		free(b);
	}
	pthread_mutex_destroy(&ir.mu);
	return ret;
}
