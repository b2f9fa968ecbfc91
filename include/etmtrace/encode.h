/* etmtrace/encode.h - the inverse of the decoder: an execution (instructions,
 * exceptions, context changes, cycles) in, an ETMv3 or PTM byte stream out;
 * a CoreSight frame encoder; and a seeded random program + execution
 * generator. Used by the round-trip tests and `etmtrace synth`. */
#ifndef ETM_ETMTRACE_ENCODE_H
#define ETM_ETMTRACE_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- execution events ---------------------------------------------------- */

/** Kinds of execution events. 0 is invalid. */
enum etm_ev_kind {
	etmev_invalid = 0,
	etmev_insn,      /**< one instruction executed (passed or failed) */
	etmev_exception, /**< exception taken before the next instruction */
	etmev_context,   /**< context ID / VMID changed (applies from the
			   *   next instruction; PTM: see etm_enc_put()) */
	etmev_trace_on,  /**< tracing (re)starts at the next instruction */
	etmev_trace_off, /**< tracing stops after the previous instruction */
	etmev_overflow,  /**< FIFO overflow: as trace_off, then trace_on with
			   *   the overflow reason */
	etmev_timestamp, /**< a timestamp packet with value .timestamp */
	etmev_trigger,   /**< a trigger packet */
	/** ETMv3 data trace: one data transfer of the last instruction
	 * event (in program order, right after it; fields d*), traced as the
	 * ETMCR data settings allow (doc/datatrace.md) */
	etmev_data,
	/** ETMv3: the value of the out-of-order transfer with tag .dtag
	 * (an earlier etmev_data with that tag): an out-of-order data packet */
	etmev_data_value,
	etmev_num_kinds
};

/** One execution event. Fields not used by the kind are ignored. */
struct etm_ev {
	enum etm_ev_kind kind;
	/* etmev_insn: address and ISA of the instruction; etmev_exception:
	 * vector address and the ISA the handler runs in. */
	uint64_t addr;
	enum etm_isa isa;
	uint8_t exec; /**< insn: 1 passed its condition, 0 failed */
	/* insn: a taken indirect branch's target (ignored otherwise: direct
	 * targets come from the opcode). */
	uint64_t target;
	enum etm_isa target_isa;
	/* insn (taken branch): security / Hyp state at the target;
	 * exception: state of the handler; trace_on: state at restart. */
	uint8_t ns, hyp;
	uint16_t exc_num; /**< exception: number (../shared/docs/etmv3.md §6.6) */
	uint8_t cancel;   /**< exception, ETMv3: the previous insn event
				  *   did not complete (traced, then cancelled) */
	uint8_t reason;   /**< trace_on: enum etm_isync_reason */
	/* insn: cycles the instruction took (cycle-accurate trace; ETMv3:
	 * the W atoms since the previous instruction, >= 1 before ETMv3.3);
	 * trace_on / overflow: length of the gap in cycles. */
	uint32_t cycles;
	uint32_t ctxid;     /**< context */
	uint8_t vmid;       /**< context */
	uint64_t timestamp; /**< timestamp (binary value) */
	/* etmev_data, etmev_data_value */
	uint64_t daddr;  /**< data: data address */
	uint32_t dvalue; /**< data, data_value: the value (dsize bytes) */
	uint8_t dsize;   /**< bytes per transfer: 1, 2 or 4 */
	uint8_t dflags;  /**< ETM_EVD_* */
	uint8_t dtag;    /**< data: 1-3 = out of order: a placeholder now,
			   *   the value in an etmev_data_value later */
};

/* etm_ev dflags (etmev_data). */
#define ETM_EVD_ADDR 0x01       /**< the trace gives the address (address
				  *   tracing on): an instruction's first
				  *   transfer; later ones follow from it */
#define ETM_EVD_VALUE 0x02      /**< the value is traced (value tracing on);
				  *   else a value-not-traced packet */
#define ETM_EVD_SUPPRESSED 0x04 /**< data suppressed: this transfer and the
				  *   rest of the instruction's untraced */
#define ETM_EVD_FAILED 0x08     /**< a store-exclusive that failed */
#define ETM_EVD_WRITE 0x10      /**< a store (else a load) */

/* ---- trace encoder ---------------------------------------------------------- */

/** Encoder options. The protocol and the registers in @cfg decide the
 * stream format exactly as a decoder would read them: ETMCR cycle-accurate,
 * Context ID size, VMID, timestamps, branch broadcast, return stack (PTM);
 * ETMIDR version and alternative branch encoding; ETMCCER timestamp size and
 * encoding, DMB/DSB waypoints. */
