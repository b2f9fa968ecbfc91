/* tests/unit/test-cov.c - the coverage accumulator (etmtrace/coverage.h) on
 * hand-made elements over a seven-instruction A32 program, and the
 * execution generator over an image (etm_gen_alloc_image). Expected counts
 * are derived by hand next to each test. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/coverage.h>
#include <etmtrace/encode.h>
#include <etmtrace/error.h>

#include "cov/cov_int.h"
#include "etest.h"
#include "etest_cov.h"

/* An A32 range of ETMv3 source 0x10 (etest_cov_range()). */
static struct etm_elem rng(uint64_t start, uint32_t n, int exec)
{
	return etest_cov_range(0x10, start, n, exec);
}

/* ETMv3: bne taken; moveq fails (N ends the range); bne not taken; bl
 * taken; bx lr taken; b taken, then the trace ends. */
static void etm3_elems(struct etm_elem *el)
{
	memset(el, 0, sizeof(*el));
	el[0].kind = etmk_trace_on;
	el[0].id = 0x10;
	el[1] = rng(0x1000, 3, 1);
	el[2] = rng(0x1000, 2, 0);
	el[3] = rng(0x1008, 1, 0);
	el[4] = rng(0x100c, 1, 1);
	el[5] = rng(0x1018, 1, 1);
	el[6] = rng(0x1010, 1, 1);
}

static struct etm_cov *etm3_cov(struct etm_image *img)
{
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el[7];

	etm3_elems(el);
	if (!c || etm_cov_set_source(c, 0x10, etm_proto_etmv3, img) ||
	    etm_cov_add_elems(c, el, 7) || etm_cov_end(c)) {
		etm_cov_free(c);
		return NULL;
	}
	return c;
}

static uint64_t exec_at(const struct etm_cov *c, uint64_t a, uint64_t *fail)
{
	struct etm_cov_insn ci;

	if (etm_cov_insn_at(c, a, &ci) < 0)
		return 0;
	if (fail)
		*fail = ci.fail;
	return ci.exec;
}

static void add_etm3_counts(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm3_cov(img);
	struct etm_cov_insn ci;
	uint64_t f = 9;

	ET_CHECK(c);
	/* 0x1000/0x1004/0x1008 run twice; moveq and bne each fail once */
	ET_EQ(exec_at(c, 0x1000, &f), 2);
	ET_EQ(f, 0);
	ET_EQ(exec_at(c, 0x1004, &f), 2);
	ET_EQ(f, 1);
	ET_EQ(exec_at(c, 0x1008, &f), 2);
	ET_EQ(f, 1);
	ET_EQ(exec_at(c, 0x100c, NULL), 1);
	ET_EQ(exec_at(c, 0x1010, NULL), 1);
	ET_EQ(exec_at(c, 0x1014, NULL), 0); /* nop never executed */
	ET_EQ(exec_at(c, 0x1018, NULL), 1);
	ET_EQ(etm_cov_insn_at(c, 0x1004, &ci), 0);
	ET_EQ(ci.cond, 1);
	ET_EQ(ci.cls, etmc_other);
	ET_EQ(etm_cov_insn_at(c, 0x100c, &ci), 0);
	ET_EQ(ci.link, 1);
	ET_EQ(ci.cls, etmc_br_direct);
	ET_EQ(etm_cov_insn_at(c, 0x1014, &ci), -etme_nomap);
	ET_EQ(etm_cov_next_insn(c, 0x1011, &ci), 0);
	ET_EQ(ci.addr, 0x1018);
	ET_EQ(etm_cov_next_insn(c, 0x101a, &ci), -etme_eos);
	etm_cov_free(c);
	etm_image_free(img);
}

static int pair_is(const struct etm_cov_pair *p, uint64_t from, uint64_t to,
		   uint64_t n)
{
	return p->from == from && p->to == to && p->count == n;
}

/* Runs: [0x1000,0x1008] ends at the taken bne; the next run goes through
 * the failed moveq and the not-taken bne up to the taken bl:
 * [0x1000,0x100c]; then [0x1018,0x1018] (bx lr) and [0x1010,0x1010] (b,
 * its target never traced: no branch). Branches: bne, bl, bx lr. */
