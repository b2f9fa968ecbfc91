/* encode/gen.c - seeded random program generator: A32/T32 functions with
 * straight code, conditional skips, loops, calls (BL, BLX imm, BLX reg),
 * indirect jumps, returns, SVC/UDF, ISB, exception vectors and handlers.
 * For ETMv1 the program is ARMv5TE code (the ARM926EJ-S synth claims):
 * 16-bit Thumb plus the BL/BLX pair, no IT, CBZ, 32-bit Thumb, hint NOPs,
 * barriers or other ARMv6T2+ instructions (g->v5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "common/grow.h"
#include "encode/gen_int.h"

static int gen_add(struct etm_gen *g, enum gop op, enum etm_isa isa,
		   unsigned size)
{
	struct gitem *it;

	if (g->err)
		return 0;
	it = etm_grow(g->it, &g->itcap, g->nit + 1, sizeof(*it), 256);
	if (!it) {
		g->err = -etme_nomem;
		return 0;
	}
	g->it = it;
	it = &g->it[g->nit];
	memset(it, 0, sizeof(*it));
	it->op = (uint8_t)op;
	it->isa = (uint8_t)isa;
	it->size = (uint8_t)size;
	it->cc = 14;
	it->tgt = -1;
	it->func = -1;
	it->variant = (uint8_t)etm_rng_below(&g->rng, 256);
	return (int)g->nit++;
}

static unsigned t32_size(struct etm_gen *g)
{
	return etm_rng_chance(&g->rng, 1, 4) && !g->v5 ? 4 : 2;
}

static void gen_plain(struct etm_gen *g, enum etm_isa isa, int allow_cond)
{
	int i = gen_add(g, go_plain, isa, isa == etmi_a32 ? 4 : t32_size(g));

	if (!g->err && isa == etmi_a32 && allow_cond &&
	    etm_rng_chance(&g->rng, 1, 4)) {
		g->it[i].cond = 1;
		g->it[i].cc = (uint8_t)etm_rng_below(&g->rng, 14);
	}
	if (!g->err && (g->o.flags & ETM_GEN_DATA))
		gen_data_item(g, i);
}

static void gen_straight(struct etm_gen *g, enum etm_isa isa, unsigned n)
{
	while (n--)
		gen_plain(g, isa, 1);
}

/* Conditional forward branch over 1-4 instructions. */
static void gen_skip(struct etm_gen *g, enum etm_isa isa)
{
	unsigned k = 1 + etm_rng_below(&g->rng, 4), j;
	int cbz = isa == etmi_t32 && etm_rng_chance(&g->rng, 1, 3) && !g->v5;
	int i = gen_add(g, cbz ? go_cbz : go_bcond, isa, isa == etmi_a32 ? 4 : 2);

	for (j = 0; j < k; j++)
		gen_plain(g, isa, 1);
	if (g->err)
		return;
	g->it[i].cc = (uint8_t)etm_rng_below(&g->rng, 14);
	g->it[i].tgt = (int32_t)g->nit;
}

/* Loop: 1-4 instructions and a conditional branch back. */
static void gen_loop(struct etm_gen *g, enum etm_isa isa)
{
	int start = (int)g->nit, i;

	gen_straight(g, isa, 1 + etm_rng_below(&g->rng, 4));
	i = gen_add(g, go_bcond, isa, isa == etmi_a32 ? 4 : 2);
	if (g->err)
		return;
	g->it[i].cc = (uint8_t)etm_rng_below(&g->rng, 14);
	g->it[i].tgt = start;
}

static void gen_it(struct etm_gen *g)
{
	int i = gen_add(g, go_it, etmi_t32, 2), j;

	j = gen_add(g, go_plain, etmi_t32, t32_size(g));
	if (g->err)
		return;
	g->it[i].cc = (uint8_t)etm_rng_below(&g->rng, 14);
	g->it[j].cond = 1;
}

