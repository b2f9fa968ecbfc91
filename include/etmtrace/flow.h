/* etmtrace/flow.h - instruction-flow decoder: packets of one trace source in,
 * decoded elements (executed ranges, exceptions, context, ...) out, walking a
 * program image. */
#ifndef ETM_ETMTRACE_FLOW_H
#define ETM_ETMTRACE_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/image.h>
#include <etmtrace/insn.h>
#include <etmtrace/packet.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Element kinds. 0 is invalid. */
enum etm_elem_kind {
	etmk_invalid = 0,
	etmk_range,       /**< executed instructions [start, end) */
	etmk_exception,   /**< exception taken */
	etmk_exc_return,  /**< exception return instruction traced */
	etmk_trace_on,    /**< trace (re)starts here; reason in .reason */
	etmk_nosync,      /**< decoder not synchronised (gap until next sync) */
	etmk_context,     /**< context ID / VMID / security / Hyp */
	etmk_timestamp,   /**< timestamp */
	etmk_cycle_count, /**< cycles not attributed to an instruction (gap length) */
	etmk_event,       /**< trigger */
	etmk_nomem,       /**< no opcode at .addr: decode resumes at next address packet */
	etmk_error,       /**< bad trace; .err, decode resumes at the next sync */
	/** A note, not an error: the trace ends inside a packet that the end
	 * of the trace buffer cut (the end of the decoder's input, or of a
	 * piece of a circular buffer a caller decodes on its own): nothing
	 * before it was lost. .offset: the cut packet's (or partial
	 * formatter frame's) first byte; .err: etme_truncated. The source is
	 * unsynchronised after it. See doc/robustness.md "The end of a trace
	 * buffer". */
	etmk_buffer_end,
	etmk_piece, /**< a piece of a circular buffer begins (below) */
	/** A window (etmtrace/window.h) left out elements of the decode here,
	 * between two it keeps (--last N --at halt: between the groups):
	 * id 0, .offset: the first one left out; .ninsn: the instructions
	 * left out (at most UINT32_MAX). */
	etmk_window,
	/* ITM/DWT (etm_proto_itm, doc/itm.md): events of the program and
	 * the DWT, in stream order with the ETM's elements */
	etmk_itm_sw,       /**< stimulus port write: itm_chan, itm_value, itm_size */
	etmk_itm_ts,       /**< ITM timestamp: timestamp; itm_flags ETM_ITM_GLOBAL */
	etmk_itm_overflow, /**< ITM overflow: packets were lost */
	etmk_dwt_pc,       /**< periodic PC sample: addr, or itm_flags ETM_ITM_SLEEPING */
	etmk_dwt_exc,      /**< exception trace: exc_num, itm_fn (1 enter, 2 exit, 3 return) */
	/** data trace, comparator itm_chan: itm_flags ETM_ITM_CMP_PC (addr =
	 * the PC), _ADDR (addr = the data address; itm_size 2: bits 15:0),
	 * _VALUE (itm_value of itm_size bytes, itm_fn 1 = write) or _MATCH */
	etmk_dwt_cmp,
	etmk_dwt_counter, /**< event counter wrapped: itm_value = the bits (CPI 0, Exc 1, Sleep 2, LSU 3, Fold 4, Cyc 5) */
	etmk_data,        /**< ETMv3 data trace: one data transfer (below) */
	etmk_num_kinds
};

/** The case labels of the ITM/DWT element kinds (etmk_itm_sw ...
 * etmk_dwt_counter), for a switch over enum etm_elem_kind that treats them
 * alike: `ETM_CASE_ITM_KINDS: ...`. */
#define ETM_CASE_ITM_KINDS      \
	case etmk_itm_sw:       \
	case etmk_itm_ts:       \
	case etmk_itm_overflow: \
	case etmk_dwt_pc:       \
	case etmk_dwt_exc:      \
	case etmk_dwt_cmp:      \
	case etmk_dwt_counter

