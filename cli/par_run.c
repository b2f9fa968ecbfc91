/* cli/par_run.c - the decode commands' trace file on worker threads
 * (par_run.h, covcmd.h): the library's file range handed to its parallel
 * runs. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <etmtrace/profile.h>

#include "covcmd.h"
#include "par_run.h"

int par_listing_run(struct session *s, struct etm_listing *l)
{
	uint64_t size;
	struct etm_fd_range rg;
	int ret = session_range(s, &rg, &size);

	if (ret)
		return 1;
	ret = etm_listing_run(l, s->dec, etm_fd_read, &rg, size,
			      (unsigned)s->jobs);
	s->input_bytes += size;
	close(rg.fd);
	return ret < 0 ? ret : 0;
}

/* etm_cov_run()'s side consumer: a part's diagnostics segment and the
 * counts of the verdict. */
struct par_cov_part {
	struct etm_diagset *dg;
	struct diagtally t;
};

struct par_cov {
	struct session *s;
	struct etm_diagset *dw; /* the whole's */
	struct diagtally *t;
};

static void par_cov_free(void *ctx, void *part)
{
	struct par_cov_part *p = part;

	(void)ctx;
	etm_diagset_free(p->dg);
	free(p);
}

static void *par_cov_open(void *ctx)
{
	struct par_cov *c = ctx;
	struct par_cov_part *p = calloc(1, sizeof(*p));

	if (p)
		p->dg = etm_diagset_alloc_segment(session_osrc(c->s), c->s->nsrc);
	if (p && !p->dg) {
		free(p);
		p = NULL;
	}
	return p;
}

static int par_cov_elems(void *part, const struct etm_elem *els, size_t n)
{
	struct par_cov_part *p = part;

	diagtally_elems(&p->t, p->dg, els, n);
	return 0;
}

static int par_cov_append(void *ctx, void *part)
{
	struct par_cov *c = ctx;
	struct par_cov_part *p = part;

	etm_diagset_append(c->dw, p->dg);
	diagtally_add(c->t, &p->t);
	return 0;
}

/* The session's trace file through @run (etm_cov_run() or
 * etm_profile_run() on @acc) with the diagnostics side consumer. */
typedef int (*par_side_fn)(void *acc, struct session *s, struct etm_fd_range *rg,
			   uint64_t size, const struct etm_cov_run_side *side);

static int par_side_run(struct session *s, struct etm_diagset *dw,
			struct diagtally *t, par_side_fn run, void *acc)
{
	struct par_cov c = { s, dw, t };
	const struct etm_cov_run_side side = {
		.open = par_cov_open,
		.elems = par_cov_elems,
		.append = par_cov_append,
		.free = par_cov_free,
		.ctx = &c,
	};
	uint64_t size;
	struct etm_fd_range rg;
	int ret = session_range(s, &rg, &size);

	if (ret)
		return -1;
	ret = run(acc, s, &rg, size, &side);
	s->input_bytes = size;
	close(rg.fd);
	if (ret < 0) {
		fprintf(stderr, "etmtrace: %s: decoder: %s\n", s->trace_path,
			etm_errstr(ret));
		return 2;
	}
	return 0;
}

static int par_cov_run(void *acc, struct session *s, struct etm_fd_range *rg,
		       uint64_t size, const struct etm_cov_run_side *side)
{
	return etm_cov_run(acc, s->dec, etm_fd_read, rg, size,
			   (unsigned)s->jobs, side);
}

int par_coverage_run(struct session *s, struct cov_acc *a)
{
	return par_side_run(s, a->dw, &a->t, par_cov_run, a->cov);
}

/* The profile of a parallel run and where its figures go (may be NULL). */
struct par_prof {
	struct etm_profile *p;
	struct etm_run_stats *st;
};

static int par_prof_run(void *acc, struct session *s, struct etm_fd_range *rg,
			uint64_t size, const struct etm_cov_run_side *side)
{
	struct par_prof *pp = acc;

	return etm_profile_run_stats(pp->p, s->dec, etm_fd_read, rg, size,
				     (unsigned)s->jobs, side, pp->st);
}

int par_profile_run(struct session *s, struct etm_profile *p,
		    struct etm_diagset *dw, struct diagtally *t,
		    struct etm_run_stats *st)
{
	struct par_prof pp = { p, st };

	return par_side_run(s, dw, t, par_prof_run, &pp);
}
