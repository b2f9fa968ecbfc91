/* etmtrace/listing.h - decoded elements as text: the listing of `etmtrace
 * decode` (one line per executed instruction, with exceptions, gaps,
 * context and timestamps), the canonical instruction list, or JSON lines.
 * What a listing takes from the layers that are optional to the decoder
 * comes through hooks: a disassembler (capstone) and symbols (libdw,
 * libetmtrace_symbols: etm_symbols_hook()); without them the listing shows
 * the instruction class and no names. */
#ifndef ETMTRACE_LISTING_H
#define ETMTRACE_LISTING_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/decoder.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/insn.h>
#include <etmtrace/write.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A disassembler: the text of instruction @in (read from @img in @space;
 * the image gives context such as a T32 IT block) into @buf of @n bytes,
 * always NUL-terminated. @ctx is the disassembler's own state: one per
 * thread. */
struct etm_disasm_hook {
	void (*insn)(void *ctx, const struct etm_image *img,
		     enum etm_space space, const struct etm_insn *in,
		     char *buf, size_t n);
	void *ctx;
};

/* Symbols: lookups the listing makes (func+0xoff, branch targets, source
 * lines). Any may be NULL. The strings stay valid while the symbols do. */
struct etm_sym_hook {
	/* The function holding @addr: its name and [start, end). 0, or -1
	 * if none. */
	int (*func)(const void *ctx, uint64_t addr, const char **name,
		    uint64_t *start, uint64_t *end);
	/* The source file and line of @addr; 0, or -1 if none. The same file
	 * gives the same pointer. */
	int (*line)(const void *ctx, uint64_t addr, const char **file,
		    uint32_t *line);
	const void *ctx;
};

/* A decoded source as a listing sees it: its trace ID, configuration
 * (exception names depend on the profile) and program image (the listed
 * instructions are read from it); both borrowed, may be NULL. Elements of
 * other trace IDs are listed only if they are errors. */
struct etm_listing_source {
	unsigned id;
	const struct etm_config *cfg;
	const struct etm_image *img;
};

enum etm_listing_format {
	etm_listing_text,  /* the `etmtrace decode` listing */
	etm_listing_canon, /* "ADDRESS A|T[ N]" per instruction, GAP lines */
	etm_listing_jsonl, /* one JSON object per element */
	etm_listing_data,  /* one line per data transfer (ETMv3 data trace) */
	etm_listing_count, /* nothing written: etm_listing_counts() only */
};

struct etm_capture_sink;
struct etm_diagset;
struct etm_run_stats;
struct etm_srcpath;

struct etm_listing_opts {
	size_t size; /* sizeof(struct etm_listing_opts) */
	enum etm_listing_format format;
	const struct etm_listing_source *src; /* the decode's sources */
	size_t nsrc;
	etm_write_fn write;
	void *write_ctx;
	struct etm_disasm_hook dis; /* text: insn NULL shows the class */
	struct etm_sym_hook sym;    /* func+0xoff, branch targets, lines */
	int source_lines;           /* text: the source line before the
				     * instructions that change it */
	int offsets;                /* text: the input offset of each line
				     * (1: decimal, 2: hex) */
	double clock_hz;            /* > 0: times of timestamps and cycles */
	/* text, etm_listing_run() on several threads: each worker's own
	 * disassembler, dis_open(dis_ctx) on its thread and dis_close()
	 * when it is done; NULL: the workers share @dis, whose insn() must
	 * then be safe to call from several threads at once */
	struct etm_disasm_hook (*dis_open)(void *ctx);
	void (*dis_close)(void *ctx, struct etm_disasm_hook *h);
	void *dis_ctx;
	/* per-process images (a perf.data file traced with Context IDs:
	 * etm_capture_ctx_images()): each range is read from
	 * ctx_img(ctx_img_arg, the Context ID in force) unless that is NULL,
	 * else from its source's image. NULL: off. (Callers built before
	 * these fields pass a smaller size: the fields after theirs are off.) */
	etm_ctx_image_fn ctx_img;
	void *ctx_img_arg;
	/* text: the columns of instruction lines, comma-separated (offset,
	 * id, addr, isa, opcode, insn, atom, sym, src, cycles, ts, ctx; a
	 * name may repeat); NULL: the default lines. An unknown name makes
	 * etm_listing_alloc() fail with the reason in @err. */
	const char *fields;
	/* text with @source_lines: where source files are found (borrowed;
	 * NULL: where the debug information says) */
	const struct etm_srcpath *srcpath;
	/* configuration diagnostics (etmtrace/diag.h, borrowed): told of
	 * every element listed, in input order also on several threads;
	 * NULL: none */
	struct etm_diagset *diag;
	/* which elements are listed (ETMv3 data trace; errors always):
	 * @data_only: data transfers alone; @data_range: only data
	 * transfers at addresses in [@data_lo, @data_hi] */
	int data_only;
	int data_range;
	uint64_t data_lo, data_hi;
	/* out, if not NULL: the worker threads' figures of each
	 * etm_listing_run() (etmtrace/runstats.h; its thread array is the
	 * caller's); left alone when the items are formatted on the calling
	 * thread */
	struct etm_run_stats *run_stats;
	/* out, if not NULL: why etm_listing_alloc() returned -etme_invalid
	 * for @fields */
	char *err;
	size_t errlen;
};

