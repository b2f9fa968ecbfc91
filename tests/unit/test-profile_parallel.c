/* tests/unit/test-profile_parallel.c - etm_profile_run() on 2 and 3
 * threads gives the profile of one thread: the same flat, callgrind and
 * folded reports, the same timeline and call trace, byte for byte, on a
 * program whose call stacks are deep where the runner cuts the input
 * (each chunk begins inside calls whose frames a previous chunk pushed).
 *
 * The program (A32, written below): main at 0x8000 loops over
 * "NOP; BL f0; B main"; function fI at 0x10000 + 16*I is
 * "NOP; BLNE f(I+1); NOP; BX LR". Each pass of main descends to a depth
 * drawn at random (1 to 40, one pass in 16 up to 300: beyond the
 * profile's 256 frames), and its last function's BX LR either returns
 * (unwinding frame by frame), or, one time in 64, returns to a frame
 * several levels up (a longjmp: frames unwound), or, one time in 128, to
 * main itself (a return that matches no frame). An IRQ (handler at
 * 0x20000: "NOP; SUBS pc, lr, #4") interrupts before one instruction in
 * 500, and the Context ID changes between passes (three processes, their
 * stacks apart). The generator counts what the profile must report: the
 * instructions, the calls (BL and BLNE that passed) and the exceptions;
 * and the input must have been cut (the side consumer sees parts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>
#include <etmtrace/profile.h>

#include "etest.h"

#define NF 320 /* functions f0..f319 */
#define F0 0x10000u
#define MAIN 0x8000u
#define IRQ 0x20000u

static void put32(uint8_t *m, uint32_t off, uint32_t v)
{
	m[off] = v & 0xff;
	m[off + 1] = (v >> 8) & 0xff;
	m[off + 2] = (v >> 16) & 0xff;
	m[off + 3] = v >> 24;
}

/* A32 branch with condition and opcode bits @op to @to from @at. */
static uint32_t a32_b(uint32_t op, uint32_t at, uint32_t to)
{
	return op | (((to - (at + 8)) >> 2) & 0xffffff);
}

struct prog {
	uint8_t mem[0x20010];
	struct etm_image *img;
	struct etm_symbols *sy;
	struct etm_config cfg;
	struct etm_enc *enc;
	uint64_t insns, calls, excs, rnd;
	int fail;
};

static uint32_t rnd(struct prog *g)
{
	g->rnd = g->rnd * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(g->rnd >> 33);
}

static void prog_image(struct prog *g)
{
	char name[16];
	uint32_t i;

	for (i = 0; i < sizeof(g->mem); i += 4)
		put32(g->mem, i, 0xe1a00000);                       /* NOP */
	put32(g->mem, MAIN + 4, a32_b(0xeb000000, MAIN + 4, F0));   /* BL f0 */
	put32(g->mem, MAIN + 8, a32_b(0xea000000, MAIN + 8, MAIN)); /* B main */
	for (i = 0; i < NF; i++) {
		uint32_t f = F0 + 16 * i;

		if (i + 1 < NF) /* BLNE f(i+1) */
			put32(g->mem, f + 4, a32_b(0x1b000000, f + 4, f + 16));
		put32(g->mem, f + 12, 0xe12fff1e); /* BX LR */
		snprintf(name, sizeof(name), "f%u", i);
		ET_EQ(etm_symbols_add(g->sy, f, 16, name), 0);
	}
	put32(g->mem, IRQ + 4, 0xe25ef004); /* SUBS pc, lr, #4 */
	ET_EQ(etm_symbols_add(g->sy, MAIN, 12, "main"), 0);
	ET_EQ(etm_symbols_add(g->sy, IRQ, 8, "irq"), 0);
	ET_EQ(etm_image_add_buffer(g->img, etm_space_any, 0, g->mem, sizeof(g->mem)),
	      0);
}

static void ev_put(struct prog *g, const struct etm_ev *ev)
{
	if (etm_enc_put(g->enc, ev) < 0)
		g->fail++;
}

/* Instruction at @addr (passed: @exec), going to @target if it branches
 * indirectly; an IRQ may come first. */
