/* etmtrace/profile.h - call stacks and profiles over decoded elements: a
 * consumer that rebuilds each trace source's call stack (calls, returns,
 * exceptions, context switches) and counts instructions and cycles per
 * function and per calling context; flat, callgrind and folded-stack
 * reports, and a Chrome trace-event (Perfetto) timeline. Part of
 * libetmtrace_symbols. */
#ifndef ETM_ETMTRACE_PROFILE_H
#define ETM_ETMTRACE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/coverage.h>
#include <etmtrace/decoder.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/symbols.h>
#include <etmtrace/write.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etm_profile;

/** Report formats of etm_profile_write(). */
enum etm_prof_format {
	etm_prof_invalid = 0,
	etm_prof_flat,      /**< per function: self / inclusive instructions,
			     *   calls, cycles, percentages (perf report style) */
	etm_prof_callgrind, /**< callgrind.out (callgrind_annotate, KCacheGrind) */
	etm_prof_folded,    /**< collapsed stacks "a;b;c N" (flamegraph.pl) */
};

/** Per-function totals. Instructions are counted once per function even
 * in recursion (inclusive). */
struct etm_prof_func {
	const char *name;            /**< symbol, "[unknown]" or "[exception NAME]" */
	long sym;                    /**< etm_symbols index, -1 for the pseudo ones */
	uint64_t self, incl;         /**< instructions */
	uint64_t calls;              /**< times it was called (BL/BLX) or entered
			       *   (exceptions) */
	uint64_t self_cyc, incl_cyc; /**< cycles (cycle-accurate trace) */
};

/** Stack reconstruction counters. */
struct etm_prof_stats {
	uint64_t insns;          /**< instructions profiled */
	uint64_t calls, returns; /**< matched call and return pairs: returns */
	uint64_t exceptions;
	uint64_t unwound;   /**< frames popped by a return that matched
				  *   a deeper frame (longjmp, missed return) */
	uint64_t resets;    /**< returns that matched no frame: the stack
				  *   restarts from an unknown root */
	uint64_t gaps;      /**< trace gaps (trace on, nosync, errors, ...) */
	uint64_t contexts;  /**< context ID changes */
	uint64_t truncated; /**< frames dropped at the depth bound */
	uint64_t errors;    /**< error elements (etmk_error; also in gaps) */
};

/** Allocate a profile over functions of @syms (borrowed: must outlive the
 * profile; may be NULL: everything is "[unknown]"). NULL on no memory. */
struct etm_profile *etm_profile_alloc(const struct etm_symbols *syms);
/** Free; NULL is a no-op. */
void etm_profile_free(struct etm_profile *p);

/** Describe trace source @id: its program image (borrowed; used to read
 * the last instruction of ranges, to tell returns from other indirect
 * branches, and to split a range that crosses a function end) and whether
 * the core is M-profile (exception names). Elements of sources not added
 * are profiled without an image (indirect branches are not returns).
 * Returns 0, -etme_nomem, -etme_invalid. */
int etm_profile_add_source(struct etm_profile *p, uint8_t id,
			   const struct etm_image *img, int m_profile);

/** Images by Context ID (a perf.data file: etm_capture_ctx_images()):
 * at each Context ID element of a source added with an image, that
 * source's image becomes @fn(@ctx, Context ID) (NULL: kept), as the
 * decoder switched it, so returns are told in each process's own code.
 * @fn NULL: off (the default). Returns 0, -etme_invalid. */
int etm_profile_set_ctx_images(struct etm_profile *p, etm_ctx_image_fn fn,
			       void *ctx);

/** Count instructions per source line too (needed by etm_prof_callgrind's
 * line positions; walks every instruction). Call before the first element. */
void etm_profile_set_lines(struct etm_profile *p, int on);

/** Timeline output (Chrome trace-event JSON, "traceEvents"): complete
 * events (ph "X") per function activation, nested by the call stack, one
 * track (tid = trace ID) per source, exceptions, gaps and stack resets as
 * instant events (ph "i"). Events are written through @fn as functions
 * end, so memory stays bounded. Time: with @ts_hz > 0, timestamps are
 * seconds at @ts_hz; with @cyc_hz > 0 cycles are seconds at @cyc_hz and
 * advance the time between timestamps; otherwise one instruction (or one
 * cycle on cycle-accurate trace) is one microsecond. Call before the
 * first element. Returns 0 or -etme_invalid. */
