/* etmtrace/etmv1.h - ETMv1 pipeline-status trace (ARM7/ARM9 ETMs): the
 * normalised sample stream (one sample per core cycle), readers of the sample
 * file formats, the configuration accessors, and the ETMv1 decoder object
 * that turns samples into the same elements as the ETMv3/PTM flow decoders
 * (etmtrace/flow.h). Protocol notes and decisions: doc/etmv1.md. */
#ifndef ETM_ETMTRACE_ETMV1_H
#define ETM_ETMTRACE_ETMV1_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/insn.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- samples ---------------------------------------------------------------- */

/** PIPESTAT values of ETMv1 (IHI 0014Q Table 5.1; BD/TR/TD: doc/etmv1.md). */
enum etm_e1_ps {
	etm_e1_ie = 0, /**< instruction executed */
	etm_e1_id = 1, /**< instruction executed with data */
	etm_e1_in = 2, /**< instruction not executed (condition failed) */
	etm_e1_wt = 3, /**< wait */
	etm_e1_be = 4, /**< branch executed */
	etm_e1_bd = 5, /**< branch executed with data */
	etm_e1_tr = 6, /**< trigger: real status on TRACEPKT[2:0] */
	etm_e1_td = 7, /**< trace disabled: no packet byte */
};

/** One normalised sample: one core cycle of the trace port after the
 * capture's port mode (multiplexed, demultiplexed, half-rate) was undone. */
struct etm_e1_sample {
	uint8_t ps;   /**< PIPESTAT, 3 bits (ETMv1) or 4 bits (ETMv2) */
	uint8_t sync; /**< TRACESYNC */
	uint8_t trig; /**< trigger already resolved: ps is the replaced
			    *   status (OpenOCD style); else TR is raw */
	uint16_t pkt; /**< TRACEPKT, low 4/8/16 bits valid */
};

/** The decoder's input stream is a sequence of 4-byte sample records:
 * byte 0 = PIPESTAT[3:0] | TRACESYNC << 4 | TRIGGER << 5, bytes 1-2 =
 * TRACEPKT[15:0] little-endian, byte 3 = 0. The input offset of sample i is
 * 4 * i (plus the base of the stream). */
#define ETM_E1_REC 4

/** Write sample @s as a record into @rec (ETM_E1_REC bytes). */
void etm_e1_rec_put(uint8_t *rec, const struct etm_e1_sample *s);
/** Read the record @rec into @s. */
void etm_e1_rec_get(const uint8_t *rec, struct etm_e1_sample *s);

/** A sample capture read from a file: the records (ETM_E1_REC bytes each)
 * and the configuration its header gave (protocol, ETMCR, ETMCCR). */
struct etm_e1_capture {
	struct etm_config cfg;
	uint8_t *rec;    /**< malloc'ed records */
	size_t n;        /**< number of samples */
	size_t cap;      /**< samples allocated */
	uint32_t status; /**< OpenOCD dump: capture status word */
};

/** Append sample @s to @c. Returns 0 or -etme_nomem. */
int etm_e1_append(struct etm_e1_capture *c, const struct etm_e1_sample *s);
/** Free the records of @c (the struct itself is the caller's). */
void etm_e1_capture_fini(struct etm_e1_capture *c);

/** Sample file formats. */
enum etm_e1_format {
	etm_e1f_unknown = 0,
	etm_e1f_bin,     /**< ".etm1": our binary format (doc/etmv1.md) */
	etm_e1f_text,    /**< ".etm1.txt": our text format */
	etm_e1f_openocd, /**< OpenOCD `etm dump` file */
	etm_e1f_etb,     /**< ETB RAM image (32-bit words, OpenOCD layout) */
};

/** Guess the format of @n bytes at @buf (magic, text, OpenOCD layout). */
enum etm_e1_format etm_e1_sniff(const uint8_t *buf, size_t n);

/** Read a capture of format @fmt from @n bytes at @buf into @c (initialised
 * here). For etm_e1f_etb, @c->cfg must hold the ETMCR (port width) on entry
 * and the image is unpacked per the port width. With @errbuf non-NULL a
 * one-line reason is written there.
 * Returns 0, -etme_parse (malformed), -etme_bad_config, -etme_nomem,
 * -etme_invalid. */
int etm_e1_read(struct etm_e1_capture *c, enum etm_e1_format fmt,
		const uint8_t *buf, size_t n, char *errbuf, size_t errlen);

/** The sample-file format named @name ("bin", "text", "openocd", "etb"):
 * the names of the CLI's --samples; etm_e1f_unknown for NULL or any other
 * name. */
enum etm_e1_format etm_e1_format_named(const char *name);

/** The sample-file format the file at @path shows by itself: etm_e1f_bin
 * (the ETM1TRC magic) or etm_e1f_openocd (an OpenOCD `etm dump`: its depth
 * word gives the file size, and the first samples' status and flags words
 * are in range), else etm_e1f_unknown (text files and ETB images say too
 * little by themselves), also for a path that is not a readable regular
 * file. */
enum etm_e1_format etm_e1_file_format(const char *path);

/** etm_e1_read() of the whole file at @path. *@fmt is the format on entry
 * (etm_e1f_unknown: guessed by etm_e1_sniff()) and the format read on
 * return. @c->cfg is as etm_e1_read() wants it on entry. With @errbuf
 * non-NULL a one-line reason is written there: the system's when the file
 * cannot be read (-etme_io), none (empty) when its format is not
 * recognised (-etme_parse, *@fmt etm_e1f_unknown).
 * Returns 0 or as etm_e1_read(), -etme_io. */