static void ranges_and_branches(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm3_cov(img);
	struct etm_cov_pair *p;
	size_t n;

	ET_CHECK(c);
	ET_EQ(etm_cov_pairs(c, 0, &p, &n), 0);
	ET_EQ(n, 4);
	ET_CHECK(pair_is(&p[0], 0x1000, 0x1008, 1));
	ET_CHECK(pair_is(&p[1], 0x1000, 0x100c, 1));
	ET_CHECK(pair_is(&p[2], 0x1010, 0x1010, 1));
	ET_CHECK(pair_is(&p[3], 0x1018, 0x1018, 1));
	free(p);
	ET_EQ(etm_cov_pairs(c, 1, &p, &n), 0);
	ET_EQ(n, 3);
	ET_CHECK(pair_is(&p[0], 0x1008, 0x1000, 1));
	ET_CHECK(pair_is(&p[1], 0x100c, 0x1018, 1));
	ET_CHECK(pair_is(&p[2], 0x1018, 0x1010, 1));
	free(p);
	etm_cov_free(c);
	etm_image_free(img);
}

/* PTM: one range through cmp, moveq, bne (taken): moveq is reached but
 * its condition is not traced. An IRQ then interrupts before the bne's
 * target executes: the branch still counts (to the return address); the
 * exception entry is not a branch. */
static void ptm_untold_and_exception(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el[3];
	struct etm_cov_insn ci;
	struct etm_cov_pair *p;
	size_t n;

	ET_CHECK(img && c);
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_ptm, img), 0);
	el[0] = rng(0x1000, 3, 1);
	memset(&el[1], 0, sizeof(el[1]));
	el[1].kind = etmk_exception;
	el[1].id = 0x10;
	el[1].has_ret = 1;
	el[1].ret_addr = 0x1000;
	el[1].addr = 0x18;
	el[2] = rng(0x1014, 1, 1);
	ET_EQ(etm_cov_add_elems(c, el, 3), 0);
	ET_EQ(etm_cov_end(c), 0);
	ET_EQ(etm_cov_insn_at(c, 0x1004, &ci), 0);
	ET_EQ(ci.exec, 1);
	ET_EQ(ci.unknown, 1);
	ET_EQ(ci.fail, 0);
	ET_EQ(etm_cov_insn_at(c, 0x1008, &ci), 0);
	ET_EQ(ci.unknown, 0);
	ET_EQ(etm_cov_pairs(c, 1, &p, &n), 0);
	ET_EQ(n, 1);
	ET_CHECK(pair_is(&p[0], 0x1008, 0x1000, 1));
	free(p);
	ET_EQ(etm_cov_pairs(c, 0, &p, &n), 0);
	ET_EQ(n, 2);
	ET_CHECK(pair_is(&p[0], 0x1000, 0x1008, 1));
	ET_CHECK(pair_is(&p[1], 0x1014, 0x1014, 1));
	free(p);
	etm_cov_free(c);
	etm_image_free(img);
}

/* save -> load -> save is the identity; merging a coverage into one that
 * holds the same doubles every count; a malformed file adds nothing. */
static void save_load_merge(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm3_cov(img), *d = etm_cov_alloc();
	struct etest_sbuf s1 = { 0 }, s2 = { 0 };
	static const char bad[] = "etmtrace-coverage 1\ni 1000 41 2 0 0\nr 1 2\nend\n";
	size_t line = 0;
	uint64_t f;

	ET_CHECK(c && d);
	ET_EQ(etm_cov_save(c, etest_sbuf_write, &s1), 0);
	ET_EQ(etm_cov_load(d, s1.b, s1.n, NULL), 0);
	ET_EQ(etm_cov_save(d, etest_sbuf_write, &s2), 0);
	ET_EQ(s1.n, s2.n);
	ET_CHECK(!memcmp(s1.b, s2.b, s1.n));
	ET_EQ(etm_cov_merge(d, c), 0);
	ET_EQ(exec_at(d, 0x1004, &f), 4);
	ET_EQ(f, 2);
	ET_EQ(etm_cov_load(d, bad, sizeof(bad) - 1, &line), -etme_parse);
	ET_EQ(line, 3);
	ET_EQ(exec_at(d, 0x1000, NULL), 4);
	ET_EQ(etm_cov_load(d, s1.b, s1.n - 4, NULL), -etme_parse); /* no "end" */
	ET_EQ(etm_cov_merge(d, d), -etme_invalid);
	free(s1.b);
	free(s2.b);
	etm_cov_free(c);
	etm_cov_free(d);
	etm_image_free(img);
}

/* Profiles: AutoFDO has three sections (ranges, addresses, branches),
 * llvm-profgen two; addresses are reduced by the base. */
