/* profile/prof_report.c - the three reports of etm_profile_write(): the
 * flat table (perf report --stdio style), collapsed stacks, and
 * callgrind.out (format version 1: fl/fn/cfn/calls, line positions). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "profile/prof_int.h"

static double pct(uint64_t a, uint64_t total)
{
	return total ? 100.0 * (double)a / (double)total : 0.0;
}

static void flat_header(struct etm_profile *p, struct prof_w *w, int cyc)
{
	const struct etm_prof_stats *st = &p->st;

	prof_w_printf(w, "# etmtrace profile: %llu instructions\n",
		      (unsigned long long)st->insns);
	prof_w_printf(w, "# calls %llu, returns %llu, exceptions %llu, context "
			 "switches %llu, trace gaps %llu\n",
		      (unsigned long long)st->calls, (unsigned long long)st->returns,
		      (unsigned long long)st->exceptions,
		      (unsigned long long)st->contexts, (unsigned long long)st->gaps);
	prof_w_printf(w, "# returns to an unknown caller (stack restarted from an "
			 "unknown root) %llu, frames unwound by a return to a deeper "
			 "frame %llu, frames dropped at depth %u: %llu\n#\n",
		      (unsigned long long)st->resets, (unsigned long long)st->unwound,
		      PROF_MAX_DEPTH, (unsigned long long)st->truncated);
	prof_w_printf(w, "# %8s %8s %12s %12s %8s", "Self", "Children", "Self-insns",
		      "Incl-insns", "Calls");
	if (cyc)
		prof_w_printf(w, " %12s %12s", "Self-cyc", "Incl-cyc");
	prof_w_printf(w, "  Function\n");
}

static int write_flat(struct etm_profile *p, struct prof_w *w)
{
	const struct etm_prof_func *f;
	size_t n, i;
	int cyc = 0, r = etm_profile_funcs(p, &f, &n);

	if (r < 0)
		return r;
	for (i = 0; i < n; i++)
		cyc |= f[i].self_cyc != 0;
	flat_header(p, w, cyc);
	for (i = 0; i < n; i++) {
		prof_w_printf(w, "  %7.2f%% %7.2f%% %12llu %12llu %8llu",
			      pct(f[i].self, p->st.insns), pct(f[i].incl, p->st.insns),
			      (unsigned long long)f[i].self,
			      (unsigned long long)f[i].incl,
			      (unsigned long long)f[i].calls);
		if (cyc)
			prof_w_printf(w, " %12llu %12llu",
				      (unsigned long long)f[i].self_cyc,
				      (unsigned long long)f[i].incl_cyc);
		prof_w_printf(w, "  %s\n", f[i].name);
	}
	return 0;
}

/* "root;...;leaf N" for every context with instructions of its own. */
static int write_folded(struct etm_profile *p, struct prof_w *w)
{
	uint32_t path[PROF_MAX_DEPTH + 8];
	size_t i;

	for (i = 1; i < p->nnodes; i++) {
		uint32_t n = 0, x;

		if (!p->nodes[i].self)
			continue;
		for (x = (uint32_t)i; x && n < PROF_MAX_DEPTH + 8; x = p->nodes[x].parent)
			path[n++] = x;
		while (n--)
			prof_w_printf(w, "%s%c", prof_func_name(p, p->nodes[path[n]].func),
				      n ? ';' : ' ');
		prof_w_printf(w, "%llu\n", (unsigned long long)p->nodes[i].self);
	}
	return 0;
}

/* ---- callgrind ---------------------------------------------------------- */

struct cg_edge {
	uint32_t caller, callee;
	uint64_t calls, incl, incl_cyc, call_addr;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct cg_edge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* Call edges between functions, merged over calling contexts. */
static struct cg_edge *cg_edges(struct etm_profile *p, size_t *n)
{
	struct cg_edge *e = malloc((p->nnodes + 1) * sizeof(*e));
	size_t i, k = 0, m = 0;