/* Indirect jump to one of 2-3 blocks that rejoin after them. */
static void gen_jmp(struct etm_gen *g, enum etm_isa isa)
{
	unsigned nalt = 2 + etm_rng_below(&g->rng, 2), a;
	int j = gen_add(g, go_jmp, isa, isa == etmi_a32 ? 4 : 0), b[3];
	uint32_t lab[3], *t;

	if (g->err)
		return;
	if (isa == etmi_t32) /* LDR.W pc (ARMv6T2+) or BX */
		g->it[j].size = (g->it[j].variant & 1) && !g->v5 ? 4 : 2;
	for (a = 0; a < nalt; a++) {
		lab[a] = (uint32_t)g->nit;
		gen_straight(g, isa, 1 + etm_rng_below(&g->rng, 2));
		b[a] = gen_add(g, go_b, isa, isa == etmi_a32 ? 4 : 2);
	}
	if (g->err)
		return;
	for (a = 0; a < nalt; a++)
		g->it[b[a]].tgt = (int32_t)g->nit;
	t = etm_grow(g->tab, &g->tabcap, g->ntab + nalt, sizeof(*t), 64);
	if (!t) {
		g->err = -etme_nomem;
		return;
	}
	g->tab = t;
	g->it[j].itab = (uint32_t)g->ntab;
	g->it[j].ntab = (uint16_t)nalt;
	for (a = 0; a < nalt; a++)
		g->tab[g->ntab++] = lab[a];
}

static void gen_call(struct etm_gen *g, unsigned f, enum etm_isa isa, int reg)
{
	unsigned h;
	int i;

	if (f + 1 >= g->nfn) {
		gen_plain(g, isa, 0);
		return;
	}
	h = f + 1 + etm_rng_below(&g->rng, g->nfn - f - 1);
	i = gen_add(g, reg ? go_callr : go_bl, isa,
		    reg && isa == etmi_t32 ? 2 : 4);
	if (!g->err)
		g->it[i].func = (int16_t)h;
}

static void gen_stmt(struct etm_gen *g, unsigned f, enum etm_isa isa)
{
	unsigned fl = g->o.flags, r = etm_rng_below(&g->rng, 100);

	if (r < 30)
		gen_straight(g, isa, 1 + etm_rng_below(&g->rng, 5));
	else if (r < 45)
		gen_skip(g, isa);
	else if (r < 55)
		gen_loop(g, isa);
	else if (r < 60 && isa == etmi_t32 && !g->v5)
		gen_it(g);
	else if (r < 72)
		gen_call(g, f, isa, 0);
	else if (r < 77)
		gen_call(g, f, isa, 1);
	else if (r < 84)
		gen_jmp(g, isa);
	else if (r < 89 && (fl & ETM_GEN_EXC))
		gen_add(g, go_svc, isa, isa == etmi_a32 ? 4 : 2);
	else if (r < 91 && (fl & ETM_GEN_EXC))
		gen_add(g, go_udf, isa, isa == etmi_a32 ? 4 : 2);
	else if (r < 95 && (fl & ETM_GEN_ISB) && !g->v5)
		gen_add(g, go_isb, isa, 4);
	else
		gen_straight(g, isa, 1 + etm_rng_below(&g->rng, 3));
}

static void gen_func(struct etm_gen *g, unsigned f)
{
	enum etm_isa isa = g->fn[f].isa;
	unsigned n = 3 + etm_rng_below(&g->rng, 7), s;
	int i;

	g->fn[f].first = (uint32_t)g->nit;
	gen_plain(g, isa, 0);
	if (!g->err)
		g->it[g->fn[f].first].align = 1;
	for (s = 0; s < n && !g->err; s++) {
		gen_stmt(g, f, isa);
		if (s == 1 && f == 0 && (g->o.flags & ETM_GEN_LONG)) {
			/* a straight run of > 4 KiB: PTM waypoint update */
			unsigned k;

			unsigned nk = isa == etmi_a32 ? 1100u : g->v5 ? 600u :
									2200u;

			/* ARMv5 T32: the main loop's 16-bit B reaches 2 KiB */
			for (k = 0; k < nk; k++) {
				i = gen_add(g, go_plain, isa, isa == etmi_a32 ? 4 : 2);
				if (!g->err)
					g->it[i].variant = 3;
			}
		}
	}
	if (f == 0) {
		/* the main function loops forever (B.W: ARMv6T2+) */
		i = gen_add(g, go_b, isa, isa == etmi_t32 && g->v5 ? 2 : 4);
		if (!g->err)
			g->it[i].tgt = (int32_t)g->fn[0].first;
	} else {
		gen_add(g, go_ret, isa, 0);
		if (!g->err) {
			struct gitem *r = &g->it[g->nit - 1];

			/* T32 variant 2: LDMIA.W sp!, {r4, pc} (ARMv6T2+) */
			if (isa == etmi_t32 && g->v5 && (r->variant & 3) == 2)
				r->variant ^= 2u; /* BX lr */
			r->size = isa == etmi_a32 || (r->variant & 3) == 2 ? 4 : 2;
		}
	}
}

