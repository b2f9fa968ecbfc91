/* etmtrace/diag.h - configuration-mismatch diagnostics: counts the symptoms
 * of a wrong protocol, cycle-accurate or context-ID setting, or of a program
 * image that does not match the trace, and names the likely cause. */
#ifndef ETM_ETMTRACE_DIAG_H
#define ETM_ETMTRACE_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/decoder.h>
#include <etmtrace/image.h>
#include <etmtrace/listing.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Symptom counts of one trace source. */
struct etm_diag_counts {
	size_t size;         /**< sizeof(struct etm_diag_counts) */
	uint64_t packets;    /**< packets seen (when packets are fed) */
	uint64_t pkt_errors; /**< malformed packets (etmp_error, or
				   *   etmk_error elements from them) */
	uint64_t sync_lost;  /**< synchronisation lost after the first
				   *   sync (etmk_nosync elements) */
	uint64_t insns;      /**< instructions in ranges */
	uint64_t ranges;     /**< range elements */
	uint64_t nomem;      /**< traced addresses not in the image */
	uint64_t mismatch;   /**< trace disagrees with the image:
				   *   etme_mismatch / bad_insn /
				   *   retstack_empty errors, including a
				   *   periodic I-sync away from the decoded
				   *   flow (atoms left over) */
	uint64_t n_uncond;   /**< N atom on an instruction that cannot
				   *   fail its condition */
	uint64_t undef;      /**< range ends on an undefined encoding */
	uint64_t mid_insn;   /**< branch target inside an instruction */
};

struct etm_diag;

/** Allocate the diagnostics of the source configured by @cfg decoding
 * against @img (borrowed; may be NULL). Memory is fixed: it does not grow
 * with the trace. NULL on no memory. */
struct etm_diag *etm_diag_alloc(const struct etm_config *cfg,
				const struct etm_image *img);
/** Free; NULL is a no-op. */
void etm_diag_free(struct etm_diag *d);
/** Look at one decoder item of this source (packets are optional: they
 * add the packet counts). Items of other trace IDs are ignored. */
void etm_diag_item(struct etm_diag *d, const struct etm_item *it);
/** etm_diag_item() of an element item, for elements taken in batches
 * (etm_decoder_next_elems()). */
void etm_diag_elem(struct etm_diag *d, const struct etm_elem *e);
/** Disagreements of a range element with the image (bits). */
enum etm_diag_mark {
	etm_mark_n_uncond = 1, /**< N atom on an instruction that cannot
				   *   fail its condition */
	etm_mark_undef = 2     /**< ends on an undefined encoding */
};
/** The etm_diag_mark bits of element @e against @img (borrowed; may be
 * NULL): what etm_diag_elem() counts of this element alone (0 for other
 * kinds), for marking a listing where the trace and image disagree. */
unsigned etm_diag_elem_marks(const struct etm_image *img,
			     const struct etm_elem *e);
/** Diagnostics of a stretch of a decode whose preceding items were not
 * seen (parallel decode: each worker counts its own part): what depends on
 * the state before it is kept pending until etm_diag_append(). NULL on no
 * memory. */
struct etm_diag *etm_diag_alloc_segment(const struct etm_config *cfg,
					const struct etm_image *img);
/** Add segment @seg, the items that followed those @d has seen, to @d (not
 * a segment): afterwards @d is as if it had seen @seg's items itself.
 * Returns 0 or -etme_invalid. */
int etm_diag_append(struct etm_diag *d, const struct etm_diag *seg);
/** Empty segment @seg for reuse (not a segment: no-op). */
void etm_diag_reset_segment(struct etm_diag *seg);
/** Copy the counts (@size = sizeof *@c). Returns 0 or -etme_invalid. */
int etm_diag_counts(const struct etm_diag *d, struct etm_diag_counts *c,
		    size_t size);
/** A one-line warning naming the likely misconfiguration ("" when the
 * trace looks consistent with the configuration and image), snprintf
 * style: returns the length that would have been written. */
int etm_diag_warning(const struct etm_diag *d, char *buf, size_t n);

/** Decode @n bytes of @fmt input (typically the first few hundred KiB)
 * with the source @cfg and with variants of it - the other protocol,
 * cycle-accurate on/off, every Context ID size, ETMv3 branch encodings,
 * PTM return stack, timestamps off / 64-bit binary / 48-bit Gray -
 * and store in *@best the variant with the fewest symptoms, if it has
 * far fewer than @cfg (none, or a quarter) without losing half of the
 * instructions; else @cfg itself. Returns 1 if *@best differs from @cfg,
 * 0 if not, or a negative error. */
int etm_diag_probe(enum etm_input_format fmt, const struct etm_config *cfg,
		   const struct etm_image *img, const uint8_t *buf, size_t n,
		   struct etm_config *best);

