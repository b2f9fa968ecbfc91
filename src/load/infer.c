/* load/infer.c - configuration of a trace file given without registers:
 * the protocol defaults, then the variant (protocol, cycle-accurate,
 * Context ID size, branch encoding, return stack) that fits the trace
 * against the image best (etm_diag_probe_keep()); what the options give is
 * kept. */
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>

#include "load/open_int.h"

/* ETMIDR of a protocol when none is given: ETMv3.5, PFT 1.1. */
static uint32_t default_idr(enum etm_protocol p)
{
	return p == etm_proto_ptm ? 0x411CF311u : 0x410CF250u;
}

int cap_infer(struct cap_ctx *c, enum etm_input_format fmt, unsigned id,
	      const struct etm_image *img, const uint8_t *buf, size_t n,
	      struct etm_config *cfg)
{
	const struct etm_open_opts *o = &c->o;
	struct etm_config base, best;
	unsigned keep = ETM_PROBE_GUESS, how;
	char diff[200];
	int r;

	etm_config_init(&base);
	base.protocol = o->protocol ? o->protocol : etm_proto_etmv3;
	base.etmidr = default_idr(base.protocol);
	base.traceid = id;
	cap_override(c, &base);
	if (o->protocol)
		keep |= ETM_PROBE_KEEP_PROTOCOL;
	if (o->regs & ETM_OPEN_ETMCR)
		keep |= ETM_PROBE_KEEP_ETMCR;
	if (o->regs & ETM_OPEN_ETMIDR)
		keep |= ETM_PROBE_KEEP_ETMIDR;
	*cfg = base;
	how = o->protocol || o->regs ? ETM_HOW_OPTIONS : ETM_HOW_DEFAULT;
	if ((o->flags & ETM_OPEN_NO_INFER) ||
	    (keep & ETM_PROBE_KEEP_PROTOCOL && keep & ETM_PROBE_KEEP_ETMCR))
		return (int)how;
	r = etm_diag_probe_keep(fmt, &base, img, buf, n, keep, &best);
	if (r < 0)
		return cap_err(c, r, "trace ID 0x%02x: probe: %s", id,
			       etm_errstr(r));
	*cfg = best;
	etm_diag_config_diff(&base, &best, diff, sizeof(diff));
	cap_note(c->cap, "trace ID 0x%02x: configuration inferred from %zu "
			 "bytes%s: %s ETMCR=0x%08x ETMCCER=0x%08x ETMIDR=0x%08x%s%s",
		 id, n, img && etm_image_count(img) ? " against the image" : " (no image)", etm_protocol_name(best.protocol), best.etmcr,
		 best.etmccer, best.etmidr, diff[0] ? " - " : "", diff);
	return (int)(how | ETM_HOW_INFERRED);
}
