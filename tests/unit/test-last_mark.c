/* tests/unit/test-last_mark.c - struct etm_elem last_mark: what a range's
 * last instruction is (call, return, other indirect branch, plain), as
 * the decoder marks it, against a hand derivation of six instructions in
 * A32 and T32 (BL, BLX reg, BX LR, POP {r4,pc}, LDR pc,[r0], B; ARM ARM
 * A8.8.25-27, A8.8.131, A8.8.63, A8.8.18): through the block cache (the
 * plain loops' source) and the PTM flow decoder's ranges; and the profile
 * of marked ranges against the same ranges unmarked (0: the profile
 * classifies them from the image itself), both against the call tree
 * written out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/profile.h>

#include "etest.h"
#include "image/bcache.h"

_Static_assert(sizeof(struct etm_elem) == 128, "the element stays 128 bytes");
_Static_assert(offsetof(struct etm_elem, last_mark) == 81,
	       "last_mark sits in the padding after has_ret");

#define K ETM_LAST_KNOWN
#define CALL ETM_LAST_CALL
#define RET ETM_LAST_RETURN
#define IND ETM_LAST_INDIRECT

/* One instruction under test: its encoding (T32 32-bit: hw1 << 16 | hw2),
 * size and the mark derived by hand. */
struct mcase {
	const char *name;
	uint32_t op;
	unsigned size;
	uint8_t mark;
};

/* A32 */
static const struct mcase a32[] = {
	{ "bl +8", 0xEB000000u, 4, K | CALL },            /* direct, link */
	{ "blx r3", 0xE12FFF33u, 4, K | CALL | IND },     /* indirect, link */
	{ "bx lr", 0xE12FFF1Eu, 4, K | RET | IND },       /* return */
	{ "pop {r4,pc}", 0xE8BD8010u, 4, K | RET | IND }, /* LDMIA sp!: return */
	{ "ldr pc,[r0]", 0xE590F000u, 4, K | IND },       /* not via sp: a jump */
	{ "b +8", 0xEA000000u, 4, K },                    /* direct, no link */
};

/* T32 */
static const struct mcase t32[] = {
	{ "bl +4", 0xF000F800u, 4, K | CALL },
	{ "blx r3", 0x4798u, 2, K | CALL | IND },
	{ "bx lr", 0x4770u, 2, K | RET | IND },
	{ "pop {r4,pc}", 0xBD10u, 2, K | RET | IND },
	{ "ldr.w pc,[r0]", 0xF8D0F000u, 4, K | IND },
	{ "b +4", 0xE000u, 2, K },
};

#define NCASE 6
#define BASE 0x1000u
#define STRIDE 0x10u /* case i: a NOP at BASE + i * STRIDE, then the case */

