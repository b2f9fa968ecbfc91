/* realign/left_sources.c - the sources of the input the decoder does not
 * decode (a selection leaves them out), kept for the frame realignment
 * only: a packet decoder of each parses their data where a realignment
 * decided late looks for where the damage began (damage_start.c), and with
 * their image a trial flow runs over those packets (made there at its
 * first use); nothing of them is parsed otherwise. The decoder notes them
 * (decoder/left_sources.c) and owns the set. */
#include <stdint.h>
#include <stdlib.h>

#include <etmtrace/config.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "packet/pktdec.h"
#include "realign/realign.h"

int etm_realign_left_add(struct etm_realign_left **lp, unsigned id,
			 const struct etm_config *cfg,
			 const struct etm_image *img)
{
	struct etm_realign_left *l = *lp;

	if (!l && !(l = *lp = calloc(1, sizeof(*l))))
		return -etme_nomem;
	etm_pkt_free(l->pd[id]);
	etm_flow_free(l->fl[id]);
	l->fl[id] = NULL;
	l->img[id] = img;
	etm_config_from_user(&l->cfg[id], cfg, cfg->size);
	l->pd[id] = etm_pkt_alloc(&l->cfg[id]);
	l->ids[id] = l->pd[id] != NULL;
	return l->pd[id] ? 0 : -etme_nomem;
}

void etm_realign_left_free(struct etm_realign_left *l)
{
	unsigned i;

	for (i = 0; l && i < ETM_REALIGN_LEFT_IDS; i++) {
		etm_pkt_free(l->pd[i]);
		etm_flow_free(l->fl[i]);
	}
	free(l);
}

size_t etm_realign_left_cfgs(const struct etm_realign_left *l,
			     struct etm_config *cfg, size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; l && i < ETM_REALIGN_LEFT_IDS && n < max; i++)
		if (l->ids[i]) {
			cfg[n] = l->cfg[i];
			cfg[n++].traceid = i;
		}
	return n;
}
