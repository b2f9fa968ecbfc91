/* tests/unit/test-profile.c - call-stack reconstruction on hand-made
 * element sequences over a tiny A32 image, each with the call tree written
 * out by hand: nested calls with an IRQ, a gap with a return to a deeper
 * frame (longjmp) and a return to no frame, and two context IDs sharing
 * one source; plus the callgrind, flat and timeline writers on them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/profile.h>

#include "etest.h"

/* Functions: main 0x1000, f 0x1100, g 0x1200, irq 0x2000 (0x100 each).
 * Every word is NOP (e1a00000) but: BX LR (e12fff1e) at 0x110c, 0x120c,
 * 0x1014; SUBS pc, lr, #4 (e25ef004) at 0x2008. BL sites only need the
 * element's link flag. */
struct fix {
	struct etm_symbols *sy;
	struct etm_image *img;
	struct etm_profile *p;
	struct etest_sink out; /* the report written */
};

static void put32(uint8_t *m, uint32_t off, uint32_t v)
{
	m[off] = v & 0xff;
	m[off + 1] = (v >> 8) & 0xff;
	m[off + 2] = (v >> 16) & 0xff;
	m[off + 3] = v >> 24;
}

static int fix_init(struct fix *f)
{
	static uint8_t mem[0x2100];
	uint32_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < sizeof(mem); i += 4)
		put32(mem, i, 0xe1a00000);
	put32(mem, 0x110c, 0xe12fff1e);
	put32(mem, 0x120c, 0xe12fff1e);
	put32(mem, 0x1014, 0xe12fff1e);
	put32(mem, 0x2008, 0xe25ef004);
	f->sy = etm_symbols_alloc();
	f->img = etm_image_alloc();
	if (!f->sy || !f->img ||
	    etm_image_add_buffer(f->img, etm_space_any, 0, mem, sizeof(mem)) < 0 ||
	    etm_symbols_add(f->sy, 0x1000, 0x100, "main") < 0 ||
	    etm_symbols_add(f->sy, 0x1100, 0x100, "f") < 0 ||
	    etm_symbols_add(f->sy, 0x1200, 0x100, "g") < 0 ||
	    etm_symbols_add(f->sy, 0x2000, 0x100, "irq") < 0)
		return -1;
	f->p = etm_profile_alloc(f->sy);
	return f->p && etm_profile_add_source(f->p, 0x10, f->img, 0) == 0 ? 0 : -1;
}

static void fix_fini(struct fix *f)
{
	etm_profile_free(f->p);
	etm_symbols_free(f->sy);
	etm_image_free(f->img);
}

/* A32 range of @n instructions from @start; @link: the last is a BL. */
static struct etm_elem rng(uint64_t start, uint32_t n, int link)
{
	struct etm_elem e;
	uint8_t cls = link ? etmc_br_direct : etmc_br_indirect;

	memset(&e, 0, sizeof(e));
	e.kind = etmk_range;
	e.id = 0x10;
	e.start = start;
	e.end = start + 4 * n;
	e.isa = etmi_a32;
	e.ninsn = n;
	e.last_addr = e.end - 4;
	e.last_size = 4;
	e.last_cls = (enum etm_insn_class)cls;
	e.last_link = (uint8_t)link;
	e.last_exec = 1;
	e.last_atom = 1;
	return e;
}

static struct etm_elem other(enum etm_elem_kind k)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.id = 0x10;
	return e;
}

static struct etm_elem ctx(uint32_t id)
{
	struct etm_elem e = other(etmk_context);

	e.has_ctxid = 1;
	e.ctxid = id;
	return e;
}

static int folded(struct fix *f)
{
	memset(&f->out, 0, sizeof(f->out));
	return etm_profile_write(f->p, etm_prof_folded, NULL, etest_sink_write,
				 &f->out);
}

