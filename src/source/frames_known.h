/* source/frames_known.h - the deformatter bulk path's test of the IDs a
 * frame names (source/frames.c): known IDs only, or a lost alignment is
 * suspected. Inline: it runs once per frame with ID changes. Library-
 * internal. */
#ifndef ETM_SOURCE_FRAMES_KNOWN_H
#define ETM_SOURCE_FRAMES_KNOWN_H

#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "source/frames.h"

#ifdef __SSE2__
/* The runs of known IDs (etm_frames.klo[], kspan[]) in registers: the
 * bulk loop loads them once. */
struct kruns {
	__m128i lo[ETM_FR_KRUNS], sp[ETM_FR_KRUNS];
};

static inline void kruns_load(const struct etm_frames *x, struct kruns *k)
{
	unsigned r;

	for (r = 0; r < ETM_FR_KRUNS; r++) {
		k->lo[r] = _mm_loadu_si128((const __m128i *)(const void *)x->klo[r]);
		k->sp[r] = _mm_loadu_si128((const __m128i *)(const void *)x->kspan[r]);
	}
}

/* ids_known() by the runs @k: in a run, (b - lo) less its span
 * (saturating) is 0. */
static inline __attribute__((always_inline)) int
runs_known(const struct kruns *k, const uint8_t *f, unsigned idm)
{
	_Static_assert(ETM_FR_KRUNS == 3, "three range tests below");
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
	__m128i z = _mm_setzero_si128();
	__m128i m0 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, k->lo[0]), k->sp[0]), z);
	__m128i m1 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, k->lo[1]), k->sp[1]), z);
	__m128i m2 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, k->lo[2]), k->sp[2]), z);
	unsigned aux14 = (unsigned)(f[15] & 0x80) << 7;

	m0 = _mm_or_si128(m0, _mm_or_si128(m1, m2));
	return !(idm & (~(unsigned)_mm_movemask_epi8(m0) | aux14));
}

/* The bulk loop's test of the IDs frame @f (loaded in @v) names, where
 * the known IDs are runs (@k), with its mask of the ID changes to ID @t
 * (*@vm bit 2k: byte 2k is one) from the same compare: nonzero where the
 * frame needs the general path, as an ID of 0x70 or above or
 * runs_known() failing on (idm & ~vm) | (idm & 0x4000) did (@idm: the ID
 * changes, not 0). The runs hold IDs below 0x70 only, so one of 0x70 or
 * above fails them; byte 14 is tested even where it names @t. */
static inline __attribute__((always_inline)) unsigned
runs_bad(const struct kruns *k, __m128i v, const uint8_t *f, unsigned idm,
	 unsigned *vm, int t)
{
	_Static_assert(ETM_FR_KRUNS == 3, "three range tests below");
	__m128i z = _mm_setzero_si128();
	__m128i eq = _mm_cmpeq_epi8(v, _mm_set1_epi8((char)(2 * t + 1)));
	__m128i no14 = _mm_set_epi8(-1, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1,
				    -1, -1, -1, -1, -1);
	__m128i m0 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, k->lo[0]), k->sp[0]), z);
	__m128i m1 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, k->lo[1]), k->sp[1]), z);
	__m128i m2 = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(v, k->lo[2]), k->sp[2]), z);
	unsigned aux14 = (unsigned)(f[15] & 0x80) << 7, ok;

	m0 = _mm_or_si128(_mm_or_si128(m0, _mm_and_si128(eq, no14)),
			  _mm_or_si128(m1, m2));
	ok = (unsigned)_mm_movemask_epi8(m0);
	*vm = (unsigned)_mm_movemask_epi8(eq) & 0x5555;
	return idm & (~ok | aux14);
}
#endif

/* Whether the ID bytes of frame @f (bit 2k of @idm: byte 2k) name known
 * IDs only, and byte 14 (if in @idm) does not have the reserved auxiliary
 * bit 7 (aux_reserved()): compared at once with each run of consecutive
 * known IDs where they make few (a fixed ETM_FR_KRUNS range tests: TC2
 * has six known IDs in two runs, and six equality tests in a loop cost
 * twice as much), else with each known one where there are few (no
 * branch on the frame's contents: a loop over the ID bytes, of varying
 * length, is mispredicted - measured with callgrind --branch-sim), else
 * looked up one by one. */
static inline int ids_known(const struct etm_frames *x, const uint8_t *f,
			    unsigned idm)
{
	/* an ID in byte 14 with auxiliary bit 7 set (aux_reserved()) */
	unsigned aux14 = (unsigned)(f[15] & 0x80) << 7;

#ifdef __SSE2__
	if (x->nkrun) {
		struct kruns k;

		kruns_load((x), &k);
		return runs_known(&k, f, idm);
	}
	if (x->nkvec < ETM_FR_KMANY) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)f);
		__m128i m = _mm_setzero_si128();
		unsigned i;

		for (i = 0; i < x->nkvec; i++)
			m = _mm_or_si128(
				m, _mm_cmpeq_epi8(v, _mm_loadu_si128((const __m128i *)(const void *)x->kvec[i])));
		return !(idm & (~(unsigned)_mm_movemask_epi8(m) | aux14));
	}
#endif
	if (idm & aux14)
		return 0;
	for (; idm; idm &= idm - 1)
		if (!x->known[f[__builtin_ctz(idm)] >> 1])
			return 0;
	return 1;
}

/* The runs of known IDs in registers for the bulk loop (runs_bad()):
 * BULK_KRUNS(x, k) declares and loads them. */
#ifdef __SSE2__
#define BULK_KRUNS(x, k) \
	struct kruns k;  \
	kruns_load((x), &k)
#else
#define BULK_KRUNS(x, k)
#endif

#endif
