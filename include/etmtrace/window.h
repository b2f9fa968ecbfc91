/* etmtrace/window.h - a window over decoded elements: the elements from a
 * start point to a stop point (an address, an input offset, a timestamp or
 * an instruction index), or only the last N instructions before the end of
 * the trace or before each Debug Halt. An element filter the caller owns,
 * fed the elements of a decode in order (etm_decoder_next(),
 * etm_decoder_next_elems(), etm_decoder_run()). See doc/window.md. */
#ifndef ETM_ETMTRACE_WINDOW_H
#define ETM_ETMTRACE_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a window bound names. */
enum etm_win_kind {
	etm_win_none = 0, /**< no bound: the start or the end of the decode */
	/** the first executed instruction at address .value (a range that
	 * holds it is cut there) */
	etm_win_addr,
	/** the first element, in the order of the decode, whose input offset
	 * (etm_elem.offset) is .value or more */
	etm_win_offset,
	/** the first timestamp element whose value is .value or more */
	etm_win_ts,
	/** the instruction of index .value: 0 is the first instruction of the
	 * decode (every source, in the order of the decode) */
	etm_win_insn,
};

/** A window's start or stop. */
struct etm_win_bound {
	enum etm_win_kind kind;
	uint64_t value;
};

/** etm_window_opts.at: where the last N instructions end. */
enum etm_win_at {
	etm_win_at_end = 0, /**< the end of the decode (etm_window_finish()) */
	/** each Debug Halt (exception 1 of an A/R-profile ETMv3 or PTM
	 * source), each trace stop (a trace-on element of reason
	 * etm_on_enable: TraceEnable went low and came back) and the end */
	etm_win_at_halt = 1,
};

/** What a window keeps. */
struct etm_window_opts {
	/** The window begins at @start (that element or instruction is the
	 * first one kept) and ends before @stop (that one is the first one
	 * not kept), searched for after the start; kind etm_win_none: the
	 * start / end of the decode. An address stop is not matched by the
	 * window's first instruction (start and stop at one address: one
	 * trip round a loop). */
	struct etm_win_bound start, stop;
	/** 0: everything between start and stop. N > 0: only the last N
	 * instructions of it before each point @at names, with the other
	 * elements among and after them (a Debug Halt element itself is
	 * kept, after its instructions). Memory O(N). */
	uint64_t last;
	enum etm_win_at at;
};

struct etm_window;

/** Parse a bound as the CLI's --start/--stop take it: "0x1234" an address
 * (hex), "@1234" or "@0x4d2" an input offset, "ts:1234" (or ts:0x...) a
 * timestamp, "#1234" an instruction index (decimal or 0x hex each).
 * Returns 0, or -etme_parse (*@b unchanged). */
int etm_window_parse(const char *s, struct etm_win_bound *b);

/** A window as @o says (copied). NULL on no memory or bad options (a
 * kind out of range, @at out of range). */
struct etm_window *etm_window_alloc(const struct etm_window_opts *o);
/** Free; NULL is a no-op. */
void etm_window_free(struct etm_window *w);

/** The source of trace ID @id: its configuration @cfg (the Debug Halt is
 * exception 1 on an A/R-profile core only; may be NULL: A/R) and program
 * image @img, read to cut a range at an instruction (both borrowed: must
 * outlive the window; @img NULL: ranges of @id are not cut, a range that
 * holds a bound is kept whole, and an address bound matches only where a
 * range starts). Returns 0 or -etme_invalid (@id > 0xff). */
int etm_window_add_source(struct etm_window *w, unsigned id,
			  const struct etm_config *cfg,
			  const struct etm_image *img);

/** Feed the next element of the decode (copied). Elements the window keeps
 * are then taken with etm_window_next() before the next put. A range that
 * straddles a bound is cut at the exact instruction (two ranges, each with
 * its own count and last instruction; cycles stay with the part that holds
 * the last instruction). Returns 0, -etme_busy (elements still queued), or
 * -etme_invalid. */
int etm_window_put(struct etm_window *w, const struct etm_elem *el);
/** End of the decode: with @last, the last N instructions are released.
 * Returns 0 or -etme_busy. */
int etm_window_finish(struct etm_window *w);
/** Take the next element kept into @out. Returns 0, -etme_again (put more),
 * -etme_eos (after finish, every element taken). */
int etm_window_next(struct etm_window *w, struct etm_elem *out);
/** 1 once the window has passed its stop and released everything: what
 * follows can be left undecoded. */
int etm_window_done(const struct etm_window *w);
/** Elements the --last ring left out because more than its bound of
 * elements that are not instructions came among the last N instructions
 * (the oldest of them go; never instructions): 0 normally. */
uint64_t etm_window_dropped(const struct etm_window *w);

#ifdef __cplusplus
}
#endif
#endif
