/* etmtrace/packet.h - the packet decoder of ETMv3 and PTM: bytes of one
 * trace source in, decoded packets out. Both protocols share struct
 * etm_packet and one decoder type, struct etm_pkt_decoder. */
#ifndef ETM_ETMTRACE_PACKET_H
#define ETM_ETMTRACE_PACKET_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Packet types of both protocols (ETMv3: IHI 0014Q Table 7.1; PFT: IHI 0035B
 * Table 4.1). 0 is invalid. */
enum etm_pkt_type {
	etmp_invalid = 0,
	etmp_notsync,         /**< bytes skipped while searching for A-sync */
	etmp_error,           /**< bad header / payload / truncated; see .err */
	etmp_async,           /**< A-sync: >= 5 x 0x00 then 0x80 */
	etmp_isync,           /**< I-sync (ETMv3 0x08/0x70, PTM 0x08) */
	etmp_atom,            /**< ETMv3 P-header or PTM atom packet */
	etmp_branch,          /**< branch address (+exception bytes, +PTM cycle count) */
	etmp_waypoint,        /**< PTM waypoint update (0x72) */
	etmp_trigger,         /**< 0x0C */
	etmp_ctxid,           /**< context ID (0x6E) */
	etmp_vmid,            /**< VMID (0x3C) */
	etmp_timestamp,       /**< 0x42 / 0x46 */
	etmp_cycle_count,     /**< ETMv3 cycle count packet (0x04) */
	etmp_exc_return,      /**< exception exit / return (0x76) */
	etmp_exc_entry,       /**< ETMv3 exception entry (0x7E, ARMv7-M) */
	etmp_ignore,          /**< 0x66 */
	etmp_data,            /**< ETMv3 normal data */
	etmp_ooo_data,        /**< ETMv3 out-of-order data */
	etmp_ooo_place,       /**< ETMv3 out-of-order placeholder */
	etmp_val_not_traced,  /**< ETMv3 value not traced */
	etmp_data_suppressed, /**< ETMv3 data suppressed (0x62) */
	etmp_store_failed,    /**< ETMv3 store failed (0x50) */
	/* ITM/DWT (etm_proto_itm; ARMv7-M ARM appendix D4). Their sync is
	 * etmp_async, malformed packets are etmp_error. */
	etmp_itm_overflow, /**< overflow 0x70 */
	etmp_itm_lts,      /**< local timestamp: timestamp = the delta, reason = TC */
	etmp_itm_gts1,     /**< global timestamp 1 (0x94): timestamp merged, itm_flags */
	etmp_itm_gts2,     /**< global timestamp 2 (0xB4): timestamp merged */
	etmp_itm_ext,      /**< extension: dvalue = EX, itm_flags bit 0 = SH */
	etmp_itm_sw,       /**< instrumentation: itm_port, dvalue, dvalue_size */
	etmp_itm_evcnt,    /**< DWT event counter: dvalue = the counter bits */
	etmp_itm_exc,      /**< DWT exception trace: exc_num, itm_fn */
	etmp_itm_pc,       /**< DWT periodic PC sample: addr, or itm_flags sleep */
	etmp_itm_dpc,      /**< DWT data trace PC value: itm_cmp, addr */
	etmp_itm_daddr,    /**< DWT data trace address: itm_cmp, daddr */
	etmp_itm_dval,     /**< DWT data trace value: itm_cmp, dvalue, itm_fn = write */
	etmp_itm_dmatch,   /**< DWT data trace match (ARMv8-M): itm_cmp */
	etmp_num_types
};

/** Largest number of raw bytes a packet records (longer A-sync runs and
 * not-sync runs are split or counted in raw_len only). */
#define ETM_PKT_MAX_RAW 32

/** Most E/N atoms one packet can carry (ETMv3 format 1: 15 E + 1 N). */
#define ETM_PKT_MAX_ATOMS 16

/** I-sync reason codes (info byte bits 6:5). */
enum etm_isync_reason {
	etm_isync_periodic = 0,
	etm_isync_trace_on = 1,
	etm_isync_overflow = 2,
	etm_isync_debug_exit = 3,
};

/** One decoded packet. Fields not used by the packet type are zero.
 * Addresses are full 32-bit values after merging with the previous address
 * (the parser keeps the compression state, as it also tracks ISA for the
 * address alignment). */
struct etm_packet {
	uint64_t offset; /**< input offset of the first byte */
	enum etm_pkt_type type;
	uint8_t id;      /**< trace ID (from the config) */
	uint8_t raw_len; /**< bytes in raw[] (<= ETM_PKT_MAX_RAW) */
	uint32_t size;   /**< true packet size in bytes (>= raw_len) */
	uint8_t raw[ETM_PKT_MAX_RAW];

	int err; /**< etmp_error: enum etm_error (positive) */

	/* etmp_atom: atoms oldest first. Bit i of atom_bits = 1 for N, 0 for E. */
	uint8_t atom_count; /**< number of E/N atoms */
	uint32_t atom_bits;
	/* ETMv3 cycle-accurate: W atoms attributed to atom i (the Ws since the
	 * previous E/N atom, including its own W), and Ws after the last atom. */
	uint8_t atom_w[ETM_PKT_MAX_ATOMS];
	uint8_t w_tail;

