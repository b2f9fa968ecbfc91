/* load/infer.c - configuration of a trace file given without registers:
 * what the ELF's build attributes say the core can trace (the protocols,
 * the ETMIDR it reports, M-profile), the protocol defaults for the rest,
 * then the variant (protocol, cycle-accurate, Context ID size, branch
 * encoding, return stack) that fits the trace against the image best
 * (etm_diag_probe_rank()); what the options give is kept. A choice that
 * is not clear is said to be uncertain (doc/inference.md). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>

#include "load/open_int.h"

/* ETMIDR of a protocol when none is given: ETMv3.5, PFT 1.1. */
static uint32_t default_idr(enum etm_protocol p)
{
	return p == etm_proto_ptm ? 0x411CF311u : 0x410CF250u;
}

const struct etm_core_trace *cap_core(struct cap_ctx *c)
{
	struct etm_arm_attrs a;
	size_t i;

	if (c->core_read)
		return &c->core;
	c->core_read = 1;
	etm_core_trace_from_attrs(&(struct etm_arm_attrs){ .found = 0 },
				  &c->core);
	for (i = 0; i < c->o.nelfs; i++)
		if (etm_elf_arm_attrs(c->o.elfs[i].path, &a, NULL, 0) == 0 &&
		    a.found) {
			etm_core_trace_from_attrs(&a, &c->core);
			break;
		}
	return &c->core;
}

int cap_core_e1_only(struct cap_ctx *c)
{
	return !c->o.protocol && cap_core(c)->protocols == ETM_CORE_ETMV1;
}

/* The base configuration of trace ID @id: the protocol and ETMIDR the
 * core can have, then the options; into *@keep what the probe must not
 * change. Returns 0, or -1 when the core has no protocol the probe can
 * try (ETMv1 only: a sample file, cap_core_e1_only()). */
static int infer_base(struct cap_ctx *c, unsigned id, struct etm_config *base,
		      unsigned *keep)
{
	const struct etm_core_trace *t = cap_core(c);
	const struct etm_open_opts *o = &c->o;

	etm_config_init(base);
	base->protocol = t->protocols & ETM_CORE_ETMV3 ? etm_proto_etmv3 :
			 t->protocols & ETM_CORE_PTM   ? etm_proto_ptm :
							 etm_proto_etmv3;
	base->etmidr = default_idr(base->protocol);
	if (base->protocol == etm_proto_etmv3 && t->etmidr)
		base->etmidr = t->etmidr;
	if (base->protocol == etm_proto_ptm && t->ptmidr)
		base->etmidr = t->ptmidr;
	if (t->m_profile)
		base->flags |= ETM_CFG_M_PROFILE;
	base->traceid = id;
	*keep = ETM_PROBE_GUESS;
	/* the other protocol only where the core can have it; the ETMIDR
	 * the core reports (its version and branch encoding) */
	if (t->protocols && (t->protocols & (ETM_CORE_ETMV3 | ETM_CORE_PTM)) !=
				    (ETM_CORE_ETMV3 | ETM_CORE_PTM))
		*keep |= ETM_PROBE_KEEP_PROTOCOL | ETM_PROBE_KEEP_ETMIDR;
	cap_override(c, base);
	if (o->protocol)
		*keep |= ETM_PROBE_KEEP_PROTOCOL;
	if (o->protocol && o->protocol != base->protocol &&
	    !(o->regs & ETM_OPEN_ETMIDR))
		base->etmidr = default_idr(base->protocol);
	if (o->regs & ETM_OPEN_ETMCR)
		*keep |= ETM_PROBE_KEEP_ETMCR;
	if (o->regs & ETM_OPEN_ETMIDR)
		*keep |= ETM_PROBE_KEEP_ETMIDR;
	if (t->protocols && !(t->protocols & (ETM_CORE_ETMV3 | ETM_CORE_PTM)) &&
	    !o->protocol)
		return -1;
	return 0;
}

/* "etmv3 ETMCR=0x00001000" for @a, with the ETMIDR and ETMCCER where
 * they differ from @b's. */