/** Trace-on reasons. */
enum etm_on_reason {
	etm_on_start = 0,    /**< first synchronisation */
	etm_on_enable = 1,   /**< tracing (re-)enabled */
	etm_on_overflow = 2, /**< restarted after FIFO overflow: data lost */
	etm_on_debug = 3,    /**< exit from debug state */
	etm_on_resync = 4,   /**< resynchronised after an error */
};

/** One decoded element. Fields not used by the kind are zero. */
struct etm_elem {
	uint64_t offset; /**< input offset of the packet that produced it */
	enum etm_elem_kind kind;
	uint8_t id; /**< trace ID */
	/** Which piece of a circular buffer the element comes from: its place
	 * in the listing (0 first; etm_decoder_set_pieces(), etmtrace/pieces.h).
	 * 0 for input decoded as one piece. */
	uint16_t piece;

	/* etmk_range */
	uint64_t start, end; /**< [start, end): end = address after the last instruction */
	enum etm_isa isa;
	uint32_t ninsn;     /**< instruction count */
	uint64_t last_addr; /**< address of the last instruction */
	uint8_t last_size;
	enum etm_insn_class last_cls;
	uint8_t last_link;
	uint8_t last_exec; /**< 1 = last instruction passed (E) / unknown; 0 = failed (N) */
	uint8_t last_atom; /**< 1 if last instruction's E/N is known from an atom */
	uint8_t has_cycles;
	uint32_t cycles; /**< cycles attributed to the range (cycle-accurate) */

	/* etmk_exception */
	uint16_t exc_num;
	uint8_t exc_cancel; /**< ETMv3: the last traced instruction was cancelled */
	uint16_t itm_chan;  /**< ITM/DWT: stimulus port 0-255, DWT comparator 0-3 */
	uint64_t ret_addr;  /**< preferred return address (valid if has_ret) */
	uint8_t has_ret;
	/** etmk_range: what the last instruction is, as the decoder found it
	 * when it walked the range (ETM_LAST_* bits below), so that a
	 * consumer following calls and returns (the profile) need not read
	 * the image again. 0 = not told: the consumer classifies the last
	 * instruction itself from last_cls, last_link and the image. A
	 * decoder that fills it sets ETM_LAST_KNOWN and then the other bits
	 * are the whole truth (ETM_LAST_KNOWN alone: not a branch, or a
	 * direct branch without link). It describes the instruction, not its
	 * outcome: whether it executed is last_exec. */
	uint8_t last_mark;
	uint64_t addr; /**< exception: vector address; nomem: unreadable address;
				 *   trace_on: first instruction address */

	/* etmk_trace_on */
	uint8_t reason; /**< enum etm_on_reason */

	/* etmk_context (and the state in force for ranges) */
	uint8_t has_ctxid, has_vmid;
	/** etmk_trace_on: the reason the I-sync gave (enum
	 * etm_isync_reason: periodic, trace on, overflow, debug exit); the
	 * first sync has reason etm_on_start whatever this says */
	uint8_t isync_reason;
	uint32_t ctxid;
	uint8_t vmid;
	/* security state (1 = Non-secure) and Hyp mode; always 0 on a core
	 * without the Security Extensions (etm_cfg_security_ext()), whose
	 * trace's NS and Hyp bits are ignored */
	uint8_t ns, hyp;
	union {
		struct {                /* etmk_data (below) */
			uint8_t dsize;  /**< bytes transferred: 1, 2, 4; 0 = unknown */
			uint8_t dflags; /**< ETM_DATA_* bits */
			uint8_t dtag;   /**< out-of-order tag 1-3 the value came with; 0 */
			uint8_t dindex; /**< which transfer of its instruction (LDM: 0 first) */
		};
		struct {                   /* ITM/DWT elements (below) */
			uint8_t itm_size;  /**< payload bytes: 1, 2 or 4 */
			uint8_t itm_fn;    /**< exception function; data value: 1 = write */
			uint8_t itm_flags; /**< ETM_ITM_* below */
			/** etmk_itm_ts: local TC (0 synchronous, 1 timestamp
			 * delayed, 2 packet delayed, 3 both), global:
			 * ETM_ITM_WRAP/_CLKCH (packet.h) in bits 0-1 */
			uint8_t itm_tc;
		};
	};