static void profile_text(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm3_cov(img);
	struct etest_sbuf s = { 0 };

	ET_CHECK(c);
	ET_EQ(etm_cov_write_profile(c, etm_fdo_profgen, 0x1000, etest_sbuf_write, &s), 0);
	ET_CHECK(!strcmp(s.b, "4\n0-8:1\n0-c:1\n10-10:1\n18-18:1\n"
			      "3\n8->0:1\nc->18:1\n18->10:1\n"));
	free(s.b);
	s.b = NULL;
	s.n = 0;
	ET_EQ(etm_cov_write_profile(c, etm_fdo_autofdo, 0, etest_sbuf_write, &s), 0);
	ET_CHECK(strstr(s.b, "\n6\n1000:2\n1004:2\n1008:2\n100c:1\n1010:1\n1018:1\n3\n"));
	ET_EQ(etm_cov_write_profile(c, etm_fdo_invalid, 0, etest_sbuf_write, &s),
	      -etme_invalid);
	free(s.b);
	etm_cov_free(c);
	etm_image_free(img);
}

/* The generator over the program: the first steps from 0x1000 follow the
 * instructions (cmp, moveq, bne back or on to bl, then bx lr returns to
 * 0x1010, b back to 0x1000); every event's successor is where the
 * previous one leads. */
static void gen_over_image(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_gen_img_opts o = { .size = sizeof(o), .seed = 7, .proto = etm_proto_etmv3, .entry = 0x1000, .isa = etmi_a32, .ninsn = 200 };
	struct etm_gen *g = etm_gen_alloc_image(&o, sizeof(o), img);
	const struct etm_ev *ev;
	size_t n, i;
	uint64_t want = 0x1000;

	ET_CHECK(g);
	ET_EQ(etm_gen_error(g), 0);
	ev = etm_gen_events(g, &n);
	ET_CHECK(n > 200);
	ET_EQ(ev[0].kind, etmev_trace_on);
	for (i = 1; i < n; i++) {
		uint64_t a = ev[i].addr;

		ET_EQ(a, want);
		ET_CHECK(a != 0x1014);
		want = a + 4;
		if (a == 0x1008 && ev[i].exec)
			want = 0x1000;
		if (a == 0x100c)
			want = 0x1018;
		if (a == 0x1018)
			want = 0x1010;
		if (a == 0x1010)
			want = 0x1000;
		if (a != 0x1004 && a != 0x1008)
			ET_EQ(ev[i].exec, 1);
	}
	etm_gen_free(g);
	/* an indirect jump that is not a return cannot be followed */
	o.entry = 0x1018;
	g = etm_gen_alloc_image(&o, sizeof(o), img);
	ET_CHECK(g);
	ET_EQ(etm_gen_error(g), -etme_bad_insn);
	etm_gen_free(g);
	etm_image_free(img);
}

/* Hostile input: a range at the top of the address space ends; saved
 * files with bad records add nothing. */
static void hostile_input(void)
{
	static const char *const bad[] = {
		"etmtrace-coverage 2\nend\n",
		"etmtrace-coverage 1\ni 1001 41 1 0 0\nend\n",  /* odd address */
		"etmtrace-coverage 1\ni 1000 40 1 0 0\nend\n",  /* not valid */
		"etmtrace-coverage 1\ni 1000 141 1 0 0\nend\n", /* info > 0xff */
		"etmtrace-coverage 1\ni 1000 41 1 1 1\nend\n",  /* fail+unk > n */
		"etmtrace-coverage 1\nx 1 2 3\nend\n",
		"etmtrace-coverage 1\n",
	};
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el = rng(0xfffffffffffffff8ull, 10, 1);
	struct etm_cov_totals t;
	size_t i;

	ET_CHECK(c);
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_etmv3, NULL), 0);
	el.end = UINT64_MAX;
	ET_EQ(etm_cov_add_elems(c, &el, 1), 0);
	ET_EQ(exec_at(c, 0xfffffffffffffffcull, NULL), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ET_EQ(etm_cov_load(c, bad[i], strlen(bad[i]), NULL), -etme_parse);
	etm_cov_totals(c, &t);
	ET_EQ(t.addrs, 2);
	ET_EQ(etm_cov_set_source(c, 0x80, etm_proto_etmv3, NULL), -etme_invalid);
	etm_cov_free(c);
}

static int saved(const struct etm_cov *c, struct etest_sbuf *sb)
{
	sb->b = NULL;
	sb->n = 0;
	return etm_cov_save(c, etest_sbuf_write, sb);
}

