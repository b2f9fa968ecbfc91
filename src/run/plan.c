/* run/plan.c - the parallel runner's chunks: where the next one starts
 * and ends (a sync point, run/cut.h) and how long it should be. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "run/cut.h"
#include "run/runner.h"

/* First chunk start at or after @from (run/cut.h). Caller holds the
 * lock. */
static uint64_t find_start(struct prun *r, uint8_t *buf, uint64_t from)
{
	if (r->cut_align)
		return etm_cut_find_record(r->tmpl, r->cut_align, r->rd, r->rctx,
					   r->size, buf, from);
	return etm_cut_find_start(r->frames, r->rd, r->rctx, r->size, buf, from);
}

/* Length of the next chunk: its output should fill about 3/4 of a chunk's
 * queue limit (at the output rate measured so far), and the rest of the
 * input should still make 2 chunks per job (load balance at the end: the
 * last chunks shrink down to PAR_TAIL_CHUNK, or 8 times the farthest a
 * chunk took to converge so that they still converge in their head). */
static uint64_t chunk_len(const struct prun *r)
{
	uint64_t len = PAR_FIRST_CHUNK, rest = r->size - r->next_start;
	uint64_t share = rest / (2 * r->jobs), tail = 8 * r->conv_max;

	if (r->rate_out) {
		double l = (double)r->chunk_limit * 0.75 *
			   (double)r->rate_bytes / (double)r->rate_out;

		len = l > PAR_MAX_CHUNK ? PAR_MAX_CHUNK : (uint64_t)l;
	}
	if (tail < PAR_TAIL_CHUNK)
		tail = PAR_TAIL_CHUNK;
	if (len > share)
		len = share > tail ? share : tail;
	if (len < PAR_MIN_CHUNK)
		len = PAR_MIN_CHUNK;
	if (len > PAR_MAX_CHUNK)
		len = PAR_MAX_CHUNK;
	/* stagger the first chunks so that a chunk's head is decoded well
	 * before its predecessor gets there */
	if (r->nchunks < r->jobs)
		len = len * (r->nchunks + 1) / r->jobs;
	return len;
}

int etm_run_can_cut(struct prun *r)
{
	uint8_t *buf;
	uint64_t at;

	if (!r->cut_align)
		return 1;
	buf = malloc(ETM_CUT_SEARCH);
	if (!buf)
		return 0;
	at = find_start(r, buf, PAR_MIN_CHUNK);
	free(buf);
	return at < r->size;
}

void etm_run_converged(struct prun *r, uint64_t dist)
{
	r->nconv++;
	if (dist > r->conv_max)
		r->conv_max = dist;
}

/* Append the next chunk. Caller holds the lock. */
struct pchunk *etm_run_chunk_create(struct prun *r, uint8_t *buf)
{
	uint64_t len = chunk_len(r);
	struct pchunk *c = calloc(1, sizeof(*c));
	double t = etm_run_cpu();

	if (!c)
		return NULL;
	r->nchunks++;
	c->start = r->next_start;
	c->end = c->start + len >= r->size ? r->size :
					     find_start(r, buf, c->start + len);
	r->plan += etm_run_cpu() - t;
	c->head_end = c->start + etm_cut_head_len(c->end - c->start);
	r->next_start = c->end;
	if (r->tail)
		r->tail->next = c;
	else
		etm_run_set_head(r, c);
	r->tail = c;
	r->nlive++;
	return c;
}
