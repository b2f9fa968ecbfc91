/* etmtrace/caprun.h - running an opened capture: the library reads each
 * trace buffer (its file, its records in memory, or an input the caller
 * names: memory, a file descriptor such as standard input, a stream read
 * as it arrives), pushes it into the buffer's decoder in chunks and hands
 * the decoded items to the caller, on one thread or, for a regular file,
 * on worker threads (etm_decoder_run(): the same items in the same order).
 * This is the one read loop of etmtrace: the CLI, etm_capture_next() and
 * the Python package all decode through it.
 *
 * How items come out of etmtrace, the whole set:
 *  - a capture: etm_capture_run() (push: a sink called in input order),
 *    etm_capture_next_elems() / etm_capture_next_packets() (pull, in
 *    batches), etm_capture_next() (pull, one item at a time: a thin
 *    wrapper for simple programs);
 *  - a decoder the caller feeds itself (etm_decoder_push()):
 *    etm_decoder_next(), etm_decoder_next_elems(),
 *    etm_decoder_next_packets() (etmtrace/decoder.h);
 *  - worker threads with per-thread consumers: etm_capture_run_ops(),
 *    or etm_decoder_run_ops() on the caller's random-access input
 *    (etmtrace/decoder.h); etm_decoder_run() is etm_decoder_run_ops()
 *    with the items handed to one callback on the calling thread; one chunk of a plan
 *    decoded on its own: etm_chunk_dec_next() (etmtrace/chunk.h). */
#ifndef ETM_ETMTRACE_CAPRUN_H
#define ETM_ETMTRACE_CAPRUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <etmtrace/decoder.h>
#include <etmtrace/open.h>
#include <etmtrace/runstats.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A stream read as it arrives (a pipe, a socket): up to @n bytes into
 * @buf. Returns the bytes read (> 0), 0 at its end, or -1 on an error
 * (the reader reports it). Blocks until some bytes come. */
typedef ssize_t (*etm_stream_read_fn)(void *ctx, uint8_t *buf, size_t n);

/** Where and how etm_capture_run() reads. A zeroed struct (with @size
 * set) reads the buffer's own input (its file; ETMv1 records in memory;
 * a perf.data piece's part of its file) on one thread. Begins with its
 * own size: older, shorter versions are accepted. */
struct etm_capture_run_opts {
	size_t size;   /**< sizeof(struct etm_capture_run_opts) */
	unsigned jobs; /**< worker threads (0, 1: the calling thread). Used
			* for a regular file read whole (no @chunk, no
			* offset): etm_decoder_run() */
	size_t chunk;  /**< bytes read and pushed at once (0: 128 KiB); given:
			* one thread */
	/** Input instead of the buffer's own, one of: @nmem bytes at @mem;
	 * file descriptor @fd read to its end (with @use_fd; standard input
	 * is 0); a stream through @read (its first @nhead bytes at @head,
	 * already read by the caller, come first). */
	const uint8_t *mem;
	size_t nmem;
	int use_fd;
	int fd;
	etm_stream_read_fn read;
	void *read_ctx;
	const uint8_t *head;
	size_t nhead;
	/** Out: input bytes pushed are added to *@bytes (if non-NULL). */
	uint64_t *bytes;
	/** Out: a one-line reason of a failure of the run itself (a file
	 * that cannot be read: "PATH: reason"; a decoder error: "PATH:
	 * decoder: reason"), if non-NULL. Left empty when a sink callback
	 * stopped the run. */
	char *err;
	size_t errlen;
};

/** Consumer of etm_capture_run(); every callback runs on the calling
 * thread, in input order. A callback returns 0 to go on or a negative
 * value to stop the run (returned by etm_capture_run()). */
struct etm_capture_sink {
	/** Every item (required). */
	int (*item)(void *ctx, const struct etm_item *it);
	/** Optional: elements in batches (the decoder's array, valid during
	 * the call) instead of item(), where the decoder gives them so
	 * (element mode without packet items, one thread:
	 * etm_decoder_next_elems()). */
	int (*elems)(void *ctx, const struct etm_elem *els, size_t n);
	/** Optional: after each read's bytes were pushed and their items
	 * delivered (a stream: the output so far may be flushed). */
	int (*pushed)(void *ctx);
	/** Optional: the input ended (@bytes read in all) and the decoder
	 * is about to be finished; the items it still holds follow. */
	void (*input_end)(void *ctx, uint64_t bytes);
	/** Optional: the buffer's decoder returned end of stream: every
	 * item was delivered. */
	int (*end)(void *ctx);
};