/* etm_diag_probe_keep(): what the variants must not change. */
#define ETM_PROBE_KEEP_PROTOCOL 0x1u
#define ETM_PROBE_KEEP_ETMCR 0x2u
#define ETM_PROBE_KEEP_ETMIDR 0x4u
/** @cfg is only a guess: the variant with the fewest symptoms wins (as
 * few: the most instructions), with no margin over @cfg. */
#define ETM_PROBE_GUESS 0x8u

/** etm_diag_probe() over the variants that keep what @keep names as in
 * @cfg (given by the user: explicit values win). Returns as
 * etm_diag_probe(). */
int etm_diag_probe_keep(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, struct etm_config *best);

/** etm_diag_probe_keep() with the variants decoded on up to @jobs threads
 * (the calling one included; at most 16); the same result as with one. */
int etm_diag_probe_jobs(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, unsigned jobs,
			struct etm_config *best);

/** The two best configurations of a probe whose configuration is a guess
 * (etm_diag_probe_rank()), to tell whether the choice is clear. */
struct etm_probe_rank {
	size_t size;            /**< sizeof(struct etm_probe_rank) */
	struct etm_config best; /**< the chosen configuration */
	/** its errors over the bytes probed: malformed packets, losses of
	 * sync, disagreements with the image (traced addresses outside the
	 * image are not errors); UINT64_MAX: it could not decode */
	uint64_t best_errors;
	uint64_t best_insns;    /**< its instructions */
	int has_next;           /**< 1: @next is valid */
	struct etm_config next; /**< the best of those that decode otherwise
				 *   (another symptom or instruction count) */
	uint64_t next_errors, next_insns;
};

/** etm_diag_probe_keep() with ETM_PROBE_GUESS on one thread, every
 * variant decoded far enough to find the runner-up too: the best and the
 * runner-up into *@rk. Returns as etm_diag_probe(). */
int etm_diag_probe_rank(enum etm_input_format fmt, const struct etm_config *cfg,
			const struct etm_image *img, const uint8_t *buf,
			size_t n, unsigned keep, struct etm_probe_rank *rk);

/** Describe the differences between @cfg and @other as text, e.g.
 * "protocol ptm, cycle-accurate on" (snprintf style). */
int etm_diag_config_diff(const struct etm_config *cfg,
			 const struct etm_config *other, char *buf, size_t n);

/** The diagnostics of every source of a decode, by trace ID: an etm_diag
 * each, fed the decode's elements in order. For a front end that warns
 * about a likely misconfiguration after decoding a capture, e.g.:
 *
 *     struct etm_diagset *dg = etm_diagset_alloc(src, nsrc);
 *     while ((n = etm_capture_next_elems(cap, &els, 4096, NULL)) > 0)
 *             etm_diagset_elems(dg, els, (size_t)n);   (and use them)
 *     for (i = 0; i < nsrc; i++) {
 *             struct etm_diag *d = etm_diagset_get(dg, src[i].id);
 *             char why[256];
 *             if (d && etm_diag_warning(d, why, sizeof(why)) > 0)
 *                     fprintf(stderr, "0x%x: %s\n", src[i].id, why);
 *     }
 *     etm_diagset_free(dg);
 *
 * A listing feeds one as it lists (etm_listing_opts.diag), also on worker
 * threads; a caller running its own consumers on worker threads
 * (etm_decoder_run_ops()) gives each piece a segment and appends the
 * segments in input order. */
struct etm_diagset;

/** Diagnostics for the @n sources @src (their configurations and images
 * borrowed); NULL on no memory (then the other calls do nothing). The
 * last of equal IDs wins. Freed with etm_diagset_free(). */
struct etm_diagset *etm_diagset_alloc(const struct etm_listing_source *src,
				      int n);
/** Parallel decode: the diagnostics of a piece of the elements whose
 * preceding elements were not seen, added to the whole with
 * etm_diagset_append() in input order. */
struct etm_diagset *
etm_diagset_alloc_segment(const struct etm_listing_source *src, int n);
/** Add segment @seg (the elements after those @w has seen) to @w. */
void etm_diagset_append(struct etm_diagset *w, const struct etm_diagset *seg);
/** Feed @n elements of the decode, in order. */
void etm_diagset_elems(struct etm_diagset *w, const struct etm_elem *els,
		       size_t n);
/** The diagnostics of trace ID @id, or NULL. */
struct etm_diag *etm_diagset_get(const struct etm_diagset *w, unsigned id);
/** The images of the @n sources @src from now on (a perf.data file's
 * buffers hold the trace of different processes). */
void etm_diagset_images(struct etm_diagset *w,
			const struct etm_listing_source *src, int n);
/** The symptom counts of every source added up into *@sum. */
void etm_diagset_sum(const struct etm_diagset *w,
		     struct etm_diag_counts *sum);
/** Free; NULL is a no-op. */
void etm_diagset_free(struct etm_diagset *w);

#ifdef __cplusplus
}
#endif
#endif
