/* source/frames_known.c - the known IDs of the deformatter's fast path
 * (source/frames.c) in the forms its bulk loop compares frames with:
 * each known ID's byte in 16 copies, and runs of consecutive known IDs
 * (source/frames_known.h). */
#include <string.h>

#include "source/frames_known.h"

/* The known IDs below 0x70 as runs of consecutive IDs, each as the range
 * of their ID bytes (2 * id + 1), klo[] and kspan[] in 16 copies; more
 * than ETM_FR_KRUNS runs: nkrun 0 (the kvec[] comparisons). */
static void known_runs(struct etm_frames *x)
{
	unsigned id = 0, r = 0, a;

	x->nkrun = 0;
	while (id < 0x70) {
		if (!x->known[id]) {
			id++;
			continue;
		}
		for (a = id; id < 0x70 && x->known[id]; id++)
			;
		if (r == ETM_FR_KRUNS)
			return;
		memset(x->klo[r], (int)(2 * a + 1), 16);
		memset(x->kspan[r], (int)(2 * (id - 1 - a)), 16);
		r++;
	}
	if (!r)
		return;
	x->nkrun = r;
	for (; r < ETM_FR_KRUNS; r++) {
		memcpy(x->klo[r], x->klo[0], 16);
		memcpy(x->kspan[r], x->kspan[0], 16);
	}
}

void etm_frames_known_changed(struct etm_frames *x)
{
	unsigned id, n = 0;

	for (id = 0; id < 0x70; id++)
		n += x->known[id] != 0;
	if (n == 0x70) {
		x->nkvec = 0; /* every ID: nothing to check */
		return;
	}
	x->nkvec = n < ETM_FR_KMANY ? n : ETM_FR_KMANY;
	for (id = 0, n = 0; id < 0x70 && x->nkvec < ETM_FR_KMANY; id++)
		if (x->known[id])
			memset(x->kvec[n++], (int)(2 * id + 1), 16);
	known_runs(x);
}

int etm_frames_ids_known(const struct etm_frames *x, const uint8_t *f,
			 unsigned idm)
{
	return ids_known(x, f, idm);
}

int etm_frames_runs_bad(const struct etm_frames *x, const uint8_t *f,
			unsigned idm, int t, unsigned *vm)
{
#ifdef __SSE2__
	struct kruns k;

	kruns_load(x, &k);
	return runs_bad(&k, _mm_loadu_si128((const __m128i *)(const void *)f),
			f, idm, vm, t) != 0;
#else
	(void)x, (void)f, (void)idm, (void)t, (void)vm;
	return -1;
#endif
}
