/* cli/winrun.h - `decode --start/--stop/--last`: the session's elements
 * through a window (etmtrace/window.h) before the formatter. */
#ifndef ETM_CLI_WINRUN_H
#define ETM_CLI_WINRUN_H

#include <etmtrace/window.h>

#include "session.h"

struct winrun {
	struct etm_window *w; /* NULL: no window asked for */
	/* where the kept elements go, in batches */
	int (*elems)(void *ctx, const struct etm_elem *els, size_t n);
	void *ctx;
	struct etm_elem out[64];
	size_t nout;
	int err; /* no memory in the window */
};

/* The window the options ask for, over the session's sources, handing
 * kept elements to @elems(@ctx). Returns 0 (wr->w NULL if none is asked
 * for) or 2 (message printed). */
int winrun_open(struct winrun *wr, const struct session *s,
		const struct opts *o,
		int (*elems)(void *ctx, const struct etm_elem *els, size_t n),
		void *ctx);
/* session_fn and session elems callbacks over a struct winrun: return -1
 * (stop decoding) once the window is past its stop. */
int winrun_item(void *ctx, const struct etm_item *it);
int winrun_elems(void *ctx, const struct etm_elem *els, size_t n);
/* The end of the decode: what the window still holds goes out. Returns 0
 * or 2 (message printed). */
int winrun_finish(struct winrun *wr);
/* Whether the window has passed its stop (the rest need not be decoded). */
int winrun_done(const struct winrun *wr);
void winrun_close(struct winrun *wr);

#endif
