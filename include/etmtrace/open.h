/* etmtrace/open.h - one call from a capture on disk to configured decoders:
 * a CoreSight snapshot directory, or a trace file with options, becomes a
 * struct etm_capture holding a decoder per trace buffer with every selected
 * source, its configuration and its program image added. The input format
 * of a trace file is detected from its bytes (etmtrace/detect.h), and with no registers given
 * its configuration is inferred by probing the trace against the image. */
#ifndef ETM_ETMTRACE_OPEN_H
#define ETM_ETMTRACE_OPEN_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/decoder.h>
#include <etmtrace/image.h>
#include <etmtrace/snapshot.h>
#include <etmtrace/source.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A file for the program image: a raw binary loaded at @addr, or an ELF
 * file whose executable segments are loaded at p_vaddr + @addr (bias). */
struct etm_open_file {
	const char *path;
	uint64_t addr;
};

/* etm_open_opts.regs: which register values are given (explicit values
 * always win over the snapshot's and over inference). */
#define ETM_OPEN_ETMCR 0x1u
#define ETM_OPEN_ETMCCER 0x2u
#define ETM_OPEN_ETMIDR 0x4u
#define ETM_OPEN_ETMCCR 0x8u /**< ETMv1 */

/* etm_open_opts.flags */
/** Do not load program images (packet listings, info). */
#define ETM_OPEN_NO_IMAGES 0x1u
/** Trace file: do not infer the configuration (use the defaults of the
 * protocol: ETMCR 0). */
#define ETM_OPEN_NO_INFER 0x2u
/** Snapshot: follow file references that leave its directory
 * (ETM_SNAP_ALLOW_OUTSIDE). */
#define ETM_OPEN_ALLOW_OUTSIDE 0x4u
/** Succeed when no source can be decoded, and let --id name a source of
 * another protocol (a listing of the capture, etmtrace info). */
#define ETM_OPEN_LIST 0x8u
/** A CoreSight buffer (element mode, up to ETM_OPEN_PIECES_AUTO bytes: the
 * sizes of on-chip ETB/ETF RAM) is looked at as a circular buffer read from
 * its write pointer: when it holds more than one piece (etmtrace/pieces.h),
 * its decoder decodes each on its own and lists them in time order
 * (etm_decoder_set_pieces()), and a note says so. Larger buffers (a
 * system-memory ETR; also several dumps concatenated, which look like
 * pieces) are one input unless ETM_OPEN_PIECES asks. These flags change
 * that: */
#define ETM_OPEN_FILE_ORDER 0x10u /**< pieces listed in file order */
#define ETM_OPEN_NO_PIECES 0x20u  /**< no pieces: the buffer as one input */
#define ETM_OPEN_PIECES 0x40u     /**< look for pieces up to ETM_OPEN_PIECES_MAX */
/** A perf.data file traced with Context IDs (perf sets CONTEXTIDR to the
 * pid): the image is that of the process the Context ID names from each
 * context change on (etm_flow_set_ctx_images()); this flag turns that off
 * (each AUX piece is decoded with the image of its AUX record's process). */
#define ETM_OPEN_NO_CTX_IMAGES 0x80u
/** The frame realignment of every CoreSight decoder of the capture
 * (etm_decoder_set_realign(); none of these: the decoder's default). */
#define ETM_OPEN_REALIGN_OFF 0x100u
#define ETM_OPEN_REALIGN_BASIC 0x200u
#define ETM_OPEN_REALIGN_PRECISE 0x400u
#define ETM_OPEN_PIECES_AUTO ((uint64_t)256 << 10)
#define ETM_OPEN_PIECES_MAX ((uint64_t)64 << 20)

/** Options of etm_capture_open(). A zeroed struct (with size set) opens a
 * snapshot as it describes itself, or a trace file with everything found
 * from its bytes. Begins with its own size: older, shorter versions are
 * accepted. */
