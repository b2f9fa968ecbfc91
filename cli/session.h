/* cli/session.h - turns command-line options into a configured decoder
 * (snapshot or manual configuration, program images) and runs it over the
 * trace file, handing every item to a command's callback. */
#ifndef ETM_CLI_SESSION_H
#define ETM_CLI_SESSION_H

#include <etmtrace/etmtrace.h>

#include "live.h"
#include "opt.h"

struct session_src {
	unsigned id;
	struct etm_config cfg;
	const struct etm_image *img; /* owned by the capture (may be shared) */
	const char *name;
	size_t buffer;    /* its trace buffer (session_select()) */
	const char *path; /* that buffer's file and format */
	enum etm_input_format fmt;
};

struct session {
	struct opts *o;
	struct etm_capture *cap; /* sources, buffers, decoders, images */
	size_t nnotes;           /* its notes printed */
	/* the buffer session_select() chose: its file, format, decoder */
	const char *trace_path;
	enum etm_input_format fmt;
	struct etm_decoder *dec;
	char *spool;             /* input `-`: standard input's copy */
	struct session_src *src; /* the decoded sources (all buffers) */
	int nsrc;
	struct etm_listing_source *osrc; /* src as the formatters take it */
	struct etm_diagset *dw;          /* the command's diagnostics: told of each
			     * buffer's images (session_select()) */
	uint64_t input_bytes;
	int jobs; /* worker threads for session_run (<= 1: none) */
	/* verified output (--verify): items go through this filter, which
	 * needs the decoder's packet items; those are not passed on */
	struct etm_verify *verify;
	uint8_t vdrop[128]; /* --verify-drop: dropping, by trace ID */
	uint64_t vdropped;  /* elements dropped */
	/* optional: session_run() hands elements to this in batches where the
	 * decoder gives them so (no packet items, no verify, one thread) */
	int (*elems)(void *ctx, const struct etm_elem *els, size_t n);
	/* the chosen buffer's input when it is not its file's bytes (ETMv1
	 * sample files: records in memory, or the file past a header) */
	const uint8_t *mem;
	size_t mem_n;
	uint64_t skip;
	uint64_t length; /* with skip: bytes to read (0: to the end) */
	int e1;          /* an ETMv1 source is decoded (sample records) */
	/* live input (cli/live.h; live.fd >= 0): the stream is decoded as it
	 * arrives, and the output is flushed after each read: @flush(@flush_ctx),
	 * when set */
	struct live live;
	void (*flush)(void *ctx);
	void *flush_ctx;
	/* optional: called when session_select() changed a source's image
	 * (a perf.data piece of another process): the analyses that hold
	 * the sources' images take the new ones */
	void (*on_images)(void *ctx, const struct session *s);
	void *on_images_ctx;
};

/* Item handler: return 0 to go on, <0 to stop. */
typedef int (*session_fn)(void *ctx, const struct etm_item *it);

/* Set up sources, images and the decoder. @want_images = load program
 * images. Returns 0 or 2 (input/usage error, message printed). */
int session_open(struct session *s, struct opts *o, enum etm_decoder_mode mode,
		 int want_images);
void session_close(struct session *s);
/* Make buffer @b the one session_run() decodes (dec, trace_path, fmt).
 * Returns 0, or -1 if it has no decoded source. */
int session_select(struct session *s, size_t b);
size_t session_nbuffers(const struct session *s);
const char *session_fmt_name(enum etm_input_format f);
/* Verified output (etmtrace/verify.h): packet items on, one thread.
 * Returns 0 or 2 (no memory). */
int session_verify(struct session *s);
/* Decode every buffer's trace file in turn (with s->jobs > 1 and a regular file, through
 * etm_decoder_run() on that many threads: same items, same order).
 * Returns 0, or 2 on an input error. */
int session_run(struct session *s, session_fn fn, void *ctx);
/* session_run() of the buffer session_select() chose. */
int session_run_buffer(struct session *s, session_fn fn, void *ctx);
/* Whether the session decodes a live stream (one thread, as it comes). */
static inline int session_live(const struct session *s)
{
	return s->live.fd >= 0;
}
/* The chosen buffer as the library's parallel runs read it: its file range
 * opened into *@rg (close rg->fd), its size in *@size (etm_capture_range()).
 * Returns 0, or nonzero if it is not read so (then session_run_buffer()). */
int session_range(struct session *s, struct etm_fd_range *rg, uint64_t *size);
/* The sources as the output formatters take them (s->nsrc of them; NULL
 * on no memory), built on the first call. */
const struct etm_listing_source *session_osrc(struct session *s);
/* Source of trace ID @id, or NULL. */
const struct session_src *session_find(const struct session *s, unsigned id);

#endif
