/* etmtrace/chunk.h - decoding one input in independent chunks, on as many
 * processes or machines as there are: a plan of chunks cut at sync points
 * (the same for any number of machines), a decoder of one chunk that
 * needs nothing from the others, and the rule that stitches their outputs
 * into exactly the output of one decode of the whole input. */
#ifndef ETM_ETMTRACE_CHUNK_H
#define ETM_ETMTRACE_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>
#include <etmtrace/flow.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Default chunk size of a plan (etm_chunk_plan() with @target 0). */
#define ETM_CHUNK_TARGET (16u << 20)

/** A chunk of a plan: input bytes [offset, offset + length). */
struct etm_chunk {
	uint64_t offset, length;
	/** Bit (id & 63) of ids[id >> 6]: trace ID id has data in the chunk
	 * (CoreSight frames: an ID change names it, or it is in force at
	 * the chunk's start). Zero for raw and TPIU input (one source; TPIU
	 * is not cut) and when IDs were not asked for. */
	uint64_t ids[2];
};

/** Cut the @size input bytes read through @rd (format of the configured
 * decoder @d) into chunks of about @target bytes (0: ETM_CHUNK_TARGET)
 * starting at sync points, the rule of etm_decoder_run(): raw input at an
 * A-sync, CoreSight frames at a frame starting with an ID change; TPIU
 * input is one chunk. Chunk i+1 starts at the first sync point at or after
 * chunk i's offset + @target, so the plan depends on the input and @target
 * only. Chunks are contiguous and cover the input. With @want_ids, the
 * trace IDs of each chunk are found by reading the whole input (frames
 * only); otherwise only around the cuts. *@chunks is a malloc()ed array of
 * *@n chunks (at least 1 for a non-empty input; free() it).
 * Returns 0, -etme_io (short read), -etme_nomem, -etme_invalid. */
int etm_chunk_plan(const struct etm_decoder *d, etm_read_fn rd, void *rctx,
		   uint64_t size, uint64_t target, int want_ids,
		   struct etm_chunk **chunks, size_t *n);

struct etm_chunk_dec;

/** A decoder of the plan's chunk [@offset, @offset + @length) (a chunk of
 * etm_chunk_plan() with the same @size and @target), a copy of the
 * configured, element-mode decoder @d (sources and images shared: they
 * must outlive it). It decodes its chunk from the start, delivering
 * elements from the end of the chunk's head on (etm_decoder_run()'s
 * rule: the predecessor delivers the head), then runs on into the
 * following chunks, delivering, until its state equals that of a fresh
 * decoder of a following chunk at one of the checkpoints in that chunk's
 * head, and delivers up to that head's end; or to the end of input.
 * etm_chunk_dec_next_chunk() then says which chunk's output follows: the
 * outputs of chunk 0, then of the chunk each names, concatenated, are the
 * elements of one decode of the whole input; chunks in between (rare:
 * trace that never converged within a head) contribute nothing.
 * Reads only its chunk and the part of the following ones it runs into.
 * Returns NULL on no memory or invalid arguments (@d in packet mode or
 * with packet items). */
struct etm_chunk_dec *etm_chunk_dec_alloc(const struct etm_decoder *d,
					  etm_read_fn rd, void *rctx,
					  uint64_t size, uint64_t target,
					  uint64_t offset, uint64_t length);
/** Free; NULL is a no-op. */
void etm_chunk_dec_free(struct etm_chunk_dec *c);

/** The chunk's elements in batches, as etm_decoder_next_elems(): *@els is
 * set to up to @max elements, valid until the next call on @c.
 * Returns the number of elements (> 0), -etme_eos when the chunk's output
 * is complete, -etme_io (short read), -etme_nomem, -etme_invalid, or an
 * error of etm_decoder_next_elems(). */
int etm_chunk_dec_next(struct etm_chunk_dec *c, const struct etm_elem **els,
		       size_t max);

/** After etm_chunk_dec_next() returned -etme_eos: the offset of the chunk
 * whose output follows this chunk's (its successor's offset, further on
 * if the decode ran through whole chunks), or the input size when the
 * output reaches the end of input. Before that: 0. */
uint64_t etm_chunk_dec_next_chunk(const struct etm_chunk_dec *c);

#ifdef __cplusplus
}
#endif
#endif