/* @got saves the same coverage as @want (both printed after @what if
 * not). */
static void same_saved(const struct etm_cov *got, const struct etm_cov *want,
		       const char *what)
{
	struct etest_sbuf g, w;

	ET_EQ(saved(got, &g), 0);
	ET_EQ(saved(want, &w), 0);
	if (g.n != w.n || memcmp(g.b, w.b, g.n))
		printf("%s:\n%s---\n%s", what, g.b, w.b);
	ET_EQ(g.n, w.n);
	ET_CHECK(!memcmp(g.b, w.b, g.n));
	free(g.b);
	free(w.b);
}

/* A parallel worker's part (etm_cov_set_part()) of ETMv3 source 0x10 over
 * @img, or NULL; *@r gets the errors of its set-up or'ed in. */
static struct etm_cov *part_new(struct etm_image *img, int *r)
{
	struct etm_cov *p = etm_cov_alloc();

	if (p) {
		*r |= etm_cov_set_part(p);
		*r |= etm_cov_set_source(p, 0x10, etm_proto_etmv3, img);
	}
	return p;
}

/* @a[0..2n): n x ([0x1000, 3 insns], [0x1004, 2 insns]), executed. */
static void loop_pairs(struct etm_elem *a, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		a[2 * i] = rng(0x1000, 3, 1);
		a[2 * i + 1] = rng(0x1004, 2, 1);
	}
}

/* Parts: the elements (ETMv3 example, and the PTM exception case) cut at
 * every pair of positions into three parts, each accumulated on its own
 * and appended in order, give the same saved coverage as all at once. */
static void parts_append(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_elem el[9];
	size_t n = 9, i, j, k;
	struct etm_cov *all = etm_cov_alloc();

	ET_CHECK(img && all);
	etm3_elems(el);
	el[7] = el[5]; /* bx lr taken, then an IRQ */
	memset(&el[8], 0, sizeof(el[8]));
	el[8].kind = etmk_exception;
	el[8].id = 0x10;
	el[8].has_ret = 1;
	el[8].ret_addr = 0x1010;
	etm_cov_set_source(all, 0x10, etm_proto_etmv3, img);
	ET_EQ(etm_cov_add_elems(all, el, n), 0);
	ET_EQ(etm_cov_end(all), 0);
	for (i = 0; i <= n; i++)
		for (j = i; j <= n; j++) {
			struct etm_cov *d = etm_cov_alloc(), *p[3];
			size_t cut[4] = { 0, i, j, n };
			char what[32];
			int r = 0;

			ET_CHECK(d);
			etm_cov_set_source(d, 0x10, etm_proto_etmv3, img);
			for (k = 0; k < 3; k++) {
				p[k] = part_new(img, &r);
				ET_CHECK(p[k]);
				r |= etm_cov_add_elems(p[k], el + cut[k], cut[k + 1] - cut[k]);
				r |= etm_cov_append(d, p[k]);
				etm_cov_free(p[k]);
			}
			ET_EQ(r, 0);
			ET_EQ(etm_cov_end(d), 0);
			snprintf(what, sizeof(what), "cuts %zu %zu", i, j);
			same_saved(d, all, what);
			etm_cov_free(d);
		}
	etm_cov_free(all);
	etm_image_free(img);
}

/* Repeated ranges (counted through the range memo) read between calls
 * without etm_cov_end(), and an address executed in both ISAs in between.
 * PTM: 3 batches of 50 x [0x1000, 3 insns, last passed], one T32 range of
 * one instruction at 0x1000, 50 x [0x1000, 3 insns, last failed]. By hand:
 * after batch 1, 0x1000 exec 50 and untold 50 (PTM: not a waypoint);
 * at the end 0x1000 exec 150 + 1 + 50, untold 200 (the T32 range's only
 * instruction has its atom); 0x1004 exec 200, untold 200; 0x1008 exec
 * 200, failed 50, untold 0; 0x1000 is A32 again (the last ISA). */
