/* decoder/clone.h - the decoder's library-internal interface for the
 * parallel runner and chunk decode (run/): copies
 * of a configured decoder starting at an input offset, and its state. */
#ifndef ETM_DECODER_CLONE_H
#define ETM_DECODER_CLONE_H

#include <etmtrace/decoder.h>

struct etm_sbuf;

/* A new, unused decoder with the format, mode, options and sources of @d
 * (configurations copied, images shared), whose first pushed byte has input
 * offset @base. NULL on no memory. */
struct etm_decoder *etm_decoder_clone(const struct etm_decoder *d,
				      uint64_t base);

/* The same for the whole input (from offset 0), the way @d would decode
 * it: a circular buffer's pieces too (etm_decoder_set_pieces(); a copy made
 * by etm_decoder_clone() decodes the bytes it is given as one stream, the
 * way chunks and pieces need it). NULL on no memory. */
struct etm_decoder *etm_decoder_clone_whole(const struct etm_decoder *d);
/* Whether @d decodes a circular buffer's pieces (etm_decoder_set_pieces()):
 * its input can only be decoded whole. */
int etm_decoder_in_pieces(const struct etm_decoder *d);

/* Make @d ready for input starting at offset @base: parsers search for
 * A-sync, flow decoders are unsynchronised, but the block caches are kept
 * (other state may remain: only for decoders whose output is checked by
 * convergence, never for a decode that must start fresh). TPIU: invalid. */
void etm_decoder_restart(struct etm_decoder *d, uint64_t base);

/* Write the state that decides @d's future output to @s: every source's
 * parser and flow decoder. Only meaningful between pushes, after next()
 * returned -etme_again. The deformatter is not included: callers only
 * compare at frame boundaries where its state is known (see run/worker.c). */
void etm_decoder_save(const struct etm_decoder *d, struct etm_sbuf *s);

/* Set the packet count (parallel decode adds up its chunks'). */
void etm_decoder_set_packet_count(struct etm_decoder *d, uint64_t n);

/* Whether etm_decoder_next_elems() may be used on @d (element mode, no
 * packet items). */
int etm_decoder_elems_ok(const struct etm_decoder *d);
/* Whether the input can only be decoded on one thread (a circular
 * buffer's pieces, a source kind without cut decode). */
int etm_decoder_serial(const struct etm_decoder *d);

/* Record size of an input cut by its source kind's own finder (ETMv1
 * samples: 4, flow/etm1_run.h), 0 for A-sync / frame cuts (run/cut.h). */
unsigned etm_decoder_cut_align(const struct etm_decoder *d);
/* That finder (only if etm_decoder_cut_align() is not 0): the index in
 * the @n bytes @buf (starting at a multiple of the alignment) of the first
 * record a chunk may start at, @n rounded down to the alignment if none. */
size_t etm_decoder_cut_find(const struct etm_decoder *d, const uint8_t *buf,
			    size_t n);

/* Input format of @d. */
enum etm_input_format etm_decoder_format(const struct etm_decoder *d);
/* Whether @d's CoreSight frames have all been read on the deformatter's
 * fast path since it was made (etm_decoder_clone()) or restarted: then no
 * frame on the grid of its first input offset began with 0xFF (maybe an
 * FSYNC, which leaves state that etm_decoder_save() does not show), and its
 * states can be compared (run/worker.c). Told by the deformatter, which
 * hands such frames over anyway, so the input need not be scanned for
 * them. 1 for input without frames. */
int etm_decoder_frames_fast(const struct etm_decoder *d);

#endif
