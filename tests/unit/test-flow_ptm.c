/* tests/unit/test-flow_ptm.c - unit tests of the PTM flow decoder: hand-made
 * packet sequences over tiny hand-assembled images, expected elements derived
 * by hand (shared/docs/ptm.md §15-19, seed 003 tables). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "etest.h"

/* ---- A32 / T32 opcodes used below ---------------------------------------- */
#define A_NOP 0xE1A00000u    /* mov r0, r0 */
#define A_LDRPC 0xE59FF018u  /* ldr pc, [pc, #24]: indirect */
#define A_SUBSPC 0xE25EF004u /* subs pc, lr, #4: indirect (exception return) */
#define A_ISB 0xF57FF06Fu    /* isb sy */
#define A_DMB 0xF57FF05Fu    /* dmb sy */
#define A_BXLR 0xE12FFF1Eu   /* bx lr */
#define T_NOP 0xBF00u        /* nop (16-bit) */
#define T_MOVPC 0x4687u      /* mov pc, r0: indirect */

/* A32 B/BL/B<cond> at @from to @to: imm24 = (to - (from + 8)) / 4 */
static uint32_t a_b(uint32_t cond_op, uint32_t from, uint32_t to)
{
	return cond_op | (((to - from - 8) >> 2) & 0xFFFFFFu);
}

/* ---- little-endian stores into test images ------------------------------ */
static void put16(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *b, uint32_t v)
{
	put16(b, v);
	put16(b + 2, v >> 16);
}

/* T32 32-bit instruction hw1:hw2 in memory order */
static void putt32(uint8_t *b, uint32_t hw1, uint32_t hw2)
{
	put16(b, hw1);
	put16(b + 2, hw2);
}

static struct etm_config mkcfg(uint32_t etmcr, uint32_t etmccer)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = etm_proto_ptm;
	c.etmcr = etmcr;
	c.etmccer = etmccer;
	c.etmidr = 0x411CF312; /* PFTv1.1 (TC2) */
	c.traceid = 0x13;
	return c;
}

#define OUTMAX 8192

struct run {
	struct etm_flow *f;
	char out[OUTMAX];
	size_t len;
};

__attribute__((format(printf, 2, 3))) static void outf(struct run *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(r->out + r->len, OUTMAX - r->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < OUTMAX - r->len)
		r->len += (size_t)n;
}

/*
 * One line per element:
 *   R <start>-<last_addr> <ninsn> <E|N|W>[ c<cycles>]   range (W: ended by a
 *       waypoint update / nomem, no atom)
 *   ON <reason> <addr> | EXC <num> <vector> <ret|-> | ERET | NOMEM <addr>
 *   ERR <errname> | CTX <ns> <hyp> <ctxid> | CC <cycles> | TS <ts> | TRIG
 */
static void render(struct run *r, const struct etm_elem *e)
{
	typedef unsigned long long ull;

	switch (e->kind) {
	case etmk_range:
		outf(r, "R %llx-%llx %u %s", (ull)e->start, (ull)e->last_addr,
		     e->ninsn, !e->last_atom ? "W" : e->last_exec ? "E" :
								    "N");
		if (e->has_cycles)
			outf(r, " c%u", e->cycles);
		outf(r, "\n");
		break;
	case etmk_trace_on:
		outf(r, "ON %u %llx\n", e->reason, (ull)e->addr);
		break;
	case etmk_exception:
		outf(r, "EXC %u %llx ", e->exc_num, (ull)e->addr);
		if (e->has_ret)
			outf(r, "%llx\n", (ull)e->ret_addr);
		else
			outf(r, "-\n");
		break;
	case etmk_exc_return: outf(r, "ERET\n"); break;
	case etmk_nomem: outf(r, "NOMEM %llx\n", (ull)e->addr); break;
	case etmk_error: outf(r, "ERR %s\n", etm_errname(e->err)); break;
	case etmk_context:
		outf(r, "CTX %u %u %x\n", e->ns, e->hyp, e->ctxid);
		break;
	case etmk_cycle_count: outf(r, "CC %u\n", e->cycles); break;
	case etmk_timestamp: outf(r, "TS %llu\n", (ull)e->timestamp); break;
	case etmk_event: outf(r, "TRIG\n"); break;
	default: outf(r, "?%d\n", (int)e->kind); break;
	}
}

static int feed(struct run *r, const struct etm_packet *pk)
{
	struct etm_elem e;
	int err = etm_flow_put(r->f, pk);

	if (err < 0)
		return err;
	while (etm_flow_next(r->f, &e, sizeof(e)) == 0)
		render(r, &e);
	return 0;
}

/* Packet builder: @t is 'A' / 'T', the ISA after the packet. */
static struct etm_packet pk(enum etm_pkt_type type, uint32_t addr, char t)
{
	static uint64_t off; /* test-only: distinct offsets */
	struct etm_packet p;

	memset(&p, 0, sizeof(p));
	p.type = type;
	p.offset = off++;
	p.id = 0x13;
	p.addr = addr;
	p.isa = t == 'T' ? etmi_t32 : etmi_a32;
	return p;
}

#define pk_base(type) pk((type), 0, 'A')
#define pk_branch(addr, t) pk(etmp_branch, (addr), (t))
#define pk_wu(addr, t) pk(etmp_waypoint, (addr), (t))

