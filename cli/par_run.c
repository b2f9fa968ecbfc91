/* cli/par_run.c - the decode commands' trace file on worker threads
 * (par_run.h, covcmd.h): the file opened and handed to the library's
 * parallel run; errors printed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/profile.h>

#include "covcmd.h"
#include "dis.h"
#include "par_run.h"

/* Open the chosen buffer's trace file into @rg (from its offset: a
 * perf.data AUX piece), the trace's size in *@size.
 * Returns 0, 2 (message printed) or -1 (not a regular file). */
static int par_open(const struct session *s, struct etm_fd_range *rg, uint64_t *size)
{
	struct stat st;

	int *fd = &rg->fd;

	*fd = open(s->trace_path, O_RDONLY);
	if (*fd < 0) {
		fprintf(stderr, "etmtrace: %s: %s\n", s->trace_path,
			strerror(errno));
		return 2;
	}
	if (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    !session_range_size(s, (uint64_t)st.st_size)) {
		close(*fd);
		return -1;
	}
	rg->base = s->skip;
	*size = session_range_size(s, (uint64_t)st.st_size);
	return 0;
}

static struct etm_disasm_hook par_dis_open(void *ctx)
{
	(void)ctx;
	return cli_dis_open();
}

static void par_dis_close(void *ctx, struct etm_disasm_hook *h)
{
	(void)ctx;
	cli_dis_close(h);
}

int par_listing_run(struct session *s, struct decfmt *f,
		    const struct line_annot_opts *ann, struct run_totals *rf)
{
	struct etm_run_thread th[RUN_TOTALS_THREADS];
	struct etm_run_stats rs;
	struct listing_par p = {
		.f = f,
		.ann = ann,
		.src = session_osrc(s),
		.nsrc = s->nsrc,
		.dis_open = par_dis_open,
		.dis_close = par_dis_close,
	};
	uint64_t size;
	struct etm_fd_range rg;
	int ret = par_open(s, &rg, &size);

	if (ret)
		return ret;
	if (!p.src && s->nsrc) {
		close(rg.fd);
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	run_totals_prepare(&rs, th, RUN_TOTALS_THREADS);
	ret = listing_par_run(&p, s->dec, etm_fd_read, &rg, size,
			      (unsigned)s->jobs, &rs);
	if (rf && ret >= 0)
		run_totals_add(rf, &rs);
	s->input_bytes += size;
	close(rg.fd);
	if (ret < 0) {
		if (!f->w->err) /* else the output's error, reported later */
			fprintf(stderr, "etmtrace: %s: decoder: %s\n",
				s->trace_path, etm_errstr(ret));
		return 2;
	}
	return 0;
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
	int ret = par_open(s, &rg, &size);

	if (ret)
		return ret;
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

static int par_prof_run(void *acc, struct session *s, struct etm_fd_range *rg,
			uint64_t size, const struct etm_cov_run_side *side)
{
	return etm_profile_run(acc, s->dec, etm_fd_read, rg, size,
			       (unsigned)s->jobs, side);
}

int par_profile_run(struct session *s, struct etm_profile *p,
		    struct etm_diagset *dw, struct diagtally *t)
{
	return par_side_run(s, dw, t, par_prof_run, p);
}
