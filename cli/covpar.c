/* cli/covpar.c - `etmtrace coverage --jobs N`: each decoding worker
 * accumulates its stretch of the trace into a coverage part
 * (etm_cov_set_part()) with the diagnostics and counts of the verdict (a
 * diagnostics segment, probe/diagset.h); the parts are joined in input
 * order (etm_cov_append(), diagset_append()), so the result equals a
 * single-threaded run. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "covcmd.h"
#include "session.h"

struct cp_run {
	struct session *s;
	struct covpar_acc *total;
	int fd;
};

/* A worker's part: the coverage, the diagnostics segment, the counts. */
struct cp_part {
	struct etm_cov *cov;
	struct diagset *dg;
	struct diagtally t;
};

struct cp_state {
	struct cp_run *r;
	struct cp_part *part;
};

static void cp_part_free(struct cp_part *p)
{
	if (p) {
		etm_cov_free(p->cov);
		diagset_close(p->dg);
		free(p);
	}
}

static struct cp_part *cp_part(const struct cp_run *r)
{
	struct cp_part *p = calloc(1, sizeof(*p));
	int i;

	if (p) {
		p->cov = etm_cov_alloc();
		p->dg = diagset_open_segment(session_osrc(r->s), r->s->nsrc);
	}
	if (!p || !p->cov || !p->dg || etm_cov_set_part(p->cov) < 0) {
		cp_part_free(p);
		return NULL;
	}
	for (i = 0; i < r->s->nsrc; i++)
		etm_cov_set_source(p->cov, r->s->src[i].id, r->s->src[i].cfg.protocol,
				   r->s->src[i].img);
	return p;
}

static void *cp_open(void *ctx)
{
	struct cp_state *st = calloc(1, sizeof(*st));

	if (st) {
		st->r = ctx;
		st->part = cp_part(ctx);
	}
	if (st && !st->part) {
		free(st);
		st = NULL;
	}
	return st;
}

static int cp_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct cp_part *p = ((struct cp_state *)state)->part;

	diagtally_elems(&p->t, p->dg, els, n);
	return etm_cov_add_elems(p->cov, els, n) < 0 ? -1 : 0;
}

static int cp_item(void *state, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? cp_elems(state, &it->elem, 1) : 0;
}

static int cp_cut(void *state, void **piece, size_t *bytes)
{
	struct cp_state *st = state;
	struct etm_cov_totals t;

	etm_cov_totals(st->part->cov, &t);
	*bytes = (size_t)(t.pages * 20000 + (t.ranges + t.branches) * 48);
	*piece = st->part;
	st->part = cp_part(st->r);
	return st->part ? 0 : -1;
}

static int cp_emit(void *ctx, void *piece)
{
	struct cp_run *r = ctx;
	struct cp_part *p = piece;
	int err = etm_cov_append(r->total->cov, p->cov);

	diagset_append(r->total->dw, p->dg);
	diagtally_add(&r->total->t, &p->t);
	cp_part_free(p);
	return err < 0 ? -1 : 0;
}

static void cp_drop(void *ctx, void *piece)
{
	(void)ctx;
	cp_part_free(piece);
}

static void cp_close(void *state)
{
	struct cp_state *st = state;

	cp_part_free(st->part);
	free(st);
}

int covpar_run(struct session *s, struct covpar_acc *total)
{
	static const struct etm_run_ops ops = {
		.open = cp_open,
		.item = cp_item,
		.cut = cp_cut,
		.emit = cp_emit,
		.drop = cp_drop,
		.close = cp_close,
		.elems = cp_elems,
	};
	struct cp_run r = { .s = s, .total = total };
	struct stat st;
	int ret;

	r.fd = open(s->trace_path, O_RDONLY);
	if (r.fd < 0) {
		fprintf(stderr, "etmtrace: %s: %s\n", s->trace_path, strerror(errno));
		return 2;
	}
	if (fstat(r.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(r.fd);
		return -1;
	}
	ret = etm_decoder_run_ops(s->dec, session_fd_read, &r.fd, (uint64_t)st.st_size,
				  (unsigned)s->jobs, &ops, &r);
	s->input_bytes = (uint64_t)st.st_size;
	close(r.fd);
	if (ret < 0) {
		fprintf(stderr, "etmtrace: %s: decoder: %s\n", s->trace_path,
			etm_errstr(ret));
		return 2;
	}
	return 0;
}