static struct etm_packet pk_isync(uint32_t addr, char t, unsigned reason)
{
	struct etm_packet p = pk(etmp_isync, addr, t);

	p.reason = (uint8_t)reason;
	p.has_state = 1;
	return p;
}

/* atoms oldest first, "ENE" */
static struct etm_packet pk_atoms(const char *s)
{
	struct etm_packet p = pk_base(etmp_atom);
	unsigned i;

	for (i = 0; s[i]; i++)
		if (s[i] == 'N')
			p.atom_bits |= 1u << i;
	p.atom_count = (uint8_t)i;
	return p;
}

static struct etm_packet pk_exc(uint32_t addr, char t, unsigned num)
{
	struct etm_packet p = pk_branch(addr, t);

	p.has_exc = 1;
	p.exc_num = (uint16_t)num;
	p.has_state = 1;
	return p;
}

static struct etm_packet pk_cc(struct etm_packet p, uint32_t cc)
{
	p.has_cc = 1;
	p.cycle_count = cc;
	return p;
}

static void run_init(struct run *r, const struct etm_config *c,
		     const struct etm_image *img)
{
	memset(r, 0, sizeof(*r));
	r->f = etm_flow_alloc(c, img);
}

static int run_check(struct run *r, const char *want)
{
	etm_flow_finish(r->f);
	etm_flow_free(r->f);
	r->f = NULL;
	if (strcmp(r->out, want) == 0)
		return 1;
	fprintf(stderr, "--- expected:\n%s--- got:\n%s---\n", want, r->out);
	return 0;
}

/* first I-sync: trace on (start) and the initial context */
#define START(a) "ON 0 " a "\n" \
		 "CTX 0 0 0\n"

#define FEED(r, p) ET_EQ(feed((r), &(p)), 0)
#define FEEDP(r, expr)                          \
	do {                                    \
		struct etm_packet pk_ = (expr); \
		ET_EQ(feed((r), &pk_), 0);      \
	} while (0)

/* ---- 1. atoms over direct branches, indirect via branch packet ----------- */

/*
 *  1000 mov r0,r0        1004 mov r0,r0
 *  1008 beq 0x1014       100c mov r0,r0       1010 b 0x1000
 *  1014 bl 0x1020        1018 b 0x1018        101c mov r0,r0
 *  1020 bx lr
 */
static struct etm_image *img_basic(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[0x24];
	unsigned i;

	for (i = 0; i < sizeof(b); i += 4)
		put32(b + i, A_NOP);
	put32(b + 0x08, a_b(0x0A000000, 0x1008, 0x1014));
	put32(b + 0x10, a_b(0xEA000000, 0x1010, 0x1000));
	put32(b + 0x14, a_b(0xEB000000, 0x1014, 0x1020));
	put32(b + 0x18, a_b(0xEA000000, 0x1018, 0x1018));
	put32(b + 0x20, A_BXLR);
	etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b));
	return img;
}

static void do_direct(int cache)
{
	struct etm_image *img = img_basic();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	etm_flow_set_cache(r.f, cache);
	/* atoms before the first I-sync are dropped */
	FEEDP(&r, pk_atoms("EEE"));
	/* first I-sync (periodic): trace on, reason start (0), and context */
	FEEDP(&r, pk_isync(0x1000, 'A', 0));
	/*
	 * N: walk 1000,1004 to beq@1008, not taken -> 100c.
	 * E: 100c, b@1010 -> 1000.  E: 1000,1004, beq@1008 taken -> 1014.
	 * E: bl@1014 -> 1020 (return stack off: no push).
	 */
	FEEDP(&r, pk_atoms("NEEE"));
	/* bx lr@1020 traced by a branch packet to 1018 (implied E) */
	FEEDP(&r, pk_branch(0x1018, 'A'));
	/* E on b@1018 (branch to self), twice */
	FEEDP(&r, pk_atoms("EE"));
	/* a periodic I-sync while in sync emits nothing */
	FEEDP(&r, pk_isync(0x1018, 'A', 0));
	FEEDP(&r, pk_atoms("E"));
	ET_CHECK(run_check(&r,
			   START("1000") "R 1000-1008 3 N\n"
					 "R 100c-1010 2 E\n"
					 "R 1000-1008 3 E\n"
					 "R 1014-1014 1 E\n"
					 "R 1020-1020 1 E\n"
					 "R 1018-1018 1 E\n"
					 "R 1018-1018 1 E\n"
					 "R 1018-1018 1 E\n"));
	etm_image_free(img);
}

/* with the block cache on and off: identical elements */
static void t_direct(void)
{
	do_direct(1);
	do_direct(0);
}

