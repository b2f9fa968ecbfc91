/* load/open_left.c - the program image of a snapshot source left out by
 * the selection (--id), for the frame realignment's trial flow over its
 * packets (etm_decoder_note_source_img(), decoder/left_sources.c): the image
 * already loaded for a decoded source whose core has the same memory
 * dumps; none is loaded for it (that is the start's main cost). */
#include <string.h>

#include "decoder/realign.h"
#include "load/open_int.h"

/* The snapshot's description of capture source @s, else NULL. */
static const struct etm_snap_source *left_snap(const struct etm_capture *cap,
					       const struct etm_capture_source *s)
{
	size_t k;

	for (k = 0; cap->snap && k < cap->snap->nsources; k++)
		if (cap->snap->sources[k].name == s->name)
			return &cap->snap->sources[k];
	return NULL;
}

/* Whether @a and @b describe the same memory: the same dumps, in order. */
static int left_same_memory(const struct etm_snap_source *a,
			    const struct etm_snap_source *b)
{
	size_t i;

	if (a->ndumps != b->ndumps || !a->ndumps)
		return 0;
	for (i = 0; i < a->ndumps; i++) {
		const struct etm_snap_dump *x = &a->dumps[i], *y = &b->dumps[i];

		if (strcmp(x->path, y->path) || x->addr != y->addr ||
		    x->length != y->length || x->offset != y->offset ||
		    x->space != y->space)
			return 0;
	}
	return 1;
}

const struct etm_image *cap_left_image(const struct etm_capture *cap,
				       const struct etm_capture_source *s)
{
	const struct etm_snap_source *ss = left_snap(cap, s), *ts;
	size_t j;

	for (j = 0; ss && j < cap->nsrc; j++) {
		const struct etm_capture_source *t = &cap->src[j];

		if (t->img && (ts = left_snap(cap, t)) &&
		    left_same_memory(ss, ts))
			return t->img;
	}
	return NULL;
}