	/* etmp_isync, etmp_branch, etmp_waypoint: target / next address. */
	uint64_t addr;
	uint8_t addr_bits;   /**< address bits carried (branch; 32 = full) */
	enum etm_isa isa;    /**< ISA after this packet (state tracked by parser) */
	uint8_t isa_changed; /**< 1 if this packet set the ISA explicitly */

	/* etmp_isync */
	uint8_t reason;        /**< enum etm_isync_reason */
	uint8_t lsip;          /**< ETMv3 LSiP: addr = data-instruction address */
	uint64_t lsip_next;    /**< LSiP: address of the next instruction */
	enum etm_isa lsip_isa; /**< LSiP: ISA of the next instruction */

	/* security / virtualisation state (I-sync, exception bytes) */
	uint8_t has_state; /**< ns/hyp/altisa below are valid */
	uint8_t ns, hyp, altisa, jazelle;

	/* etmp_branch exception information */
	uint8_t has_exc;  /**< exception bytes present */
	uint16_t exc_num; /**< exception number, 0 = none (state change) */
	uint8_t cancel;   /**< ETMv3 Can bit: previous instruction cancelled */
	uint8_t resume;   /**< ETMv3 exception byte 2 Resume[3:0] */

	/* cycle count: ETMv3 cycle count packet and I-sync 0x70; PTM
	 * atom/branch/I-sync/timestamp in cycle-accurate mode. */
	uint8_t has_cc;
	uint32_t cycle_count;

	/* context ID: etmp_ctxid and I-sync with a context ID field */
	uint8_t has_ctxid;
	uint32_t ctxid;
	/* etmp_vmid */
	uint8_t vmid;

	/* etmp_timestamp: merged value (binary), R bit */
	uint64_t timestamp;
	uint8_t ts_bits; /**< value bits carried by this packet */
	uint8_t ts_freq_change;

	/* ETMv3 data-trace packets */
	uint8_t has_daddr;
	uint8_t has_dvalue;
	uint8_t dvalue_size; /**< bytes: 0, 1, 2, 4 */
	uint8_t dtag;        /**< out-of-order tag 1-3 */
	uint64_t daddr;
	uint32_t dvalue;

	/* ITM/DWT packets (etmp_itm_*) */
	uint16_t itm_port; /**< etmp_itm_sw: stimulus port 0-255 (page * 32 + A) */
	uint8_t itm_cmp;   /**< data trace: DWT comparator 0-3 */
	/** etmp_itm_exc: function 1 entered, 2 exited, 3 returned to (Table
	 * D4-6); etmp_itm_dval: 1 write, 0 read */
	uint8_t itm_fn;
	/** etmp_itm_gts1: bit 0 Wrap, bit 1 ClkCh; etmp_itm_pc: bit 2 sleep;
	 * etmp_itm_ext: bit 0 SH */
	uint8_t itm_flags;
};

/* etm_packet.itm_flags bits */
#define ETM_ITM_WRAP 0x1u  /**< GTS1 Wrap */
#define ETM_ITM_CLKCH 0x2u /**< GTS1 ClkCh */
#define ETM_ITM_SLEEP 0x4u /**< PC sample: the processor was sleeping */
#define ETM_ITM_SH 0x1u    /**< extension: SH (hardware source page) */

/** A packet in compact form, 16 bytes: what etm_pkt_next_recs() and
 * etm_decoder_next_packets() deliver in batches,
 * much faster than whole struct etm_packet. The packets are the same, in
 * the same order, as those of the matching next() function. */
struct etm_pkt_rec {
	uint64_t offset; /**< input offset of the first byte */
	/** By type: etmp_atom: atom_bits (bit i = 1: atom i is N);
	 * etmp_branch, etmp_isync, etmp_waypoint: address (low 32 bits);
	 * etmp_ctxid: context ID; etmp_vmid: VMID; etmp_timestamp: low 32
	 * bits; etmp_cycle_count: the count; etmp_error: the error (enum
	 * etm_error, positive); data packets: the data value; else 0. */
	uint32_t value;
	uint8_t type; /**< enum etm_pkt_type */
	uint8_t id;   /**< trace ID */
	uint8_t size; /**< packet size in bytes, 255 if larger */
	/** By type: etmp_atom: atom_count; etmp_branch: 1 if it carries
	 * exception information (has_exc); etmp_isync: reason; else 0. */
	uint8_t count;
};

/* ---- the packet decoder --------------------------------------------------
 * One type for ETMv3 and PTM, the protocol taken from the configuration.
 * Usage: etm_pkt_push() a chunk, then call etm_pkt_next() until it returns
 * -etme_again; repeat. Chunks may be any size, including 1 byte; packets
 * that straddle chunks are assembled internally. The pushed buffer is
 * borrowed until etm_pkt_next() returns -etme_again. */