/* range element fields for one atom, checked field by field */
static void t_range_fields(void)
{
	struct etm_image *img = img_basic();
	struct etm_config c = mkcfg(0, 0);
	struct etm_packet p;
	struct etm_elem e;
	struct etm_flow *f = etm_flow_alloc(&c, img);

	ET_CHECK(f);
	p = pk_isync(0x100c, 'A', 1);
	ET_EQ(etm_flow_put(f, &p), 0);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.kind, etmk_trace_on);
	ET_EQ(e.id, 0x13);
	ET_EQ(e.addr, 0x100c);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.kind, etmk_context);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), -etme_again);
	/* E: mov@100c, b@1010 -> 1000 */
	p = pk_atoms("E");
	ET_EQ(etm_flow_put(f, &p), 0);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.kind, etmk_range);
	ET_EQ(e.start, 0x100c);
	ET_EQ(e.end, 0x1014);
	ET_EQ(e.isa, etmi_a32);
	ET_EQ(e.ninsn, 2);
	ET_EQ(e.last_addr, 0x1010);
	ET_EQ(e.last_size, 4);
	ET_EQ(e.last_cls, etmc_br_direct);
	ET_EQ(e.last_link, 0);
	ET_EQ(e.last_exec, 1);
	ET_EQ(e.last_atom, 1);
	ET_EQ(e.has_cycles, 0);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), -etme_again);
	/* E: bl@1014 -> 1020 has the link bit; run it through 1000..1014 */
	p = pk_atoms("EE");
	ET_EQ(etm_flow_put(f, &p), 0);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.last_addr, 0x1008);
	ET_EQ(etm_flow_next(f, &e, sizeof(e)), 0);
	ET_EQ(e.last_addr, 0x1014);
	ET_EQ(e.last_link, 1);
	etm_flow_free(f);
	etm_image_free(img);
}

/* ---- 2. indirect E atom without a return stack; errors; resync ---------- */
static void t_indirect_error(void)
{
	struct etm_image *img = img_basic();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x1020, 'A', 1));
	/* E on bx lr@1020 with the return stack off: impossible -> error,
	 * the following atom is dropped until the next I-sync */
	FEEDP(&r, pk_atoms("EE"));
	FEEDP(&r, pk_atoms("E"));
	FEEDP(&r, pk_branch(0x1000, 'A'));
	/* periodic I-sync after an error: trace on, reason resync (4) */
	FEEDP(&r, pk_isync(0x1018, 'A', 0));
	FEEDP(&r, pk_atoms("E"));
	/* a parser error packet: error, then unsynchronised */
	{
		struct etm_packet p = pk_base(etmp_error);

		p.err = etme_bad_opc;
		FEED(&r, p);
	}
	FEEDP(&r, pk_atoms("E"));
	/* overflow I-sync -> reason overflow (2) */
	FEEDP(&r, pk_isync(0x1018, 'A', 2));
	FEEDP(&r, pk_atoms("E"));
	ET_CHECK(run_check(&r,
			   START("1020") "R 1020-1020 1 E\n"
					 "ERR retstack_empty\n"
					 "ON 4 1018\n"
					 "CTX 0 0 0\n"
					 "R 1018-1018 1 E\n"
					 "ERR bad_opc\n"
					 "ON 2 1018\n"
					 "CTX 0 0 0\n"
					 "R 1018-1018 1 E\n"));
	etm_image_free(img);
}

/* ---- 3. seed 003 tables: exceptions, WU, back-to-back ------------------- */

/* 0x0000-0x3200 of mov r0,r0 (ARM) with: 0x18 and 0x1C ldr pc,[pc,#24]
 * (IRQ and FIQ vectors), 0x2100 and 0x3100 subs pc,lr,#4. */
static struct etm_image *img_vec_arm(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t *b = malloc(0x3200);
	unsigned i;

	for (i = 0; i < 0x3200; i += 4)
		put32(b + i, A_NOP);
	put32(b + 0x18, A_LDRPC);
	put32(b + 0x1c, A_LDRPC);
	put32(b + 0x2100, A_SUBSPC);
	put32(b + 0x3100, A_SUBSPC);
	etm_image_add_buffer(img, etm_space_any, 0, b, 0x3200);
	free(b);
	return img;
}

/* Table 5.3: FIQ immediately after IRQ, nothing runs at the IRQ vector */
static void t_seed003_t53(void)
{
	struct etm_image *img = img_vec_arm();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x0ff8, 'A', 0));
	/* 1: WU 0x1000 -> 0ff8, 0ffc, 1000 (3 instructions, no atom) */
	FEEDP(&r, pk_wu(0x1000, 'A'));
	/* 2: IRQ (14) -> 0x18; preferred return = after the MOV = 0x1004 */
	FEEDP(&r, pk_exc(0x18, 'A', 14));
	/* 3: FIQ (15) -> 0x1C, no WU between: nothing ran at 0x18, which is
	 * where the FIQ returns to */
	FEEDP(&r, pk_exc(0x1c, 'A', 15));
	/* 4: branch 0x2000: the LDR PC at 0x1C */
	FEEDP(&r, pk_branch(0x2000, 'A'));
	/* 6: branch 0x18: 0x2000..0x2100 = 0x40 movs + subs = 65 insns */
	FEEDP(&r, pk_branch(0x18, 'A'));
	FEEDP(&r, pk_base(etmp_exc_return));
	/* 7: branch 0x3000: the LDR PC at the IRQ vector runs now */
	FEEDP(&r, pk_branch(0x3000, 'A'));
	/* 8: branch 0x1004: 0x3000..0x3100 */
	FEEDP(&r, pk_branch(0x1004, 'A'));
	FEEDP(&r, pk_base(etmp_exc_return));
	/* then a WU at 0x1008 and an IRQ: 1004, 1008 */
	FEEDP(&r, pk_wu(0x1008, 'A'));
	FEEDP(&r, pk_exc(0x18, 'A', 14));
	ET_CHECK(run_check(&r,
			   START("ff8") "R ff8-1000 3 W\n"
					"EXC 14 18 1004\n"
					"EXC 15 1c 18\n"
					"R 1c-1c 1 E\n"
					"R 2000-2100 65 E\n"
					"ERET\n"
					"R 18-18 1 E\n"
					"R 3000-3100 65 E\n"
					"ERET\n"
					"R 1004-1008 2 W\n"
					"EXC 14 18 100c\n"));
	etm_image_free(img);
}

