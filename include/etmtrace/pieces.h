/* etmtrace/pieces.h - the pieces of a circular trace buffer (ETB/ETF/ETR)
 * read from its write pointer, and their order in time.
 *
 * A trace buffer that wrapped holds, in file order, data of different
 * times: a run's tail ending with a trace stop and the formatter's ID-0
 * padding, then older data at a write position of an earlier lap (starting
 * mid-stream, in a frame with no ID byte), then a newer run that overwrote
 * the rest (starting with an A-sync and a trace-on or debug-exit I-sync).
 * etm_pieces_find() finds these boundaries in CoreSight-formatted bytes and
 * the order in time the bytes prove; the decoder (etm_decoder_set_pieces(),
 * etmtrace/decoder.h) decodes each piece as its own input and lists them in
 * time order. doc/circular.md gives the rules and why. */
#ifndef ETM_ETMTRACE_PIECES_H
#define ETM_ETMTRACE_PIECES_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/** At most this many pieces are told apart; a later boundary is ignored
 * (its bytes stay in the last piece). */
#define ETM_PIECES_MAX 32

/** How a piece begins. */
enum etm_piece_begin {
	etm_piece_dump_start = 0, /**< the dump's first byte, mid-stream */
	etm_piece_stale,          /**< data with no ID after a stop's padding:
				   *   older data at an earlier write position */
	etm_piece_run_start,      /**< a run's start: an A-sync at a frame start
				   *   after an ID change, then an I-sync saying
				   *   trace on or debug exit */
};

/** How a piece ends. */
enum etm_piece_end {
	etm_piece_dump_end = 0, /**< the dump's last byte */
	etm_piece_stop,         /**< a trace stop: the formatter's ID-0 padding */
	etm_piece_cut,          /**< cut mid-stream: a newer run overwrote what
				 *   followed */
};

/** What lies between a piece and the one before it in the listed order. */
enum etm_piece_gap {
	etm_gap_none = 0,    /**< the first piece listed */
	etm_gap_overwritten, /**< trace lost: overwritten by a later lap or run */
	etm_gap_runs,        /**< between two runs (a stop, then a new start) */
	etm_gap_joins,       /**< between two runs that join: the halt's return
			      *   address is where the next run resumes */
	etm_gap_apart,       /**< listed in file order, not adjacent in time */
	etm_gap_unknown,     /**< the order in time is unknown */
};

/** What a piece is, as the listing names it (etm_piece_role_name()). */
enum etm_piece_role {
	etm_role_whole = 0,   /**< the whole buffer (one piece) */
	etm_role_newest_run,  /**< the last run, from its start */
	etm_role_newest,      /**< the newest data (no run start seen) */
	etm_role_earlier_run, /**< a run's start, not the newest */
	etm_role_older_lap,   /**< an older lap of the run that follows in time */
	etm_role_older,       /**< older data at an earlier write position */
	etm_role_tail,        /**< the tail of the previous run (ends in a stop) */
	etm_role_data,        /**< a piece the bytes say nothing more about */
};

/** One piece: bytes [start, end) of the buffer. */
struct etm_circ_piece {
	uint64_t start, end;
	enum etm_piece_begin begin;
	enum etm_piece_end end_kind;
	unsigned file_index; /**< its position in the file (0-based) */
	unsigned time_index; /**< its position in time (0 = oldest); the file
			      *   index when the order is unknown */
};

/** The pieces of a buffer, in file order. */
struct etm_circ_pieces {
	size_t n;        /**< 1: one piece, the whole buffer (nothing found) */
	int order_known; /**< 1: the bytes prove one order in time */
	struct etm_circ_piece p[ETM_PIECES_MAX];
};

/** Find the pieces of @n bytes of CoreSight frames at @buf (frame-aligned;
 * a trailing partial frame stays in the last piece). @cfgs (@ncfgs
 * configurations, trace ID in .traceid) say how each source's I-sync reads,
 * for the run-start rule; a source without one is never taken for a run's
 * start. Always succeeds; @out->n is 1 when the buffer is one piece. */
void etm_pieces_find(const uint8_t *buf, size_t n,
		     const struct etm_config *cfgs, size_t ncfgs,
		     struct etm_circ_pieces *out);

/** What piece @i of @ps is (etm_role_whole for a buffer of one piece). */
enum etm_piece_role etm_piece_role(const struct etm_circ_pieces *ps, size_t i);
/** Its description for listings ("older lap of the previous run", "tail of
 * the previous run", "newest run", ...). */
const char *etm_piece_role_name(enum etm_piece_role r);

/** Name of a gap ("overwritten", "between runs", "joins", "not adjacent
 * in time", "order unknown"); "" for etm_gap_none. */
const char *etm_piece_gap_name(enum etm_piece_gap g);

#ifdef __cplusplus
}
#endif
#endif
