/* packet/trial.c - trial parse for the frame realignment: how plausible a
 * run of bytes is as the packet stream of one parser's configuration,
 * without touching the parser (readers over a copy of its state). */
#include <etmtrace/error.h>

#include "common/zero.h"
#include "packet/pktbuf.h"
#include "packet/pktdec.h"

/* Malformed packets in the first bytes do not count: the bytes may begin
 * inside a packet. */
#define TRIAL_SKIP 8

int etm_pkt_trial(const struct etm_pkt_decoder *pd, const uint8_t *b,
		  size_t n, size_t *good)
{
	const struct etm_pktp *p = &pd->core;
	struct etm_pkt_state st;
	struct etm_packet pkt;
	size_t i = 0, z;
	int bad = 0, r;

	/* from a reset parser's state, not the parser's own: how far the
	 * parser has read when a realignment judges depends on where the
	 * input was cut, the judgement must not */
	etm_pkt_state_init(&st);
	*good = 0;
	while (i < n) {
		if (!b[i]) {
			/* 0x00 runs (A-sync: >= 5 of them, then 0x80) */
			for (z = i; z < n && !b[z]; z++)
				;
			if (z < n && b[z] == 0x80 && z - i >= 5)
				*good += ++z - i;
			i = z;
			continue;
		}
		etm_zero(&pkt, sizeof(pkt));
		r = etm_pktp_read(p, b + i, n - i, &pkt, &st);
		if (r == -etme_again)
			break;
		if (r > 0) {
			i += (size_t)r;
			*good += (size_t)r;
			continue;
		}
		bad += i >= TRIAL_SKIP;
		i += pkt.size ? pkt.size : 1;
	}
	return bad;
}