static void insn(struct prog *g, uint32_t addr, int exec, uint32_t target)
{
	struct etm_ev ev;

	memset(&ev, 0, sizeof(ev));
	if (rnd(g) % 500 == 0) { /* IRQ, back to @addr */
		ev.kind = etmev_exception;
		ev.addr = IRQ;
		ev.isa = etmi_a32;
		ev.exc_num = 5;
		ev_put(g, &ev);
		g->excs++;
		insn(g, IRQ, 1, 0);
		insn(g, IRQ + 4, 1, addr);
		memset(&ev, 0, sizeof(ev));
	}
	ev.kind = etmev_insn;
	ev.addr = addr;
	ev.isa = etmi_a32;
	ev.exec = (uint8_t)exec;
	ev.target = target;
	ev.target_isa = etmi_a32;
	ev_put(g, &ev);
	g->insns++;
}

/* One pass of main: down to depth @d, back up (or a longjmp). */
static void pass(struct prog *g, uint32_t d)
{
	uint32_t l, top, r = rnd(g) % 128;

	insn(g, MAIN, 1, 0);
	insn(g, MAIN + 4, 1, 0);
	g->calls++;
	for (l = 0;; l++) {
		insn(g, F0 + 16 * l, 1, 0);
		if (l + 1 == d)
			break;
		insn(g, F0 + 16 * l + 4, 1, 0);
		g->calls++;
	}
	insn(g, F0 + 16 * l + 4, 0, 0); /* BLNE not taken */
	insn(g, F0 + 16 * l + 8, 1, 0);
	if (r == 0) { /* to main: no frame returns there */
		insn(g, F0 + 16 * l + 12, 1, MAIN);
		return;
	}
	top = l;
	if (r < 3 && l > 4) /* longjmp: 4 frames at once */
		l -= 3;
	insn(g, F0 + 16 * top + 12, 1, l ? F0 + 16 * (l - 1) + 8 : MAIN + 8);
	while (l) {
		l--;
		insn(g, F0 + 16 * l + 8, 1, 0);
		insn(g, F0 + 16 * l + 12, 1, l ? F0 + 16 * (l - 1) + 8 : MAIN + 8);
	}
	insn(g, MAIN + 8, 1, 0);
}

static void prog_trace(struct prog *g, enum etm_protocol proto)
{
	struct etm_enc_opts eo;
	struct etm_ev ev;
	uint32_t i;

	etm_config_init(&g->cfg);
	g->cfg.protocol = proto;
	g->cfg.traceid = 0x10;
	g->cfg.etmidr = proto == etm_proto_ptm ? 0x411CF312 : 0x410CF250;
	g->cfg.etmccer = proto == etm_proto_ptm ? 0x34C01AC2 : 0x344008F2;
	g->cfg.etmcr |= 3u << 14; /* 4-byte Context IDs */
	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = g->cfg;
	eo.isync_period = 1024;
	eo.async_period = 4096;
	g->enc = etm_enc_alloc(&eo, sizeof(eo), g->img);
	ET_CHECK(g->enc != NULL);
	if (!g->enc)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_trace_on;
	ev_put(g, &ev);
	for (i = 0; i < 4500; i++) {
		uint32_t d = rnd(g) % 16 ? 1 + rnd(g) % 40 : 1 + rnd(g) % 300;

		if (i % 7 == 0) {
			ev.kind = etmev_context;
			ev.ctxid = 100 + rnd(g) % 3;
			ev_put(g, &ev);
		}
		pass(g, d);
	}
	ET_EQ(etm_enc_finish(g->enc), 0);
	ET_EQ(g->fail, 0);
}

/* Every output of a profile: the three reports, the timeline, the call
 * trace, the counters. */
struct outs {
	struct etest_text rep[3], tl, ct;
	struct etm_prof_stats st;
};

static void outs_free(struct outs *o)
{
	int i;

	for (i = 0; i < 3; i++)
		free(o->rep[i].s);
	free(o->tl.s);
	free(o->ct.s);
}

static struct etm_decoder *dec(const struct prog *g)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);

	if (d && etm_decoder_add_source(d, &g->cfg, g->img) < 0) {
		etm_decoder_free(d);
		d = NULL;
	}
	return d;
}

static int prof_item(void *ctx, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? etm_profile_elems(ctx, &it->elem, 1) : 0;
}

/* Side consumer: the parts seen. */
static void *side_open(void *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(uint64_t));
}

static int side_elems(void *part, const struct etm_elem *els, size_t n)
{
	(void)els;
	*(uint64_t *)part += n;
	return 0;
}