static void put16(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

/* The image of one ISA's cases: case i is a NOP at BASE + i * STRIDE and
 * its instruction after it; the rest NOPs. */
static struct etm_image *mk_image(const struct mcase *c, int thumb,
				  uint8_t *mem, size_t len)
{
	struct etm_image *img = etm_image_alloc();
	size_t i;

	for (i = 0; i < len; i += thumb ? 2 : 4) {
		put16(mem + i, thumb ? 0xBF00u : 0xA000u); /* nop / mov r0,r0 */
		if (!thumb)
			put16(mem + i + 2, 0xE1A0u);
	}
	for (i = 0; i < NCASE; i++) {
		uint8_t *p = mem + i * STRIDE + (thumb ? 2 : 4);

		if (c[i].size == 4 && thumb) {
			put16(p, c[i].op >> 16);
			put16(p + 2, c[i].op);
		} else {
			put16(p, c[i].op);
			if (c[i].size == 4)
				put16(p + 2, c[i].op >> 16);
		}
	}
	if (img && etm_image_add_buffer(img, etm_space_any, BASE, mem, len) < 0) {
		etm_image_free(img);
		return NULL;
	}
	return img;
}

/* Each case's block (from its NOP) ends at its instruction with its mark. */
static void blocks_isa(const struct mcase *c, int thumb)
{
	static uint8_t mem[NCASE * STRIDE];
	struct etm_image *img = mk_image(c, thumb, mem, sizeof(mem));
	struct etm_block b;
	unsigned i;

	ET_CHECK(img != NULL);
	for (i = 0; i < NCASE; i++) {
		ET_EQ(etm_block_build(&b, img, etm_space_any, BASE + i * STRIDE,
				      thumb ? etmi_t32 : etmi_a32, ETM_STOP_PTM),
		      0);
		ET_EQ(b.ninsn, 2);
		if (b.last_mark != c[i].mark)
			fprintf(stderr, "%s %s: mark %#x\n", thumb ? "T32" : "A32",
				c[i].name, b.last_mark);
		ET_EQ(b.last_mark, c[i].mark);
	}
	etm_image_free(img);
}

static void blocks(void)
{
	blocks_isa(a32, 0);
	blocks_isa(t32, 1);
}

/* PTM: an I-sync at each case's NOP, then an N atom: a range of 2
 * instructions ending at the case (not executed: the mark is the
 * instruction's, whatever its outcome). */
/* The elements of @f so far: each range checked against case *@nr. */
static void drain(struct etm_flow *f, const struct mcase *c, unsigned *nr)
{
	struct etm_elem e;

	while (etm_flow_next(f, &e, sizeof(e)) == 0) {
		if (e.kind != etmk_range)
			continue;
		ET_CHECK(*nr < NCASE);
		ET_EQ(e.start, BASE + *nr * STRIDE);
		ET_EQ(e.ninsn, 2);
		ET_EQ(e.last_exec, 0);
		ET_EQ(e.last_mark, c[*nr].mark);
		(*nr)++;
	}
}

static void ptm_ranges_isa(const struct mcase *c, int thumb)
{
	static uint8_t mem[NCASE * STRIDE];
	struct etm_image *img = mk_image(c, thumb, mem, sizeof(mem));
	struct etm_config cfg;
	struct etm_flow *f;
	unsigned i, nr = 0;

	ET_CHECK(img != NULL);
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_ptm;
	cfg.etmidr = 0x411CF312;
	cfg.traceid = 0x13;
	f = etm_flow_alloc(&cfg, img);
	ET_CHECK(f != NULL);
	for (i = 0; i < NCASE; i++) {
		struct etm_packet p;

		memset(&p, 0, sizeof(p));
		p.type = etmp_isync;
		p.id = 0x13;
		p.offset = 2 * i;
		p.addr = BASE + i * STRIDE;
		p.isa = thumb ? etmi_t32 : etmi_a32;
		p.has_state = 1;
		ET_EQ(etm_flow_put(f, &p), 0);
		drain(f, c, &nr);
		memset(&p, 0, sizeof(p));
		p.type = etmp_atom;
		p.id = 0x13;
		p.offset = 2 * i + 1;
		p.atom_count = 1;
		p.atom_bits = 1; /* N */
		ET_EQ(etm_flow_put(f, &p), 0);
		drain(f, c, &nr);
	}
	etm_flow_finish(f);
	drain(f, c, &nr);
	ET_EQ(nr, NCASE);
	etm_flow_free(f);
	etm_image_free(img);
}

static void ptm_ranges(void)
{
	ptm_ranges_isa(a32, 0);
	ptm_ranges_isa(t32, 1);
}

/* The A32 image above with symbols: "c<i>" the 16 bytes of case i. */
struct pfix {
	uint8_t mem[NCASE * STRIDE];
	struct etm_image *img;
	struct etm_symbols *sy;
	struct etm_profile *p;
	struct etest_sink out;
};

static int pfix_init(struct pfix *x)
{
	static const char *names[NCASE] = { "c0", "c1", "c2", "c3", "c4", "c5" };
	unsigned i;

	memset(x, 0, sizeof(*x));
	x->img = mk_image(a32, 0, x->mem, sizeof(x->mem));
	x->sy = etm_symbols_alloc();
	if (!x->img || !x->sy)
		return -1;
	for (i = 0; i < NCASE; i++)
		if (etm_symbols_add(x->sy, BASE + i * STRIDE, STRIDE, names[i]) < 0)
			return -1;
	x->p = etm_profile_alloc(x->sy);
	return x->p && etm_profile_add_source(x->p, 0x10, x->img, 0) == 0 ? 0 : -1;
}

static void pfix_fini(struct pfix *x)
{
	etm_profile_free(x->p);
	etm_symbols_free(x->sy);
	etm_image_free(x->img);
}

/* A range of case @i's function: @n instructions from @start, the last
 * the case's instruction (classified as the decoder does) and marked
 * with @mark. */
static struct etm_elem rng(unsigned i, uint64_t start, uint32_t n,
			   uint8_t mark)
{
	static const uint8_t cls[NCASE] = { etmc_br_direct, etmc_br_indirect,
					    etmc_br_indirect, etmc_br_indirect,
					    etmc_br_indirect, etmc_br_direct };
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = etmk_range;
	e.id = 0x10;
	e.start = start;
	e.ninsn = n;
	e.last_addr = BASE + i * STRIDE + 4;
	e.end = e.last_addr + 4;
	e.isa = etmi_a32;
	e.last_size = 4;
	e.last_cls = (enum etm_insn_class)cls[i];
	e.last_link = i < 2;
	e.last_exec = 1;
	e.last_atom = 1;
	e.last_mark = mark;
	return e;
}

/* The program, by hand (marks from the A32 table): c0 runs 2 from 0x1000
 * and calls c1 (BL at 0x1004); c1 runs 2 from 0x1010 and calls c2 (BLX
 * r3 at 0x1014); c2 runs 2 from 0x1020 and returns (BX LR at 0x1024) to
 * 0x1018, after the BLX; c1 runs 2 from there, the last a NOP at 0x101c.
 * Folded (self instructions per calling context): c0 2; c0;c1 2+2 = 4;
 * c0;c1;c2 2. */
static const char want_folded[] = "c0 2\n"
				  "c0;c1 4\n"
				  "c0;c1;c2 2\n";

static void profile_run(int marked, const char *want)
{
	struct pfix x;
	struct etm_elem els[4];

	ET_CHECK(pfix_init(&x) == 0);
	els[0] = rng(0, 0x1000, 2, marked ? a32[0].mark : 0);
	els[1] = rng(1, 0x1010, 2, marked ? a32[1].mark : 0);
	els[2] = rng(2, 0x1020, 2, marked ? a32[2].mark : 0);
	els[3] = rng(1, 0x1018, 2, marked ? K : 0);
	els[3].last_addr = 0x101c;
	els[3].end = 0x1020;
	els[3].last_cls = etmc_other;
	els[3].last_link = 0;
	ET_EQ(etm_profile_elems(x.p, els, 4), 0);
	memset(&x.out, 0, sizeof(x.out));
	ET_EQ(etm_profile_write(x.p, etm_prof_folded, NULL, etest_sink_write,
				&x.out),
	      0);
	if (strcmp(x.out.buf, want))
		fprintf(stderr, "marked %d: got\n%s", marked, x.out.buf);
	ET_CHECK(strcmp(x.out.buf, want) == 0);
	pfix_fini(&x);
}

/* The same ranges marked and unmarked give the tree derived by hand. */
static void profile_marked_unmarked(void)
{
	profile_run(1, want_folded);
	profile_run(0, want_folded);
}

/* A mark is the whole truth when ETM_LAST_KNOWN is set: c2's BX LR
 * marked plain is not a return, so c1's next range runs under c2 (a jump
 * from c2 to c1 nests c1 under it, as callgrind does). Unmarked, the
 * image says it returns. Shows the profile reads the mark. */
static void profile_trusts_mark(void)
{
	struct pfix x;
	struct etm_elem els[4];

	ET_CHECK(pfix_init(&x) == 0);
	els[0] = rng(0, 0x1000, 2, a32[0].mark);
	els[1] = rng(1, 0x1010, 2, a32[1].mark);
	els[2] = rng(2, 0x1020, 2, K); /* says: plain */
	els[3] = rng(1, 0x1018, 2, K);
	els[3].last_addr = 0x101c;
	els[3].end = 0x1020;
	els[3].last_cls = etmc_other;
	els[3].last_link = 0;
	ET_EQ(etm_profile_elems(x.p, els, 4), 0);
	memset(&x.out, 0, sizeof(x.out));
	ET_EQ(etm_profile_write(x.p, etm_prof_folded, NULL, etest_sink_write,
				&x.out),
	      0);
	ET_CHECK(strcmp(x.out.buf, want_folded) != 0);
	ET_CHECK(strstr(x.out.buf, "c0;c1;c2;c1 2\n") != NULL);
	pfix_fini(&x);
}

int main(void)
{
	ETEST(blocks);
	ETEST(ptm_ranges);
	ETEST(profile_marked_unmarked);
	ETEST(profile_trusts_mark);
	return etest_end();
}
