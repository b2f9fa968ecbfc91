/* cli/synth_itm.h - `etmtrace synth --itm`: an ITM/DWT source beside the
 * generated ETM/PTM trace (cli/synth_itm.c). */
#ifndef ETM_CLI_SYNTH_ITM_H
#define ETM_CLI_SYNTH_ITM_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/encode.h>

/* Trace ID and device name of the ITM source (SWO captures often use 1). */
#define SYNTH_ITM_ID 0x01
#define SYNTH_ITM_DEV "ITM_0"

struct synth_itm {
	uint8_t *bytes; /* the ITM/DWT stream */
	size_t n;
	/* its packet groups: group k is bytes [cut[k], cut[k + 1]) (cut[ngrp]
	 * = n), to follow the first at[k] bytes of the ETM stream */
	size_t *at, *cut, ngrp;
	char *expect; /* the listing lines of its elements, in order */
	size_t nexpect;
	struct { /* what was generated */
		unsigned long long pc, exc, sw, ts, cmp, overflow;
	} count;
};

/* Build the ITM stream of an execution: its events @ev (@nev), and after
 * each the ETM bytes emitted so far (@evpos[i]); seeded by @seed: PC
 * samples of executed instructions, an exception entry for each traced
 * exception (its number as the ETM trace gives it), stimulus writes,
 * local and global timestamps, data watchpoint values, one overflow.
 * Returns 0 or -1 (no memory). */
int synth_itm_build(const struct etm_ev *ev, size_t nev, const size_t *evpos,
		    uint64_t seed, struct synth_itm *it);
void synth_itm_free(struct synth_itm *it);

/* The device file of the ITM source: [device] class trace_source, type
 * ITM, ITMTCR with the trace ID in bits 22:16. */
int synth_itm_device(char *buf, size_t n);

/* The trace buffer's frames: the ETM stream of trace ID @etm_id (@n bytes
 * at @etm) with the ITM groups after the ETM bytes they follow. Returns 0
 * or an error of etm_fenc_put(). */
int synth_itm_frames(struct etm_fenc *f, unsigned etm_id, const uint8_t *etm,
		     size_t n, const struct synth_itm *it);

#endif