/* Table 5.4: FIQ after the branch at the IRQ vector */
static void t_seed003_t54(void)
{
	struct etm_image *img = img_vec_arm();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x0ff8, 'A', 0));
	FEEDP(&r, pk_wu(0x1000, 'A'));     /* 1 */
	FEEDP(&r, pk_exc(0x18, 'A', 14));  /* 2 */
	FEEDP(&r, pk_branch(0x3000, 'A')); /* 3: LDR PC @0x18 */
	/* 4: FIQ with no WU: the last instruction was the waypoint at 0x18,
	 * nothing ran at 0x3000 -> return there */
	FEEDP(&r, pk_exc(0x1c, 'A', 15));
	FEEDP(&r, pk_branch(0x2000, 'A')); /* 5: LDR PC @0x1C */
	FEEDP(&r, pk_branch(0x3000, 'A')); /* 6: SUBS @0x2100 */
	FEEDP(&r, pk_branch(0x1004, 'A')); /* 7: SUBS @0x3100 */
	ET_CHECK(run_check(&r,
			   START("ff8") "R ff8-1000 3 W\n"
					"EXC 14 18 1004\n"
					"R 18-18 1 E\n"
					"EXC 15 1c 3000\n"
					"R 1c-1c 1 E\n"
					"R 2000-2100 65 E\n"
					"R 3000-3100 65 E\n"));
	etm_image_free(img);
}

/* Table 5.5 (Thumb): 0x0000-0x3200 of 16-bit NOPs; 0x1A mov pc,r0;
 * 0x1C ldr.w pc,[pc,#24]; 0x2100 and 0x3100 subs pc,lr,#4 (32-bit). */
static void t_seed003_t55(void)
{
	struct etm_image *img = etm_image_alloc();
	struct etm_config c = mkcfg(0, 0);
	uint8_t *b = malloc(0x3200);
	struct run r;
	unsigned i;

	for (i = 0; i < 0x3200; i += 2)
		put16(b + i, T_NOP);
	put16(b + 0x1a, T_MOVPC);
	putt32(b + 0x1c, 0xF8DF, 0xF018);
	putt32(b + 0x2100, 0xF3DE, 0x8F04);
	putt32(b + 0x3100, 0xF3DE, 0x8F04);
	etm_image_add_buffer(img, etm_space_any, 0, b, 0x3200);
	free(b);
	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x0ffc, 'T', 0));
	/* 1: WU 0x1000: ffc, ffe, 1000; IRQ -> 0x18, return to 0x1002 */
	FEEDP(&r, pk_wu(0x1000, 'T'));
	FEEDP(&r, pk_exc(0x18, 'T', 14));
	/* 2: WU 0x18: the NOP at the IRQ vector ran (upgraded) */
	FEEDP(&r, pk_wu(0x18, 'T'));
	/* 3: FIQ -> 0x1C, returns to 0x1A (after the NOP) */
	FEEDP(&r, pk_exc(0x1c, 'T', 15));
	/* 4: LDR PC @0x1C -> 0x2000; 0x2000..0x20fe = 0x80 NOPs + SUBS
	 * @0x2100 = 129 insns -> 0x1A */
	FEEDP(&r, pk_branch(0x2000, 'T'));
	FEEDP(&r, pk_branch(0x1a, 'T'));
	/* 5: mov pc,r0 @0x1A -> 0x3000 ... SUBS @0x3100 -> 0x1004 */
	FEEDP(&r, pk_branch(0x3000, 'T'));
	FEEDP(&r, pk_branch(0x1004, 'T'));
	ET_CHECK(run_check(&r,
			   START("ffc") "R ffc-1000 3 W\n"
					"EXC 14 18 1002\n"
					"R 18-18 1 W\n"
					"EXC 15 1c 1a\n"
					"R 1c-1c 1 E\n"
					"R 2000-2100 129 E\n"
					"R 1a-1a 1 E\n"
					"R 3000-3100 129 E\n"));
	etm_image_free(img);
}

/* ---- 4. waypoint update without exception (> 4096 bytes) ---------------- */
static void t_wu_large(void)
{
	struct etm_image *img = etm_image_alloc();
	struct etm_config c = mkcfg(0, 0);
	uint8_t *b = malloc(0x1404);
	struct run r;
	unsigned i;

	/* 0x10000..0x113fc: 0x500 movs; 0x11400: b 0x10000 */
	for (i = 0; i < 0x1400; i += 4)
		put32(b + i, A_NOP);
	put32(b + 0x1400, a_b(0xEA000000, 0x11400, 0x10000));
	etm_image_add_buffer(img, etm_space_any, 0x10000, b, 0x1404);
	free(b);
	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x10000, 'A', 1));
	/* WU at 0x10ffc: 0x10000..0x10ffc = 0x400 instructions; continue at
	 * 0x11000; the atom then covers 0x11000..0x11400 = 0x101 insns */
	FEEDP(&r, pk_wu(0x10ffc, 'A'));
	FEEDP(&r, pk_atoms("E"));
	/* a WU address inside an instruction names that instruction:
	 * 0x10002 is in the MOV at 0x10000 */
	FEEDP(&r, pk_wu(0x10002, 'A'));
	/* a WU behind the current address is inconsistent */
	FEEDP(&r, pk_wu(0x10000, 'A'));
	ET_CHECK(run_check(&r,
			   START("10000") "R 10000-10ffc 1024 W\n"
					  "R 11000-11400 257 E\n"
					  "R 10000-10000 1 W\n"
					  "ERR mismatch\n"));
	etm_image_free(img);
}

