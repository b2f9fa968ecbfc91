/* profile/prof_seg.h - call stacks kept on the workers of a parallel
 * profile (prof_part.c): a worker runs the stack of each source over its
 * part's ops from an unknown start, as a calling-context tree of its own
 * rooted at the running function, and summarises each stretch
 * (a *segment*) that needs no frame below that start; the apply splices
 * a segment's tree and open frames onto the running stack in one step
 * instead of applying its ops one by one (doc/profile.md, "Parallel
 * runs"). */
#ifndef ETM_PROFILE_PROF_SEG_H
#define ETM_PROFILE_PROF_SEG_H

#include <stddef.h>
#include <stdint.h>

#include "profile/prof_int.h"

/* A node of a segment's tree. Local index 0 is the context the running
 * function runs under at the segment's start, 1 that function (the
 * root), 2.. the contexts entered after calls, in the order they were
 * first entered; @parent is a local index. */
struct pseg_node {
	uint32_t parent, func;
	uint32_t ncalls; /* entries after a call */
	uint64_t self, cyc;
	uint64_t call_addr; /* site of the first entry after a call */
	uint32_t map;       /* the apply's node of it */
};

/* A frame pushed in the segment and still open at its end. */
struct pseg_frame {
	uint64_t ret_addr;
	uint32_t parent, ret; /* local indices */
};

/* A segment: ops [op0, op1) of one source, the first flagged
 * PROF_OP_SEG; its nodes and open frames in the part's arrays. */
struct pseg {
	uint32_t op0, op1, node0, nnode, fr0, nfr;
	uint32_t cur, par; /* local; cur PROF_NONE: a call is pending */
	uint32_t maxdepth; /* most frames of its own on the stack */
	uint32_t maxnd;    /* deepest node below the root */
	uint8_t id, pend;  /* source, the pending state at its end */
	uint8_t mixed;     /* ops of other sources between its ops */
	uint64_t insns, calls, returns, unwound, call_addr;
	uint64_t start; /* op @op0's first instruction (the apply reads no op
			 * of a segment it splices) */
};

/* The segments of a part. */
struct pseg_out {
	struct pseg *seg;
	size_t nseg, capseg;
	struct pseg_node *node;
	size_t nnode, capnode;
	struct pseg_frame *fr;
	size_t nfr, capfr;
};

struct pseg_builder;
struct pseg_builder *pseg_builder_new(void);
void pseg_builder_free(struct pseg_builder *b);
/* The segments of ops @op[0..@n) (a part's, in input order) into @o,
 * sorted by op0, each first op flagged PROF_OP_SEG. Returns 0 or
 * -etme_nomem (then no op is flagged). */
int pseg_build(struct pseg_builder *b, struct prof_op *op, size_t n,
	       struct pseg_out *o);
/* Segment @g of @o into @p (no timeline, no call trace) where op @g->op0
 * (starting at @start) is next: its pending return resolved on the stack, then, if the
 * stack's state is one the segment can be spliced onto, the splice.
 * Returns 1 when applied (ops op0..op1-1 of its source are done), 0 when
 * not (the pending return may have been resolved: apply the ops), <0 on
 * an error. */
int pseg_apply(struct etm_profile *p, struct pseg_out *o,
	       const struct pseg *g, uint64_t start);
void pseg_out_free(struct pseg_out *o);
size_t pseg_out_bytes(const struct pseg_out *o);

#endif
