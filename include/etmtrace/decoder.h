/* etmtrace/decoder.h - the whole pipeline in one object: input bytes
 * (raw or CoreSight-formatted) -> per-ID packet parsers -> per-ID flow
 * decoders; packets and elements are delivered in input order. */
#ifndef ETM_ETMTRACE_DECODER_H
#define ETM_ETMTRACE_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/flow.h>
#include <etmtrace/pieces.h>
#include <etmtrace/image.h>
#include <etmtrace/packet.h>
#include <etmtrace/source.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etm_decoder;

/** What the decoder produces. */
enum etm_decoder_mode {
	etm_dec_packets = 1,  /**< packets only (no flow decode) */
	etm_dec_elements = 2, /**< packets are decoded into elements */
};

/** Allocate a decoder for input of format @fmt. Returns NULL on no memory
 * or bad format. */
struct etm_decoder *etm_decoder_alloc(enum etm_input_format fmt,
				      enum etm_decoder_mode mode);
/** Free the decoder and its per-source parsers; NULL is a no-op. */
void etm_decoder_free(struct etm_decoder *d);

/** CoreSight frames: trace ID @id (0x01-0x6F) is in the input (a source
 * left out by a selection, or of a protocol not decoded; noting a decoded
 * one is harmless). Once an ID is noted, the sources and the noted IDs are
 * taken as all the IDs of the input: a frame naming another makes the
 * decoder check the frame alignment (a lost alignment names random IDs).
 * Returns 0 or -etme_invalid. */
int etm_decoder_note_id(struct etm_decoder *d, unsigned id);

/** CoreSight frames: as etm_decoder_note_id() for the source @cfg
 * configures, which the decoder does not decode (left out by a
 * selection). Its configuration serves only where a lost frame alignment
 * is found late, in another source's data: its packets in the frames
 * before are parsed then, to put the error where the damage began.
 * Returns 0, -etme_bad_config (then the ID is noted all the same),
 * -etme_invalid or -etme_nomem. */
int etm_decoder_note_source(struct etm_decoder *d,
			    const struct etm_config *cfg);
/** TPIU input (etm_fmt_tpiu) without FSYNC: its frames start at input
 * offset @off (0-15; etm_detect_frame_start()), the bytes before are
 * dropped (etm_dfmt_set_start()). Before the first push; returns 0 or
 * -etme_invalid. */
int etm_decoder_set_frame_start(struct etm_decoder *d, uint64_t off);

/* etm_decoder_set_pieces() modes */
#define ETM_PIECES_OFF 0  /**< the input is one piece (the default) */
#define ETM_PIECES_TIME 1 /**< pieces listed in time order */
#define ETM_PIECES_FILE 2 /**< pieces listed in file order */
/** Most input a decoder with pieces on holds (bytes). */
#define ETM_PIECES_MAX_INPUT ((size_t)256 << 20)

/** A circular buffer read from its write pointer (etmtrace/pieces.h): with
 * @mode ETM_PIECES_TIME or _FILE, a decoder of CoreSight frames in element
 * mode keeps the input it is pushed (at most ETM_PIECES_MAX_INPUT bytes),
 * and at etm_decoder_finish() finds its pieces (etm_pieces_find() with the
 * sources' configurations) and decodes each as an input of its own: no
 * address, instruction set, atom or context state crosses a boundary, and
 * the elements of a piece are those a decoder given only its bytes makes.
 * Before each piece's elements comes an etmk_piece element (etmtrace/
 * flow.h), and every element says its piece (etm_elem.piece). A buffer
 * that is one piece gives the same elements as with pieces off, with no
 * piece element. A packet cut by a piece's end (the circular buffer's
 * oldest data, or the input's end) is an etmk_buffer_end note, not an
 * error: each piece is decoded as an input of its own. Decoding is serial (etm_decoder_serial()).
 * Call before the first push. Returns 0, -etme_invalid (another format or
 * mode, input already pushed), -etme_nomem. */
int etm_decoder_set_pieces(struct etm_decoder *d, unsigned mode);
/** The pieces of @n bytes at @buf as @d would find them (etm_pieces_find()
 * with the configurations of its sources and of those it was told of,
 * etm_decoder_note_source()). */
void etm_decoder_find_pieces(const struct etm_decoder *d, const uint8_t *buf,
			     size_t n, struct etm_circ_pieces *out);
/** The pieces found, or NULL (pieces off, or not yet finished). */
const struct etm_circ_pieces *etm_decoder_pieces(const struct etm_decoder *d);

/** Add a trace source. With raw input exactly one source may be added (its
 * trace ID is only a label). @img is borrowed (may be shared by sources).
 * Returns 0, -etme_bad_config, -etme_nomem, -etme_invalid. */
int etm_decoder_add_source(struct etm_decoder *d, const struct etm_config *cfg,
			   const struct etm_image *img);

/** Push @n input bytes (any chunk size; the buffer is borrowed until
 * next() returns -etme_again). Returns 0, -etme_busy, -etme_invalid. */