/* ---- 5. return stack: shared/docs/ptm.md §19 worked example -------------------- */

/* trace_cov_a15 code at 0x800004d8..0x8000055f, hand-assembled from the
 * listing in shared/docs/ptm.md §19 (same words as the RO_CODE dump). */
static struct etm_image *img_cov(void)
{
	static const uint32_t code[] = {
		0xE92D4010,                         /* 4d8 push {r4,lr} */
		0xE1A03000,                         /* 4dc mov r3,r0 */
		0xE3A00000,                         /* 4e0 mov r0,#0 */
		0xE3530000,                         /* 4e4 cmp r3,#0 */
		0x1A000001,                         /* 4e8 bne 0x4f4 */
		0xE3510000,                         /* 4ec cmp r1,#0 */
		0x0A000002,                         /* 4f0 beq 0x500 */
		0xE3520000,                         /* 4f4 cmp r2,#0 */
		0x0A000000,                         /* 4f8 beq 0x500 */
		0xE3A00001,                         /* 4fc mov r0,#1 */
		0xE8BD8010,                         /* 500 pop {r4,pc} */
		0xE52DE004,                         /* 504 str lr,[sp,#-4]! */
		0xE3A02001, 0xE3A01000, 0xE1A00001, /* 508..510 */
		0xEBFFFFEF,                         /* 514 bl 0x4d8 */
		0xE3A02001, 0xE3A01000, 0xE1A00002, /* 518..520 */
		0xEBFFFFEB,                         /* 524 bl 0x4d8 */
		0xE3A02000, 0xE3A01001, 0xE1A00002, /* 528..530 */
		0xEBFFFFE7,                         /* 534 bl 0x4d8 */
		0xE3A02001, 0xE1A01002, 0xE3A00000, /* 538..540 */
		0xEBFFFFE3,                         /* 544 bl 0x4d8 */
		0xE49DF004,                         /* 548 ldr pc,[sp],#4 */
		A_NOP, A_NOP, A_NOP,                /* 54c..554 (not reached) */
		0xEBFFFFE9,                         /* 558 bl 0x504 */
		A_NOP,                              /* 55c */
	};
	struct etm_image *img = etm_image_alloc();
	uint8_t b[sizeof(code)];
	unsigned i;

	for (i = 0; i < sizeof(code) / 4; i++)
		put32(b + 4 * i, code[i]);
	etm_image_add_buffer(img, etm_space_any, 0x800004d8, b, sizeof(b));
	return img;
}

/* expected decode of §19 (table in shared/docs/ptm.md): */
static const char cov_want[] =
	START("80000558") "R 80000558-80000558 1 E\n" /* bl 0x504, push 0x55c */
			  "EXC 1 0 80000504\n"        /* debug halt: nothing at 0x504 */
			  "ON 3 80000504\n"           /* debug exit; stack flushed */
			  "R 80000504-80000514 5 E\n" /*  1 bl, push 518 */
			  "R 800004d8-800004e8 5 N\n" /*  2 bne */
			  "R 800004ec-800004f0 2 E\n" /*  3 beq -> 500 */
			  "R 80000500-80000500 1 E\n" /*  4 pop -> 518 (return stack) */
			  "R 80000518-80000524 4 E\n" /*  5 bl, push 528 */
			  "R 800004d8-800004e8 5 E\n" /*  6 bne -> 4f4 */
			  "R 800004f4-800004f8 2 N\n" /*  7 beq */
			  "R 800004fc-80000500 2 E\n" /*  8 pop -> 528 */
			  "R 80000528-80000534 4 E\n" /*  9 bl, push 538 */
			  "R 800004d8-800004e8 5 N\n" /* 10 */
			  "R 800004ec-800004f0 2 N\n" /* 11 */
			  "R 800004f4-800004f8 2 E\n" /* 12 beq -> 500 */
			  "R 80000500-80000500 1 E\n" /* 13 pop -> 538 */
			  "R 80000538-80000544 4 E\n" /* 14 bl, push 548 */
			  "R 800004d8-800004e8 5 N\n" /* 15 */
			  "R 800004ec-800004f0 2 N\n" /* 16 */
			  "R 800004f4-800004f8 2 N\n" /* 17 */
			  "R 800004fc-80000500 2 E\n" /* 18 pop -> 548 */
			  "R 80000548-80000548 1 E\n" /* branch 55c: ldr pc */
			  "EXC 1 0 8000055c\n";

static void feed_cov(struct run *r)
{
	feed(r, &(struct etm_packet){ .type = etmp_async });
	FEEDP(r, pk_isync(0x80000558, 'A', 3));
	FEEDP(r, pk_atoms("E"));
	FEEDP(r, pk_exc(0, 'A', 1));
	FEEDP(r, pk_isync(0x80000504, 'A', 3));
	/* d0 d2 e2 9c */
	FEEDP(r, pk_atoms("ENEEE"));
	FEEDP(r, pk_atoms("ENEEN"));
	FEEDP(r, pk_atoms("NEEEN"));
	FEEDP(r, pk_atoms("NNE"));
	FEEDP(r, pk_branch(0x8000055c, 'A'));
	FEEDP(r, pk_exc(0, 'A', 1));
}

