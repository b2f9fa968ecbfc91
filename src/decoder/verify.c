/* decoder/verify.c - verified output (etmtrace/verify.h): a bounded queue of
 * decoder items; each source's items stay held until a periodic I-sync of
 * that source passes the flow decoder's check, or are released behind an
 * etme_unverified error element when an error or gap of the source comes
 * first. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/verify.h>

#define VSRC 128

struct vitem {
	struct etm_item it;
	uint8_t src;  /* trace ID (0: deformatter, never held) */
	uint8_t held; /* waiting for its source's next check */
	uint8_t mark; /* an etme_unverified element goes before it */
};

/* Per trace ID. Held items are tracked by the absolute queue positions of
 * the first held one and how many there are. */
struct vsrc {
	uint64_t first; /* position of the first held item */
	uint64_t nheld;
	uint64_t pend_off; /* periodic I-sync whose check is pending */
	int pend;
};

/* First size of the queue, doubled as it fills up to the capacity. */
#define VQ_MIN 256

struct etm_verify {
	struct vitem *q;
	size_t n; /* items q has room for (at most cap) */
	size_t cap;
	uint64_t head, tail; /* absolute positions: q[pos % n] */
	int finished;
	struct vsrc s[VSRC];
	struct etm_verify_stats st;
};

struct etm_verify *etm_verify_alloc(size_t max_items)
{
	struct etm_verify *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	if (max_items == 0)
		max_items = ETM_VERIFY_DEFAULT_HOLD;
	if (max_items > ETM_VERIFY_MAX_HOLD)
		max_items = ETM_VERIFY_MAX_HOLD;
	v->cap = max_items;
	v->n = max_items < VQ_MIN ? max_items : VQ_MIN;
	v->q = malloc(v->n * sizeof(*v->q));
	if (!v->q) {
		free(v);
		return NULL;
	}
	return v;
}

void etm_verify_free(struct etm_verify *v)
{
	if (!v)
		return;
	free(v->q);
	free(v);
}

static struct vitem *at(struct etm_verify *v, uint64_t pos)
{
	return &v->q[pos % v->n];
}

/* Double the queue (up to the capacity): every item moves to its position
 * modulo the new size. Returns 0, or -1 at the capacity or without memory
 * (the queue is then full). */
static int grow(struct etm_verify *v)
{
	size_t n = v->n * 2 < v->cap ? v->n * 2 : v->cap;
	struct vitem *q;
	uint64_t pos;

	if (n == v->n || !(q = malloc(n * sizeof(*q))))
		return -1;
	for (pos = v->head; pos < v->tail; pos++)
		q[pos % n] = v->q[pos % v->n];
	free(v->q);
	v->q = q;
	v->n = n;
	return 0;
}

static uint64_t item_off(const struct etm_item *it)
{
	return it->kind == etm_item_elem ? it->elem.offset : it->pkt.offset;
}

static unsigned item_src(const struct etm_item *it)
{
	return (it->kind == etm_item_elem ? it->elem.id : it->pkt.id) & (VSRC - 1);
}

/* Release the held items of source @k; @how: 0 confirmed, 1 rejected (an
 * etme_unverified element goes first), 2 unconfirmed. */
static void release(struct etm_verify *v, unsigned k, int how)
{
	struct vsrc *s = &v->s[k];
	uint64_t pos, left = s->nheld;

	s->pend = 0;
	if (!left)
		return;
	if (how == 1) {
		at(v, s->first)->mark = 1;
		v->st.markers++;
	}
	for (pos = s->first; left && pos < v->tail; pos++) {
		struct vitem *x = at(v, pos);

		if (x->src != k || !x->held)
			continue;
		x->held = 0;
		left--;
	}
	if (how == 0)
		v->st.confirmed += s->nheld;
	else if (how == 1)
		v->st.rejected += s->nheld;
	else
		v->st.unconfirmed += s->nheld;
	s->nheld = 0;
}

int etm_verify_put(struct etm_verify *v, const struct etm_item *it)
{
	struct vitem *x;
	struct vsrc *s;
	unsigned k;
	int held = 1;

	if (!v || !it || v->finished)
		return -etme_invalid;
	if (v->tail - v->head == v->n && grow(v) < 0) {
		/* full: the oldest source waiting goes out unconfirmed */
		x = at(v, v->head);
		if (x->held)
			release(v, x->src, 2);
		return -etme_busy;
	}
	k = item_src(it);
	s = &v->s[k];
	if (k == 0) {
		held = 0;
	} else if (it->kind == etm_item_elem && (it->elem.kind == etmk_error ||
						 it->elem.kind == etmk_nosync)) {
		/* (not nomem: an address outside the program image says
		 * nothing about the trace; the walk just stops there) */
		/* the held items came from trace a check has now rejected */
		release(v, k, 1);
		held = 0;
	} else {
		if (s->pend && item_off(it) > s->pend_off)
			release(v, k, 0); /* the I-sync passed its check */
		if (it->kind != etm_item_elem && it->pkt.type == etmp_isync) {
			if (it->pkt.reason == etm_isync_periodic) {
				s->pend = s->nheld != 0;
				s->pend_off = it->pkt.offset;
			} else {
				/* a restart (trace on, overflow, debug exit)
				 * checks nothing: what came before goes out
				 * unconfirmed (holding it on to the next
				 * check was measured to report fewer
				 * divergences first, not more) */
				release(v, k, 2);
			}
		}
	}
	x = at(v, v->tail);
	x->it = *it;
	x->src = (uint8_t)k;
	x->held = (uint8_t)held;
	x->mark = 0;
	if (held && s->nheld++ == 0)
		s->first = v->tail;
	v->tail++;
	return 0;
}

int etm_verify_finish(struct etm_verify *v)
{
	unsigned k;

	if (!v)
		return -etme_invalid;
	for (k = 0; k < VSRC; k++)
		release(v, k, 2);
	v->finished = 1;
	return 0;
}

int etm_verify_next(struct etm_verify *v, struct etm_item *it)
{
	struct vitem *x;

	if (!v || !it)
		return -etme_invalid;
	if (v->head == v->tail || at(v, v->head)->held)
		return v->finished && v->head == v->tail ? -etme_eos : -etme_again;
	x = at(v, v->head);
	if (x->mark) {
		x->mark = 0;
		memset(it, 0, sizeof(*it));
		it->kind = etm_item_elem;
		it->proto = x->it.proto;
		it->elem.kind = etmk_error;
		it->elem.id = x->src;
		it->elem.offset = item_off(&x->it);
		it->elem.err = etme_unverified;
		return 0;
	}
	*it = x->it;
	v->head++;
	return 0;
}

void etm_verify_stats(const struct etm_verify *v, struct etm_verify_stats *st)
{
	if (v && st)
		*st = v->st;
}