int etm_decoder_push(struct etm_decoder *d, const uint8_t *buf, size_t n);
/** End of input. */
int etm_decoder_finish(struct etm_decoder *d);

/** What an item holds. */
enum etm_item_kind {
	etm_item_packet = 0, /**< a packet: etm_item.pkt */
	etm_item_elem = 1,   /**< an element: etm_item.elem */
};

/** One output item, a tagged union: a packet (with the element mode,
 * packets are also returned before the elements they produce) or an
 * element. Only the member @kind names is valid. */
struct etm_item {
	enum etm_item_kind kind;
	enum etm_protocol proto; /**< protocol of the source */
	union {
		struct etm_packet pkt; /**< kind etm_item_packet */
		struct etm_elem elem;  /**< kind etm_item_elem */
	};
};

/** Next item. Returns 0 with an item, -etme_again (push more), -etme_eos
 * (after finish, all delivered). */
int etm_decoder_next(struct etm_decoder *d, struct etm_item *it, size_t size);

/** Packets in compact form, for a decoder in packet mode (etm_dec_packets):
 * up to @max records into @recs, the same packets in the same order as the
 * items of etm_decoder_next() (which may be mixed with these calls). An
 * error of the frame deformatter, an error element in etm_decoder_next(),
 * is a record of type etmp_error with id 0. Much faster than
 * etm_decoder_next() when only the common packet fields are needed.
 * Returns the number of records (> 0), -etme_again (push more), -etme_eos
 * (after finish, all delivered), -etme_invalid (or another mode). */
int etm_decoder_next_packets(struct etm_decoder *d, struct etm_pkt_rec *recs,
			     size_t max);

/** Elements in batches, without copies, for a decoder in element mode that
 * does not deliver packets (etm_decoder_set_packets() off, the default):
 * *@els is set to an array of up to @max elements, the same elements in the
 * same order as the items of etm_decoder_next() (which may be mixed with
 * these calls). The array belongs to the decoder and stays valid until the
 * next call of any function on @d. The protocol of an element is that of
 * its source (elem.id); an error of the frame deformatter has id 0, as its
 * item has protocol etm_proto_unknown. Much faster than etm_decoder_next()
 * on element-dense trace: a batch is typically tens of elements.
 * Returns the number of elements (> 0), -etme_again (push more), -etme_eos
 * (after finish, all delivered), an error of etm_decoder_next(), or
 * -etme_invalid (packet mode or packet items on). */
int etm_decoder_next_elems(struct etm_decoder *d,
			   const struct etm_elem **els, size_t max);

/** Deliver packets as items too in element mode (default 0: elements only). */
void etm_decoder_set_packets(struct etm_decoder *d, int on);

/** Recovery of a lost CoreSight frame alignment (bytes lost or inserted in
 * captured frames; doc/realign.md). */
enum etm_realign {
	/** The deformatter's own rules only: an ID change to a reserved ID
	 * makes it look for the alignment again. */
	etm_realign_off = 0,
	/** Also when a source's packets stop parsing; the elements made from
	 * frames a realignment finds damaged are withdrawn from the moment
	 * damage is first suspected on (undamaged input costs nothing). */
	etm_realign_basic = 1,
	/** As basic, with every element held back until the input is some
	 * 900 bytes past it, so that a realignment found late withdraws
	 * everything the damage made (costs a few percent of decode time). */
	etm_realign_precise = 2,
};

/** Frame realignment of CoreSight formatted input (default
 * etm_realign_precise; no effect on other formats). Before the first push
 * or at any time: it applies to the input not yet read. Returns 0, or
 * -etme_invalid for a bad @mode. */
int etm_decoder_set_realign(struct etm_decoder *d, enum etm_realign mode);

/** Enable or disable the flow block cache (and ETMv3 walk memo) of every
 * source (default on). */
void etm_decoder_set_cache(struct etm_decoder *d, int on);

/** Per-process images for the source of trace ID @id (ETMv3 and PTM):
 * etm_flow_set_ctx_images() on its flow decoder. Returns 0, or
 * -etme_invalid if no such source decodes to elements. */
int etm_decoder_set_ctx_images(struct etm_decoder *d, unsigned id,
			       etm_ctx_image_fn fn, void *ctx);

/** Packets parsed so far over all sources, whether or not they are
 * delivered as items (after etm_decoder_run(): those of the run). */
uint64_t etm_decoder_packet_count(const struct etm_decoder *d);

/* ---- whole-input and parallel decode -------------------------------------- */

/** Random-access input of etm_decoder_run(): copy up to @n bytes at input
 * offset @off into @buf; return how many were copied (fewer only at the end
 * of the input). Called from several threads at once. */
typedef size_t (*etm_read_fn)(void *ctx, uint64_t off, uint8_t *buf,
			      size_t n);
/** Item sink of etm_decoder_run(): called on the calling thread, in input
 * order. Return 0 to go on, a negative value to stop the run. */