static void t_retstack_cov(void)
{
	struct etm_image *img = img_cov();
	struct etm_config c = mkcfg(0x20000400, 0x00800000);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	feed_cov(&r);
	ET_CHECK(run_check(&r, cov_want));
	etm_image_free(img);
}

/* the same packets over the real RO_CODE dump, if the shared data is there */
static void t_retstack_cov_real(void)
{
	struct etm_image *img;
	struct etm_config c = mkcfg(0x20000400, 0x00800000);
	char buf[512];
	const char *path = etest_shared(
		"snapshots/trace_cov_a15/mem_Cortex-A15_0_1_RO_CODE.bin", buf,
		sizeof(buf));
	struct run r;

	if (!path) {
		etest_skip("no shared data");
		return;
	}
	img = etm_image_alloc();
	ET_EQ(etm_image_add_file(img, etm_space_any, 0x80000278, path, 0, 0),
	      0);
	run_init(&r, &c, img);
	ET_CHECK(r.f);
	feed_cov(&r);
	ET_CHECK(run_check(&r, cov_want));
	etm_image_free(img);
}

/* without the return stack, the E atom on pop {r4,pc} is an error */
static void t_retstack_off(void)
{
	struct etm_image *img = img_cov();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x80000504, 'A', 1));
	FEEDP(&r, pk_atoms("ENEEE"));
	ET_CHECK(run_check(&r,
			   START("80000504") "R 80000504-80000514 5 E\n"
					     "R 800004d8-800004e8 5 N\n"
					     "R 800004ec-800004f0 2 E\n"
					     "R 80000500-80000500 1 E\n"
					     "ERR retstack_empty\n"));
	etm_image_free(img);
}

/* ---- 6. ISB and DMB waypoints ------------------------------------------- */

/* 1000 mov; 1004 isb; 1008 dmb; 100c mov; 1010 b 0x1010 */
static struct etm_image *img_isb(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[0x14];

	put32(b + 0x0, A_NOP);
	put32(b + 0x4, A_ISB);
	put32(b + 0x8, A_DMB);
	put32(b + 0xc, A_NOP);
	put32(b + 0x10, a_b(0xEA000000, 0x1010, 0x1010));
	etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b));
	return img;
}

static void t_isb(void)
{
	struct etm_image *img = img_isb();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	/* ISB is a waypoint (atom E, continue at 1008); DMB is not
	 * (ETMCCER[24] = 0): 1008, 100c, b@1010 */
	FEEDP(&r, pk_isync(0x1000, 'A', 1));
	FEEDP(&r, pk_atoms("EE"));
	ET_CHECK(run_check(&r,
			   START("1000") "R 1000-1004 2 E\n"
					 "R 1008-1010 3 E\n"));
	/* ETMCCER[24] = 1: the DMB is a waypoint too */
	c = mkcfg(0, 1u << 24);
	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x1000, 'A', 1));
	FEEDP(&r, pk_atoms("EEE"));
	ET_CHECK(run_check(&r,
			   START("1000") "R 1000-1004 2 E\n"
					 "R 1008-1008 1 E\n"
					 "R 100c-1010 2 E\n"));
	etm_image_free(img);
}

/* ---- 7. Thumb ------------------------------------------------------------ */

/*
 *  2000 movs r0,#0        (2000)
 *  2002 ldr.w r1,[r2]     (f8d2 1000)
 *  2006 cbz r0, 0x2010    (b118: i:imm5 = 3 -> 2006+4+6)
 *  2008 bl 0x2020         (f000 f80a: 2008+4+2*10)
 *  200c b.n 0x200c        (e7fe)
 *  200e nop
 *  2010 bx lr             (4770)
 *  2012..201e nop
 *  2020 pop {pc}          (bd00)
 */
static struct etm_image *img_thumb(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[0x22];
	unsigned i;

	for (i = 0; i < sizeof(b); i += 2)
		put16(b + i, T_NOP);
	put16(b + 0x0, 0x2000);
	putt32(b + 0x2, 0xF8D2, 0x1000);
	put16(b + 0x6, 0xB118);
	putt32(b + 0x8, 0xF000, 0xF80A);
	put16(b + 0xc, 0xE7FE);
	put16(b + 0x10, 0x4770);
	put16(b + 0x20, 0xBD00);
	etm_image_add_buffer(img, etm_space_any, 0x2000, b, sizeof(b));
	return img;
}

static void t_thumb(void)
{
	struct etm_image *img = img_thumb();
	struct etm_config c = mkcfg(0x20000000, 0); /* return stack on */
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x2000, 'T', 1));
	/* N: cbz@2006 not taken; E: bl@2008 -> 2020, push 200c (Thumb);
	 * E: pop {pc}@2020 pops 200c; E: b.n@200c self */
	FEEDP(&r, pk_atoms("NEEE"));
	/* I-sync to 0x2006 (flushes the stack); E: cbz -> 2010;
	 * E on bx lr: stack empty -> error */
	FEEDP(&r, pk_isync(0x2006, 'T', 1));
	FEEDP(&r, pk_atoms("EE"));
	ET_CHECK(run_check(&r,
			   START("2000") "R 2000-2006 3 N\n"
					 "R 2008-2008 1 E\n"
					 "R 2020-2020 1 E\n"
					 "R 200c-200c 1 E\n"
					 "ON 1 2006\n"
					 "R 2006-2006 1 E\n"
					 "R 2010-2010 1 E\n"
					 "ERR retstack_empty\n"));
	etm_image_free(img);
}