	if (!e)
		return NULL;
	for (i = 1; i < p->nnodes; i++) {
		const struct prof_node *nd = &p->nodes[i];

		if (!nd->parent)
			continue;
		e[k].caller = p->nodes[nd->parent].func;
		e[k].callee = nd->func;
		e[k].calls = nd->calls;
		e[k].incl = nd->incl;
		e[k].incl_cyc = nd->incl_cyc;
		e[k].call_addr = nd->call_addr;
		k++;
	}
	if (k)
		qsort(e, k, sizeof(*e), edge_cmp);
	for (i = 0; i < k; i++) {
		if (m && e[m - 1].caller == e[i].caller && e[m - 1].callee == e[i].callee) {
			e[m - 1].calls += e[i].calls;
			e[m - 1].incl += e[i].incl;
			e[m - 1].incl_cyc += e[i].incl_cyc;
			if (e[m - 1].call_addr == UINT64_MAX)
				e[m - 1].call_addr = e[i].call_addr;
		} else {
			e[m++] = e[i];
		}
	}
	*n = m;
	return e;
}

static uint32_t cg_line(const struct etm_profile *p, uint64_t addr,
			const char **file)
{
	struct etm_line l;

	if (addr == UINT64_MAX || etm_symbols_line(p->syms, addr, &l) < 0) {
		*file = "???";
		return 0;
	}
	*file = l.file;
	return l.line;
}

/* The function's own cost, per line row where lines were counted. */
static void cg_self(struct etm_profile *p, struct prof_w *w, uint32_t f,
		    const struct etm_prof_func *t, int cyc, const char *fl)
{
	uint64_t rest = t->self;
	const char *cur = fl;
	struct etm_sym y;

	if (p->lines && f < p->nsym && etm_symbols_get(p->syms, f, &y) == 0) {
		long r = etm_symbols_line_find(p->syms, y.start);
		struct etm_line l;

		for (; r >= 0 && etm_symbols_line_get(p->syms, (size_t)r, &l) == 0 &&
		       l.start < y.end;
		     r++) {
			if (!p->line_self[r])
				continue;
			if (strcmp(l.file, cur))
				prof_w_printf(w, "fi=%s\n", cur = l.file);
			prof_w_printf(w, "%u %llu%s\n", l.line,
				      (unsigned long long)p->line_self[r], cyc ? " 0" : "");
			rest -= p->line_self[r] <= rest ? p->line_self[r] : rest;
		}
		if (strcmp(cur, fl))
			prof_w_printf(w, "fi=%s\n", fl);
	}
	if (rest || t->self_cyc)
		prof_w_printf(w, "0 %llu", (unsigned long long)rest);
	if (rest || t->self_cyc)
		prof_w_printf(w, cyc ? " %llu\n" : "\n", (unsigned long long)t->self_cyc);
}

static void cg_function(struct etm_profile *p, struct prof_w *w, uint32_t f,
			const struct etm_prof_func *t, const struct cg_edge *e,
			size_t ne, int cyc)
{
	const char *fl, *cfl;
	struct etm_sym y;
	size_t i;

	if (f < p->nsym && etm_symbols_get(p->syms, f, &y) == 0)
		cg_line(p, y.start, &fl);
	else
		fl = "???";
	prof_w_printf(w, "\nfl=%s\nfn=%s\n", fl, prof_func_name(p, f));
	cg_self(p, w, f, t, cyc, fl);
	for (i = 0; i < ne; i++) {
		uint32_t tl = 0, cl;

		if (e[i].callee < p->nsym && etm_symbols_get(p->syms, e[i].callee, &y) == 0)
			tl = cg_line(p, y.start, &cfl);
		else
			cfl = "???";
		cl = cg_line(p, e[i].call_addr, &fl);
		prof_w_printf(w, "cfl=%s\ncfn=%s\ncalls=%llu %u\n%u %llu", cfl,
			      prof_func_name(p, e[i].callee),
			      (unsigned long long)e[i].calls, tl, cl,
			      (unsigned long long)e[i].incl);
		prof_w_printf(w, cyc ? " %llu\n" : "\n", (unsigned long long)e[i].incl_cyc);
	}
}

static int write_callgrind(struct etm_profile *p, struct prof_w *w,
			   const char *cmd)
{
	struct etm_prof_func *t = NULL;
	struct cg_edge *e;
	size_t ne, i, k = 0;
	uint64_t tcyc = 0;
	int cyc;

	t = calloc(p->nfunc, sizeof(*t));
	if (!t)
		return -etme_nomem;
	prof_totals(p);
	for (i = 1; i < p->nnodes; i++) {
		t[p->nodes[i].func].self += p->nodes[i].self;
		t[p->nodes[i].func].self_cyc += p->nodes[i].self_cyc;
		tcyc += p->nodes[i].self_cyc;
	}
	e = cg_edges(p, &ne);
	if (!e) {
		free(t);
		return -etme_nomem;
	}
	cyc = tcyc != 0;
	prof_w_printf(w, "# callgrind format\nversion: 1\ncreator: etmtrace\n"
			 "cmd: %s\npositions: line\nevents: Instr%s\n",
		      cmd ? cmd : "trace", cyc ? " Cycles" : "");
	for (i = 0; i < p->nfunc; i++) {
		size_t k0 = k;

		while (k < ne && e[k].caller < i)
			k++;
		k0 = k;
		while (k < ne && e[k].caller == i)
			k++;
		if (t[i].self || t[i].self_cyc || k > k0)
			cg_function(p, w, (uint32_t)i, &t[i], e + k0, k - k0, cyc);
	}
	prof_w_printf(w, "\ntotals: %llu", (unsigned long long)p->st.insns);
	prof_w_printf(w, cyc ? " %llu\n" : "\n", (unsigned long long)tcyc);
	free(e);
	free(t);
	return 0;
}

int etm_profile_write(struct etm_profile *p, enum etm_prof_format fmt,
		      const char *cmd, etm_write_fn fn, void *ctx)
{
	struct prof_w *w;
	int r;

	if (!p || !fn || (fmt != etm_prof_flat && fmt != etm_prof_callgrind && fmt != etm_prof_folded))
		return -etme_invalid;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -etme_nomem;
	w->fn = fn;
	w->ctx = ctx;
	r = fmt == etm_prof_flat   ? write_flat(p, w) :
	    fmt == etm_prof_folded ? write_folded(p, w) :
				     write_callgrind(p, w, cmd);
	if (r >= 0)
		r = prof_w_flush(w);
	free(w);
	return r;
}