struct etm_enc_opts {
	size_t size; /**< sizeof(struct etm_enc_opts) */
	struct etm_config cfg;
	uint32_t flags;        /**< ETM_ENC_* */
	uint64_t seed;         /**< PRNG seed for ETM_ENC_RANDOM choices */
	uint32_t isync_period; /**< periodic I-sync after this many output
				    *   bytes (0 = never) */
	uint32_t async_period; /**< A-sync after this many output bytes
				    *   (0 = only when tracing starts) */
};

/** One atom per P-header (ETMv3) / atom packet (PTM). */
#define ETM_ENC_ATOM_SINGLE 0x01u
/** Every branch / waypoint address is sent in full (5 bytes). */
#define ETM_ENC_FULL_ADDR 0x02u
/** Pick randomly (seeded) among the legal encodings of each item: how many
 * atoms go in a header and which P-header format, address length (minimal
 * or longer). */
#define ETM_ENC_RANDOM 0x04u
/** Exception branch packets always carry a 5-byte address. */
#define ETM_ENC_EXC_FULL_ADDR 0x08u
/** Former option, now always in force (accepted, no effect): a 5-byte
 * address whenever the ISA differs from the ISA stated by the last I-sync /
 * 5-byte address, the only ISA a packet parser knows. */
#define ETM_ENC_PKT_ISA 0x10u
/** Depth of the encoder's PTM return stack model. */
#define ETM_ENC_RS_DEPTH 16

struct etm_enc;

/** Allocate an encoder. @o (of @size bytes, copied) must hold a valid
 * configuration (etm_config_check()). @img (borrowed, must outlive the
 * encoder) supplies the opcodes: the encoder classifies every instruction
 * with etm_insn_decode() to know waypoints and direct targets.
 * Returns NULL on a bad configuration, NULL arguments or no memory. */
struct etm_enc *etm_enc_alloc(const struct etm_enc_opts *o, size_t size,
			      const struct etm_image *img);
/** Free; NULL is a no-op. */
void etm_enc_free(struct etm_enc *e);

/** Encode one event; the bytes are appended to the output buffer.
 * Rules: nothing is traced before the first etmev_trace_on; the event after
 * a trace_on must be an instruction (or an exception following an earlier
 * traced one). PTM: a context change or trace_off after non-waypoint
 * instructions takes effect, as in the PTM, after the next waypoint (the
 * trailing non-waypoint instructions at a trace_off are not traced).
 * An instruction event must be where the classifier (etm_insn_decode()) says
 * the previous one leads: the next instruction after a non-branch or a
 * branch that failed its condition, the target of a taken direct branch,
 * the event's target after a taken indirect branch (anything after an
 * executed exception-generating instruction, an exception or a gap).
 * Returns 0, -etme_invalid (bad event or order), -etme_mismatch (a step the
 * classifier cannot explain), -etme_nomap (opcode not in the image),
 * -etme_bad_insn (undecodable opcode), -etme_nomem. */
int etm_enc_put(struct etm_enc *e, const struct etm_ev *ev);
/** Output what is still pending (atoms). Call at the end of the trace.
 * Returns 0 or -etme_nomem. */
int etm_enc_finish(struct etm_enc *e);
/** The bytes produced so far; *@n gets their number. Valid until the next
 * call on @e. */
const uint8_t *etm_enc_data(const struct etm_enc *e, size_t *n);
/** Forget the first @n output bytes (already consumed by the caller). */
void etm_enc_consume(struct etm_enc *e, size_t n);

/** One data transfer as a decoder of the trace gives it (the ground truth
 * of `etmtrace synth --expect-data`, etm_enc_data_expect()). */
struct etm_data_xfer {
	uint64_t insn;  /**< address of its load/store (has_insn) */
	uint64_t daddr; /**< data address (has_addr) */
	uint32_t value; /**< value (has_value) */
	uint8_t has_insn, has_addr, has_value;
	uint8_t size;  /**< bytes; 0 = the trace does not say (data-only
			 *   mode without a value) */
	char dir;      /**< 'R', 'W', or '?' (data-only mode) */
	uint8_t flags; /**< ETM_EVD_SUPPRESSED, ETM_EVD_FAILED */
};

/** What an ETMv3 trace encoded from events @ev (@n of them) under @cfg
 * says about their data transfers (etmev_data, etmev_data_value), in the
 * order a decoder gives them: an out-of-order transfer where its value
 * comes; the address where address tracing is on (the first transfer of an
 * instruction traced, later ones following from it; data-only mode: the
 * traced one only), the value where value tracing is on and the value was
 * traced, the instruction unless in data-only mode. Writes up to @max
 * into @out; returns how many there are (doc/datatrace.md). */
