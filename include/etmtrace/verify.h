/* etmtrace/verify.h - verified output: decoded items held back until a
 * later synchronisation point confirms them, so that trace found wrong
 * afterwards is reported BEFORE the instructions decoded from it.
 *
 * Why: a damaged byte can turn into valid-looking packets (a flipped atom
 * or address bit, garbage that parses), and the flow decoder then follows a
 * consistent but wrong path until a periodic I-sync shows that it is not
 * where the trace says it is (or a packet error or impossible walk stops
 * it). A decoder that streams reports that error after the wrong
 * instructions. This filter holds every source's items from its last
 * confirmation until the next one and, when instead an error or loss of
 * synchronisation (etmk_error, etmk_nosync; not etmk_nomem, which only
 * means the image lacks the code) of that source arrives, puts an etme_unverified error element in
 * front of the held items: "what follows, up to the error, came from trace
 * that a later check rejected".
 *
 * Confirmation: a periodic I-sync that the flow decoder checked without a
 * mismatch (both protocols check it: doc/robustness.md). The decoder must
 * deliver packets (etm_decoder_set_packets(d, 1)) so the filter sees the
 * I-sync packets; they are passed on like every other item. A non-periodic
 * I-sync (trace on, overflow, debug exit) cannot be checked: the items
 * before it are released unconfirmed.
 *
 * Costs: delay (items wait for the next periodic I-sync of their source)
 * and memory: at most @max_items items are held (the oldest are released
 * unconfirmed beyond that; etm_verify_stats() counts them). Item order is
 * the decoder's, except for the inserted error elements.
 *
 * Limit: damage that yields a path which the later I-sync also fits (e.g.
 * an E/N flip on an instruction that does not branch) cannot be detected
 * by any decoder; see doc/robustness.md, "Resynchronisation and damaged
 * trace", and doc/measurements/2026-11-22-damaged-trace-recovery.md for
 * measured rates. */
#ifndef ETM_ETMTRACE_VERIFY_H
#define ETM_ETMTRACE_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/decoder.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etm_verify;

/** Default and largest number of held items. */
#define ETM_VERIFY_DEFAULT_HOLD 65536u
#define ETM_VERIFY_MAX_HOLD (1u << 22)

/** Allocate a filter holding at most @max_items items (0: the default;
 * clamped to ETM_VERIFY_MAX_HOLD). NULL on no memory. */
struct etm_verify *etm_verify_alloc(size_t max_items);
/** Free; NULL is a no-op. */
void etm_verify_free(struct etm_verify *v);

/** Feed the next decoder item. Returns 0, or -etme_busy when released
 * items must be taken with etm_verify_next() first, -etme_invalid. */
int etm_verify_put(struct etm_verify *v, const struct etm_item *it);
/** End of input: every held item is released (unconfirmed). */
int etm_verify_finish(struct etm_verify *v);
/** Next released item: 0, -etme_again (put more), -etme_eos (after
 * finish, all taken), -etme_invalid. */
int etm_verify_next(struct etm_verify *v, struct etm_item *it);

/** Counters. */
struct etm_verify_stats {
	uint64_t confirmed;   /**< items released after a passed check */
	uint64_t rejected;    /**< items released behind an etme_unverified
				*   element */
	uint64_t unconfirmed; /**< items released without a check (no
				*   periodic I-sync, end of input, hold
				*   limit) */
	uint64_t markers;     /**< etme_unverified elements inserted */
};
void etm_verify_stats(const struct etm_verify *v, struct etm_verify_stats *st);

#ifdef __cplusplus
}
#endif
#endif
