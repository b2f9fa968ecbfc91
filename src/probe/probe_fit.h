/* probe/probe_fit.h - one fit of the configuration probe (config_probe.c):
 * decode the start of a trace with one configuration, counting the
 * symptoms (etm_diag_*()). Two ways, the same fit: the item path (packets
 * and elements one item at a time, stoppable at a bound) and the batch
 * path (elements in batches, the packet-level facts from compact packet
 * records), about a quarter of the item path's instructions. Library-
 * internal. */
#ifndef ETM_PROBE_PROBE_FIT_H
#define ETM_PROBE_PROBE_FIT_H

#include <stdint.h>

#include <etmtrace/decoder.h>
#include <etmtrace/diag.h>

struct etm_dec_replay;

/* Symptom score and instruction count of decoding the input with a
 * configuration (score -1 if it cannot be decoded at all). */
struct diag_fit {
	int64_t score;
	uint64_t insns;
	uint64_t parse_bad, packets; /* packet-level symptoms, packets */
	int async;                   /* an A-sync of the source was seen */
	/* decoded to the end, and no packet began with a timestamp header
	 * (or an unknown byte) and no frame realignment reset the parser:
	 * the timestamp configuration did not matter (diag_probe_same());
	 * the batch path does not tell (0) */
	int ts_free;
	/* the symptoms that are errors: the score less the traced
	 * addresses outside the image (etm_probe_rank) */
	uint64_t errors;
};

/* What a variant must stay within to still be chosen (the probe on one
 * thread, diag_probe_bound()): past it the decode stops. The counts only
 * grow, so a variant over the bound part-way is over it at the end. */
struct diag_bound {
	int on;       /* 1: symptom score, 2: packet-level symptoms */
	uint64_t max; /* the largest value that may still win */
};

/* The input of the probe's decodes: formatted input deformatted once
 * (@replay, not NULL), for every configuration the same. */
struct diag_input {
	enum etm_input_format fmt;
	const uint8_t *buf;
	size_t n;
	struct etm_dec_replay *replay; /* for trace ID replay_id */
	unsigned replay_id;
};

/* The fit of @cfg through items; with @bd, a fit that cannot be chosen
 * stops early with score -1. */
struct diag_fit etm_probe_fit(const struct diag_input *in,
			      const struct etm_config *cfg,
			      const struct etm_image *img,
			      const struct diag_bound *bd);

/* Whether etm_probe_fit_batch() can fit @cfg (ETMv3 and PTM). */
int etm_probe_fit_batchable(const struct etm_config *cfg);

/* etm_probe_fit(@in, @cfg, @img, NULL) in batches: the same fit but
 * ts_free (0: not known). */
struct diag_fit etm_probe_fit_batch(const struct diag_input *in,
				    const struct etm_config *cfg,
				    const struct etm_image *img);

#endif