	union {
		uint64_t timestamp; /**< etmk_timestamp */
		uint64_t daddr;     /**< etmk_data: data address (valid with
				      *   ETM_DATA_ADDR) */
	};

	/* etmk_error, etmk_buffer_end */
	int err; /**< enum etm_error */
	union {
		/** etmk_data: the value, zero-extended (valid with ETM_DATA_VALUE) */
		uint32_t dvalue;
		/** ITM/DWT: stimulus value, data value, counter bits */
		uint32_t itm_value;
	};

	/* ITM/DWT elements (etmk_itm_*, etmk_dwt_*): itm_chan (beside
	 * exc_num), itm_size, itm_fn, itm_flags, itm_tc and itm_value share
	 * the padding and unions with the data-transfer fields, so the
	 * element does not grow; exc_num, addr and timestamp as they say */

	/* etmk_piece (id 0): the piece @piece begins; its bytes are [start,
	 * end) of the buffer (offset = start). ninsn = how many pieces;
	 * reason = enum etm_piece_gap, what lies between it and the piece
	 * listed before; exc_num = enum etm_piece_role, what it is;
	 * isync_reason = enum etm_piece_begin; last_size = its place in time
	 * (0 = oldest), last_atom = 1 if the order in time is known, last_exec
	 * = 1 if the listing is in time order; reason etm_gap_joins: ret_addr
	 * = the halt's return address where this piece resumes (has_ret). */

	/* etmk_data (ETMv3 data trace, doc/datatrace.md): one data transfer.
	 * addr = address of the load/store it belongs to and isa its
	 * instruction set when dflags has ETM_DATA_INSN (not in data-only
	 * mode, nor before a data instruction was traced, nor for the
	 * ARMv7-M exception stacking); the element follows the range holding
	 * that instruction. Its fields (dsize, dflags, dtag, dindex, daddr,
	 * dvalue) sit in the padding and a union above: the element does not
	 * grow (it is copied on the decode's hot paths). */
};

/* etm_elem.last_mark (etmk_range) */
#define ETM_LAST_KNOWN 0x01u    /**< the byte is filled (else 0: not told) */
#define ETM_LAST_CALL 0x02u     /**< a branch with link: BL, BLX imm, BLX reg */
#define ETM_LAST_RETURN 0x04u   /**< a return: BX lr, POP/LDM {..pc}, LDR pc,[sp],
				  *   MOV pc,lr, or an exception return */
#define ETM_LAST_INDIRECT 0x08u /**< an indirect branch (returns among them) */
/* etm_elem.itm_flags */
#define ETM_ITM_GLOBAL 0x01u    /**< itm_ts: a global timestamp (else local: the delta) */
#define ETM_ITM_SLEEPING 0x02u  /**< dwt_pc: the processor was sleeping (no pc) */
#define ETM_ITM_CMP_PC 0x10u    /**< dwt_cmp: the PC of the access */
#define ETM_ITM_CMP_ADDR 0x20u  /**< dwt_cmp: its data address */
#define ETM_ITM_CMP_VALUE 0x40u /**< dwt_cmp: its data value */
#define ETM_ITM_CMP_MATCH 0x80u /**< dwt_cmp: a match (ARMv8-M) */
/* etmk_data flags (struct etm_elem dflags). */
#define ETM_DATA_WRITE 0x01      /**< a store (else a load, if ETM_DATA_DIR) */
#define ETM_DATA_DIR 0x02        /**< the direction is known (ETM_DATA_WRITE) */
#define ETM_DATA_ADDR 0x04       /**< daddr is valid (traced or derived) */
#define ETM_DATA_VALUE 0x08      /**< dvalue is valid: traced */
#define ETM_DATA_INSN 0x10       /**< addr / isa name the instruction */
#define ETM_DATA_SUPPRESSED 0x20 /**< data trace suppressed here: the rest
				   *   of the instruction's transfers untraced */