/* What a listing counted so far. */
struct etm_listing_counts {
	uint64_t insns;                 /* instructions */
	uint64_t errors;                /* error elements (trace lost) */
	uint64_t elems[etmk_num_kinds]; /* elements by kind */
};

struct etm_listing;

/* A listing as @o says (copied; what it points to is borrowed until
 * etm_listing_free()). Returns 0 with *@out set, -etme_invalid or
 * -etme_nomem. */
int etm_listing_alloc(struct etm_listing **out,
		      const struct etm_listing_opts *o);
/* The sources' program images from now on: @src as given to
 * etm_listing_alloc() (the same IDs in the same order) with other images
 * (a perf.data file's buffers hold the trace of different processes).
 * Returns 0 or -etme_invalid (other sources). */
int etm_listing_set_images(struct etm_listing *l,
			   const struct etm_listing_source *src, size_t nsrc);
/* List one item (packets are not listed). Returns 0 or an error of the
 * write callback. */
int etm_listing_item(struct etm_listing *l, const struct etm_item *it);
/* List @n elements (as etm_decoder_next_elems() hands them out). */
int etm_listing_elems(struct etm_listing *l, const struct etm_elem *els,
		      size_t n);
/* A capture sink (etmtrace/caprun.h) that lists into @l: @out is filled
 * (its other callbacks NULL) and *@ctx is the context to run it with
 * (etm_capture_run(cap, ro, out, *ctx)). item() is etm_listing_item();
 * elems() is etm_listing_elems() without its argument checks (the decode's
 * hot path: one call per batch; after an error of the write callback the
 * elements are still counted, their text dropped, and the error is
 * returned); end() is etm_listing_flush(). The sink and the context are
 * valid while @l is. Returns 0 or -etme_invalid. */
int etm_listing_capture_sink(struct etm_listing *l,
			     struct etm_capture_sink *out, void **ctx);
/* End of a trace buffer (or of the decode): the lines held back (a run of
 * identical error lines is printed as one) are listed and everything is
 * handed to the write callback. Returns 0 or its error. */
int etm_listing_flush(struct etm_listing *l);
/* List the @size input bytes read through @rd as decoded by @dec (as
 * etm_decoder_run() takes them: configured, unused) on @jobs threads
 * (0 or 1: the calling thread only): each worker formats what it decoded,
 * and the text goes to the write callback in input order, identical to
 * etm_listing_item() of every item of one thread (runs of identical error
 * lines joined across the workers' cuts). The write callback is called
 * from one thread at a time, possibly a worker thread. With source lines
 * and a line hook, or a clock, the listing's annotations depend on the
 * lines before: the items are then formatted on the calling thread.
 * Lines held back are listed at etm_listing_flush(). Returns 0, an error
 * of the write callback, or one of etm_decoder_run(). */
int etm_listing_run(struct etm_listing *l, struct etm_decoder *dec,
		    etm_read_fn rd, void *rctx, uint64_t size, unsigned jobs);
/* Hand the text listed so far to the write callback without ending the
 * buffer (lines held back stay held): a live stream's output after each
 * read. Returns 0 or the write callback's error. */
int etm_listing_write_out(struct etm_listing *l);
/* Instructions listed so far. */
uint64_t etm_listing_insns(const struct etm_listing *l);
/* What @l counted so far (elements of every kind, also those its format
 * or data filter leaves out of the text) into *@c. */
void etm_listing_counts(const struct etm_listing *l,
			struct etm_listing_counts *c);
void etm_listing_free(struct etm_listing *l);

/* Packet listing (`etmtrace packets`): one line per packet of a decoder
 * in packet mode (etm_dec_packets) - input offset, trace ID, raw bytes,
 * type and decoded fields, as text or JSON lines - and one per
 * deformatter error element or note of a frame cut by the end of the
 * buffer. A compressed address before its source's first full one is
 * marked as such. */
struct etm_packet_listing_opts {
	size_t size;                    /* sizeof(struct etm_packet_listing_opts) */
	enum etm_listing_format format; /* etm_listing_text or _jsonl */
	int offsets;                    /* text: input offsets in decimal
					    * (0, 1) or hex (2) */
	etm_write_fn write;
	void *write_ctx;
};

struct etm_packet_listing;

/* A packet listing as @o says. Returns 0 with *@out set, -etme_invalid
 * or -etme_nomem. */
int etm_packet_listing_alloc(struct etm_packet_listing **out,
			     const struct etm_packet_listing_opts *o);
/* List one item of a decoder in packet mode. Returns 0. */
int etm_packet_listing_item(struct etm_packet_listing *l,
			    const struct etm_item *it);
/* Hand the text so far to the write callback (the text is buffered
 * until then: call it at the end, or to bound a live stream's latency).
 * Returns 0, or -etme_io once the write callback has failed. */
int etm_packet_listing_flush(struct etm_packet_listing *l);
/* The packets listed (not counting unsynchronised bytes) and the
 * malformed packets and frame errors among the items (a packet cut by
 * the end of the data is not malformed). */
void etm_packet_listing_counts(const struct etm_packet_listing *l,
			       uint64_t *packets, uint64_t *errors);
void etm_packet_listing_free(struct etm_packet_listing *l);

#ifdef __cplusplus
}
#endif

#endif