/* WU naming the second halfword of a 32-bit Thumb instruction */
static void t_thumb_wu(void)
{
	struct etm_image *img = img_thumb();
	struct etm_config c = mkcfg(0, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x2000, 'T', 1));
	/* 0x2004 is inside ldr.w@2002: 2000, 2002 ran; continue at 2006;
	 * SVC (10) -> 0x8 ARM: return 0x2006 */
	FEEDP(&r, pk_wu(0x2004, 'T'));
	FEEDP(&r, pk_exc(0x8, 'A', 10));
	FEEDP(&r, pk_branch(0x2006, 'T'));
	FEEDP(&r, pk_atoms("E"));
	/* Undefined after a WU returns to the upgraded instruction itself */
	FEEDP(&r, pk_wu(0x2010, 'T'));
	FEEDP(&r, pk_exc(0x4, 'A', 9));
	ET_CHECK(run_check(&r,
			   START("2000") "R 2000-2002 2 W\n"
					 "EXC 10 8 2006\n"
					 "NOMEM 8\n"
					 "R 2006-2006 1 E\n"
					 "R 2010-2010 1 W\n"
					 "EXC 9 4 2010\n"));
	etm_image_free(img);
}

/* ---- 8. missing memory --------------------------------------------------- */
static void t_nomem(void)
{
	struct etm_image *img = etm_image_alloc();
	struct etm_config c = mkcfg(0, 0);
	struct run r;
	uint8_t b[0x10];

	/* 1000 mov; 1004 b 0x5000 (unmapped); 1008 mov; 100c mov (image
	 * ends at 1010) */
	put32(b + 0, A_NOP);
	put32(b + 4, a_b(0xEA000000, 0x1004, 0x5000));
	put32(b + 8, A_NOP);
	put32(b + 12, A_NOP);
	etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b));
	run_init(&r, &c, img);
	ET_CHECK(r.f);
	FEEDP(&r, pk_isync(0x1000, 'A', 1));
	/* E -> 5000; E: unreadable -> nomem, the third atom is lost */
	FEEDP(&r, pk_atoms("EEE"));
	/* a branch packet gives a new address (no range: nothing known) */
	FEEDP(&r, pk_branch(0x1000, 'A'));
	/* N on the b: 1008, 100c, then memory ends at 1010 */
	FEEDP(&r, pk_atoms("NE"));
	FEEDP(&r, pk_atoms("E"));
	/* a WU while lost: the named instruction ran */
	FEEDP(&r, pk_wu(0x1008, 'A'));
	FEEDP(&r, pk_atoms("E"));
	ET_CHECK(run_check(&r,
			   START("1000") "R 1000-1004 2 E\n"
					 "NOMEM 5000\n"
					 "R 1000-1004 2 N\n"
					 "R 1008-100c 2 W\n"
					 "NOMEM 1010\n"
					 "R 1008-1008 1 W\n"
					 "R 100c-100c 1 W\n"
					 "NOMEM 1010\n"));
	etm_image_free(img);
}

/* ---- 9. cycle-accurate mode --------------------------------------------- */
static void t_cycles(void)
{
	struct etm_image *img = img_basic();
	struct etm_config c = mkcfg(1u << 12, 0);
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	/* trace-on I-sync with cycle count 51 (cc 03): a gap of 51 cycles */
	FEEDP(&r, pk_cc(pk_isync(0x1000, 'A', 1), 51));
	/* e8 20 -> E, 522 cycles: 1000,1004, beq@1008 taken */
	FEEDP(&r, pk_cc(pk_atoms("E"), 522));
	/* de 01 -> N, 23: bl@1014 not taken */
	FEEDP(&r, pk_cc(pk_atoms("N"), 23));
	/* b@1018 E 15; then bx lr is never reached: branch to 0x5000 from
	 * b@1018 with 378 cycles (branch broadcast style) */
	FEEDP(&r, pk_cc(pk_atoms("E"), 15));
	FEEDP(&r, pk_cc(pk_branch(0x5000, 'A'), 378));
	/* unmapped: the atom's cycles have no instruction */
	FEEDP(&r, pk_cc(pk_atoms("E"), 2));
	FEEDP(&r, pk_cc(pk_atoms("E"), 10));
	FEEDP(&r, pk_cc(pk_branch(0x1000, 'A'), 7));
	/* WU: no cycle count of its own */
	FEEDP(&r, pk_wu(0x1004, 'A'));
	{
		struct etm_packet p = pk_base(etmp_timestamp);

		p.timestamp = 562537008076ull;
		p.has_cc = 1;
		FEED(&r, p);
	}
	ET_CHECK(run_check(&r,
			   "CC 51\n" START("1000") "R 1000-1008 3 E c522\n"
						   "R 1014-1014 1 N c23\n"
						   "R 1018-1018 1 E c15\n"
						   "R 1018-1018 1 E c378\n"
						   "NOMEM 5000\n"
						   "CC 2\n"
						   "CC 10\n"
						   "CC 7\n"
						   "R 1000-1004 2 W c0\n"
						   "TS 562537008076\n"));
	etm_image_free(img);
}

