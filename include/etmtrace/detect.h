/* etmtrace/detect.h - recognising trace bytes before anything decodes
 * them: the input format of a buffer (CoreSight frames, TPIU frames with
 * or without FSYNC, raw single-source data), where the frames of a TPIU
 * capture without FSYNC start, and whether one source's bytes are ITM/DWT
 * trace. Pure functions of the bytes given (src/source/detect.c,
 * src/source/itm_detect.c); etm_capture_open() (etmtrace/open.h) uses them
 * on a trace file, and a front end may use them on bytes of its own (e.g.
 * a warning about a file given with the wrong format). */
#ifndef ETM_ETMTRACE_DETECT_H
#define ETM_ETMTRACE_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/source.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Recognise the input format of trace bytes @buf (the start of a buffer,
 * a few KiB or more): CoreSight 16-byte frames, TPIU frames (with or
 * without FSYNC), or raw single-source data. Writes a one-line reason to
 * @why (if non-NULL). Returns the format, or etm_fmt_unknown for no bytes. */
enum etm_input_format etm_detect_format(const uint8_t *buf, size_t n,
					char *why, size_t whylen);
/** Where the 16-byte frames of a TPIU capture without FSYNC (an SWO
 * capture, maybe begun mid-frame) start in @buf: the offset 0-15 whose
 * frames fit the formatter protocol best (trace IDs named, the auxiliary
 * byte's reserved bit; etm_detect_format() says how clearly). Returns -1
 * if @buf has an FSYNC (the deformatter finds the frames by it) or no
 * alignment fits. */
int etm_detect_frame_start(const uint8_t *buf, size_t n);
/** Whether the @n bytes of one trace source @buf are ITM/DWT trace (the
 * ARMv7-M instrumentation and data-watchpoint packets) rather than
 * ETM/PTM: they parse by the ITM packet grammar with hardly a malformed
 * packet, mostly source packets (a heuristic: doc/itm.md). Writes the
 * counts to @why (if non-NULL). Returns 1 or 0. */
int etm_detect_itm(const uint8_t *buf, size_t n, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif
