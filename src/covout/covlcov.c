/* covout/covlcov.c - `etmtrace coverage --format lcov`: per-line and
 * per-branch coverage from the accumulated instruction counts and the DWARF
 * line table (through the symbols layer), written as an lcov tracefile.
 *
 * Definitions (doc/coverage.md): every instruction of every function with a
 * line row is walked (in the function's ISA; executed instructions by their
 * traced size). A line's count is the largest executed count of its
 * instructions. Branch records (BRDA) are the conditional branches (taken,
 * not taken; "-" when never reached) and the executed conditional
 * non-branch instructions whose every outcome the trace told (ETMv3: passed,
 * failed). Functions: FN at the line of their first address, FNDA the
 * executed count of that first instruction, or 1 where instructions of the
 * function executed but its entry was not traced (the capture began inside
 * it): a function that ran was called at least once. */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "covout/covout.h"

struct lrec {
	const char *file;
	uint32_t line;
	uint8_t is_br; /* a branch record, else a line record */
	uint8_t reached;
	uint64_t addr;         /* branch: order within the line */
	uint64_t count, other; /* line: count; branch: taken, not taken */
};

struct lvec {
	struct lrec *r;
	size_t n, cap;
	int nomem;
};

static void lvec_add(struct lvec *v, const struct lrec *r)
{
	struct lrec *p = etm_grow(v->r, &v->cap, v->n + 1, sizeof(*p), 1024);

	if (!p) {
		v->nomem = 1;
		return;
	}
	v->r = p;
	v->r[v->n++] = *r;
}

int cov_decode_at(const struct etm_image *img, uint64_t addr,
		  enum etm_isa isa, struct etm_insn *in)
{
	uint8_t b[4];
	size_t n = img ? etm_image_read(img, etm_space_any, addr, b, 4) : 0;

	return n && etm_insn_decode(in, isa, addr, b, n) > 0 ? 0 : -1;
}

static int is_branch(enum etm_insn_class c)
{
	return c == etmc_br_direct || c == etmc_br_indirect;
}

/* T32 IT block length (4 minus the trailing zeros of the mask). */
static unsigned it_len(const struct etm_insn *in)
{
	unsigned mask = in->opcode & 0xf, n = 4;

	if (!in->it || !mask)
		return 0;
	for (; !(mask & 1); mask >>= 1)
		n--;
	return n;
}

/* One instruction at @a of a function in @isa (@in_it: inside an IT block
 * by the walk): its line and branch records. Returns the size to step by;
 * *@it gets the length of the IT block it opens. */
static unsigned lcov_insn(struct covout *o, struct lvec *v, uint64_t a,
			  enum etm_isa isa, int in_it, unsigned *it)
{
	struct etm_cov_insn ci;
	struct etm_insn in;
	struct etm_line ln;
	struct lrec r = { 0 };
	int ran = etm_cov_insn_at(o->cov, a, &ci) == 0;
	int known = cov_decode_at(o->img, a, ran ? ci.isa : isa, &in) == 0;
	unsigned size = ran ? ci.size : known   ? in.size :
				isa == etmi_a32 ? 4 :
						  2;

	*it = known ? it_len(&in) : 0;
	if ((!ran && !known) || etm_symbols_line(o->sym, a, &ln) < 0 || !ln.line)
		return size;
	r.file = ln.file;
	r.line = ln.line;
	r.count = ran ? ci.exec : 0;
	lvec_add(v, &r);
	r.is_br = 1;
	r.addr = a;
	if (ran && ci.cond && (is_branch(ci.cls) || !ci.unknown)) {
		r.reached = 1;
		/* told outcomes only: lcov has no "unknown" (doc/coverage.md) */
		r.count = ci.exec - ci.fail - ci.unknown;
		r.other = ci.fail;
		lvec_add(v, &r);
	} else if (!ran && (in.cond || in_it) && is_branch(in.cls)) {
		r.count = 0;
		lvec_add(v, &r);
	}
	return size;
}

static int lrec_cmp(const void *pa, const void *pb)
{
	const struct lrec *a = pa, *b = pb;
	int k = strcmp(a->file, b->file);

	if (k)
		return k;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->is_br != b->is_br)
		return a->is_br - b->is_br;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void lcov_function(struct covout *o, struct lvec *v,
			  const struct etm_sym *f)
{
	enum etm_isa isa = f->thumb ? etmi_t32 : etmi_a32;
	uint64_t a = f->start;
	unsigned left = 0, it;

	while (a < f->end && !v->nomem) {
		a += lcov_insn(o, v, a, isa, left > 0, &it);
		left = it ? it : left ? left - 1 :
					0;
	}
}

/* The FNDA count of @f: the executed count of its first instruction (the
 * entries seen), else 1 if any of its instructions executed (it ran, but
 * the trace began inside it), else 0. */
static uint64_t lcov_calls(const struct covout *o, const struct etm_sym *f)
{
	struct etm_cov_insn ci;

	if (etm_cov_insn_at(o->cov, f->start, &ci) == 0)
		return ci.exec;
	return etm_cov_next_insn(o->cov, f->start, &ci) == 0 && ci.addr < f->end;
}