/* Exception handler (A32): a few instructions, maybe a skip, return. */
static void gen_handler(struct etm_gen *g, unsigned exc)
{
	g->handler[exc] = (uint32_t)g->nit;
	gen_plain(g, etmi_a32, 0);
	if (!g->err)
		g->it[g->nit - 1].align = 1;
	gen_straight(g, etmi_a32, etm_rng_below(&g->rng, 3));
	if (etm_rng_chance(&g->rng, 1, 2))
		gen_skip(g, etmi_a32);
	gen_add(g, go_eret, etmi_a32, 4);
}

/* Vector offsets of the exceptions the walker raises (ARMv7-A/R; 0x14 is
 * the Hyp trap entry of the Hyp vector table, shared here). */
static const uint8_t vec_exc[GEN_NVEC] = { 0, 9, 10, 11, 12, 3, 14, 15 };

uint64_t gen_vector(const struct etm_gen *g, unsigned exc)
{
	unsigned i;

	for (i = 1; i < GEN_NVEC; i++)
		if (vec_exc[i] == exc)
			return g->o.vector_base + 4 * i;
	return g->o.vector_base;
}

static void gen_program(struct etm_gen *g)
{
	unsigned f, v;

	for (v = 0; v < GEN_NVEC; v++) {
		int i = gen_add(g, go_b, etmi_a32, 4);

		if (!g->err)
			g->it[i].tgt = i; /* unused vector: loop */
	}
	g->code_first = (uint32_t)g->nit;
	for (f = 0; f < g->nfn && !g->err; f++)
		gen_func(g, f);
	if (!(g->o.flags & ETM_GEN_EXC))
		return;
	for (v = 1; v < GEN_NVEC && !g->err; v++) {
		if (!vec_exc[v] || vec_exc[v] == 11)
			continue;
		gen_handler(g, vec_exc[v]);
		g->it[v].tgt = (int32_t)g->handler[vec_exc[v]];
	}
}

/* ---- layout and encoding ------------------------------------------------- */

static void gen_layout(struct etm_gen *g)
{
	uint64_t a = g->o.code_base;
	size_t i;

	for (i = 0; i < g->nit; i++) {
		struct gitem *it = &g->it[i];

		if (i < g->code_first) {
			it->addr = g->o.vector_base + 4 * i;
			continue;
		}
		if (it->align || it->isa == etmi_a32)
			a = (a + 3) & ~3ull;
		it->addr = a;
		a += it->size;
	}
}

static uint64_t gen_func_entry(const struct etm_gen *g, int f)
{
	return g->it[g->fn[f].first].addr;
}

/* Target address of a direct branch / call item. */
static uint64_t gen_target(const struct etm_gen *g, const struct gitem *it)
{
	if (it->func >= 0)
		return gen_func_entry(g, it->func);
	return g->it[it->tgt].addr;
}

/* T32 BL / BLX / B.W T4 from a byte offset: S:I1:I2:imm10:imm11:'0',
 * J1 = NOT(I1) XOR S, J2 = NOT(I2) XOR S (ARMv7-AR A8.8.25). */