struct etm_open_opts {
	size_t size;                /**< sizeof(struct etm_open_opts) */
	enum etm_decoder_mode mode; /**< 0: etm_dec_elements */
	/** Input format: etm_fmt_unknown = the snapshot's (trace.ini), or for a
	 * trace file detected from the bytes (etm_detect_format()). */
	enum etm_input_format format;
	/** Trace IDs to decode, across all buffers (NULL / 0: every source). An
	 * ID no source has is an error. */
	const unsigned *ids;
	size_t nids;
	/** Overrides applied to every selected source (a snapshot's registers
	 * included): etm_proto_unknown = the snapshot's / inferred. */
	enum etm_protocol protocol;
	uint32_t regs; /**< ETM_OPEN_ETMCR | ... : given below */
	uint32_t etmcr, etmccer, etmidr;
	uint32_t cfg_flags; /**< ORed into every source (ETM_CFG_*) */
	/** Added to every core's image (after the snapshot's memory dumps). */
	const struct etm_open_file *images; /**< raw binaries at addr */
	size_t nimages;
	const struct etm_open_file *elfs; /**< ELF files, addr = bias */
	size_t nelfs;
	uint32_t flags; /**< ETM_OPEN_* */
	/** ETMv1: ETMCCR (with ETM_OPEN_ETMCCR in @regs), and the format of a
	 * trace file of samples (enum etm_e1_format, etmtrace/etmv1.h; 0:
	 * sniffed, no header: an ETB image). A trace file is read as ETMv1
	 * samples when @protocol is ETMv1/ETMv2 or @samples is given. */
	uint32_t etmccr;
	unsigned samples;
	/** perf.data files: where the mapped files are looked for besides
	 * their recorded paths: under @symfs (a root directory, like perf's
	 * --symfs), and by build id in @buildid_dir (a ~/.debug-style cache:
	 * DIR/.build-id/xx/rest[/elf]). NULL: not used. */
	const char *symfs;
	const char *buildid_dir;
	/** A trace stream (a socket, a FIFO, a pipe) instead of a file: when
	 * @head is not NULL, its @nhead bytes - the first of the stream, read
	 * by the caller - are all that the format detection, the trace-ID scan
	 * and the inference look at, and the path given to etm_capture_open()
	 * only names the stream in messages (it is not opened). The capture
	 * has one buffer; the caller pushes @head and then the rest of the
	 * stream into its decoder as it arrives (etm_capture_next() does not
	 * read streams: -etme_invalid). What needs the whole input is not done:
	 * pieces of a circular buffer are not looked for, and ETMv1 sample
	 * files (the options or the ELF's core say ETMv1) are -etme_invalid.
	 * The fewer bytes @head holds, the less detection and inference have
	 * to go on (doc/live.md): give the configuration by options. */
	const uint8_t *head;
	size_t nhead;
};

/* etm_capture_source.how: where the configuration came from (bits). */
#define ETM_HOW_SNAPSHOT 0x1u /**< the snapshot's device file */
#define ETM_HOW_OPTIONS 0x2u  /**< options overrode some of it */
#define ETM_HOW_INFERRED 0x4u /**< probed against the image */
#define ETM_HOW_DEFAULT 0x8u  /**< protocol defaults (nothing to go on) */

/** A trace source of the capture. Sources that are not decoded (another
 * protocol, not selected, no buffer) are listed too, with @skip saying
 * why. */
struct etm_capture_source {
	unsigned id;                 /**< trace ID (0x01-0x6f) */
	const char *name;            /**< device name ("ETM_0"), or "source" */
	const char *type;            /**< device type ("PTM1.1"), may be NULL */
	struct etm_config cfg;       /**< the configuration decoded with */
	const struct etm_image *img; /**< its program image (NULL: none) */
	size_t buffer;               /**< index of its buffer */
	unsigned how;                /**< ETM_HOW_* */
	const char *skip;            /**< NULL if decoded, else why not */
};

/** A trace buffer of the capture, with the decoder of its sources. */
struct etm_capture_buffer {
	const char *name;             /**< buffer name, or the file name */
	const char *path;             /**< its data file */
	enum etm_input_format format; /**< the format decoded with */
	int detected;                 /**< 1: @format was found from the bytes */
	const char *format_why;       /**< how it was detected (or ""), e.g.
				       *   "CoreSight frames: 12 IDs ..." */
	struct etm_decoder *dec;      /**< NULL if no source of it is decoded */
	size_t nsources;              /**< sources added to @dec */
	/** What @dec takes, when it is not the bytes of @path: @size bytes at
	 * @data (owned by the capture), else @path from offset @skip. ETMv1
	 * sample files: records converted in memory (text, OpenOCD, ETB), or
	 * our binary format past its header. */
	const uint8_t *data;
	size_t size;
	uint64_t skip;
	/** TPIU frames without FSYNC (@format etm_fmt_tpiu, an SWO capture):
	 * 1, and where the frames start, found from their structure
	 * (etm_detect_frame_start(), etm_decoder_set_frame_start()). */
	int unmarked;
	uint64_t frame_start;
	/** With @path and @skip: the buffer is the @length bytes from @skip
	 * (a piece of a perf.data file's AUX trace); 0: to the end. */
	uint64_t length;
	/** A perf.data file's AUX piece: the CPU it was recorded on, the
	 * process and thread whose trace it holds (-1: not known; 0 for
	 * other buffers) and the process's name from its COMM record (NULL:
	 * none). */
	int perf_cpu, perf_pid, perf_tid;
	const char *perf_comm;
};