int etm_e1_read_file(struct etm_e1_capture *c, const char *path,
		     enum etm_e1_format *fmt, char *errbuf, size_t errlen);

/** Our binary format's 32-byte header at @b (@n bytes): the configuration
 * into @cfg (initialised here) and the sample count; the records follow at
 * offset 32 (a reader can stream them). Returns 0 or -etme_parse. */
int etm_e1_bin_header(const uint8_t *b, size_t n, struct etm_config *cfg,
		      uint32_t *count);

/** Write @c in format @fmt (etm_e1f_bin, etm_e1f_text or etm_e1f_openocd)
 * into a malloc'ed buffer *@out of *@outn bytes.
 * Returns 0, -etme_nomem, -etme_invalid. */
int etm_e1_write(const struct etm_e1_capture *c, enum etm_e1_format fmt,
		 uint8_t **out, size_t *outn);

/** Port modes of a capture (ETMCR[17:16], ETMCR[13] half-rate). */
enum etm_e1_port_mode {
	etm_e1m_normal = 0,
	etm_e1m_mux = 1,   /**< multiplexed: two half-width samples per cycle */
	etm_e1m_demux = 2, /**< demultiplexed: one double-width sample per
			      *   two cycles (A = earlier cycle) */
};

/** Normalise @n captured port samples @in (as the capture device saw the
 * pins) of mode @mode for a port of @width TRACEPKT bits into one sample per
 * core cycle, appended to @c. Multiplexed: sample 2k holds PIPESTAT[1:0]
 * ... see doc/etmv1.md §Port modes. Returns 0, -etme_invalid, -etme_nomem. */
int etm_e1_normalise(struct etm_e1_capture *c, enum etm_e1_port_mode mode,
		     unsigned width, const struct etm_e1_sample *in, size_t n);

/* ---- configuration -------------------------------------------------------- */

/** TRACEPKT width from ETMCR[6:4] (000 4, 001 8, 010 16), 0 if reserved. */
int etm_cfg_e1_port(const struct etm_config *cfg);
/** ETMv1 minor version from ETMCCR[30:28] (protocol number: 0 -> 0,
 * 1 -> 1, 2/4 -> 2, 3/5/7 -> 3; 6 -> -1 reserved). */
int etm_cfg_e1_minor(const struct etm_config *cfg);
/** Check an ETMv1/ETMv2 configuration (called by etm_config_check()). */
int etm_e1_config_check(const struct etm_config *cfg, const char **why);

/** Data value bytes the load/store @in puts in the trace (IHI 0014Q Table
 * 5.2): 1/2/4, 4 per register of LDM/STM/PUSH/POP; 0 for an instruction
 * without data; -1 where the count is not known (SWP, LDRD/STRD, LDC/STC,
 * 32-bit T32; doc/etmv1.md). */
int etm_e1_data_bytes(const struct etm_insn *in);

struct etm_enc;
/** ETMv1 encoder (etm_enc_alloc() with an etm_proto_etmv1 config): cycles
 * it added beyond the execution's cycle counts (cycle-accurate only: APO
 * cycles after a BE, a FIFO stall). */
uint64_t etm_e1_enc_stretched(const struct etm_enc *e);

/* ---- decoder ---------------------------------------------------------------- */

struct etm_e1;

/** Allocate an ETMv1 decoder for @cfg (copied) over @img (borrowed; may be
 * NULL: every address unreadable). NULL on bad config or no memory. */
struct etm_e1 *etm_e1_alloc(const struct etm_config *cfg,
			    const struct etm_image *img);
/** Free; NULL is a no-op. */
void etm_e1_free(struct etm_e1 *d);
/** Enable (1) / disable (0) the block cache (default on). */
void etm_e1_set_cache(struct etm_e1 *d, int on);
/** Push @n bytes of the record stream (any chunk size, copied as needed;
 * @buf is borrowed until next() returns -etme_again). @off is the input
 * offset of buf[0]. Returns 0, -etme_busy (not drained), -etme_invalid. */
int etm_e1_push(struct etm_e1 *d, const uint8_t *buf, size_t n);
/** End of input. */
int etm_e1_finish(struct etm_e1 *d);
/** Next element. Returns 0, -etme_again (push more), -etme_eos (after
 * finish, all delivered), -etme_nomem. */
int etm_e1_next(struct etm_e1 *d, struct etm_elem *el, size_t size);
/** Elements in place: *@els points at up to @max queued elements (valid
 * until the next call on @d). Returns the count (> 0) or as etm_e1_next(). */
int etm_e1_next_elems(struct etm_e1 *d, const struct etm_elem **els,
		      size_t max);

/** Counters of a decode (for stats and tests). */
struct etm_e1_stats {
	uint64_t samples;     /**< samples read */
	uint64_t insns;       /**< instruction statuses walked */
	uint64_t branches;    /**< branch addresses read */
	uint64_t data_addrs;  /**< data addresses read */
	uint64_t data_values; /**< data values read */
	uint64_t data_bytes;  /**< data value bytes read */
	uint64_t ctxids;      /**< context IDs read */
	uint64_t abandoned;   /**< abandoned branches (BE in an APO cycle) */
	uint64_t triggers;
	uint64_t errors;
};
/** Counters so far. */
void etm_e1_stats(const struct etm_e1 *d, struct etm_e1_stats *st);

#ifdef __cplusplus
}
#endif
#endif