/** Decode buffer @i of @cap (etm_capture_load() is called) as @ro says
 * (NULL: its own input, one thread), delivering its items to @sink.
 * Returns 0, 1 if the buffer has no decoded source or its decoder cannot
 * be made (etm_capture_load(); nothing done), a
 * negative value of @sink's, -etme_io (unreadable input), -etme_nomem,
 * -etme_invalid, or a decoder error (the last three with a reason in
 * @ro->err). */
int etm_capture_run_buffer(struct etm_capture *cap, size_t i,
			   const struct etm_capture_run_opts *ro,
			   const struct etm_capture_sink *sink, void *ctx);

/** etm_capture_run_buffer() of every buffer in turn (buffer 0 first),
 * skipping those without a decoded source. @ro's own input (memory, a
 * descriptor, a stream) is only for a capture of one buffer
 * (-etme_invalid otherwise). Returns as etm_capture_run_buffer(), 0 when
 * every buffer is done. */
int etm_capture_run(struct etm_capture *cap,
		    const struct etm_capture_run_opts *ro,
		    const struct etm_capture_sink *sink, void *ctx);

/** Buffer @i of @cap on worker threads with a consumer per thread
 * (etm_decoder_run_ops_stats(): @ops, @ctx, @st, which may be NULL): the
 * library opens the buffer's file and reads it from every thread. Only
 * for a buffer read whole from a regular file, as @ro asks (@ro->jobs
 * threads; no @chunk, no input of the caller's); otherwise nothing is
 * done and 2 is returned (use etm_capture_run_buffer()). *@ro->bytes gets
 * the input size added. Returns 0, 1 if the buffer has no decoded
 * source, 2 as said, -etme_io (the file cannot be opened: reason in
 * @ro->err), or as etm_decoder_run_ops() (a value of @ops's, or a decoder
 * error: no reason given). */
int etm_capture_run_ops(struct etm_capture *cap, size_t i,
			const struct etm_capture_run_opts *ro,
			const struct etm_run_ops *ops, void *ctx,
			struct etm_run_stats *st);

/** A part of a regular file as the parallel runs read it
 * (etm_decoder_run(), etm_listing_run(), etm_cov_run()): the bytes from
 * offset @base of file descriptor @fd. */
struct etm_fd_range {
	int fd;
	uint64_t base;
};

/** Buffer @i of @cap as the parallel runs read it, for a caller that
 * drives one itself (etm_listing_run(), etm_cov_run() with etm_fd_read()):
 * its regular file (or the part of it that is the buffer: a perf.data AUX
 * piece) opened into *@rg (the caller closes rg->fd), its size in *@size.
 * The same rule as etm_capture_run_buffer() with several jobs: a buffer in
 * memory, read from an offset to the end of its file, or of a capture
 * that switches images by Context ID is not read so. Returns 0, 1 if it is
 * not (nothing opened: use etm_capture_run_buffer()), -etme_invalid, or
 * -etme_io (its file cannot be opened). */
int etm_capture_range(struct etm_capture *cap, size_t i,
		      struct etm_fd_range *rg, uint64_t *size);

/** The read callback over a struct etm_fd_range (@range): up to @n bytes
 * at @off past its base into @buf (fewer at the end of the file, 0 past
 * it; interrupted and short reads are retried). Safe on several threads
 * at once. Returns the bytes read. */
size_t etm_fd_read(void *range, uint64_t off, uint8_t *buf, size_t n);

/** Pull form: the next batch of elements of the whole capture (each
 * buffer's own input in turn, as etm_capture_next()), for decoders in
 * element mode without packet items. *@els is set to up to @max
 * elements, valid until the next call on @cap; *@buffer (if non-NULL) to
 * the index of their buffer. With etm_capture_set_jobs() > 1, a regular
 * file is decoded on that many worker threads (the same elements).
 * Returns the number of elements (> 0), -etme_eos when every buffer is
 * done, -etme_io, -etme_nomem, -etme_invalid (packet mode), or an error
 * of etm_decoder_next_elems(). Do not mix with etm_capture_next() or
 * etm_capture_next_packets() on the same capture. */
int etm_capture_next_elems(struct etm_capture *cap, const struct etm_elem **els,
			   size_t max, size_t *buffer);

/** Pull form in packet mode: up to @max packet records of the whole
 * capture into @recs (etm_decoder_next_packets()), *@buffer as above.
 * Returns the number of records (> 0), -etme_eos when every buffer is
 * done, or an error as etm_capture_next_elems(). */
int etm_capture_next_packets(struct etm_capture *cap,
			     struct etm_pkt_rec *recs, size_t max,
			     size_t *buffer);

/** Worker threads of the pull form etm_capture_next_elems() (default 1:
 * the calling thread). Call before the first batch. Returns 0 or
 * -etme_invalid. */
int etm_capture_set_jobs(struct etm_capture *cap, unsigned jobs);

#ifdef __cplusplus
}
#endif
#endif