size_t etm_enc_data_expect(const struct etm_config *cfg,
			   const struct etm_ev *ev, size_t n,
			   struct etm_data_xfer *out, size_t max);

/* ---- CoreSight formatter ------------------------------------------------------ */

/** Pick randomly (seeded) among the legal frame encodings: aux-bit form of
 * ID changes, re-announcing the current ID. */
#define ETM_FENC_RANDOM 0x01u

struct etm_fenc;

/** Allocate a frame encoder (../shared/docs/coresight-formatter.md §3-4). NULL on no
 * memory. */
struct etm_fenc *etm_fenc_alloc(uint32_t flags, uint64_t seed);
/** Free; NULL is a no-op. */
void etm_fenc_free(struct etm_fenc *f);
/** Queue @n data bytes of trace ID @id (0x01-0x6F). Complete 16-byte
 * frames are produced as data arrives. Returns 0, -etme_invalid,
 * -etme_nomem. */
int etm_fenc_put(struct etm_fenc *f, unsigned id, const uint8_t *buf,
		 size_t n);
/** Emit the queued data; the last frame is padded with ID 0x00 data.
 * Returns 0 or -etme_nomem. */
int etm_fenc_finish(struct etm_fenc *f);
/** The frames produced so far (a multiple of 16 bytes). */
const uint8_t *etm_fenc_data(const struct etm_fenc *f, size_t *n);

/* ---- ITM/DWT encoder ------------------------------------------------------ */

/** Most bytes etm_itm_enc_put() writes for one element. */
#define ETM_ITM_ENC_MAX 16

struct etm_itm_enc;

/** Allocate an ITM/DWT encoder (ARMv7-M ARM appendix D4): it writes the
 * packets an ITM/DWT decoder (etm_proto_itm) turns back into the elements
 * it is given. NULL on no memory. */
struct etm_itm_enc *etm_itm_enc_alloc(void);
/** Free; NULL is a no-op. */
void etm_itm_enc_free(struct etm_itm_enc *e);
/** A sync packet (00 00 00 00 00 80) into @out (@max >= 6 bytes).
 * Returns 6 or -etme_invalid. */
int etm_itm_enc_sync(struct etm_itm_enc *e, uint8_t *out, size_t max);
/** The packets of ITM/DWT element @el (etmk_itm_sw ... etmk_dwt_counter,
 * fields as etmtrace/flow.h says; offset and id ignored) into @out (@max
 * bytes; ETM_ITM_ENC_MAX always suffice). A stimulus port of another page
 * than the last is preceded by an extension packet (no element); a
 * global timestamp whose bits 26 and up changed is a GTS2, then, if its
 * low bits changed too or flags are given (itm_tc: ETM_ITM_WRAP,
 * _CLKCH), a GTS1 - the decoder gives an element for each. Returns the
 * bytes written, -etme_invalid (a kind or field the protocol cannot
 * carry: a local timestamp of 2^28 or more, a port > 255, a size not 1,
 * 2 or 4, ...), -etme_overflow (@max too small). */
int etm_itm_enc_put(struct etm_itm_enc *e, const struct etm_elem *el,
		    uint8_t *out, size_t max);

/* ---- program and execution generator ------------------------------------- */

/** Generator options (ETM_GEN_* flags select the features). */
struct etm_gen_opts {
	size_t size; /**< sizeof(struct etm_gen_opts) */
	uint64_t seed;
	enum etm_protocol proto; /**< shapes the execution to what the
				    *   protocol traces (PTM: gaps and context
				    *   changes only after waypoints; ETMv3:
				    *   cancelled instructions) and the
				    *   program to the cores that have it
				    *   (ETMv1: ARMv5TE code - 16-bit Thumb
				    *   and the BL/BLX pair, no IT, CBZ,
				    *   32-bit Thumb, MOVW, hints or
				    *   barriers; ETM_GEN_ISB ignored) */
	uint32_t flags;
	uint32_t ninsn;       /**< instructions to execute (0 = 2000) */
	uint32_t nfuncs;      /**< functions (0 = 8, at most 64) */
	uint64_t code_base;   /**< first function (0 = 0x10000) */
	uint64_t vector_base; /**< exception vectors (default 0) */
	int ctxid_bytes;      /**< width of generated context IDs */
	int min_cycles;       /**< least cycles per instruction (0 or 1) */
};