/* The FN/FNDA records of the functions whose first line is in @file. */
static void lcov_funcs(struct covout *o, const char *file, uint64_t *fnf,
		       uint64_t *fnh)
{
	size_t i, n = etm_symbols_count(o->sym);
	struct etm_sym f;
	struct etm_line ln;

	for (i = 0; i < n; i++) {
		if (etm_symbols_get(o->sym, i, &f) < 0 ||
		    etm_symbols_line(o->sym, f.start, &ln) < 0 || !ln.line ||
		    strcmp(ln.file, file))
			continue;
		cov_printf(o, "FN:%u,%s\n", ln.line, f.name);
	}
	for (i = 0; i < n; i++) {
		uint64_t c;

		if (etm_symbols_get(o->sym, i, &f) < 0 ||
		    etm_symbols_line(o->sym, f.start, &ln) < 0 || !ln.line ||
		    strcmp(ln.file, file))
			continue;
		c = lcov_calls(o, &f);
		cov_printf(o, "FNDA:%llu,%s\n", (unsigned long long)c, f.name);
		++*fnf;
		*fnh += c > 0;
	}
}

/* Records [i, j) of one file, sorted. */
static void lcov_file(struct covout *o, const struct lrec *r, size_t i,
		      size_t j)
{
	uint64_t fnf = 0, fnh = 0, brf = 0, brh = 0, lf = 0, lh = 0;
	size_t k, m;
	uint32_t block = 0, line = 0;
	char local[4096]; /* SF: the local file where one is found */

	cov_printf(o, "TN:%s\nSF:%s\n", o->test_name ? o->test_name : "",
		   o->srcpath && etm_srcpath_find(o->srcpath, r[i].file, local,
						  sizeof(local)) == 0 ?
			   local :
			   r[i].file);
	lcov_funcs(o, r[i].file, &fnf, &fnh);
	cov_printf(o, "FNF:%llu\nFNH:%llu\n", (unsigned long long)fnf,
		   (unsigned long long)fnh);
	for (k = i; k < j; k++) {
		if (!r[k].is_br)
			continue;
		block = r[k].line == line ? block + 1 : 0;
		line = r[k].line;
		if (!r[k].reached) {
			cov_printf(o, "BRDA:%u,%u,0,-\nBRDA:%u,%u,1,-\n", line,
				   block, line, block);
		} else {
			cov_printf(o, "BRDA:%u,%u,0,%llu\nBRDA:%u,%u,1,%llu\n",
				   line, block, (unsigned long long)r[k].count, line,
				   block, (unsigned long long)r[k].other);
			brh += (r[k].count > 0) + (r[k].other > 0);
		}
		brf += 2;
	}
	cov_printf(o, "BRF:%llu\nBRH:%llu\n", (unsigned long long)brf,
		   (unsigned long long)brh);
	for (k = i; k < j; k = m) {
		uint64_t c = 0;

		for (m = k; m < j && r[m].line == r[k].line; m++)
			if (!r[m].is_br && r[m].count > c)
				c = r[m].count;
		cov_printf(o, "DA:%u,%llu\n", r[k].line, (unsigned long long)c);
		lf++;
		lh += c > 0;
	}
	cov_printf(o, "LF:%llu\nLH:%llu\nend_of_record\n",
		   (unsigned long long)lf, (unsigned long long)lh);
}

/* Executed instructions outside every function (code the symbol table
 * does not name, e.g. local assembler labels): their lines too. */
static void lcov_unnamed(struct covout *o, struct lvec *v)
{
	struct etm_cov_insn ci;
	struct etm_sym f;
	uint64_t a = 0;
	unsigned it;

	while (!v->nomem && etm_cov_next_insn(o->cov, a, &ci) == 0) {
		if (etm_symbols_lookup(o->sym, ci.addr, &f) < 0 ||
		    ci.addr >= f.end)
			lcov_insn(o, v, ci.addr, ci.isa, 0, &it);
		a = ci.addr + 2;
	}
}

int cov_write_lcov(struct covout *o)
{
	struct lvec v = { 0 };
	struct etm_sym f;
	size_t i, j, n;

	if (!o->sym || !etm_symbols_has_lines(o->sym))
		return -etme_invalid;
	n = etm_symbols_count(o->sym);
	for (i = 0; i < n && !v.nomem; i++)
		if (etm_symbols_get(o->sym, i, &f) == 0)
			lcov_function(o, &v, &f);
	lcov_unnamed(o, &v);
	if (v.nomem) {
		free(v.r);
		return -etme_nomem;
	}
	qsort(v.r, v.n, sizeof(*v.r), lrec_cmp);
	for (i = 0; i < v.n && !o->err; i = j) {
		for (j = i; j < v.n && !strcmp(v.r[j].file, v.r[i].file); j++)
			;
		lcov_file(o, v.r, i, j);
	}
	free(v.r);
	return o->err;
}