struct etm_pkt_decoder;

/** Allocate a packet decoder for @cfg (copied): an ETMv3, PTM or ITM/DWT
 * source (cfg->protocol; ITM/DWT starts at a packet boundary, doc/itm.md). Returns NULL on a bad configuration, another protocol,
 * or no memory. The decoder starts unsynchronised. */
struct etm_pkt_decoder *etm_pkt_alloc(const struct etm_config *cfg);
/** Free a packet decoder; NULL is a no-op. */
void etm_pkt_free(struct etm_pkt_decoder *pd);
/** The protocol @pd decodes (etm_proto_unknown for NULL). */
enum etm_protocol etm_pkt_protocol(const struct etm_pkt_decoder *pd);
/** Push @n bytes whose input offsets are @offset, @offset+1, ...
 * Returns 0, -etme_busy if the previous chunk is not consumed yet,
 * -etme_invalid on NULL. */
int etm_pkt_push(struct etm_pkt_decoder *pd, const uint8_t *buf, size_t n,
		 uint64_t offset);
/** Signal end of data: a packet cut by the end is reported as an
 * etmp_error packet (etme_truncated) by the following next() calls. */
int etm_pkt_finish(struct etm_pkt_decoder *pd);
/** The end of a trace buffer's data that is not the end of the input:
 * the end of a piece of a circular buffer (its oldest data, or a run the
 * next piece overwrote), decoded apart from what follows. Like finish()
 * for the bytes pushed so far - a packet cut here is reported as an
 * etmp_error packet (etme_truncated; a flow decoder makes it the note
 * etmk_buffer_end) by the following next() calls - then the decoder
 * forgets its state and searches for A-sync in what is pushed after
 * (a flow decoder on top: etm_flow_reset() once these packets are put).
 * Call when next() has returned -etme_again. Returns 0, -etme_busy
 * (pushed bytes or packets not taken yet), -etme_invalid (NULL, or after
 * finish()). */
int etm_pkt_cut(struct etm_pkt_decoder *pd);
/** Get the next packet into @pkt (@size = sizeof *pkt).
 * Returns 0 with a packet, -etme_again when more input is needed,
 * -etme_eos after finish() when everything is delivered, -etme_invalid. */
int etm_pkt_next(struct etm_pkt_decoder *pd, struct etm_packet *pkt,
		 size_t size);
/** Get up to @max next packets in compact form into @recs (see struct
 * etm_pkt_rec). Returns how many (> 0), or what etm_pkt_next() returns
 * when it has none: -etme_again, -etme_eos, -etme_invalid. May be mixed
 * with etm_pkt_next() calls. An error record ends its batch. */
int etm_pkt_next_recs(struct etm_pkt_decoder *pd, struct etm_pkt_rec *recs,
		      size_t max);
/** Forget all state and search for A-sync again. */
void etm_pkt_reset(struct etm_pkt_decoder *pd);
/** Override the instruction set the decoder aligns 1-4 byte branch
 * addresses for. It keeps the one the trace last stated (I-sync, 5-byte
 * address, AltISA of exception bytes), which is what the ETM / PTM
 * compresses against (IHI 0014 §4.5.2: ETMv3 gives an address packet on
 * every ISA change); the pipeline never calls this (doc/design.md, "What
 * the decoder assumes"). etmi_unknown is ignored. */
void etm_pkt_set_isa(struct etm_pkt_decoder *pd, enum etm_isa isa);

/* ---- description --------------------------------------------------------- */

/** Short packet type name ("I_SYNC", "BRANCH_ADDRESS", "P_HEADER", ...). */
const char *etm_pkt_type_name(enum etm_pkt_type t, enum etm_protocol proto);

/** Format the decoded fields of @pkt (not offset/id/raw bytes) as readable
 * text, e.g. "Addr=0xc0018d82 T32 reason=periodic", into @buf of @n bytes.
 * Returns the length that would have been written (snprintf style). */
int etm_pkt_describe(const struct etm_packet *pkt, enum etm_protocol proto,
		     char *buf, size_t n);

/** Format the decoded fields of @pkt as JSON members (without braces and
 * without offset/id/bytes/type), e.g. "\"addr\":\"0xc0018d82\",\"isa\":\"T32\"".
 * Returns the length that would have been written. */
int etm_pkt_json_fields(const struct etm_packet *pkt, enum etm_protocol proto,
			char *buf, size_t n);

/** Exception name for an exception number ("IRQ", "SVC", ...); @m_profile
 * selects the ARMv7-M table. Never NULL. */
const char *etm_exc_name(unsigned num, int m_profile);

/** Name of ARMv7-M/ARMv8-M exception number @num, as the DWT exception
 * trace packet gives it (ARMv7-M ARM Table B1-4): "Reset", "NMI",
 * "HardFault", ..., "SysTick", "IRQ 0" for 16, "IRQ n" for 16 + n; 0 is
 * "Thread". Written to @buf of @n bytes; returns the length that would
 * have been written (snprintf style). */
int etm_itm_exc_name(unsigned num, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
