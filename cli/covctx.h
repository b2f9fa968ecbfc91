/* cli/covctx.c - coverage of a perf.data traced with Context IDs, per
 * process: each range is counted in the coverage of the process its
 * Context ID names, classified from that process's memory (the capture's
 * table, etm_capture_ctx_images()), so the code of each mapped file is
 * counted only from what ran in the processes that map it
 * (doc/perfdata.md "The analyses"). */
#ifndef ETM_CLI_COVCTX_H
#define ETM_CLI_COVCTX_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/coverage.h>
#include <etmtrace/flow.h>

struct session;

struct covctx_proc {
	uint32_t pid;
	struct etm_cov *cov;
	const struct etm_image *img;
};

#define COVCTX_MAX_ID 128

struct covctx {
	etm_ctx_image_fn fn; /* NULL: no per-process coverage */
	void *arg;
	const struct session *s;
	struct covctx_proc *p; /* in order of first range */
	size_t n, cap;
	/* the process each source's last range was counted in (-1: none) */
	int cur[COVCTX_MAX_ID];
};

/* Set @c up for session @s: returns 1 if the capture switches images by
 * Context ID (then covctx_elems() routes), 0 if not. */
int covctx_open(struct covctx *c, const struct session *s);
/* Count @els: a range (and the run-ending elements after it) with a
 * Context ID in its process's coverage, the others in @dflt. Returns 0 or
 * a negative error. */
int covctx_elems(struct covctx *c, struct etm_cov *dflt,
		 const struct etm_elem *els, size_t n);
/* End every process's coverage (etm_cov_end()). */
int covctx_end(struct covctx *c);
/* Add every process's coverage to @dst (etm_cov_merge()). */
int covctx_merge(const struct covctx *c, struct etm_cov *dst);
void covctx_close(struct covctx *c);

#endif