static uint32_t t32_long(int64_t off, uint32_t hw2base)
{
	uint32_t v = (uint32_t)off, s = (v >> 24) & 1;
	uint32_t i1 = (v >> 23) & 1, i2 = (v >> 22) & 1;
	uint32_t j1 = (!i1) ^ s, j2 = (!i2) ^ s;
	uint32_t hw1 = 0xf000 | (s << 10) | ((v >> 12) & 0x3ff);
	uint32_t hw2 = hw2base | (j1 << 13) | (j2 << 11) | ((v >> 1) & 0x7ff);

	return hw1 << 16 | hw2;
}

static uint32_t a32_off24(const struct gitem *it, uint64_t t)
{
	return (uint32_t)(((int64_t)t - (int64_t)(it->addr + 8)) >> 2) & 0xffffff;
}

static uint32_t gen_enc_a32(const struct etm_gen *g, const struct gitem *it)
{
	static const uint32_t ret[4] = { 0xe12fff1e, 0xe49df004, 0xe8bd8010,
					 0xe1a0f00e };
	uint32_t v = it->variant, rd = v & 7, cc = (uint32_t)it->cc << 28;
	uint64_t t;

	switch (it->op) {
	case go_plain:
		if (it->ldst)
			return cc | gen_data_enc(it);
		switch ((v >> 3) & 3) {
		case 0: return cc | 0x03a00000 | rd << 12 | (v & 0xff);
		case 1: return cc | 0x02800000 | rd << 16 | rd << 12 | 1;
		case 2: return cc | 0x03500000 | rd << 16 | (v >> 5);
		default: /* NOP (ARMv6K/T2+ hint), ARMv5: MOV rd, rd */
			return g->v5 ? cc | 0x01a00000 | rd << 12 | rd :
				       cc | 0x0320f000;
		}
	case go_bcond:
	case go_b:
		return (it->op == go_b ? 0xe0000000 : cc) | 0x0a000000 |
		       a32_off24(it, gen_target(g, it));
	case go_bl:
		t = gen_target(g, it);
		if (g->fn[it->func].isa == etmi_a32)
			return 0xeb000000 | a32_off24(it, t);
		/* BLX imm: H = offset bit 1 */
		return 0xfa000000 | (uint32_t)(((t - it->addr - 8) >> 1) & 1) << 24 |
		       a32_off24(it, t);
	case go_callr: return 0xe12fff30 | rd;
	case go_jmp:
		return (v & 1) ? 0xe590f000 | rd << 16 : 0xe12fff10 | rd;
	case go_ret: return ret[v & 3];
	case go_svc: return 0xef000000 | (v & 0xff);
	case go_udf: return 0xe7f000f0;
	case go_isb: return 0xf57ff06f - (v % 3) * 0x10; /* ISB, DMB, DSB */
	case go_eret: return (v & 1) ? 0xe1b0f00e : 0xe25ef004;
	default: return 0xe320f000;
	}
}

static uint32_t gen_enc_t32(const struct etm_gen *g, const struct gitem *it)
{
	static const uint32_t ret[4] = { 0x4770, 0xbd00, 0xe8bd8010, 0x46f7 };
	uint32_t v = it->variant, rd = v & 7;
	int64_t off = 0;

	if (it->tgt >= 0 || it->func >= 0)
		off = (int64_t)gen_target(g, it) - (int64_t)(it->addr + 4);
	switch (it->op) {
	case go_plain:
		if (it->ldst)
			return gen_data_enc(it);
		if (it->size == 4)
			return (v & 0x10) ? 0xf2400000 | rd << 8 | (v >> 5) :
					    (0xf100u | rd) << 16 | rd << 8 | 1;
		switch ((v >> 3) & 3) {
		case 0: return 0x2000 | rd << 8 | (v >> 5);
		case 1: return 0x3000 | rd << 8 | 1;
		case 2: return 0x2800 | rd << 8 | (v >> 5);
		default: return g->v5 ? 0x46c0 : 0xbf00; /* MOV r8, r8 / NOP */
		}
	case go_it: return 0xbf08 | (uint32_t)it->cc << 4;
	case go_bcond:
		return 0xd000 | (uint32_t)it->cc << 8 | ((uint32_t)(off >> 1) & 0xff);
	case go_cbz:
		return 0xb100 | (v & 1) << 11 | (uint32_t)((off >> 6) & 1) << 9 |
		       (uint32_t)((off >> 1) & 0x1f) << 3 | rd;
	case go_b:
		if (it->size == 2)
			return 0xe000 | ((uint32_t)(off >> 1) & 0x7ff);
		return t32_long(off, 0x9000);
	case go_bl:
		if (g->fn[it->func].isa == etmi_t32)
			return t32_long(off, 0xd000);
		/* BLX imm: relative to Align(PC, 4) */
		off = (int64_t)gen_target(g, it) - (int64_t)((it->addr + 4) & ~3ull);
		return t32_long(off, 0xc000);
	case go_callr: return 0x4780 | rd << 3;
	case go_jmp:
		return it->size == 4 ? (0xf8d0u | rd) << 16 | 0xf000 : 0x4700 | rd << 3;
	case go_ret: return ret[(v & 3) == 2 ? 2 : (v & 3)];
	case go_svc: return 0xdf00 | (v & 0xff);
	case go_udf: return 0xde00 | (v & 0xff);
	case go_isb: return 0xf3bf8f6f - (v % 3) * 0x10; /* ISB, DMB, DSB */
	default: return 0xbf00;
	}
}

