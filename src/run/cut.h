/* run/cut.h - where a whole input may be cut for independent decoders
 * (sync points), how far a chunk's head reaches and where its states are
 * compared: the rules shared by parallel decode (run/worker.c) and chunk
 * decode (chunk.c), so that both stitch chunks the same way. */
#ifndef ETM_RUN_CUT_H
#define ETM_RUN_CUT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>

#define ETM_CUT_FINE 1024u         /* checkpoint spacing near a chunk start */
#define ETM_CUT_DENSE (8u << 10)   /* ... up to here (both frame multiples) */
#define ETM_CUT_PIECE 4096u        /* checkpoint spacing after that */
#define ETM_CUT_HEAD (64u << 10)   /* a chunk's head reaches this far at most */
#define ETM_CUT_SEARCH (64u << 10) /* sync point search window (buffer size) */

/* First chunk start at or after @from in the @size bytes read through @rd:
 * raw input, the last five 0x00 before the 0x80 of an A-sync
 * (packet/async.h) whose zeros all lie at or after @from; CoreSight
 * frames (@frames), a frame whose first byte is an ID change (and not
 * 0xFF). @size if there is none (or a read fails). @buf holds
 * ETM_CUT_SEARCH bytes. */
uint64_t etm_cut_find_start(int frames, etm_read_fn rd, void *rctx,
			    uint64_t size, uint8_t *buf, uint64_t from);

/* The same for an input of records cut by its source kind's own finder
 * (etm_decoder_cut_find() of @d, records of @align bytes from offset 0:
 * ETMv1 samples): the first record at or after @from that it accepts. The
 * finder looks at most ETM_CUT_REC_LOOK bytes past a record. */
#define ETM_CUT_REC_LOOK 64u
uint64_t etm_cut_find_record(const struct etm_decoder *d, unsigned align,
			     etm_read_fn rd, void *rctx, uint64_t size,
			     uint8_t *buf, uint64_t from);

/* Head length of a chunk of @len bytes: a quarter of it (the predecessor's
 * decoder delivers the head's items), at least ETM_CUT_DENSE, at most
 * ETM_CUT_HEAD; a frame multiple; at most @len. */
uint64_t etm_cut_head_len(uint64_t len);

/* The checkpoint of a chunk [@start, ...) with head end @head_end after
 * @pos: every ETM_CUT_FINE bytes from its start for ETM_CUT_DENSE bytes
 * (chunks usually converge early), then at multiples of ETM_CUT_PIECE; at
 * most @head_end. */
uint64_t etm_cut_next_piece(uint64_t start, uint64_t head_end, uint64_t pos);

/* A framed input's frame starting with 0xFF may be an FSYNC: the
 * deformatter then holds state that etm_decoder_save() does not show, so
 * states cannot be compared; etm_decoder_frames_fast() (decoder/clone.h)
 * tells whether a decoder's deformatter met one since its start. */

#endif
