/* cli/session.h - turns command-line options into a configured decoder
 * (snapshot or manual configuration, program images) and runs it over the
 * trace file, handing every item to a command's callback. */
#ifndef ETM_CLI_SESSION_H
#define ETM_CLI_SESSION_H

#include <etmtrace/etmtrace.h>

#include "opt.h"

struct session_src {
	unsigned id;
	struct etm_config cfg;
	struct etm_image *img;   /* owned by the session (may be shared) */
	const char *name;
};

struct session {
	struct opts *o;
	struct etm_snapshot *snap;
	const char *trace_path;
	enum etm_input_format fmt;
	struct session_src *src; /* room for every source of the input */
	int nsrc;
	struct etm_image **images; /* distinct images to free (<= nsrc) */
	int nimages;
	struct etm_decoder *dec;
	uint64_t input_bytes;
	int jobs;                /* worker threads for session_run (<= 1: none) */
	/* verified output (--verify): items go through this filter, which
	 * needs the decoder's packet items; those are not passed on */
	struct etm_verify *verify;
	/* optional: session_run() hands elements to this in batches where the
	 * decoder gives them so (no packet items, no verify, one thread) */
	int (*elems)(void *ctx, const struct etm_elem *els, size_t n);
};

/* Item handler: return 0 to go on, <0 to stop. */
typedef int (*session_fn)(void *ctx, const struct etm_item *it);

/* Set up sources, images and the decoder. @want_images = load program
 * images. Returns 0 or 2 (input/usage error, message printed). */
int session_open(struct session *s, struct opts *o, enum etm_decoder_mode mode,
		 int want_images);
void session_close(struct session *s);
/* Verified output (etmtrace/verify.h): packet items on, one thread.
 * Returns 0 or 2 (no memory). */
int session_verify(struct session *s);
/* Decode the whole trace file (with s->jobs > 1 and a regular file, through
 * etm_decoder_run() on that many threads: same items, same order).
 * Returns 0, or 2 on an input error. */
int session_run(struct session *s, session_fn fn, void *ctx);
/* Read up to @n bytes of @fd at @off (any thread; retries short reads and
 * EINTR); returns the bytes read. */
size_t session_pread(int fd, uint64_t off, uint8_t *buf, size_t n);
/* Source of trace ID @id, or NULL. */
const struct session_src *session_find(const struct session *s, unsigned id);

#endif
