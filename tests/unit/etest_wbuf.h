/* tests/unit/etest_wbuf.h - what a memory-mode writer (wbuf_init_mem())
 * holds, as text: for the unit tests of the listing's formatters (header
 * only, so that etest.c needs no output layer). */
#ifndef ETM_TESTS_ETEST_WBUF_H
#define ETM_TESTS_ETEST_WBUF_H

#include <string.h>

#include "listing/wbuf.h"

/* Flush @w, take its output into @got (@n bytes, NUL-terminated; the
 * blocks beyond what fits are dropped) and return @got. */
static inline const char *etest_wbuf_text(struct wbuf *w, char *got, size_t n)
{
	size_t len = 0, held;
	struct wblk *b, *chain;

	wbuf_flush(w);
	chain = wbuf_take(w, &held);
	got[0] = 0;
	for (b = chain; b; b = b->next) {
		if (len + b->len >= n)
			break;
		memcpy(got + len, b->data, b->len);
		len += b->len;
	}
	got[len] = 0;
	wbuf_free_chain(NULL, chain);
	return got;
}

#endif