#define ETM_DATA_FAILED 0x40     /**< store-exclusive failed: nothing written */
#define ETM_DATA_STACKING 0x80   /**< ARMv7-M exception entry stacking */

struct etm_flow;

/* A flow decoder embeds the packet decoder of its source (etmtrace/packet.h)
 * and pulls packets from it when it runs inside the pipeline
 * (etmtrace/decoder.h), the common ones in compact form; on its own it
 * takes packets from the caller with etm_flow_put(). */

/** Allocate a flow decoder for a source configured by @cfg (copied),
 * reading opcodes from @img (borrowed: must outlive the decoder; may be NULL,
 * then every address is unreadable). Returns NULL on bad config / no memory. */
struct etm_flow *etm_flow_alloc(const struct etm_config *cfg,
				const struct etm_image *img);
/** Free; NULL is a no-op. */
void etm_flow_free(struct etm_flow *f);

/** Feed one packet (from the matching packet parser). Elements it produces
 * are queued; drain them with etm_flow_next() before the next put.
 * Returns 0, -etme_busy if elements are still queued, -etme_invalid. */
int etm_flow_put(struct etm_flow *f, const struct etm_packet *pkt);
/** Signal end of trace: pending elements (kept back for a possible cancel)
 * are released. */
int etm_flow_finish(struct etm_flow *f);
/** Pull the next element. Returns 0 with an element, -etme_again when the
 * queue is empty (put more packets), -etme_invalid. */
int etm_flow_next(struct etm_flow *f, struct etm_elem *el, size_t size);
/** Instruction set of the next instruction to execute, as far as the
 * decoder knows it (etmi_unknown when not synchronised). */
enum etm_isa etm_flow_isa(const struct etm_flow *f);
/** Reset to unsynchronised (e.g. after a parser error). */
void etm_flow_reset(struct etm_flow *f);
/** Enable (1) / disable (0) the straight-line block cache, the ETMv3
 * walk memo and its data-trace scan memo (default on). Both memoise the image: it must not change while
 * the decoder uses it. */
void etm_flow_set_cache(struct etm_flow *f, int on);

/** The image of the process whose Context ID is @ctxid (NULL: keep the
 * image in use); see etm_flow_set_ctx_images(). */
typedef const struct etm_image *(*etm_ctx_image_fn)(void *ctx, uint32_t ctxid);
/** Per-process images: at each change of the Context ID the trace gives,
 * the decoder reads opcodes from @fn(@ctx, ctxid) (borrowed, as the image
 * of etm_flow_alloc()) from the next instruction on, and forgets what its
 * caches memoised of the image before. Until the trace gives a Context ID,
 * and where @fn returns NULL, the image in use stays. @fn NULL: off (the
 * default). */
void etm_flow_set_ctx_images(struct etm_flow *f, etm_ctx_image_fn fn,
			     void *ctx);

/* ---- walking a range instruction by instruction ------------------------- */

/** Iterator over the instructions of an etmk_range element. */
struct etm_walk {
	const struct etm_image *img;
	uint64_t addr, end;
	enum etm_isa isa;
	enum etm_space space;
	uint32_t left;
};

/** Start walking @el (a range) over @img. Returns 0 or -etme_invalid. */
int etm_walk_init(struct etm_walk *w, const struct etm_image *img,
		  const struct etm_elem *el);
/** Next instruction into @insn. Returns 0, -etme_eos at the end,
 * -etme_nomap if the opcode cannot be read. */
int etm_walk_next(struct etm_walk *w, struct etm_insn *insn);

/** Kind name ("range", "exception", ...). */
const char *etm_elem_kind_name(enum etm_elem_kind k);

#ifdef __cplusplus
}
#endif
#endif