static void repeated_ranges(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el[50], t;
	struct etm_cov_insn ci;
	int b, i;

	ET_CHECK(img && c);
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_ptm, img), 0);
	for (i = 0; i < 50; i++)
		el[i] = rng(0x1000, 3, 1);
	for (b = 0; b < 3; b++) {
		ET_EQ(etm_cov_add_elems(c, el, 50), 0);
		if (b)
			continue;
		ET_EQ(etm_cov_insn_at(c, 0x1000, &ci), 0);
		ET_EQ(ci.exec, 50);
		ET_EQ(ci.unknown, 50);
	}
	t = rng(0x1000, 1, 1);
	t.isa = etmi_t32;
	t.end = 0x1002;
	t.last_addr = 0x1000;
	ET_EQ(etm_cov_add_elems(c, &t, 1), 0);
	ET_EQ(etm_cov_insn_at(c, 0x1000, &ci), 0);
	ET_EQ(ci.isa, etmi_t32);
	ET_EQ(ci.exec, 151);
	for (i = 0; i < 50; i++)
		el[i] = rng(0x1000, 3, 0);
	ET_EQ(etm_cov_add_elems(c, el, 50), 0);
	ET_EQ(etm_cov_end(c), 0);
	ET_EQ(etm_cov_insn_at(c, 0x1000, &ci), 0);
	ET_EQ(ci.isa, etmi_a32);
	ET_EQ(ci.exec, 201);
	ET_EQ(ci.unknown, 200);
	ET_EQ(etm_cov_insn_at(c, 0x1004, &ci), 0);
	ET_EQ(ci.exec, 200);
	ET_EQ(ci.unknown, 200);
	ET_EQ(etm_cov_insn_at(c, 0x1008, &ci), 0);
	ET_EQ(ci.exec, 200);
	ET_EQ(ci.fail, 50);
	ET_EQ(ci.unknown, 0);
	etm_cov_free(c);
	etm_image_free(img);
}

/* A T32 IT block whose range ends inside it (the TC2 0x10 capture at
 * c003fbd0): 0x2000 ite ne (bf14), 0x2002 movne r6, #0 (2600), 0x2004
 * andeq.w r6, r6, #1 (f006 0601, 32 bits), 0x2008 cmp r6, #0 (2e00).
 * ETMv3: [0x2000, 0x2004) ends with movne failing (N), then [0x2004,
 * 0x200a) runs andeq.w and cmp. By hand: 0x2004 is one 4-byte conditional
 * instruction run once, 0x2006 (its second halfword) is no instruction,
 * 0x2008 runs once. The ITE marks 0x2002 and 0x2004 conditional when it
 * runs, before the range that holds 0x2004 is seen. */
static void it_block_past_range(void)
{
	static const uint8_t code[] = { 0x14, 0xbf, 0x00, 0x26, 0x06, 0xf0,
					0x01, 0x06, 0x00, 0x2e };
	struct etm_image *img = etm_image_alloc();
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el[2];
	struct etm_cov_insn ci;

	ET_CHECK(img && c);
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x2000, code, sizeof(code)), 0);
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_etmv3, img), 0);
	el[0] = rng(0x2000, 2, 0);
	el[0].isa = etmi_t32;
	el[0].end = 0x2004;
	el[0].last_addr = 0x2002;
	el[1] = rng(0x2004, 2, 1);
	el[1].isa = etmi_t32;
	el[1].end = 0x200a;
	el[1].last_addr = 0x2008;
	ET_EQ(etm_cov_add_elems(c, el, 2), 0);
	ET_EQ(etm_cov_end(c), 0);
	ET_EQ(etm_cov_insn_at(c, 0x2004, &ci), 0);
	ET_EQ(ci.addr, 0x2004);
	ET_EQ(ci.size, 4);
	ET_EQ(ci.exec, 1);
	ET_EQ(ci.cond, 1);
	ET_EQ(etm_cov_insn_at(c, 0x2006, &ci), -etme_nomap); /* never ran */
	ET_EQ(etm_cov_insn_at(c, 0x2008, &ci), 0);
	ET_EQ(ci.exec, 1);
	ET_EQ(ci.size, 2);
	etm_cov_free(c);
	etm_image_free(img);
}

/* Successors that change (the counts kept pending in the range memo, read
 * between calls, with the memo emptied by a merge in between). ETMv3,
 * iteration i of 20: A A B C D X, A = [0x1000, 3 insns, bne taken], B =
 * the same with bne not taken, C = bl taken, D = bx lr taken to X, X = E
 * (b at 0x1010 taken) in blocks 0-3, 8-11, 16-19, else F = [0x1014, nop
 * and bx lr taken]: 12 E, 8 F. By hand, branches: 0x1008->0x1000 twice an
 * iteration (A->A, A->B), 0x100c->0x1018 once, 0x1018->0x1010 12 (D->E),
 * 0x1018->0x1014 8 (D->F), 0x1010->0x1000 11 (the last E has no
 * successor), 0x1018->0x1000 8 (F->A); runs: [0x1000,0x1008] 40,
 * [0x1000,0x100c] 20 (B runs on into C), [0x1018,0x1018] 20, [0x1010,
 * 0x1010] 12 (the last closed at the end), [0x1014,0x1018] 8. After
 * iterations 0-9 (6 E, 4 F, the last E's run still open): 20, 10, 6, 4,
 * 5, 4 and 20, 10, 10, 5, 4. */
