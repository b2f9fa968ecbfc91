/* etmtrace/coverage.h - coverage and profile accumulation from decoded
 * trace: per-instruction executed / condition-failed counts, straight-line
 * range counts and taken-branch counts; mergeable and serialisable, with
 * writers for the AutoFDO and llvm-profgen text profiles.
 *
 * What each protocol tells (doc/coverage.md): ETMv3 gives an E or N atom
 * for every instruction, so for every conditional instruction whether its
 * condition passed or failed. PTM gives atoms only for waypoints (branches,
 * ISB, DMB/DSB when configured): a conditional branch is known taken / not
 * taken, a conditional non-branch instruction is only known to have been
 * reached (its pass/fail count is "unknown").
 *
 * Memory: counters are kept per 4 KiB page of code that was executed
 * (4.5 bytes per byte of such a page; 8.5 more for PTM's untold
 * outcomes, 8.5 more once a condition failed in it), plus one entry per
 * distinct range and taken branch seen; none of it grows with the length of
 * the trace. Addresses are virtual addresses; security state and context ID
 * are not told apart (one program per coverage object). */
#ifndef ETM_ETMTRACE_COVERAGE_H
#define ETM_ETMTRACE_COVERAGE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/decoder.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>
#include <etmtrace/write.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etm_cov;

/** Allocate an empty coverage object. NULL on no memory. */
struct etm_cov *etm_cov_alloc(void);
/** Free; NULL is a no-op. */
void etm_cov_free(struct etm_cov *c);

/** Declare trace source @id (0-127) before its elements are added: its
 * protocol (what its atoms tell) and the image its opcodes come from
 * (@img borrowed until the last etm_cov_add_elems() of the source;
 * instruction sizes and classes are read from it the first time an address
 * executes). Returns 0, -etme_invalid. */
int etm_cov_set_source(struct etm_cov *c, unsigned id,
		       enum etm_protocol proto, const struct etm_image *img);
/** Account @n decoded elements (of declared sources; others are ignored).
 * Ranges count their instructions; range boundaries and taken branches feed
 * the range and branch counts; gaps (trace on, no sync, no memory, errors)
 * and exceptions end the current straight-line run. Exception entries are
 * not branches; exception returns are (doc/coverage.md).
 * Returns 0, -etme_nomem, -etme_invalid. */
int etm_cov_add_elems(struct etm_cov *c, const struct etm_elem *els,
		      size_t n);
/** End of one capture (or of one trace source's stream): the open
 * straight-line run is counted. Call it before reading ranges, merging or
 * saving, and between captures. Returns 0 or -etme_nomem. */
int etm_cov_end(struct etm_cov *c);

/** Add every count of @src to @dst (instruction, range and branch counts;
 * both must have been ended). Merging the coverage of several captures
 * equals accumulating them one after the other into one object.
 * Returns 0, -etme_nomem, -etme_invalid. */
int etm_cov_merge(struct etm_cov *dst, const struct etm_cov *src);

/** Make the empty object @c a part: it will receive the elements of a
 * stretch of a longer trace (parallel decode: etm_decoder_run_ops()), to
 * be joined to the coverage of what came before with etm_cov_append().
 * The straight-line run a source is in at its first element, and the one
 * open at the end, are kept open for the join; do not etm_cov_end() a
 * part. Returns 0, -etme_invalid (not empty). */
int etm_cov_set_part(struct etm_cov *c);
/** Add part @part, whose elements directly follow those accumulated in
 * @dst (not a part), to @dst: the result equals accumulating @part's
 * elements into @dst. Returns 0, -etme_nomem, -etme_invalid. */
int etm_cov_append(struct etm_cov *dst, const struct etm_cov *part);

/** A consumer fed the same elements as the coverage in etm_cov_run()
 * (diagnostics, counts), part by part like the coverage: open() makes a
 * part's state (on a worker thread; NULL on no memory), elems() feeds it
 * (that worker; returns 0 or a negative value to stop the run), append()
 * adds it to the whole, in input order, one call at a time (returns 0 or
 * a negative value to stop), free() frees it (any thread; after append(),
 * or for a part whose stretch was decoded again by another worker). */
struct etm_cov_run_side {
	void *(*open)(void *ctx);
	int (*elems)(void *part, const struct etm_elem *els, size_t n);
	int (*append)(void *ctx, void *part);
	void (*free)(void *ctx, void *part);
	void *ctx;
};