/* main calls f (BL at 0x100c), f calls g (BL at 0x1104); in g an IRQ
 * (exception 14, return address 0x1208); the handler runs 3 instructions
 * and returns with SUBS pc, lr (0x2008) to 0x1208; g returns (BX LR at
 * 0x120c) to 0x1108 in f, f (BX LR at 0x110c) to 0x1010 in main.
 * Expected tree (self instructions):
 *   main 4+1 = 5
 *   main;f 2+2 = 4
 *   main;f;g 2+2 = 4
 *   main;f;g;[exception IRQ];irq 3
 * 2 calls and 3 returns matched (g, f and the IRQ), 1 exception. */
static void calls_and_irq(void)
{
	struct fix f;
	struct etm_prof_stats st;
	struct etm_elem e[8];

	ET_CHECK(fix_init(&f) == 0);
	e[0] = rng(0x1000, 4, 1);
	e[1] = rng(0x1100, 2, 1);
	e[2] = rng(0x1200, 2, 0);
	e[2].last_cls = etmc_other;
	e[3] = other(etmk_exception);
	e[3].exc_num = 14;
	e[3].has_ret = 1;
	e[3].ret_addr = 0x1208;
	e[3].addr = 0x18;
	e[4] = rng(0x2000, 3, 0);
	e[5] = rng(0x1208, 2, 0);
	e[6] = rng(0x1108, 2, 0);
	e[7] = rng(0x1010, 1, 0);
	e[7].last_cls = etmc_other;
	ET_EQ(etm_profile_elems(f.p, e, 8), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	ET_EQ(folded(&f), 0);
	ET_CHECK(!strcmp(f.out.buf, "main 5\nmain;f 4\nmain;f;g 4\n"
				    "main;f;g;[exception IRQ];irq 3\n"));
	etm_profile_stats(f.p, &st);
	ET_EQ(st.insns, 16);
	ET_EQ(st.calls, 2);
	ET_EQ(st.returns, 3);
	ET_EQ(st.exceptions, 1);
	ET_EQ(st.resets + st.unwound, 0);
	fix_fini(&f);
}

/* main calls f (BL at 0x100c), f returns (BX LR at 0x110c) to 0x1010;
 * main calls g (BL at 0x1014), g returns (0x120c) to 0x1018; main calls f
 * again (BL at 0x101c: main's last callee was g, so f's node is found
 * again, not made anew nor taken for g's), f returns to 0x1020 after a
 * gap; a timestamp and a cycle count between ranges change nothing.
 * Expected (self instructions): main 2+2+2+2+3 = 11, main;f 4+4 = 8,
 * main;g 4; 3 calls, 3 returns, 1 gap, 23 instructions. */
static void callee_again(void)
{
	struct fix f;
	struct etm_prof_stats st;
	struct etm_elem e[11];

	ET_CHECK(fix_init(&f) == 0);
	e[0] = rng(0x1000, 2, 0);
	e[0].last_cls = etmc_other;
	e[1] = other(etmk_timestamp);
	e[2] = rng(0x1008, 2, 1);
	e[3] = rng(0x1100, 4, 0);
	e[4] = rng(0x1010, 2, 1);
	e[5] = rng(0x1200, 4, 0);
	e[6] = other(etmk_cycle_count);
	e[7] = rng(0x1018, 2, 1);
	e[8] = rng(0x1100, 4, 0);
	e[9] = other(etmk_trace_on);
	e[10] = rng(0x1020, 3, 0);
	e[10].last_cls = etmc_other;
	ET_EQ(etm_profile_elems(f.p, e, 11), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	ET_EQ(folded(&f), 0);
	ET_CHECK(!strcmp(f.out.buf, "main 11\nmain;f 8\nmain;g 4\n"));
	etm_profile_stats(f.p, &st);
	ET_EQ(st.insns, 23);
	ET_EQ(st.calls, 3);
	ET_EQ(st.returns, 3);
	ET_EQ(st.gaps, 1);
	ET_EQ(st.resets + st.unwound, 0);
	fix_fini(&f);
}

/* main calls g (BL at 0x1004), g returns (0x120c) to 0x1008, main calls
 * itself (BL at 0x100c; main's last callee was g): the recursive call is
 * a new node main;main, not g's. Expected: main 2+2 = 4, main;g 4,
 * main;main 3 (node order: creation); 2 calls, 1 return. */
static void recursion_after_callee(void)
{
	struct fix f;
	struct etm_prof_stats st;
	struct etm_elem e[4];

	ET_CHECK(fix_init(&f) == 0);
	e[0] = rng(0x1000, 2, 1);
	e[1] = rng(0x1200, 4, 0);
	e[2] = rng(0x1008, 2, 1);
	e[3] = rng(0x1000, 3, 0);
	e[3].last_cls = etmc_other;
	ET_EQ(etm_profile_elems(f.p, e, 4), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	ET_EQ(folded(&f), 0);
	ET_CHECK(!strcmp(f.out.buf, "main 4\nmain;g 4\nmain;main 3\n"));
	etm_profile_stats(f.p, &st);
	ET_EQ(st.insns, 11);
	ET_EQ(st.calls, 2);
	ET_EQ(st.returns, 1);
	fix_fini(&f);
}

/* The call trace of calls_and_irq's elements, line by line by hand: the
 * instructions so far (4 of main before f is called, 2 of f, 2 of g, 3 of
 * the handler, 2 of g, 2 of f, 1 of main), the frames open (a call's or
 * the exception's frame counts from the line that enters it), two spaces
 * of indentation per calling-context level (main 1, f 2, g 3, the
 * exception 4, irq 5), the call sites (BL at 0x100c and 0x1104) and the
 * returns (SUBS pc, lr at 0x2008, BX LR at 0x120c and 0x110c). */
static void call_trace(void)
{
	static const char want[] =
		"# ID      INSNS DEPTH EVENT ADDRESS  FUNCTION (indented by calling "
		"context)  <- FROM  FILE:LINE\n"
		"10          0     0 enter 00001000   main\n"
		"10          4     1 call  00001100     f  <- 0000100c main+0xc\n"
		"10          6     2 call  00001200       g  <- 00001104 f+0x4\n"
		"10          8     3 exc   00001208         [exception IRQ]  at g+0x8\n"
		"10          8     3 enter 00002000           irq\n"
		"10         11     2 eret  00001208       g+0x8  <- 00002008 irq+0x8\n"
		"10         13     1 ret   00001108     f+0x8  <- 0000120c g+0xc\n"
		"10         15     0 ret   00001010   main+0x10  <- 0000110c f+0xc\n"
		"10         16     0 end   --------   main\n";
	struct fix f;
	struct etm_elem e[8];

	ET_CHECK(fix_init(&f) == 0);
	ET_EQ(etm_profile_set_calls(f.p, etest_sink_write, &f.out), 0);
	ET_EQ(etm_profile_set_calls(f.p, etest_sink_write, &f.out), -etme_invalid);
	e[0] = rng(0x1000, 4, 1);
	e[1] = rng(0x1100, 2, 1);
	e[2] = rng(0x1200, 2, 0);
	e[2].last_cls = etmc_other;
	e[3] = other(etmk_exception);
	e[3].exc_num = 14;
	e[3].has_ret = 1;
	e[3].ret_addr = 0x1208;
	e[3].addr = 0x18;
	e[4] = rng(0x2000, 3, 0);
	e[5] = rng(0x1208, 2, 0);
	e[6] = rng(0x1108, 2, 0);
	e[7] = rng(0x1010, 1, 0);
	e[7].last_cls = etmc_other;
	ET_EQ(etm_profile_elems(f.p, e, 8), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	ET_CHECK(!strcmp(f.out.buf, want));
	if (strcmp(f.out.buf, want))
		fputs(f.out.buf, stderr);
	fix_fini(&f);
}

/* main calls f, f calls g; a trace gap (trace on); g returns (BX LR at
 * 0x120c) but main runs next at 0x1010 (a longjmp, or f's return lost in
 * the gap): f's frame is unwound. main returns (BX LR at 0x1014) to 0x3000,
 * where no frame returns: the stack restarts from an unknown root with
 * [unknown] (no symbol at 0x3000) at the top.
 * Expected tree: main 4+2 = 6; main;f 2; main;f;g 2; [unknown] 3.
 * 1 return (to main), 1 frame unwound (f), 1 reset, 1 gap. */
static void gap_longjmp_reset(void)
{
	struct fix f;
	struct etm_prof_stats st;
	struct etm_elem e[7];

	ET_CHECK(fix_init(&f) == 0);
	e[0] = rng(0x1000, 4, 1);
	e[1] = rng(0x1100, 2, 1);
	e[2] = other(etmk_trace_on);
	e[3] = rng(0x1208, 2, 0);
	e[4] = rng(0x100c + 4, 2, 0);
	e[5] = rng(0x3000, 3, 0);
	e[5].last_cls = etmc_other;
	e[6] = rng(0x3000, 0, 0); /* empty: nothing counted */
	ET_EQ(etm_profile_elems(f.p, e, 6), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	ET_EQ(folded(&f), 0);
	ET_CHECK(!strcmp(f.out.buf, "main 6\nmain;f 2\nmain;f;g 2\n[unknown] 3\n"));
	etm_profile_stats(f.p, &st);
	ET_EQ(st.returns, 1);
	ET_EQ(st.unwound, 1);
	ET_EQ(st.resets, 1);
	ET_EQ(st.gaps, 1);
	fix_fini(&f);
}

/* Context 1: main calls f (BL at 0x100c), f runs 2. Switch to context 2:
 * g calls f (BL at 0x1204), f runs 2 and returns (BX LR at 0x110c) to
 * 0x1208 in g: g's own stack. Back to context 1: f runs from 0x1108 and
 * returns (BX LR at 0x110c) to 0x1010: matched on context 1's stack, not
 * disturbed by context 2. main runs 1 more.
 * Expected tree: main 5; main;f 4; g 2+2 = 4 (g's range, then 0x1208..);
 * g;f 3 (0x1104..0x110c). 2 returns, no reset, 2 context switches
 * (1->2->1). */
static void context_switch(void)
{
	struct fix f;
	struct etm_prof_stats st;
	struct etm_elem e[10];

	ET_CHECK(fix_init(&f) == 0);
	e[0] = ctx(1);
	e[1] = rng(0x1000, 4, 1);
	e[2] = rng(0x1100, 2, 0);
	e[2].last_cls = etmc_other;
	e[3] = ctx(2);
	e[4] = rng(0x1200, 2, 1);
	e[5] = rng(0x1104, 3, 0); /* 0x1104..0x110c, BX LR */
	e[6] = rng(0x1208, 2, 0);
	e[6].last_cls = etmc_other;
	e[7] = ctx(1);
	e[8] = rng(0x1108, 2, 0);
	e[9] = rng(0x1010, 1, 0);
	e[9].last_cls = etmc_other;
	ET_EQ(etm_profile_elems(f.p, e, 10), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	ET_EQ(folded(&f), 0);
	ET_CHECK(!strcmp(f.out.buf, "main 5\nmain;f 4\ng 4\ng;f 3\n"));
	etm_profile_stats(f.p, &st);
	ET_EQ(st.returns, 2);
	ET_EQ(st.resets, 0);
	ET_EQ(st.contexts, 2);
	fix_fini(&f);
}

/* The flat table, callgrind and the timeline of a call and its return:
 * main calls f (BL at 0x100c), f runs 4 and returns (BX LR at 0x110c),
 * main runs 1: main's inclusive count is all 9, f's self 4 with 1 call;
 * callgrind's totals line says 9 and main's call of f costs 4; the
 * timeline has f [4,8) inside main [0,9) (one instruction = 1 us). */
static void writers(void)
{
	struct fix f;
	const struct etm_prof_func *fn;
	struct etm_elem e[3];
	size_t n, i;
	char tl[4096];
	static struct etest_sink t;

	ET_CHECK(fix_init(&f) == 0);
	memset(&t, 0, sizeof(t));
	ET_EQ(etm_profile_set_timeline(f.p, etest_sink_write, &t, 0, 0), 0);
	e[0] = rng(0x1000, 4, 1);
	e[1] = rng(0x1100, 4, 0); /* 0x1100..0x110c, BX LR */
	e[2] = rng(0x1010, 1, 0);
	e[2].last_cls = etmc_other;
	ET_EQ(etm_profile_elems(f.p, e, 3), 0);
	ET_EQ(etm_profile_finish(f.p), 0);
	memcpy(tl, t.buf, t.len + 1);
	/* main [0,9) with f [4,8) inside (1 instruction = 1 us) */
	ET_CHECK(strstr(tl, "{\"name\":\"f\",\"cat\":\"function\",\"ph\":\"X\",\"ts\":4.000,\"dur\":4.000"));
	ET_CHECK(strstr(tl, "{\"name\":\"main\",\"cat\":\"function\",\"ph\":\"X\",\"ts\":0.000,\"dur\":9.000"));
	ET_EQ(etm_profile_funcs(f.p, &fn, &n), 0);
	ET_EQ(n, 2);
	for (i = 0; i < n; i++) {
		if (!strcmp(fn[i].name, "main")) {
			ET_EQ(fn[i].self, 5);
			ET_EQ(fn[i].incl, 9);
		} else {
			ET_CHECK(!strcmp(fn[i].name, "f"));
			ET_EQ(fn[i].self, 4);
			ET_EQ(fn[i].calls, 1);
		}
	}
	memset(&f.out, 0, sizeof(f.out));
	ET_EQ(etm_profile_write(f.p, etm_prof_callgrind, "t", etest_sink_write,
				&f.out),
	      0);
	ET_CHECK(strstr(f.out.buf, "fn=main\n0 5\ncfl=???\ncfn=f\ncalls=1 0\n0 4\n"));
	ET_CHECK(strstr(f.out.buf, "totals: 9\n"));
	fix_fini(&f);
}

/* Error elements are counted apart from the other gaps (what the CLI's
 * exit status reads), by the batch loop and by the per-element path
 * (line counts on): an error before any range (no stack yet), main's
 * range, an error, a trace-on gap, a nosync gap, a piece start (not a
 * gap), an error, main's range. Expected by hand: 3 errors; 5 gaps (3
 * errors, trace on, nosync); 4 instructions. */
static void error_count(void)
{
	struct etm_prof_stats st;
	struct etm_elem e[8];
	struct fix f;
	int lines;

	for (lines = 0; lines < 2; lines++) {
		ET_CHECK(fix_init(&f) == 0);
		etm_profile_set_lines(f.p, lines);
		e[0] = other(etmk_error);
		e[1] = rng(0x1000, 2, 0);
		e[1].last_cls = etmc_other;
		e[2] = other(etmk_error);
		e[3] = other(etmk_trace_on);
		e[4] = other(etmk_nosync);
		e[5] = other(etmk_piece);
		e[6] = other(etmk_error);
		e[7] = rng(0x1008, 2, 0);
		e[7].last_cls = etmc_other;
		ET_EQ(etm_profile_elems(f.p, e, 8), 0);
		ET_EQ(etm_profile_finish(f.p), 0);
		etm_profile_stats(f.p, &st);
		ET_EQ(st.errors, 3);
		ET_EQ(st.gaps, 5);
		ET_EQ(st.insns, 4);
		fix_fini(&f);
	}
}

int main(void)
{
	ETEST(calls_and_irq);
	ETEST(callee_again);
	ETEST(recursion_after_callee);
	ETEST(call_trace);
	ETEST(gap_longjmp_reset);
	ETEST(context_switch);
	ETEST(writers);
	ETEST(error_count);
	return etest_end();
}