static void changing_successors(void)
{
	static const uint64_t br[6][2] = { { 0x1008, 0x1000 }, { 0x100c, 0x1018 }, { 0x1018, 0x1010 }, { 0x1018, 0x1014 }, { 0x1010, 0x1000 }, { 0x1018, 0x1000 } };
	static const uint64_t run[5][2] = { { 0x1000, 0x1008 }, { 0x1000, 0x100c }, { 0x1018, 0x1018 }, { 0x1010, 0x1010 }, { 0x1014, 0x1018 } };
	static const uint64_t half[2][6] = { { 20, 10, 6, 4, 5, 4 },
					     { 20, 10, 10, 5, 4, 0 } };
	static const uint64_t all[2][6] = { { 40, 20, 12, 8, 11, 8 },
					    { 40, 20, 20, 12, 8, 0 } };
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm_cov_alloc(), *empty = etm_cov_alloc();
	struct etm_elem el[120];
	struct etm_cov_pair *p;
	size_t n, k = 0;
	int i, h, b;

	ET_CHECK(img && c && empty);
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_etmv3, img), 0);
	for (i = 0; i < 20; i++) {
		el[k++] = rng(0x1000, 3, 1);
		el[k++] = rng(0x1000, 3, 1);
		el[k++] = rng(0x1000, 3, 0);
		el[k++] = rng(0x100c, 1, 1);
		el[k++] = rng(0x1018, 1, 1);
		el[k++] = (i / 4) % 2 ? rng(0x1014, 2, 1) : rng(0x1010, 1, 1);
	}
	for (h = 0; h < 2; h++) {
		ET_EQ(etm_cov_add_elems(c, el + 60 * h, 60), 0);
		if (h)
			ET_EQ(etm_cov_end(c), 0);
		for (b = 1; b >= 0; b--) {
			const uint64_t(*pr)[2] = b ? br : run;

			ET_EQ(etm_cov_pairs(c, b, &p, &n), 0);
			for (i = 0; i < (b ? 6 : 5); i++)
				ET_EQ(etest_cov_pair_count(p, n, pr[i][0], pr[i][1]),
				      (h ? all : half)[!b][i]);
			free(p);
		}
		ET_EQ(etm_cov_merge(c, empty), 0); /* empties the memo */
	}
	etm_cov_free(empty);
	etm_cov_free(c);
	etm_image_free(img);
}

/* Returns to several callers in turn (a second pending branch target per
 * memo entry). ETMv3, iteration i of 30: C D X, C = [0x100c bl, taken], D
 * = [0x1018 bx lr, taken], X = E [0x1010 b, taken] for even i < 20, F
 * [0x1014 nop, 0x1018 bx lr, taken] for odd i < 20, then G [0x1000 3
 * insns, bne not taken, running on into the next C], E, F by i % 3 = 2,
 * 0, 1. E 13 times (i = 0, 2..18, 21, 24, 27), F 13, G 4 (20, 23, 26,
 * 29). By hand, branches: 0x100c->0x1018 30; 0x1018->0x1010 13,
 * ->0x1014 13, ->0x1000 4 (D to X), ->0x100c 13 (F to the next C);
 * 0x1010->0x100c 13. Runs: [0x100c,0x100c] 27, [0x1000,0x100c] 3 (G into
 * C), [0x1018,0x1018] 30, [0x1010,0x1010] 13, [0x1014,0x1018] 13,
 * [0x1000,0x1008] 1 (the last G, closed at the end). Executions: 0x100c
 * 30, 0x1018 43, 0x1010 13, 0x1014 13, 0x1000-0x1008 4 (0x1008 failed 4).
 * Fed in uneven calls, the memo emptied by a merge after 15 iterations. */