#define ETM_GEN_ARM 0x001u      /**< functions in A32 */
#define ETM_GEN_THUMB 0x002u    /**< functions in T32 */
#define ETM_GEN_EXC 0x004u      /**< SVC/UDF, IRQ/FIQ, aborts */
#define ETM_GEN_B2B 0x008u      /**< back-to-back exceptions */
#define ETM_GEN_CANCEL 0x010u   /**< ETMv3: aborts cancel the instruction */
#define ETM_GEN_CTX 0x020u      /**< context ID changes */
#define ETM_GEN_VMID 0x040u     /**< VMID changes */
#define ETM_GEN_GAPS 0x080u     /**< trace off/on, overflow, debug exit */
#define ETM_GEN_CYCLES 0x100u   /**< varied cycle counts (else 1 each) */
#define ETM_GEN_TS 0x200u       /**< timestamps */
#define ETM_GEN_LONG 0x400u     /**< a straight run longer than 4 KiB */
#define ETM_GEN_ISB 0x800u      /**< ISB / DMB / DSB instructions */
#define ETM_GEN_NS 0x1000u      /**< Non-secure code, Secure FIQ handler,
				   *   Hyp trap handler (NS / Hyp changes) */
#define ETM_GEN_TRIGGER 0x2000u /**< trigger events */
#define ETM_GEN_ALL 0x3fffu
/** Loads and stores of every class in the program (LDR/STR of each size,
 * LDM/STM, PUSH/POP, LDRD/STRD, LDREX/STREX, SWP, VLDM/VSTM), and an
 * etmev_data event for each transfer of every executed one, with
 * out-of-order, value-not-traced, suppressed and failed-store choices
 * (not in ETM_GEN_ALL: the programs of the other flags stay as they were) */
#define ETM_GEN_DATA 0x4000u

struct etm_gen;

/** Build a random program and a random legal path through it. The result
 * depends only on the options (no global state).
 * Returns NULL on bad options or no memory. */
struct etm_gen *etm_gen_alloc(const struct etm_gen_opts *o, size_t size);
/** Free; NULL is a no-op. */
void etm_gen_free(struct etm_gen *g);
/** Number of memory regions of the program (code, vectors). */
size_t etm_gen_nregions(const struct etm_gen *g);
/** Region @i: load address, bytes and size. Returns 0 or -etme_invalid. */
int etm_gen_region(const struct etm_gen *g, size_t i, uint64_t *addr,
		   const uint8_t **bytes, size_t *n);
/** Add all regions to @img (etm_space_any). Returns 0 or an error of
 * etm_image_add_buffer(). */
int etm_gen_add_to_image(const struct etm_gen *g, struct etm_image *img);
/** The generated execution; *@n gets the number of events. */
const struct etm_ev *etm_gen_events(const struct etm_gen *g, size_t *n);
/** Options of an execution generated over a given program image. */
struct etm_gen_img_opts {
	size_t size; /**< sizeof(struct etm_gen_img_opts) */
	uint64_t seed;
	enum etm_protocol proto;
	uint64_t entry;   /**< first instruction */
	enum etm_isa isa; /**< its instruction set (A32 or T32) */
	uint32_t ninsn;   /**< instructions to execute at least (0 =
				    *   2000; the walk ends after a branch) */
};

/** Generate an execution of the program in @img (borrowed for the call):
 * from @o->entry, every instruction is classified; each conditional
 * instruction (T32: each IT block, CBZ/CBNZ) passes or fails at random
 * (seeded; backward branches taken 3 in 4), calls push their return
 * address and returns (BX lr, POP {pc}, ...) pop it. The walk stops with
 * an error (etm_gen_error()) at what it cannot follow: an indirect jump
 * other than a return, a return with an empty call stack, an
 * exception-generating or undecodable instruction, unreadable memory. The
 * events so far stay available. No regions (etm_gen_nregions() is 0).
 * Returns NULL on bad options or no memory. */
struct etm_gen *etm_gen_alloc_image(const struct etm_gen_img_opts *o,
				    size_t size, const struct etm_image *img);
/** 0, or why the generation over an image stopped early (-etme_bad_insn,
 * -etme_nomap, -etme_overflow: call stack deeper than 256). */
int etm_gen_error(const struct etm_gen *g);
/** Check every generated instruction against etm_insn_decode(): class,
 * link, direct target, exception return. Returns the number of
 * disagreements (0 = the classifier agrees with the generator's intent);
 * the first one is described in @why (@n bytes). */
int etm_gen_check(const struct etm_gen *g, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
