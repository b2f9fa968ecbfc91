/* tests/unit/test-profile_splice.c - the worker-side call stacks of a
 * parallel profile (profile/prof_seg.h): a part's ops run on a stack of
 * their own from an unknown start, and the apply splices each segment
 * onto the running stack. Each case applies a first part op by op (the
 * stack at the cut), builds the second part's segments as a worker does
 * and applies them; the calling-context tree (folded, in node creation
 * order) and the counters are written out by hand, and equal those of
 * the same ops applied one by one.
 *
 * Functions: main 0x1000, f 0x1100, g 0x1200, irq 0x2000 (0x100 each).
 * The ops carry what a worker found (function, call, return); a call's
 * frame returns to its last instruction + 4. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/profile.h>
#include <etmtrace/symbols.h>

#include "etest.h"
#include "profile/prof_int.h"
#include "profile/prof_seg.h"

#define CALL PROF_OP_CALL
#define RET PROF_OP_RET

static struct etm_symbols *syms(void)
{
	struct etm_symbols *sy = etm_symbols_alloc();

	if (!sy || etm_symbols_add(sy, 0x1000, 0x100, "main") < 0 ||
	    etm_symbols_add(sy, 0x1100, 0x100, "f") < 0 ||
	    etm_symbols_add(sy, 0x1200, 0x100, "g") < 0 ||
	    etm_symbols_add(sy, 0x2000, 0x100, "irq") < 0)
		return NULL;
	return sy;
}

/* A range of @n A32 instructions from @start, whole in its function. */
static struct prof_op op(const struct etm_symbols *sy, uint64_t start,
			 uint32_t n, uint8_t flags)
{
	struct prof_op o;

	memset(&o, 0, sizeof(o));
	o.start = start;
	o.last = start + 4 * (n - 1);
	o.ninsn = n;
	o.f = (uint32_t)etm_symbols_find(sy, start);
	o.id = 0x10;
	o.flags = flags;
	o.size = 4;
	return o;
}

static struct prof_op raw_op(void)
{
	struct prof_op o;

	memset(&o, 0, sizeof(o));
	o.id = 0x10;
	o.flags = PROF_OP_RAW;
	o.f = PROF_NONE;
	return o;
}

/* Ops @ops[0..n) into @p as the apply does; with @splice the segments of
 * the ops from @cut on (the second part) are built and spliced. Raw ops
 * take the elements of @raw in turn. Returns the segments spliced, or
 * -1 on an error or when a segment's first op or start is not the op
 * flagged PROF_OP_SEG's. */
static int apply(struct etm_profile *p, struct prof_op *ops, size_t n,
		 size_t cut, const struct etm_elem *raw, int splice)
{
	struct pseg_builder *b = pseg_builder_new();
	struct pseg_out o;
	size_t i, seg = 0, nraw = 0;
	int spliced = 0, r = 0;

	memset(&o, 0, sizeof(o));
	if (!b || (splice && pseg_build(b, ops + cut, n - cut, &o) < 0))
		r = -1;
	for (i = 0; i < n && r >= 0; i++) {
		struct prof_op *x = &ops[i];

		if (i >= cut && (x->flags & PROF_OP_SEG)) {
			const struct pseg *g = &o.seg[seg++];

			/* the apply takes the segment's start from the
			 * segment, not from its first op (prof_part.c) */
			if (g->op0 + cut != i || g->start != x->start) {
				r = -1;
				break;
			}
			r = pseg_apply(p, &o, g, g->start);
			if (r > 0) {
				spliced++;
				i = cut + g->op1 - 1;
				continue;
			}
		}
		if (r >= 0)
			r = x->flags & PROF_OP_RAW ? etm_profile_elems(p, &raw[nraw++], 1) :
						     prof_range_op(p, x, NULL);
	}
	pseg_out_free(&o);
	pseg_builder_free(b);
	return r < 0 ? -1 : spliced;
}

/* The folded and flat reports (calls per function), counters and
 * segments spliced of @ops applied with the splice or without it. */
struct run {
	struct etest_sink folded, flat;
	struct etm_prof_stats st;
	int spliced;
};

static int run(const struct etm_symbols *sy, const struct prof_op *ops,
	       size_t n, size_t cut, const struct etm_elem *raw, int splice,
	       struct run *r)
{
	struct etm_profile *p = etm_profile_alloc(sy);
	struct prof_op *copy = malloc(n * sizeof(*copy));
	int e = -1;