static void alternating_returns(void)
{
	static const uint64_t br[6][3] = { { 0x100c, 0x1018, 30 }, { 0x1018, 0x1010, 13 }, { 0x1018, 0x1014, 13 }, { 0x1018, 0x1000, 4 }, { 0x1018, 0x100c, 13 }, { 0x1010, 0x100c, 13 } };
	static const uint64_t run[6][3] = { { 0x100c, 0x100c, 27 }, { 0x1000, 0x100c, 3 }, { 0x1018, 0x1018, 30 }, { 0x1010, 0x1010, 13 }, { 0x1014, 0x1018, 13 }, { 0x1000, 0x1008, 1 } };
	static const uint64_t execs[7][3] = { { 0x1000, 4, 0 }, { 0x1004, 4, 0 }, { 0x1008, 4, 4 }, { 0x100c, 30, 0 }, { 0x1010, 13, 0 }, { 0x1014, 13, 0 }, { 0x1018, 43, 0 } };
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm_cov_alloc(), *empty = etm_cov_alloc();
	struct etm_elem el[90], x[3];
	struct etm_cov_pair *p;
	size_t n, k = 0, at = 0, step = 1;
	uint64_t fail = 0;
	int i, b;

	ET_CHECK(img && c && empty);
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_etmv3, img), 0);
	x[0] = rng(0x1000, 3, 0); /* G */
	x[1] = rng(0x1010, 1, 1); /* E */
	x[2] = rng(0x1014, 2, 1); /* F */
	for (i = 0; i < 30; i++) {
		el[k++] = rng(0x100c, 1, 1);
		el[k++] = rng(0x1018, 1, 1);
		el[k++] = i < 20 ? x[1 + i % 2] : x[(i + 1) % 3];
	}
	while (at < k) { /* calls of 1, 2, 3, ... elements */
		size_t m = step < k - at ? step : k - at;

		ET_EQ(etm_cov_add_elems(c, el + at, m), 0);
		at += m;
		step++;
		if (at == 45) /* after 15 iterations exactly: 1+..+9 = 45 */
			ET_EQ(etm_cov_merge(c, empty), 0);
	}
	ET_EQ(etm_cov_end(c), 0);
	for (b = 1; b >= 0; b--) {
		const uint64_t(*pr)[3] = b ? br : run;

		ET_EQ(etm_cov_pairs(c, b, &p, &n), 0);
		ET_EQ(n, 6);
		for (i = 0; i < 6; i++)
			ET_EQ(etest_cov_pair_count(p, n, pr[i][0], pr[i][1]), pr[i][2]);
		free(p);
	}
	for (i = 0; i < 7; i++) {
		ET_EQ(exec_at(c, execs[i][0], &fail), execs[i][1]);
		ET_EQ(fail, execs[i][2]);
	}
	etm_cov_free(empty);
	etm_cov_free(c);
	etm_image_free(img);
}

/* A parallel worker's memo carried from its part to its next part
 * (cov_memo_carry(), as cov_run.c does at a cut), with another worker's
 * part between them running 0x1000 as T32. Worker A, part 1: 5 x
 * ([0x1000, 3 insns], [0x1004, 2 insns]); worker B, part 2: T32 [0x1000,
 * 1 insn]; worker A, part 3 (memo carried): 4 x [0x1004, 2 insns]. By
 * hand: 0x1000 exec 5 + 1, T32 (part 2 ran it last: part 3's copy of part
 * 1's A32 info byte, never executed in part 3, must not win the merge);
 * 0x1004 and 0x1008 exec 10 + 4. Joined, the parts equal one object fed
 * everything (the counts, runs and branches saved). */
static void memo_carried_across_parts(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_elem a[10], t, b[4];
	struct etm_cov *all = etm_cov_alloc(), *d = etm_cov_alloc(), *p[3];
	struct etm_cov_insn ci;
	int i, r = 0;

	ET_CHECK(img && all && d);
	loop_pairs(a, 5);
	t = rng(0x1000, 1, 1);
	t.isa = etmi_t32;
	t.end = 0x1002;
	t.last_addr = 0x1000;
	for (i = 0; i < 4; i++)
		b[i] = rng(0x1004, 2, 1);
	r |= etm_cov_set_source(all, 0x10, etm_proto_etmv3, img);
	r |= etm_cov_add_elems(all, a, 10);
	r |= etm_cov_add_elems(all, &t, 1);
	r |= etm_cov_add_elems(all, b, 4);
	r |= etm_cov_end(all);
	r |= etm_cov_set_source(d, 0x10, etm_proto_etmv3, img);
	for (i = 0; i < 3; i++) {
		p[i] = part_new(img, &r);
		ET_CHECK(p[i]);
	}
	r |= etm_cov_add_elems(p[0], a, 10);
	r |= etm_cov_add_elems(p[1], &t, 1);
	r |= cov_memo_carry(p[0], p[2]);
	r |= etm_cov_add_elems(p[2], b, 4);
	for (i = 0; i < 3; i++) {
		r |= etm_cov_append(d, p[i]);
		etm_cov_free(p[i]);
	}
	r |= etm_cov_end(d);
	ET_EQ(r, 0);
	ET_EQ(etm_cov_insn_at(d, 0x1000, &ci), 0);
	ET_EQ(ci.isa, etmi_t32);
	ET_EQ(ci.exec, 6);
	ET_EQ(exec_at(d, 0x1004, NULL), 14);
	ET_EQ(exec_at(d, 0x1008, NULL), 14);
	same_saved(d, all, "parts joined");
	etm_cov_free(d);
	etm_cov_free(all);
	etm_image_free(img);
}

