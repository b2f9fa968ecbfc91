/* etmtrace/error.h - error and status codes shared by every layer.
 * Functions return int: >= 0 success (size, count), < 0 a negated enum etm_error. */
#ifndef ETM_ETMTRACE_ERROR_H
#define ETM_ETMTRACE_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/** Error codes. Functions return the negated value (-etme_again, ...).
 * 0 is "no error" so a zeroed struct holds no error. */
enum etm_error {
	etme_ok = 0,
	etme_again,          /**< flow control: push more input, then call again */
	etme_eos,            /**< flow control: end of stream, nothing more */
	etme_nosync,         /**< not synchronised (no A-sync / I-sync seen yet) */
	etme_bad_opc,        /**< reserved or impossible packet header */
	etme_bad_packet,     /**< malformed packet payload */
	etme_truncated,      /**< packet cut by the end of data */
	etme_bad_config,     /**< configuration registers invalid or inconsistent */
	etme_nomap,          /**< no memory image at the requested address */
	etme_bad_insn,       /**< opcode not decodable / image does not match trace */
	etme_nomem,          /**< out of memory */
	etme_overflow,       /**< trace FIFO overflow reported, or internal bound hit */
	etme_retstack_empty, /**< E atom on indirect branch with empty return stack */
	etme_bad_frame,      /**< corrupt CoreSight formatter frame */
	etme_bad_id,         /**< reserved trace ID in a formatter frame */
	etme_io,             /**< file could not be read */
	etme_parse,          /**< malformed text input (ini file, option value) */
	etme_invalid,        /**< invalid argument (NULL, size too small, ...) */
	etme_internal,       /**< internal inconsistency (a bug) */
	etme_busy,           /**< output queue not drained: call next() first */
	etme_mismatch,       /**< trace disagrees with the program image */
	etme_unverified,     /**< the items that follow (up to the next error
			      *   of the source) came from trace that a later
			      *   check rejected (etmtrace/verify.h) */
	etme_halted,         /**< trace stopped at a Debug Halt and restarted
			      *   without its I-sync: skipped until an I-sync
			      *   or a full branch address */
	etme_bad_timestamp,  /**< timestamp packet while timestamps are off
			      *   (ETMCR[28]) or before ETMv3.5 */
	etme_frame_align,    /**< CoreSight frame alignment lost (bytes lost
			      *   or inserted): frames realigned here, trace
			      *   resumes at each source's next sync */
};

/** Fixed human-readable string for an error code (either sign accepted).
 * Never returns NULL. */
const char *etm_errstr(int err);

/** Short identifier for an error code ("bad_opc", ...), for machine output. */
const char *etm_errname(int err);

/** The message to show for error @err of a function that also wrote why
 * into an error buffer: @detail (that buffer) when it is a non-empty
 * string, else etm_errstr(@err). Never returns NULL. */
const char *etm_errmsg(int err, const char *detail);

#ifdef __cplusplus
}
#endif
#endif