/* ---- 10. context, trigger, state ---------------------------------------- */
static void t_context(void)
{
	struct etm_image *img = img_basic();
	struct etm_config c = mkcfg(3u << 14, 0);
	struct etm_packet p;
	struct run r;

	run_init(&r, &c, img);
	ET_CHECK(r.f);
	p = pk_isync(0x1000, 'A', 1);
	p.has_ctxid = 1;
	p.ctxid = 0x42;
	p.ns = 1;
	FEED(&r, p);
	/* same ctxid: nothing; new one: context */
	p = pk_base(etmp_ctxid);
	p.ctxid = 0x42;
	FEED(&r, p);
	p.ctxid = 0x43;
	FEED(&r, p);
	FEEDP(&r, pk_base(etmp_trigger));
	FEEDP(&r, pk_base(etmp_ignore));
	FEEDP(&r, pk_base(etmp_async));
	/* branch packet with exception byte, exception 0: state change to
	 * secure Hyp; it is a plain branch (implied E on beq@1008) */
	p = pk_exc(0x1014, 'A', 0);
	p.hyp = 1;
	FEED(&r, p);
	FEEDP(&r, pk_atoms("E"));
	ET_CHECK(run_check(&r,
			   "ON 0 1000\n"
			   "CTX 1 0 42\n"
			   "CTX 1 0 43\n"
			   "TRIG\n"
			   "R 1000-1008 3 E\n"
			   "CTX 0 1 43\n"
			   "R 1014-1014 1 E\n"));
	etm_image_free(img);
}

/* ---- 11. per-process images switched by the Context ID ------------------ */
/* Image of process 0x43: at 0x1000 "b 0x1010", at 0x1010 "b 0x1000" (the
 * same addresses as img_basic(), process 0x42's: nop, nop, beq 0x1014). */
static struct etm_image *img_other(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[0x14];

	memset(b, 0, sizeof(b));
	put32(b, a_b(0xEA000000, 0x1000, 0x1010));
	put32(b + 0x10, a_b(0xEA000000, 0x1010, 0x1000));
	etm_image_add_buffer(img, etm_space_any, 0x1000, b, sizeof(b));
	return img;
}

struct ctx_imgs {
	const struct etm_image *a, *b, *none;
};

static const struct etm_image *ctx_img(void *arg, uint32_t ctxid)
{
	const struct ctx_imgs *t = arg;

	return ctxid == 0x42 ? t->a : ctxid == 0x43 ? t->b :
						      t->none;
}

/* Each I-sync (trace on) names a process; the atoms walk its image: 0x42 runs nop,
 * nop, beq (3 instructions to the first waypoint), 0x43 the branch at
 * 0x1000 alone, then the one at 0x1010; back in 0x42 its image again
 * (the cache forgot 0x43's blocks); 0x44 has an empty image: no memory. */
static void do_ctx_images(int cache)
{
	struct etm_image *a = img_basic(), *b = img_other(),
			 *none = etm_image_alloc();
	struct ctx_imgs t = { a, b, none };
	struct etm_config c = mkcfg(3u << 14, 0);
	static const uint32_t ids[] = { 0x42, 0x43, 0x42, 0x44 };
	struct etm_packet p;
	struct run r;
	unsigned i;

	run_init(&r, &c, a);
	ET_CHECK(r.f);
	etm_flow_set_cache(r.f, cache);
	etm_flow_set_ctx_images(r.f, ctx_img, &t);
	for (i = 0; i < 4; i++) {
		p = pk_isync(0x1000, 'A', 1); /* trace on: a new position */
		p.has_ctxid = 1;
		p.ctxid = ids[i];
		FEED(&r, p);
		FEEDP(&r, pk_atoms(ids[i] == 0x43 ? "EE" : "E"));
	}
	ET_CHECK(run_check(&r, "ON 0 1000\n"
			       "CTX 0 0 42\n"
			       "R 1000-1008 3 E\n"
			       "ON 1 1000\n"
			       "CTX 0 0 43\n"
			       "R 1000-1000 1 E\n"
			       "R 1010-1010 1 E\n"
			       "ON 1 1000\n"
			       "CTX 0 0 42\n"
			       "R 1000-1008 3 E\n"
			       "ON 1 1000\n"
			       "CTX 0 0 44\n"
			       "NOMEM 1000\n"));
	etm_image_free(a);
	etm_image_free(b);
	etm_image_free(none);
}

static void t_ctx_images(void)
{
	do_ctx_images(1);
	do_ctx_images(0);
}

int main(void)
{
	ETEST(t_direct);
	ETEST(t_range_fields);
	ETEST(t_indirect_error);
	ETEST(t_seed003_t53);
	ETEST(t_seed003_t54);
	ETEST(t_seed003_t55);
	ETEST(t_wu_large);
	ETEST(t_retstack_cov);
	ETEST(t_retstack_cov_real);
	ETEST(t_retstack_off);
	ETEST(t_isb);
	ETEST(t_thumb);
	ETEST(t_thumb_wu);
	ETEST(t_nomem);
	ETEST(t_cycles);
	ETEST(t_context);
	ETEST(t_ctx_images);
	return etest_end();
}
