/* probe/diag_text.c - what the diagnostics say: the one-line warning
 * naming the likely cause of a source's symptoms, and the configuration
 * differences the probe (config_probe.c) names. */
#include <stdio.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>

#include "probe/diag_int.h"

int etm_diag_warning(const struct etm_diag *d, char *buf, size_t n)
{
	struct etm_diag_counts cs;
	const struct etm_diag_counts *c = &cs;
	const struct etm_config *cfg = etm_diag_cfg(d);
	uint64_t bad, img;
	int alt;

	if (etm_diag_counts(d, &cs, sizeof(cs)) < 0) {
		if (n)
			buf[0] = 0;
		return 0;
	}
	bad = c->pkt_errors + c->sync_lost;
	img = c->mismatch + c->n_uncond + c->undef + c->mid_insn;
	/* (a trace that decodes next to nothing before it fails: fewer than
	 * 16 instructions a failure) */
	/* the branch encoding is a choice from ETMv3.4 on only */
	alt = cfg->protocol == etm_proto_etmv3 && etm_cfg_arch_major(cfg) == 2 &&
	      etm_cfg_arch_minor(cfg) >= 4;

	if (bad && (bad >= 4 || c->insns < 16 * bad))
		return snprintf(buf, n, "%llu malformed packets, %llu losses "
					"of sync: wrong protocol or ETMCR/ETMIDR "
					"(cycle-accurate, Context ID size%s)?",
				(unsigned long long)c->pkt_errors,
				(unsigned long long)c->sync_lost,
				alt ? ", branch encoding" : "");
	if (img)
		return snprintf(buf, n, "trace disagrees with the image (%llu "
					"flow mismatches, %llu N atoms on "
					"unconditional instructions, %llu undefined "
					"instructions, %llu branches into an "
					"instruction): wrong image or load address?",
				(unsigned long long)c->mismatch,
				(unsigned long long)c->n_uncond,
				(unsigned long long)c->undef,
				(unsigned long long)c->mid_insn);
	if (c->nomem && c->nomem * 10 >= c->ranges)
		return snprintf(buf, n, "%llu traced addresses are not in the "
					"image: image missing or at the wrong "
					"address?",
				(unsigned long long)c->nomem);
	if (n)
		buf[0] = 0;
	return 0;
}

int etm_diag_config_diff(const struct etm_config *cfg,
			 const struct etm_config *o, char *buf, size_t n)
{
	size_t len = 0;
	int r;

#define DIFF(cond, ...)                                                     \
	do {                                                                \
		if (!(cond))                                                \
			break;                                              \
		r = snprintf(buf + (len < n ? len : n),                     \
			     len < n ? n - len : 0, "%s", len ? ", " : ""); \
		len += (size_t)r;                                           \
		r = snprintf(buf + (len < n ? len : n),                     \
			     len < n ? n - len : 0, __VA_ARGS__);           \
		len += (size_t)r;                                           \
	} while (0)
	if (n)
		buf[0] = 0;
	DIFF(cfg->protocol != o->protocol, "protocol %s",
	     etm_protocol_name(o->protocol));
	DIFF(etm_cfg_cycle_acc(cfg) != etm_cfg_cycle_acc(o),
	     "cycle-accurate %s", etm_cfg_cycle_acc(o) ? "on" : "off");
	DIFF(etm_cfg_ctxid_bytes(cfg) != etm_cfg_ctxid_bytes(o),
	     "%d-byte Context ID", etm_cfg_ctxid_bytes(o));
	DIFF(o->protocol == etm_proto_etmv3 &&
		     etm_cfg_alt_branch(cfg) != etm_cfg_alt_branch(o),
	     "%s branch encoding",
	     etm_cfg_alt_branch(o) ? "alternative" : "original");
	DIFF(etm_cfg_timestamps(cfg) != etm_cfg_timestamps(o) ||
		     (etm_cfg_timestamps(o) &&
		      (etm_cfg_ts_64bit(cfg) != etm_cfg_ts_64bit(o) ||
		       etm_cfg_ts_binary(cfg) != etm_cfg_ts_binary(o))),
	     "timestamps %s", !etm_cfg_timestamps(o) ? "off" : etm_cfg_ts_64bit(o) ? "on (64-bit binary)" :
										     "on (48-bit Gray)");
	DIFF(etm_cfg_ret_stack(cfg) != etm_cfg_ret_stack(o),
	     "return stack %s", etm_cfg_ret_stack(o) ? "on" : "off");
#undef DIFF
	return (int)len;
}