	memset(r, 0, sizeof(*r));
	if (p && copy && etm_profile_add_source(p, 0x10, NULL, 0) == 0) {
		memcpy(copy, ops, n * sizeof(*copy));
		r->spliced = apply(p, copy, n, cut, raw, splice);
		if (r->spliced >= 0 && etm_profile_finish(p) == 0 &&
		    etm_profile_write(p, etm_prof_folded, NULL, etest_sink_write,
				      &r->folded) == 0 &&
		    etm_profile_write(p, etm_prof_flat, NULL, etest_sink_write,
				      &r->flat) == 0)
			e = 0;
		etm_profile_stats(p, &r->st);
	}
	free(copy);
	etm_profile_free(p);
	return e;
}

static int same(const struct run *a, const struct run *b, const char *want)
{
	if (strcmp(b->folded.buf, want))
		fprintf(stderr, "folded:\n%s-- want:\n%s", b->folded.buf, want);
	return !strcmp(b->folded.buf, want) && !strcmp(a->folded.buf, b->folded.buf) &&
	       !strcmp(a->flat.buf, b->flat.buf) &&
	       !memcmp(&a->st, &b->st, sizeof(a->st));
}

/* What a splice run must give besides its folded report. */
struct want {
	int spliced;
	uint64_t insns, calls, returns, exceptions;
};

/* @ops cut at @cut (@raw: the element of a raw op) applied without the
 * splice and with it give the same reports and counters, the folded
 * report @folded, and with the splice the figures @w (no reset, unwind
 * or truncation). */
static void check_both(const struct etm_symbols *sy, const struct prof_op *ops, size_t n,
		       size_t cut, const struct etm_elem *raw, const char *folded,
		       const struct want *w)
{
	struct run r[2];

	ET_EQ(run(sy, ops, n, cut, raw, 0, &r[0]), 0);
	ET_EQ(run(sy, ops, n, cut, raw, 1, &r[1]), 0);
	ET_CHECK(same(&r[0], &r[1], folded));
	ET_EQ(r[1].spliced, w->spliced);
	ET_EQ(r[1].st.insns, w->insns);
	ET_EQ(r[1].st.calls, w->calls);
	ET_EQ(r[1].st.returns, w->returns);
	ET_EQ(r[1].st.exceptions, w->exceptions);
	ET_EQ(r[1].st.resets + r[1].st.unwound + r[1].st.truncated, 0);
}

/* First part: main calls f (BL 0x1004, back at 0x1008), f calls g (BL
 * 0x1108, back at 0x110c), g runs. The second part (ops 3-8) starts in g
 * with both frames below it: g calls f (BL 0x1208, back at 0x120c: f
 * within g within f), f returns to 0x120c (a frame of the part's own), g
 * returns to 0x110c (below the part's start: the segment ends), f returns
 * to 0x1008 (below again), main calls g (BL 0x100c, back at 0x1010) and g
 * runs. Segments spliced: ops 3-5 and ops 7-8 (which leave g's frame
 * open); op 6 alone is applied as an op. Tree (self, in creation order):
 * main 2+2, main;f 3+1, main;f;g 1+2+1, main;f;g;f 4, main;g 3; 4 calls,
 * 3 returns, 19 instructions. */
static void returns_below_start(void)
{
	struct etm_symbols *sy = syms();
	struct prof_op ops[9];

	ET_CHECK(sy != NULL);
	ops[0] = op(sy, 0x1000, 2, CALL);
	ops[1] = op(sy, 0x1100, 3, CALL);
	ops[2] = op(sy, 0x1200, 1, 0);
	ops[3] = op(sy, 0x1204, 2, CALL);
	ops[4] = op(sy, 0x1100, 4, RET);
	ops[5] = op(sy, 0x120c, 1, RET);
	ops[6] = op(sy, 0x110c, 1, RET);
	ops[7] = op(sy, 0x1008, 2, CALL);
	ops[8] = op(sy, 0x1200, 3, 0);
	check_both(sy, ops, 9, 3, NULL, "main 4\nmain;f 4\nmain;f;g 4\nmain;f;g;f 4\nmain;g 3\n",
		   &(struct want){ .spliced = 2, .insns = 19, .calls = 4, .returns = 3 });
	etm_symbols_free(sy);
}