/** Accumulate into @cov (not a part; its sources declared with
 * etm_cov_set_source()) the elements of the @size input bytes read
 * through @rd as decoded by @dec (as etm_decoder_run() takes it:
 * configured, unused) on @jobs threads (0 or 1: the calling thread only):
 * each worker accumulates its stretch into a part, and the parts are
 * appended in input order (etm_cov_set_part(), etm_cov_append()), so the
 * result equals etm_cov_add_elems() of every element on one thread.
 * @side (may be NULL) is fed the same elements. etm_cov_end() @cov after
 * the last run. Returns 0, -etme_invalid, -etme_nomem, a negative value
 * of @side, or an error of etm_decoder_run_ops(). */
int etm_cov_run(struct etm_cov *cov, struct etm_decoder *dec, etm_read_fn rd,
		void *rctx, uint64_t size, unsigned jobs,
		const struct etm_cov_run_side *side);

/* ---- per-instruction results --------------------------------------------- */

/** Counts of one instruction address. */
struct etm_cov_insn {
	uint64_t addr;
	uint64_t exec;    /**< times reached (passed, failed or unknown) */
	uint64_t fail;    /**< times its condition failed (N atom) */
	uint64_t unknown; /**< times reached with pass/fail not traced (PTM
			     *   non-waypoints, conditional or not);
			     *   passed = exec - fail - unknown */
	uint8_t size;     /**< 2 or 4 */
	enum etm_isa isa;
	enum etm_insn_class cls;
	uint8_t cond; /**< conditional (classifier's cond, or a failed
			     *   condition was traced, e.g. in a T32 IT block) */
	uint8_t link; /**< branch with link (a call) */
};

/** The executed instruction at the lowest address >= @addr into @ci.
 * Returns 0, -etme_eos if there is none, -etme_invalid. */
int etm_cov_next_insn(const struct etm_cov *c, uint64_t addr,
		      struct etm_cov_insn *ci);
/** The counts of the instruction at exactly @addr. Returns 0, -etme_nomap
 * if it never executed, -etme_invalid. */
int etm_cov_insn_at(const struct etm_cov *c, uint64_t addr,
		    struct etm_cov_insn *ci);

/** Totals: instructions executed (sum of exec), distinct instruction
 * addresses, ranges, branches. */
struct etm_cov_totals {
	uint64_t insns, addrs, ranges, branches, pages;
};
void etm_cov_totals(const struct etm_cov *c, struct etm_cov_totals *t);

/* ---- straight-line ranges and taken branches (profiles) ------------------ */

/** A counted pair: a straight-line range [from, to] (from = first
 * instruction, to = address of the last one, both inclusive, as AutoFDO and
 * llvm-profgen read them) or a taken branch from -> to. */
struct etm_cov_pair {
	uint64_t from, to, count;
};

/** The ranges (@branches 0) or taken branches (@branches 1), sorted by
 * (from, to), into a new array *@out (free() it) of *@n entries.
 * Returns 0, -etme_nomem, -etme_invalid. */
int etm_cov_pairs(const struct etm_cov *c, int branches,
		  struct etm_cov_pair **out, size_t *n);

/* ---- text output ----------------------------------------------------------- */

/** Profile text formats. */
enum etm_fdo_format {
	etm_fdo_invalid = 0,
	etm_fdo_autofdo, /**< create_llvm_prof / create_gcov --profiler=text:
			    *   ranges, address counts, branches */
	etm_fdo_profgen, /**< llvm-profgen --unsymbolized-profile: ranges,
			    *   branches */
};

/** Write the profile in format @f with every address reduced by @base
 * (AutoFDO: the first loadable segment's address; llvm-profgen: 0 for
 * --use-offset=0, else the text segment's page-aligned address).
 * Returns 0, a negative value of @fn, -etme_nomem, -etme_invalid. */
int etm_cov_write_profile(const struct etm_cov *c, enum etm_fdo_format f,
			  uint64_t base, etm_write_fn fn, void *ctx);

/** Serialise the whole object as text (format "etmtrace-coverage 1",
 * doc/coverage.md). Returns 0, a negative value of @fn, -etme_nomem. */
int etm_cov_save(const struct etm_cov *c, etm_write_fn fn, void *ctx);
/** Add the counts serialised in @buf (@n bytes, from etm_cov_save()) to
 * @c. On a malformed input nothing is added and *@line (if not NULL) gets
 * the 1-based line of the error. Returns 0, -etme_parse, -etme_nomem. */
int etm_cov_load(struct etm_cov *c, const char *buf, size_t n, size_t *line);

#ifdef __cplusplus
}
#endif
#endif