int etm_profile_set_timeline(struct etm_profile *p, etm_write_fn fn,
			     void *ctx, double ts_hz, double cyc_hz);

/** Call trace: one line, written through @fn as the elements come, each
 * time a source's running calling context changes: a call (BL, BLX), a
 * return to a call's frame, an exception entry, a return to an
 * exception's frame, a jump into another function (tail call,
 * fall-through), a function entered with no caller known (trace start,
 * after a reset, an exception handler), a return that matched no frame
 * (the stack restarts), a Context ID change, a trace gap, and the end of
 * each source's trace. Each line gives the trace ID, the source's
 * instructions so far, the call stack's depth (frames), the event, the
 * address where execution goes on, the running function indented two
 * spaces per level of its calling context (as etm_prof_folded nests it)
 * with its offset, the calling or returning instruction and the source
 * line (doc/profile.md, "Call trace"). Call before the first element.
 * Returns 0, -etme_invalid (already set), -etme_nomem. */
int etm_profile_set_calls(struct etm_profile *p, etm_write_fn fn, void *ctx);

/** Feed decoded elements, in decode order (any mix of sources).
 * Returns 0, a negative value of the timeline writer, -etme_nomem. */
int etm_profile_elems(struct etm_profile *p, const struct etm_elem *els,
		      size_t n);
/** Feed @p (set up as for etm_profile_elems(): sources, lines, timeline,
 * call trace) the elements of the @size input bytes read through @rd as
 * decoded by @dec (as etm_decoder_run() takes it: configured, unused) on
 * @jobs threads (0 or 1: the calling thread only). Each worker does the
 * part of the work that does not depend on the call stacks (function
 * lookups, walks of ranges that cross functions, line counts, telling
 * calls and returns) for its stretch; the calling thread applies the
 * stretches in input order, so the profile, its reports and its timeline
 * or call trace output equal etm_profile_elems() of every element on one
 * thread. With images by Context ID (etm_profile_set_ctx_images()) the
 * ranges are profiled whole on the calling thread. @side (may be NULL) is
 * fed the same elements, part by part, as etm_cov_run() feeds it.
 * etm_profile_finish() @p after the last run. Returns 0, -etme_invalid,
 * -etme_nomem, a negative value of @side or of the timeline or call trace
 * writer, or an error of etm_decoder_run_ops(). */
int etm_profile_run(struct etm_profile *p, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs,
		    const struct etm_cov_run_side *side);
struct etm_run_stats;
/** etm_profile_run() that also fills *@st (if not NULL) with the run's
 * figures as etm_decoder_run_ops_stats() does (etmtrace/runstats.h; its
 * thread and threads_cap fields are the caller's): the calling thread's
 * CPU time is the ordered apply of the stretches, the run's serial part. */
int etm_profile_run_stats(struct etm_profile *p, struct etm_decoder *dec,
			  etm_read_fn rd, void *rctx, uint64_t size,
			  unsigned jobs, const struct etm_cov_run_side *side,
			  struct etm_run_stats *st);
/** End of trace: open activations end (timeline closed). Returns as
 * etm_profile_elems(). */
int etm_profile_finish(struct etm_profile *p);

/** Counters. */
void etm_profile_stats(const struct etm_profile *p, struct etm_prof_stats *st);
/** Per-function totals, sorted by self instructions (descending, then
 * name): *@out is set to an array of *@n entries owned by the profile,
 * valid until the next call on @p. Returns 0 or -etme_nomem. */
int etm_profile_funcs(struct etm_profile *p, const struct etm_prof_func **out,
		      size_t *n);

/** Write a report through @fn (@cmd names the command in callgrind's
 * "cmd:" line; may be NULL). Returns 0, @fn's negative value,
 * -etme_nomem, -etme_invalid. */
int etm_profile_write(struct etm_profile *p, enum etm_prof_format fmt,
		      const char *cmd, etm_write_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
