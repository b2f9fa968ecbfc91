/* packet/pktdec.c - the packet decoder object (etmtrace/packet.h): one type
 * for every byte protocol, whose readers are picked at alloc from the
 * configuration; its state save for parallel decode (pktdec.h). */
#include <stdlib.h>

#include "common/sbuf.h"
#include "packet/pktbuf.h"

#include <etmtrace/error.h>

/* The readers of each protocol with bytes of packets: a new protocol adds
 * its file and its entry here. */
static const struct etm_pkt_proto *const protos[] = {
	&etm_etm3_proto,
	&etm_ptm_proto,
	&etm_itm_proto,
};

struct etm_pkt_decoder *etm_pkt_alloc(const struct etm_config *cfg)
{
	struct etm_pkt_decoder *pd;
	struct etm_config c;
	size_t i;

	if (!cfg || etm_config_from_user(&c, cfg, cfg->size) < 0)
		return NULL;
	for (i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if (protos[i]->proto == c.protocol)
			break;
	if (i == sizeof(protos) / sizeof(protos[0]))
		return NULL;
	pd = malloc(sizeof(*pd));
	if (!pd)
		return NULL;
	etm_pktp_init(&pd->core, &c, protos[i]);
	return pd;
}

void etm_pkt_free(struct etm_pkt_decoder *pd)
{
	if (pd)
		free(pd->core.relbuf);
	free(pd);
}

enum etm_protocol etm_pkt_protocol(const struct etm_pkt_decoder *pd)
{
	return pd ? pd->core.proto : etm_proto_unknown;
}

int etm_pkt_push(struct etm_pkt_decoder *pd, const uint8_t *buf, size_t n,
		 uint64_t offset)
{
	return pd ? etm_pktp_push(&pd->core, buf, n, offset) : -etme_invalid;
}

int etm_pkt_finish(struct etm_pkt_decoder *pd)
{
	return pd ? etm_pktp_finish(&pd->core) : -etme_invalid;
}

int etm_pkt_cut(struct etm_pkt_decoder *pd)
{
	return pd ? etm_pktp_cut(&pd->core) : -etme_invalid;
}

int etm_pkt_next(struct etm_pkt_decoder *pd, struct etm_packet *pkt,
		 size_t size)
{
	return pd ? etm_pktp_next(&pd->core, pkt, size) : -etme_invalid;
}

int etm_pkt_next_ok(struct etm_pkt_decoder *pd, struct etm_packet *pkt)
{
	struct etm_pktp *p = &pd->core;
	int err = etm_pktp_next(p, pkt, sizeof(*pkt));

	if (err < 0 || pkt->type != etmp_error)
		return err;
	/* back where etm_pktp_next() takes it from: the queue slot it was
	 * copied from (still holding it), or, decoded in place with the
	 * queue empty, the queue's first slot */
	if (p->qi) {
		p->qi--;
	} else {
		p->q[0] = *pkt;
		p->qn = 1;
	}
	return 1;
}

int etm_pkt_next_recs(struct etm_pkt_decoder *pd, struct etm_pkt_rec *recs,
		      size_t max)
{
	return pd ? etm_pktp_next_recs(&pd->core, recs, max) : -etme_invalid;
}

void etm_pkt_reset(struct etm_pkt_decoder *pd)
{
	if (pd)
		etm_pktp_reset(&pd->core);
}

void etm_pkt_set_isa(struct etm_pkt_decoder *pd, enum etm_isa isa)
{
	if (pd)
		etm_pktp_set_isa(&pd->core, isa);
}

uint64_t etm_pkt_err_end(const struct etm_pkt_decoder *pd)
{
	return pd->core.err_end;
}

void etm_pkt_save(const struct etm_pkt_decoder *pd, struct etm_sbuf *s)
{
	const struct etm_pktp *p = &pd->core;

	etm_sbuf_u8(s, p->mode);
	etm_sbuf_u8(s, p->finished);
	etm_sbuf_u32(s, p->st.addr);
	etm_sbuf_u8(s, p->st.isa);
	etm_sbuf_u64(s, p->st.ts);
	etm_sbuf_u32(s, p->st.daddr);
	/* unread input and queued packets (none between pushes) */
	etm_sbuf_u64(s, p->len - p->pos);
	etm_sbuf_u8(s, p->qn - p->qi);
	etm_sbuf_u64(s, p->asm_len);
	if (p->asm_len) {
		etm_sbuf_u64(s, p->asm_off);
		etm_sbuf_put(s, p->asmb, p->asm_len);
	}
	if (p->mode != etm_pm_sync) {
		etm_sbuf_u64(s, p->zrun);
		etm_sbuf_u64(s, p->zrun ? p->zrun_off : 0);
	}
	if (p->mode == etm_pm_search) {
		etm_sbuf_u64(s, p->ns.size);
		etm_sbuf_u64(s, p->ns.size ? p->ns.offset : 0);
		etm_sbuf_u8(s, p->ns.raw_len);
		etm_sbuf_put(s, p->ns.raw, p->ns.raw_len);
	}
}
