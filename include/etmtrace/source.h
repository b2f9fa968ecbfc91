/* etmtrace/source.h - trace byte sources: the CoreSight frame deformatter that
 * demultiplexes formatted buffers (ETB/ETF/ETR/TPIU) by trace ID, keeping the
 * input-file offset of every data byte. Raw single-source data needs no
 * deformatter: feed it straight to a packet parser. */
#ifndef ETM_ETMTRACE_SOURCE_H
#define ETM_ETMTRACE_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Input formats. */
enum etm_input_format {
	etm_fmt_unknown = 0,
	etm_fmt_raw,          /**< single-source byte stream */
	etm_fmt_coresight,    /**< 16-byte frames, frame-aligned (ETB/ETF/ETR memory) */
	etm_fmt_tpiu,         /**< 16-byte frames with FSYNC / HSYNC (TPIU port capture) */
	etm_fmt_tpiu_nofsync, /**< TPIU capture that starts at a frame boundary
			       *   and may have no FSYNC (SWO): frames from
			       *   byte 0; HSYNC dropped, FSYNC honoured */
};

/** A run of data bytes of one trace ID, at consecutive input offsets
 * (offset, offset+1, ...). data points into the deformatter and stays valid
 * until the next call to etm_dfmt_push/next/finish. */
struct etm_dfmt_run {
	uint8_t id; /**< trace ID 0x01-0x6F */
	const uint8_t *data;
	size_t size;
	uint64_t offset; /**< input offset of data[0] */
};

/** A deformatter event other than data (reported through etm_dfmt_next()). */
enum etm_dfmt_kind {
	etm_dfmt_none = 0,
	etm_dfmt_data,  /**< a data run (struct etm_dfmt_run) */
	etm_dfmt_error, /**< corrupt frame / reserved ID; see err, offset */
	etm_dfmt_sync,  /**< frame synchronisation found (TPIU mode) */
};

struct etm_dfmt_item {
	enum etm_dfmt_kind kind;
	struct etm_dfmt_run run; /**< etm_dfmt_data */
	int err;                 /**< etm_dfmt_error: enum etm_error */
	uint64_t offset;         /**< input offset the item refers to */
};

struct etm_dfmt;

/** Allocate a deformatter for @fmt (etm_fmt_coresight or etm_fmt_tpiu).
 * @base_offset is the input offset of the first byte that will be pushed.
 * Returns NULL on bad format or no memory. */
struct etm_dfmt *etm_dfmt_alloc(enum etm_input_format fmt, uint64_t base_offset);
/** Free; NULL is a no-op. */
void etm_dfmt_free(struct etm_dfmt *d);
/** Push @n bytes (any chunk size). The buffer is borrowed until next()
 * returns -etme_again. Returns 0, -etme_busy, -etme_invalid. */
int etm_dfmt_push(struct etm_dfmt *d, const uint8_t *buf, size_t n);
/** End of input: a trailing partial frame is reported as an error item. */
int etm_dfmt_finish(struct etm_dfmt *d);
/** Next item. Returns 0 with an item, -etme_again when more input is needed,
 * -etme_eos after finish() when all is delivered. */
int etm_dfmt_next(struct etm_dfmt *d, struct etm_dfmt_item *item, size_t size);

/** TPIU frames (etm_fmt_tpiu) not marked by an FSYNC (an SWO capture): the
 * first frame starts at input offset @off (etm_detect_frame_start()), up
 * to 15 bytes after the base offset; the bytes before it, the tail of a
 * frame cut by the start of the capture, are dropped. An FSYNC still
 * realigns. Before the first push; returns 0 or -etme_invalid. */
int etm_dfmt_set_start(struct etm_dfmt *d, uint64_t off);

#ifdef __cplusplus
}
#endif
#endif