typedef int (*etm_item_fn)(void *ctx, const struct etm_item *it);

/** Decode the @size input bytes read through @rd, delivering to @fn every
 * item that push/next/finish over the whole input would, in the same order,
 * using @jobs worker threads (0 or 1: on the calling thread only).
 * With several jobs the input is cut into chunks at synchronisation points
 * (raw input: an A-sync; CoreSight frames: a frame starting with an ID
 * change), each decoded by a copy of @d; the decoder of the previous
 * chunk runs on past the cut until its complete state equals the state of
 * the chunk's own decoder, and only then is the chunk's output used, so the
 * result is identical to a single-threaded decode. TPIU input is decoded on
 * one thread. Memory stays bounded whatever @size.
 * @d must be configured (sources added) and unused; only its packet count
 * changes (etm_decoder_packet_count()).
 * Returns 0, @fn's negative value, -etme_io (short read), -etme_nomem,
 * -etme_invalid, or an error of etm_decoder_next(). */
int etm_decoder_run(struct etm_decoder *d, etm_read_fn rd, void *rctx,
		    uint64_t size, unsigned jobs, etm_item_fn fn, void *ctx);

/** Consumer of etm_decoder_run_ops(). Items are consumed on the worker
 * thread that decoded them, by a per-worker state that turns them into
 * opaque pieces of output (formatted text, counters, ...); the calling
 * thread receives the pieces in input order. The library calls cut() at
 * the end of each stretch of items a worker delivers (a chunk, and its run
 * into the next chunks up to where their decoders converged); all pieces
 * of such a stretch may be dropped instead of emitted (a chunk whose
 * predecessor's decoder had to decode it). So the state must carry
 * nothing from one such cut to the next: what a piece holds depends only
 * on the items since the last cut that the consumer did not ask for. */
struct etm_run_ops {
	/** Worker thread (or the calling thread with one job): a new
	 * consumer state; NULL on no memory. */
	void *(*open)(void *ctx);
	/** Worker thread: one item. Return 0 to go on, 1 to end the
	 * current piece after this item (e.g. its buffer is full), or a
	 * negative value to stop the run. */
	int (*item)(void *state, const struct etm_item *it);
	/** Worker thread: the output since the previous cut as a piece in
	 * *@piece (NULL if there is none), its size in *@bytes (for the
	 * memory budget). Return 0 or a negative value to stop. */
	int (*cut)(void *state, void **piece, size_t *bytes);
	/** In input order, one call at a time: a piece of the output (it
	 * now belongs to the callee). On the calling thread, or (with
	 * live()) on the worker that cut it while that worker is live.
	 * Return 0, or a negative value to stop. */
	int (*emit)(void *ctx, void *piece);
	/** Any thread, possibly several at once: a piece that is not used
	 * (to be freed). Must not call into the run. */
	void (*drop)(void *ctx, void *piece);
	/** Worker thread: free the state (after its last cut). */
	void (*close)(void *state);
	/** Piece bytes buffered over all chunks (0: 40 MiB). Chunk sizes
	 * adapt to it: a larger budget means larger chunks when the output
	 * is large per input byte. */
	size_t budget;
	/** Optional, worker thread (or the calling thread with one job):
	 * @n elements at once instead of an item() call each, used when @d
	 * decodes elements without packet items (the condition of
	 * etm_decoder_next_elems(); otherwise everything goes to item()).
	 * The array is the decoder's, valid during the call; an element's
	 * protocol is that of its source (elem.id). Returns as item(): 1
	 * ends the current piece after these elements. On element-dense
	 * trace much cheaper than an item copied out per element. */
	int (*elems)(void *state, const struct etm_elem *els, size_t n);
	/** Optional, worker thread: @on 1 after a cut of this state whose
	 * piece was emitted on this thread with every piece before it: the
	 * state is *live* until called with @on 0 (right after the last cut
	 * of its stretch, also emitted here): every piece cut meanwhile is
	 * emitted on this thread at once, so the consumer may write its
	 * output straight out, in order, instead of into its pieces (which
	 * then carry only what emit() does besides; cut() gives in *@bytes
	 * the bytes written out since the last cut: chunk lengths follow
	 * the output per input byte). Return 0, or a
	 * negative value to stop (with @on 0: ignored). */
	int (*live)(void *state, int on);
};

/** etm_decoder_run() with the items consumed on the worker threads through
 * @ops, @ctx passed to open, emit and drop. The pieces emitted, in order,
 * hold the consumer's output of exactly the items etm_decoder_run() would
 * deliver. With @jobs <= 1 (or small or TPIU input) everything runs on the
 * calling thread. Returns as etm_decoder_run(), with the negative values of
 * @ops's callbacks. */
int etm_decoder_run_ops(struct etm_decoder *d, etm_read_fn rd, void *rctx,
			uint64_t size, unsigned jobs,
			const struct etm_run_ops *ops, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
