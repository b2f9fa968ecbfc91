/* cov/cov_part.c - coverage of consecutive parts of one trace accumulated
 * separately (e.g. on the workers of a parallel decode) and joined in
 * order: the straight-line run open at the end of one part goes on into the
 * run the next part began with. */
#include <etmtrace/error.h>

#include "cov/cov_int.h"

int etm_cov_set_part(struct etm_cov *c)
{
	unsigned id;

	if (!c || c->npages || c->ranges.n || c->branches.n)
		return -etme_invalid;
	c->part = 1;
	for (id = 0; id < COV_MAX_ID; id++)
		c->src[id].fast = 0; /* until the source's head is known */
	return 0;
}

/* @d's run meets @p's first range at @start: the taken branch into it,
 * the end of @d's run unless @start continues it; returns the joined
 * run's start. */
static int cov_join_range(struct etm_cov *dst, struct cov_src *d,
			  uint64_t start, uint64_t *run_start)
{
	int err = 0;

	if (d->open && (d->taken || start != d->next)) {
		if (d->taken)
			err = cov_map_add(&dst->branches, d->last, start, 1);
		if (!err)
			err = cov_close_run(dst, d);
	}
	*run_start = d->open ? d->run_start : start;
	return err;
}

/* Source @d of @dst followed by source @p of a part. */
static int cov_append_src(struct etm_cov *dst, struct cov_src *d,
			  const struct cov_src *p)
{
	uint64_t start;
	int err = 0;

	if (p->head == COV_HEAD_RANGE) {
		err = cov_join_range(dst, d, p->head_start, &start);
		if (!err && !p->head_open)
			err = cov_map_add(&dst->ranges, start, p->head_last, 1);
		if (err)
			return err;
		d->open = p->open;
		d->run_start = p->head_open ? start : p->run_start;
	} else {
		if (p->head == COV_HEAD_EXC && d->open && d->taken &&
		    p->head_has_ret)
			err = cov_map_add(&dst->branches, d->last, p->head_ret, 1);
		if (!err)
			err = cov_close_run(dst, d);
		if (err)
			return err;
		d->open = p->open;
		d->run_start = p->run_start;
	}
	d->taken = p->taken;
	d->last = p->last;
	d->next = p->next;
	return 0;
}

int etm_cov_append(struct etm_cov *dst, const struct etm_cov *part)
{
	unsigned id;
	int err;

	if (!dst || !part || dst == part || dst->part || !part->part)
		return -etme_invalid;
	for (id = 0; id < COV_MAX_ID; id++) {
		if (!part->src[id].head)
			continue;
		err = cov_append_src(dst, &dst->src[id], &part->src[id]);
		if (err)
			return err;
	}
	return etm_cov_merge(dst, part);
}