/* First part: main calls f (BL 0x1004, back at 0x1008), f calls itself
 * twice (BL 0x1108, back at 0x110c). The second part starts with that
 * call pending (its callee is entered by the splice): f calls itself a
 * third time, the innermost f returns (to a frame of the part's own), and
 * three returns to 0x110c and one to 0x1008 go below the part's start.
 * Segment spliced: ops 3-5. Tree (self): main 2+1, main;f 3+1,
 * main;f;f 3+1, main;f;f;f 3+1, main;f;f;f;f 4; 4 calls, 4 returns, 19
 * instructions. */
static void recursion_across_cut(void)
{
	struct etm_symbols *sy = syms();
	struct prof_op ops[9];

	ET_CHECK(sy != NULL);
	ops[0] = op(sy, 0x1000, 2, CALL);
	ops[1] = op(sy, 0x1100, 3, CALL);
	ops[2] = op(sy, 0x1100, 3, CALL);
	ops[3] = op(sy, 0x1100, 3, CALL);
	ops[4] = op(sy, 0x1100, 4, RET);
	ops[5] = op(sy, 0x110c, 1, RET);
	ops[6] = op(sy, 0x110c, 1, RET);
	ops[7] = op(sy, 0x110c, 1, RET);
	ops[8] = op(sy, 0x1008, 1, 0);
	check_both(sy, ops, 9, 3, NULL,
		   "main 3\nmain;f 4\nmain;f;f 4\nmain;f;f;f 4\nmain;f;f;f;f 4\n",
		   &(struct want){ .spliced = 1, .insns = 19, .calls = 4, .returns = 4 });
	etm_symbols_free(sy);
}

/* First part: main calls f (BL 0x1004, back at 0x1008), f runs. Second
 * part: f calls g (BL 0x1104, back at 0x1108), g runs; an IRQ (exception
 * 14, return address 0x1208) ends that segment; the handler (entered
 * under "[exception IRQ]" after it) calls f (BL 0x2004, back at 0x2008),
 * f returns there (a frame of the segment's own), the handler returns
 * (SUBS pc, lr at 0x2008) to 0x1208, below the segment's start: to the
 * exception's frame; g returns to 0x1108, f to 0x1008. Segments spliced:
 * ops 2-3 and 5-7. Tree (self): main 2+1, main;f 1+1+2, main;f;g 2+2,
 * main;f;g;[exception IRQ];irq 2+1, ...;irq;f 4; 3 calls, 4 returns, 1
 * exception, 18 instructions. */
static void exception_in_part(void)
{
	struct etm_symbols *sy = syms();
	struct prof_op ops[11];
	struct etm_elem exc;

	ET_CHECK(sy != NULL);
	memset(&exc, 0, sizeof(exc));
	exc.kind = etmk_exception;
	exc.id = 0x10;
	exc.exc_num = 14;
	exc.has_ret = 1;
	exc.ret_addr = 0x1208;
	exc.addr = 0x18;
	ops[0] = op(sy, 0x1000, 2, CALL);
	ops[1] = op(sy, 0x1100, 1, 0);
	ops[2] = op(sy, 0x1104, 1, CALL);
	ops[3] = op(sy, 0x1200, 2, 0);
	ops[4] = raw_op();
	ops[5] = op(sy, 0x2000, 2, CALL);
	ops[6] = op(sy, 0x1100, 4, RET);
	ops[7] = op(sy, 0x2008, 1, RET);
	ops[8] = op(sy, 0x1208, 2, RET);
	ops[9] = op(sy, 0x1108, 2, RET);
	ops[10] = op(sy, 0x1008, 1, 0);
	check_both(sy, ops, 11, 2, &exc,
		   "main 3\nmain;f 4\nmain;f;g 4\nmain;f;g;[exception IRQ];irq 3\n"
		   "main;f;g;[exception IRQ];irq;f 4\n",
		   &(struct want){ .spliced = 2, .insns = 18, .calls = 3, .returns = 4, .exceptions = 1 });
	etm_symbols_free(sy);
}

int main(void)
{
	ETEST(returns_below_start);
	ETEST(recursion_across_cut);
	ETEST(exception_in_part);
	return etest_end();
}