static void infer_label(const struct etm_config *a, const struct etm_config *b,
			char *buf, size_t n)
{
	int k = snprintf(buf, n, "%s ETMCR=0x%08x", etm_protocol_name(a->protocol),
			 a->etmcr);

	if (k > 0 && (size_t)k < n && a->etmidr != b->etmidr)
		k += snprintf(buf + k, n - (size_t)k, " ETMIDR=0x%08x", a->etmidr);
	if (k > 0 && (size_t)k < n && a->etmccer != b->etmccer)
		snprintf(buf + k, n - (size_t)k, " ETMCCER=0x%08x", a->etmccer);
}

/* Whether the choice of @rk is clear: the best decodes without errors;
 * the runner-up has errors or at least a tenth fewer instructions, and
 * not twice as many (a clean decode of a few instructions against one of
 * many with errors is the wrong configuration's typical look). */
static int infer_clear(const struct etm_probe_rank *rk)
{
	if (rk->best_errors)
		return 0;
	if (!rk->has_next)
		return 1;
	return (rk->next_errors || rk->next_insns * 10 <= rk->best_insns * 9) &&
	       rk->next_insns <= 2 * rk->best_insns;
}

/* The notes on the probe's choice for trace ID @id. */
static void infer_notes(struct cap_ctx *c, unsigned id, size_t n,
			const struct etm_image *img, const struct etm_config *base,
			const struct etm_probe_rank *rk)
{
	const struct etm_config *best = &rk->best;
	const struct etm_core_trace *t = cap_core(c);
	char diff[200], x[96], y[96];

	etm_diag_config_diff(base, best, diff, sizeof(diff));
	cap_note(c->cap, "trace ID 0x%02x: configuration inferred from %zu "
			 "bytes%s%s%s: %s ETMCR=0x%08x ETMCCER=0x%08x ETMIDR=0x%08x%s%s",
		 id, n, img && etm_image_count(img) ? " against the image" : " (no image)",
		 t->protocols ? " and the ELF's core, " : "", t->protocols ? t->what : "",
		 etm_protocol_name(best->protocol), best->etmcr, best->etmccer,
		 best->etmidr, diff[0] ? " - " : "", diff);
	if (infer_clear(rk))
		return;
	infer_label(best, rk->has_next ? &rk->next : best, x, sizeof(x));
	if (!rk->has_next) {
		cap_note(c->cap, "trace ID 0x%02x: uncertain: %s (%llu errors, "
				 "%llu instructions), no other candidate decodes; "
				 "give --protocol/--etmcr",
			 id, x, (unsigned long long)rk->best_errors,
			 (unsigned long long)rk->best_insns);
		return;
	}
	infer_label(&rk->next, best, y, sizeof(y));
	cap_note(c->cap, "trace ID 0x%02x: uncertain: %s (%llu errors, %llu "
			 "instructions) vs %s (%llu errors, %llu instructions); "
			 "give --protocol/--etmcr",
		 id, x, (unsigned long long)rk->best_errors,
		 (unsigned long long)rk->best_insns, y,
		 (unsigned long long)rk->next_errors,
		 (unsigned long long)rk->next_insns);
}

int cap_infer(struct cap_ctx *c, enum etm_input_format fmt, unsigned id,
	      const struct etm_image *img, const uint8_t *buf, size_t n,
	      struct etm_config *cfg)
{
	const struct etm_open_opts *o = &c->o;
	struct etm_probe_rank rk;
	struct etm_config base;
	unsigned keep, how;
	int r;

	r = infer_base(c, id, &base, &keep);
	*cfg = base;
	how = o->protocol || o->regs ? ETM_HOW_OPTIONS : ETM_HOW_DEFAULT;
	if (r < 0) {
		cap_note(c->cap, "trace ID 0x%02x: the ELF's core (%s) has no "
				 "ETMv3/PTM trace: give --protocol etmv1 for ETMv1 samples",
			 id, cap_core(c)->what);
		return (int)how;
	}
	if ((o->flags & ETM_OPEN_NO_INFER) ||
	    (keep & ETM_PROBE_KEEP_PROTOCOL && keep & ETM_PROBE_KEEP_ETMCR))
		return (int)how;
	r = etm_diag_probe_rank(fmt, &base, img, buf, n, keep, &rk);
	if (r < 0)
		return cap_err(c, r, "trace ID 0x%02x: probe: %s", id,
			       etm_errstr(r));
	*cfg = rk.best;
	infer_notes(c, id, n, img, &base, &rk);
	return (int)(how | ETM_HOW_INFERRED);
}
