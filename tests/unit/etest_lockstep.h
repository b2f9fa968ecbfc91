/* tests/unit/etest_lockstep.h - two packet decoders (a fast token path and
 * the general one) fed the same bytes in random pieces, the test's own
 * comparison run after each piece and at the end. */
#ifndef ETEST_LOCKSTEP_H
#define ETEST_LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "etest.h"

/* Compare what @t and @g give until both need input; returns what they
 * returned last (-etme_again after a piece, -etme_eos at the end). */
typedef int (*etest_lockstep_fn)(struct etm_pkt_decoder *t,
				 struct etm_pkt_decoder *g, void *ctx);

/* Push @buf[0..@n) to @t and @g in pieces of 1-700 bytes (lengths from
 * @rnd), @cmp after each; then finish both, @cmp once more; free both. */
static inline void etest_lockstep(struct etm_pkt_decoder *t,
				  struct etm_pkt_decoder *g, const uint8_t *buf,
				  size_t n, uint32_t (*rnd)(void),
				  etest_lockstep_fn cmp, void *ctx)
{
	size_t off = 0;

	while (off < n) {
		size_t m = 1 + rnd() % 700;

		if (m > n - off)
			m = n - off;
		ET_EQ(etm_pkt_push(t, buf + off, m, off), 0);
		ET_EQ(etm_pkt_push(g, buf + off, m, off), 0);
		ET_EQ(cmp(t, g, ctx), -etme_again);
		off += m;
	}
	etm_pkt_finish(t);
	etm_pkt_finish(g);
	ET_EQ(cmp(t, g, ctx), -etme_eos);
	etm_pkt_free(t);
	etm_pkt_free(g);
}

#endif
