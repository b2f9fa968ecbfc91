/* load/open_pieces.c - a CoreSight buffer that holds the pieces of a
 * circular buffer read from its write pointer is decoded piece by piece
 * (etmtrace/pieces.h, etm_decoder_set_pieces(); doc/circular.md). The
 * buffer is read once here to find out; a buffer of one piece is decoded
 * as before (streamed, in parallel with --jobs). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <etmtrace/error.h>

#include "open_int.h"

/* The whole of buffer @b's file, if it is one a circular buffer can be. */
static uint8_t *pieces_read(const struct etm_capture_buffer *b, uint64_t max,
			    size_t *n)
{
	struct stat st;
	uint8_t *buf;
	FILE *f;

	if (!b->path || stat(b->path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || (uint64_t)st.st_size > max)
		return NULL;
	f = fopen(b->path, "rb");
	if (!f)
		return NULL;
	buf = malloc((size_t)st.st_size);
	*n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	return buf;
}

/* Look at each buffer for pieces; turn them on where there are several. */
int cap_pieces(struct cap_ctx *c)
{
	unsigned mode = c->o.flags & ETM_OPEN_FILE_ORDER ? ETM_PIECES_FILE :
							   ETM_PIECES_TIME;
	uint64_t max = c->o.flags & ETM_OPEN_PIECES ? ETM_OPEN_PIECES_MAX :
						      ETM_OPEN_PIECES_AUTO;
	struct etm_circ_pieces ps;
	size_t i, n = 0;

	if (c->o.flags & (ETM_OPEN_NO_PIECES | ETM_OPEN_LIST))
		return 0;
	for (i = 0; i < c->cap->nbuf; i++) {
		struct etm_capture_buffer *b = &c->cap->buf[i];
		uint8_t *buf;

		if (!b->dec || b->format != etm_fmt_coresight || b->data ||
		    b->skip || (c->o.mode && c->o.mode != etm_dec_elements))
			continue;
		buf = pieces_read(b, max, &n);
		if (!buf)
			continue;
		etm_decoder_find_pieces(b->dec, buf, n, &ps);
		free(buf);
		if (ps.n < 2)
			continue;
		if (etm_decoder_set_pieces(b->dec, mode) < 0)
			return cap_err(c, -etme_nomem, "out of memory");
		cap_note(c->cap, "%s: a circular buffer in %zu pieces, listed in "
				 "%s order%s (--order file|time; --pieces off: "
				 "one input)",
			 b->name ? b->name : b->path, ps.n,
			 mode == ETM_PIECES_FILE ? "file" : "time",
			 ps.order_known ? "" : " (their order in time is unknown)");
	}
	return 0;
}