static void put_le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static int gen_encode(struct etm_gen *g)
{
	const struct gitem *last = &g->it[g->nit - 1];
	size_t i;

	g->membase[0] = g->o.vector_base;
	g->memlen[0] = 4 * GEN_NVEC;
	g->membase[1] = g->o.code_base;
	g->memlen[1] = (size_t)(last->addr + last->size - g->o.code_base);
	g->mem[0] = calloc(1, g->memlen[0]);
	g->mem[1] = calloc(1, g->memlen[1]);
	if (!g->mem[0] || !g->mem[1])
		return -etme_nomem;
	for (i = 0; i < g->nit; i++) {
		struct gitem *it = &g->it[i];
		int r = i >= g->code_first;
		uint8_t *p = g->mem[r] + (it->addr - g->membase[r]);

		if (it->isa == etmi_a32) {
			it->opc = gen_enc_a32(g, it);
			put_le16(p, it->opc);
			put_le16(p + 2, it->opc >> 16);
		} else {
			it->opc = gen_enc_t32(g, it);
			if (it->size == 4) {
				put_le16(p, it->opc >> 16);
				put_le16(p + 2, it->opc);
			} else {
				put_le16(p, it->opc);
			}
		}
	}
	return 0;
}

int gen_item_at(const struct etm_gen *g, uint64_t addr)
{
	size_t lo = 0, hi = g->nit;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->it[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nit && g->it[lo].addr == addr ? (int)lo : -1;
}

/* ---- public API ------------------------------------------------------------ */

struct etm_gen *etm_gen_alloc(const struct etm_gen_opts *o, size_t size)
{
	struct etm_gen *g;
	unsigned f;

	if (!o || size < sizeof(size_t))
		return NULL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	memcpy(&g->o, o, size < sizeof(g->o) ? size : sizeof(g->o));
	g->o.size = sizeof(g->o);
	if (!g->o.ninsn)
		g->o.ninsn = 2000;
	if (!g->o.nfuncs)
		g->o.nfuncs = 8;
	if (!g->o.code_base)
		g->o.code_base = 0x10000;
	if (!(g->o.flags & (ETM_GEN_ARM | ETM_GEN_THUMB)))
		g->o.flags |= ETM_GEN_ARM;
	if (g->o.nfuncs > GEN_MAX_FUNCS || (g->o.code_base & 3) ||
	    (g->o.vector_base & 31) ||
	    g->o.vector_base + 4 * GEN_NVEC > g->o.code_base ||
	    g->o.code_base >= 0xff000000u) {
		free(g);
		return NULL;
	}
	g->rng.s = g->o.seed;
	g->v5 = g->o.proto == etm_proto_etmv1;
	g->nfn = g->o.nfuncs;
	for (f = 0; f < g->nfn; f++) {
		unsigned fl = g->o.flags & (ETM_GEN_ARM | ETM_GEN_THUMB);

		g->fn[f].isa = fl == ETM_GEN_THUMB           ? etmi_t32 :
			       fl == ETM_GEN_ARM             ? etmi_a32 :
			       etm_rng_chance(&g->rng, 1, 2) ? etmi_t32 :
							       etmi_a32;
	}
	gen_program(g);
	if (!g->err) {
		gen_layout(g);
		g->err = gen_encode(g);
	}
	if (!g->err)
		g->err = gen_walk(g);
	if (!g->err && (g->o.flags & ETM_GEN_DATA))
		g->err = gen_data_events(g);
	if (g->err) {
		etm_gen_free(g);
		return NULL;
	}
	return g;
}

void etm_gen_free(struct etm_gen *g)
{
	if (!g)
		return;
	free(g->it);
	free(g->tab);
	free(g->mem[0]);
	free(g->mem[1]);
	free(g->ev);
	free(g);
}

size_t etm_gen_nregions(const struct etm_gen *g)
{
	return g ? 2 : 0;
}

int etm_gen_region(const struct etm_gen *g, size_t i, uint64_t *addr,
		   const uint8_t **bytes, size_t *n)
{
	if (!g || i >= 2 || !addr || !bytes || !n)
		return -etme_invalid;
	*addr = g->membase[i];
	*bytes = g->mem[i];
	*n = g->memlen[i];
	return 0;
}

int etm_gen_add_to_image(const struct etm_gen *g, struct etm_image *img)
{
	size_t i;
	int r;

	if (!g || !img)
		return -etme_invalid;
	for (i = 0; i < 2; i++) {
		r = etm_image_add_buffer(img, etm_space_any, g->membase[i],
					 g->mem[i], g->memlen[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

const struct etm_ev *etm_gen_events(const struct etm_gen *g, size_t *n)
{
	if (!g || !n)
		return NULL;
	*n = g->nev;
	return g->ev;
}

/* Expected classification of an item. */
static enum etm_insn_class gen_class(const struct gitem *it)
{
	switch (it->op) {
	case go_bcond:
	case go_b:
	case go_bl:
	case go_cbz:
		return etmc_br_direct;
	case go_jmp:
	case go_callr:
	case go_ret:
	case go_eret:
		return etmc_br_indirect;
	case go_svc:
	case go_udf:
		return etmc_exc_gen;
	case go_isb:
		return it->variant % 3 ? etmc_barrier : etmc_isb;
	default:
		return etmc_other;
	}
}

static int gen_check_one(const struct etm_gen *g, const struct gitem *it,
			 char *why, size_t n)
{
	enum etm_insn_class want = gen_class(it);
	struct etm_insn in;
	uint8_t buf[4];
	int r = it->addr >= g->o.code_base;
	const uint8_t *p = g->mem[r] + (it->addr - g->membase[r]);
	int link = it->op == go_bl || it->op == go_callr;

	memcpy(buf, p, it->size);
	if (etm_insn_decode(&in, it->isa, it->addr, buf, it->size) != it->size ||
	    in.cls != want || in.link != link ||
	    in.exc_return != (it->op == go_eret) ||
	    (want == etmc_br_direct && in.target != gen_target(g, it))) {
		snprintf(why, n, "%s %08llx opcode %08x: classified %s link %u "
				 "target %08llx, generated %s link %d target %08llx",
			 etm_isa_name(it->isa), (unsigned long long)it->addr,
			 it->opc, etm_insn_class_name(in.cls), in.link,
			 (unsigned long long)in.target, etm_insn_class_name(want),
			 link, (unsigned long long)(want == etmc_br_direct ? gen_target(g, it) : 0));
		return 1;
	}
	return 0;
}

int etm_gen_check(const struct etm_gen *g, char *why, size_t n)
{
	size_t i;
	int bad = 0;

	if (!g)
		return -etme_invalid;
	if (why && n)
		why[0] = 0;
	for (i = 0; i < g->nit; i++) {
		char tmp[256];

		if (gen_check_one(g, &g->it[i], tmp, sizeof(tmp)) && !bad++ &&
		    why)
			snprintf(why, n, "%s", tmp);
	}
	return bad;
}
