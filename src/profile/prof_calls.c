/* profile/prof_calls.c - the call trace: one line each time a source's
 * running calling context changes (call, return, exception entry and
 * return, jump into another function, stack reset, context switch), as
 * the profile's stacks see it, with depth, indentation by calling context,
 * function and offset, the instruction that caused it and the source line;
 * in the spirit of `perf script --call-ret-trace` and uftrace. The lines
 * are written as the elements come, so memory stays bounded.
 * doc/profile.md, "Call trace". */
#include <stdio.h>
#include <stdlib.h>

#include <etmtrace/error.h>

#include "profile/prof_int.h"

int etm_profile_set_calls(struct etm_profile *p, etm_write_fn fn, void *ctx)
{
	if (!p || !fn || p->ct)
		return -etme_invalid;
	p->ct = calloc(1, sizeof(*p->ct));
	if (!p->ct)
		return -etme_nomem;
	p->ct->fn = fn;
	p->ct->ctx = ctx;
	prof_w_printf(p->ct, "# ID %10s %5s %-5s %-8s FUNCTION (indented by calling "
			     "context)  <- FROM  FILE:LINE\n",
		      "INSNS", "DEPTH", "EVENT", "ADDRESS");
	return 0;
}

static const char *const ct_names[] = {
	"call", "ret", "exc", "eret", "jump", "enter", "reset", "ctx", "gap", "end"
};

static const char *ct_gap_name(enum etm_elem_kind k)
{
	return k == etmk_error  ? "trace error" :
	       k == etmk_nomem  ? "memory not accessible" :
	       k == etmk_nosync ? "not synchronised" :
	       k == etmk_piece  ? "piece of a circular buffer" :
				  "trace on";
}

/* @pre and "func+0xoff" (or "func" at its start) of @addr, if a function
 * holds it. */
static void ct_sym(struct etm_profile *p, const char *pre, uint64_t addr)
{
	struct etm_sym y;

	if (etm_symbols_lookup(p->syms, addr, &y) != 0)
		return;
	if (addr == y.start)
		prof_w_printf(p->ct, "%s%s", pre, y.name);
	else
		prof_w_printf(p->ct, "%s%s+0x%llx", pre, y.name,
			      (unsigned long long)(addr - y.start));
}

/* The running function's name, with the offset of @addr in it when
 * @addr lies in it. */
static void ct_func(struct etm_profile *p, uint32_t node, uint64_t addr)
{
	uint32_t f = p->nodes[node].func;
	struct etm_sym y;

	if (!node) {
		prof_w_printf(p->ct, "-");
		return;
	}
	prof_w_printf(p->ct, "%s", prof_func_name(p, f));
	if (addr != UINT64_MAX && f < p->nsym &&
	    etm_symbols_get(p->syms, f, &y) == 0 && addr > y.start && addr < y.end)
		prof_w_printf(p->ct, "+0x%llx", (unsigned long long)(addr - y.start));
}

/* What follows the function: the instruction that caused the event, the
 * source line of @addr, a note. */
static void ct_tail(struct etm_profile *p, enum prof_ev ev, uint64_t addr,
		    uint64_t site, uint64_t n)
{
	struct etm_line ln;

	if (ev == prof_ev_exc && addr != UINT64_MAX)
		ct_sym(p, "  at ", addr);
	if (site != UINT64_MAX && (ev == prof_ev_call || ev == prof_ev_ret ||
				   ev == prof_ev_eret || ev == prof_ev_reset)) {
		prof_w_printf(p->ct, "  <- %08llx", (unsigned long long)site);
		ct_sym(p, " ", site);
	}
	if (addr != UINT64_MAX && ev != prof_ev_reset &&
	    etm_symbols_line(p->syms, addr, &ln) == 0)
		prof_w_printf(p->ct, "  %s:%u", ln.file, ln.line);
	if ((ev == prof_ev_ret || ev == prof_ev_eret) && n)
		prof_w_printf(p->ct, "  (%llu frame%s unwound)", (unsigned long long)n,
			      n > 1 ? "s" : "");
	else if (ev == prof_ev_ctx)
		prof_w_printf(p->ct, "  (context ID 0x%llx)", (unsigned long long)n);
	else if (ev == prof_ev_gap)
		prof_w_printf(p->ct, "  (%s)", ct_gap_name((enum etm_elem_kind)n));
}

int prof_ct_event(struct etm_profile *p, uint8_t id, struct prof_src *s,
		  const struct prof_stack *k, enum prof_ev ev, uint64_t addr,
		  uint64_t site, uint64_t n)
{
	uint32_t node = k ? (k->cur ? k->cur : k->par) : 0;
	uint32_t level = ev == prof_ev_reset ? 0 : p->nodes[node].depth;

	prof_w_printf(p->ct, "%02x %10llu %5u %-5s ", id, (unsigned long long)s->ninsn,
		      k ? k->depth : 0, ct_names[ev]);
	if (addr == UINT64_MAX)
		prof_w_printf(p->ct, "-------- ");
	else
		prof_w_printf(p->ct, "%08llx ", (unsigned long long)addr);
	prof_w_printf(p->ct, "%*s", (int)(2 * level), "");
	if (ev == prof_ev_reset)
		prof_w_printf(p->ct, "(return to an unknown caller)");
	else
		ct_func(p, node, ev == prof_ev_exc ? UINT64_MAX : addr);
	ct_tail(p, ev, addr, site, n);
	prof_w_printf(p->ct, "\n");
	return p->ct->err;
}

int prof_ct_finish(struct etm_profile *p)
{
	size_t id;
	int r;

	for (id = 0; id < 256; id++) {
		struct prof_src *s = p->src[id];

		if (s && s->cur) {
			r = prof_ct_event(p, (uint8_t)id, s, s->cur, prof_ev_end,
					  UINT64_MAX, UINT64_MAX, 0);
			if (r < 0)
				return r;
		}
	}
	return prof_w_flush(p->ct);
}
