/* packet/trial.c - trial parse for the frame realignment: how plausible a
 * run of bytes is as the packet stream of one parser's configuration,
 * without touching the parser (readers over a copy of its state). */
#include <etmtrace/error.h>

#include "common/zero.h"
#include "packet/pktbuf.h"

/* Points per byte of a well-formed packet, and per malformed packet or
 * reserved header (such a packet almost never occurs in real trace; in a
 * misaligned stream one comes every few packets). */
#define TRIAL_BAD 24

int etm_pktp_trial(const struct etm_pktp *p, const uint8_t *b, size_t n)
{
	struct etm_pkt_state st = p->st;
	struct etm_packet pkt;
	size_t i = 0, z;
	int score = 0, r;

	while (i < n) {
		if (!b[i]) {
			/* 0x00 runs: an A-sync when >= 5 end with 0x80 */
			for (z = i; z < n && !b[z]; z++)
				;
			if (z < n && z - i >= 5 && b[z] == 0x80)
				score += (int)(z + 1 - i);
			i = z + (z < n && b[z] == 0x80);
			continue;
		}
		etm_zero(&pkt, sizeof(pkt));
		r = p->proto == etm_proto_ptm ?
			etm_ptm_read(p, b + i, n - i, &pkt, &st) :
			etm_etm3_read(p, b + i, n - i, &pkt, &st);
		if (r == -etme_again)
			break;
		if (r > 0) {
			score += r;
			i += (size_t)r;
			continue;
		}
		score -= TRIAL_BAD;
		i += pkt.size ? pkt.size : 1;
	}
	return score;
}