/* A worker's part that counts nothing in a page its memo refers to
 * (cov_memo_carry()): the page goes on to the next part with the memo's
 * entries, so that their ranges are not walked again, and the merge of
 * that part adds no page. Worker parts: p0 5 x ([0x1000, 3 insns],
 * [0x1004, 2 insns]), dropped (as a stretch its predecessor decoded
 * again); p1 a trace-on only; p2 3 x [0x1000, 3 insns]. By hand, p1 and
 * p2 joined: 0x1000, 0x1004 and 0x1008 exec 3 each (none of p0's 5), no
 * page after p1 alone, one after p2; equal to one object fed p1's and
 * p2's elements. */
static void memo_kept_for_uncounted_pages(void)
{
	struct etm_image *img = etest_cov_image();
	struct etm_elem a[10], on, b[3];
	struct etm_cov *all = etm_cov_alloc(), *d = etm_cov_alloc(), *p[3];
	struct etm_cov_totals t;
	int i, r = 0;

	ET_CHECK(img && all && d);
	loop_pairs(a, 5);
	memset(&on, 0, sizeof(on));
	on.kind = etmk_trace_on;
	on.id = 0x10;
	for (i = 0; i < 3; i++)
		b[i] = rng(0x1000, 3, 1);
	r |= etm_cov_set_source(all, 0x10, etm_proto_etmv3, img);
	r |= etm_cov_add_elems(all, &on, 1);
	r |= etm_cov_add_elems(all, b, 3);
	r |= etm_cov_end(all);
	r |= etm_cov_set_source(d, 0x10, etm_proto_etmv3, img);
	for (i = 0; i < 3; i++) {
		p[i] = part_new(img, &r);
		ET_CHECK(p[i]);
	}
	r |= etm_cov_add_elems(p[0], a, 10);
	r |= cov_memo_carry(p[0], p[1]);
	r |= etm_cov_add_elems(p[1], &on, 1);
	r |= cov_memo_carry(p[1], p[2]);
	ET_EQ(r, 0);
	/* the range p0 walked is still known in p2 */
	ET_CHECK(p[2]->memo && cov_memo_find(p[2]->memo, &b[0], 0));
	r |= etm_cov_add_elems(p[2], b, 3);
	r |= etm_cov_append(d, p[1]);
	etm_cov_totals(d, &t);
	ET_EQ(t.pages, 0);
	r |= etm_cov_append(d, p[2]);
	r |= etm_cov_end(d);
	ET_EQ(r, 0);
	etm_cov_totals(d, &t);
	ET_EQ(t.pages, 1);
	ET_EQ(exec_at(d, 0x1000, NULL), 3);
	ET_EQ(exec_at(d, 0x1004, NULL), 3);
	ET_EQ(exec_at(d, 0x1008, NULL), 3);
	same_saved(d, all, "parts joined");
	for (i = 0; i < 3; i++)
		etm_cov_free(p[i]);
	etm_cov_free(d);
	etm_cov_free(all);
	etm_image_free(img);
}

int main(void)
{
	ETEST(add_etm3_counts);
	ETEST(ranges_and_branches);
	ETEST(ptm_untold_and_exception);
	ETEST(save_load_merge);
	ETEST(profile_text);
	ETEST(gen_over_image);
	ETEST(hostile_input);
	ETEST(parts_append);
	ETEST(repeated_ranges);
	ETEST(it_block_past_range);
	ETEST(changing_successors);
	ETEST(alternating_returns);
	ETEST(memo_carried_across_parts);
	ETEST(memo_kept_for_uncounted_pages);
	return etest_end();
}
