/* tests/recovery/recovery.h - measured recovery from damaged trace: build a
 * large valid trace with the encoder, damage it, decode, and compare with
 * the clean decode instruction by instruction. */
#ifndef ETM_TESTS_RECOVERY_H
#define ETM_TESTS_RECOVERY_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/source.h>

/* Kinds of damage. */
enum rc_damage {
	rc_flip,     /* one bit flipped */
	rc_drop,     /* 1-8 bytes dropped (raw input) */
	rc_insert,   /* 1-64 random bytes inserted (raw input) */
	rc_truncate, /* the trace ends early */
	rc_frame,    /* a whole 16-byte frame lost (formatted input) */
	rc_ndamage
};

const char *rc_damage_name(enum rc_damage d);

/* A generated trace: two sources (one with raw input) over their programs. */
struct rc_trace;

/* Build a trace of about @ninsn instructions per source from @seed;
 * formatted (two sources, CoreSight frames) or raw (one source).
 * Returns NULL on failure. */
struct rc_trace *rc_trace_alloc(enum etm_protocol proto, int formatted,
				uint32_t ninsn, uint64_t seed);
void rc_trace_free(struct rc_trace *t);
/* Decode damaged traces through the verified-output filter (verify.h). */
void rc_trace_set_verify(struct rc_trace *t, int on);
size_t rc_trace_size(const struct rc_trace *t);
/* Instructions in the clean decode. */
uint64_t rc_trace_insns(const struct rc_trace *t);

/* Totals over trials. */
struct rc_stats {
	uint64_t trials;
	uint64_t outside;          /* clean insns outside the damaged periods */
	uint64_t recovered;        /* ... found exactly in the damaged decode */
	uint64_t inside;           /* clean insns inside the damaged periods */
	uint64_t inside_kept;      /* ... still found */
	uint64_t invented;         /* damaged-decode insns not in the clean one */
	uint64_t invented_outside; /* ... outside the damaged periods */
	uint64_t silent;           /* ... with no error / gap element before */
	uint64_t undetected;       /* ... and none after either: the damage
				 * was never reported */
	uint64_t silent_trials;    /* trials with a silent difference */
	uint64_t errors;           /* error / gap elements in damaged decodes */
};

/* Run one trial of damage @d at a position chosen by @rng_seed; adds to
 * @st. Returns 0, or -1 if the damage does not apply (rc_frame on raw
 * input) or on no memory. With @verbose, silent differences are printed. */
int rc_trial(const struct rc_trace *t, enum rc_damage d, uint64_t rng_seed,
	     struct rc_stats *st, int verbose);

#endif