struct etm_capture;

/** Open @path, a snapshot directory, a perf.data file (recognised by its
 * magic; etmtrace/perfdata.h, doc/perfdata.md) or a trace file, with options @opts
 * (NULL: all defaults). On success *@cap holds a decoder per trace buffer
 * (free with etm_capture_free()). On failure a one-line reason is written
 * to @err (if non-NULL).
 * Returns 0, -etme_io (missing/unreadable file), -etme_parse (malformed
 * snapshot, not an ELF), -etme_bad_config (no decodable source, an --id
 * naming no source, inconsistent registers), -etme_invalid, -etme_nomem. */
int etm_capture_open(struct etm_capture **cap, const char *path,
		     const struct etm_open_opts *opts, char *err, size_t errlen);
/** Free the capture, its decoders and images; NULL is a no-op. */
void etm_capture_free(struct etm_capture *cap);

/** Trace buffers (at least 1), and buffer @i (NULL if out of range). */
size_t etm_capture_nbuffers(const struct etm_capture *cap);
const struct etm_capture_buffer *etm_capture_buffer(const struct etm_capture *cap,
						    size_t i);
/** Make buffer @i's decoder where the capture makes it only when the
 * buffer is read: a perf.data file's AUX pieces, whose number grows with
 * the recording (one decoder lives at a time: the one loaded before is
 * freed, and its etm_capture_buffer().dec is NULL again). Call before
 * reading a buffer's decoder; etm_capture_next() does. Other buffers'
 * decoders are made by etm_capture_open(): nothing to do. Returns 0 (the
 * decoder set, or NULL when none of the buffer's sources is decoded),
 * -etme_nomem, -etme_invalid, or an error of etm_decoder_add_source(). */
int etm_capture_load(struct etm_capture *cap, size_t i);

/** Sources (decoded or skipped), and source @i (NULL if out of range). */
size_t etm_capture_nsources(const struct etm_capture *cap);
const struct etm_capture_source *etm_capture_source(const struct etm_capture *cap,
						    size_t i);
/** The snapshot, or NULL when a trace file was opened. */
const struct etm_snapshot *etm_capture_snapshot(const struct etm_capture *cap);
/** Notes on what the open decided (options that overrode the snapshot,
 * the detected format, the inferred registers), one line each, for the
 * caller to show. Returns NULL past the last. */
const char *etm_capture_note(const struct etm_capture *cap, size_t i);
/** A perf.data capture traced with Context IDs: the image of each pid
 * (none with ETM_OPEN_NO_CTX_IMAGES), as the decoders of its buffers use it, into
 * *@fn and *@ctx (valid while @cap is open; for etm_listing_source and
 * analyses that read ranges). Returns 1, or 0 (none: *@fn NULL). */
int etm_capture_ctx_images(const struct etm_capture *cap, etm_ctx_image_fn *fn,
			   void **ctx);

/** The next item of the whole capture: reads each buffer's file in turn
 * (buffer 0 first) and returns its decoder's items (etm_decoder_next()),
 * end of input included. A thin wrapper for simple programs: the pull
 * form of the capture run one item at a time (etmtrace/caprun.h:
 * etm_capture_next_elems() in batches, etm_capture_run() with a sink).
 * Returns 0 with an item, -etme_eos when every buffer is done, -etme_io
 * if a file cannot be read, or an error of etm_decoder_next(). Callers
 * that feed the decoders themselves take them from etm_capture_buffer()
 * instead. */
int etm_capture_next(struct etm_capture *cap, struct etm_item *it, size_t size);

/** Why @path cannot be read as an input file of etm_capture_open() (a
 * trace file, an image, an ELF file), as a one-line reason into @why (@n
 * bytes): "no such file", "a directory, not a file", "not a regular
 * file", "an empty file (0 bytes)" or "cannot be read: REASON". A
 * directory (a snapshot) is accepted when @dir_ok. For a front end that
 * checks its file options before opening anything. Returns 0 (it can be
 * read: @why empty) or -1. */
int etm_file_problem(const char *path, int dir_ok, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