static int side_append(void *ctx, void *part)
{
	*(uint64_t *)ctx += *(uint64_t *)part != 0;
	return 0;
}

static void side_free(void *ctx, void *part)
{
	(void)ctx;
	free(part);
}

/* The profile of @in on @jobs threads (0: etm_profile_elems() of every
 * element on this thread) into @o; the parts seen in *@parts. */
static void profile(const struct prog *g, const struct etest_mem *in,
		    unsigned jobs, struct outs *o, uint64_t *parts)
{
	static const enum etm_prof_format fmt[3] = { etm_prof_flat, etm_prof_callgrind,
						     etm_prof_folded };
	const struct etm_cov_run_side side = { side_open, side_elems, side_append,
					       side_free, parts };
	struct etm_profile *p = etm_profile_alloc(g->sy);
	struct etm_decoder *d = dec(g);
	int i;

	memset(o, 0, sizeof(*o));
	ET_CHECK(p && d);
	if (!p || !d)
		return;
	ET_EQ(etm_profile_add_source(p, g->cfg.traceid, g->img, 0), 0);
	ET_EQ(etm_profile_set_timeline(p, etest_text_put, &o->tl, 0, 0), 0);
	ET_EQ(etm_profile_set_calls(p, etest_text_put, &o->ct), 0);
	if (jobs)
		ET_EQ(etm_profile_run(p, d, etest_mem_read, (void *)in, in->n, jobs,
				      &side),
		      0);
	else
		ET_EQ(etm_decoder_run(d, etest_mem_read, (void *)in, in->n, 1, prof_item,
				      p),
		      0);
	ET_EQ(etm_profile_finish(p), 0);
	for (i = 0; i < 3; i++)
		ET_EQ(etm_profile_write(p, fmt[i], "t", etest_text_put, &o->rep[i]), 0);
	etm_profile_stats(p, &o->st);
	etm_profile_free(p);
	etm_decoder_free(d);
}

static int same(const struct etest_text *a, const struct etest_text *b)
{
	return a->n == b->n && a->n && memcmp(a->s, b->s, a->n) == 0;
}

static void deep_calls(enum etm_protocol proto)
{
	static const unsigned jobs[] = { 2, 3 };
	struct prog *g = calloc(1, sizeof(*g));
	struct etest_mem in;
	struct outs ref, o;
	size_t j;
	int i;

	ET_CHECK(g != NULL);
	if (!g)
		return;
	g->rnd = 7;
	g->img = etm_image_alloc();
	g->sy = etm_symbols_alloc();
	ET_CHECK(g->img && g->sy);
	prog_image(g);
	prog_trace(g, proto);
	in.b = etm_enc_data(g->enc, &in.n);
	ET_CHECK(in.n > (160u << 10)); /* over the one-thread bound: chunks */
	profile(g, &in, 0, &ref, NULL);
	/* the generator's counts */
	ET_EQ(ref.st.insns, g->insns);
	ET_EQ(ref.st.calls, g->calls);
	ET_EQ(ref.st.exceptions, g->excs);
	ET_CHECK(ref.st.truncated > 0 && ref.st.unwound > 0 && ref.st.resets > 0);
	for (j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		uint64_t parts = 0;
		int tries;

		/* how many parts depends on the scheduler (a starved worker's
		 * chunk joins its predecessor's part): every run must equal
		 * one thread's, one of up to eight must have been cut */
		for (tries = 0; tries < 8 && parts <= 2; tries++) {
			parts = 0;
			profile(g, &in, jobs[j], &o, &parts);
			for (i = 0; i < 3; i++)
				ET_CHECK(same(&o.rep[i], &ref.rep[i]));
			ET_CHECK(same(&o.tl, &ref.tl));
			ET_CHECK(same(&o.ct, &ref.ct));
			ET_CHECK(memcmp(&o.st, &ref.st, sizeof(o.st)) == 0);
			outs_free(&o);
		}
		ET_CHECK(parts > 2);
	}
	outs_free(&ref);
	etm_enc_free(g->enc);
	etm_symbols_free(g->sy);
	etm_image_free(g->img);
	free(g);
}

static void deep_calls_ptm(void)
{
	deep_calls(etm_proto_ptm);
}

static void deep_calls_etm3(void)
{
	deep_calls(etm_proto_etmv3);
}

int main(void)
{
	ETEST(deep_calls_ptm);
	ETEST(deep_calls_etm3);
	return etest_end();
}
