/* flow/flow.c - the protocol-independent part of the flow decoder: object
 * lifetime, the packet decoder it embeds and pulls from (flow_pull.h), the
 * element queue, and block lookup through the block cache. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/zero.h"
#include "common/sbuf.h"
#include "flow/flow_int.h"

/* Block cache size: 2^14 entries, 1.5 MiB per decoder (allocated at its
 * first use). */
#define ETM_FLOW_BCACHE_LOG2 14

static uint32_t flow_stop_mask(const struct etm_config *cfg)
{
	if (cfg->protocol == etm_proto_ptm)
		return etm_cfg_dmb_waypoint(cfg) ? ETM_STOP_PTM_DMB : ETM_STOP_PTM;
	return ETM_STOP_BRANCHES;
}

/* The flow decoders of the protocols with byte packets: a new protocol
 * adds its files and its entry here (its packet readers: packet/pktdec.c). */
static const struct {
	enum etm_protocol proto;
	int (*init)(struct etm_flow *f);
} flow_protos[] = {
	{ etm_proto_etmv3, etm_flow_etm3_init },
	{ etm_proto_ptm, etm_flow_ptm_init },
	{ etm_proto_itm, etm_flow_itm_init },
};

static int flow_init(struct etm_flow *f)
{
	size_t i;

	for (i = 0; i < sizeof(flow_protos) / sizeof(flow_protos[0]); i++)
		if (flow_protos[i].proto == f->cfg.protocol)
			return flow_protos[i].init(f);
	return -etme_bad_config;
}

struct etm_flow *etm_flow_alloc(const struct etm_config *cfg,
				const struct etm_image *img)
{
	struct etm_flow *f;
	int err;

	if (!cfg || etm_config_check(cfg, NULL) < 0)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	if (etm_config_from_user(&f->cfg, cfg, cfg->size) < 0)
		goto fail;
	f->img = img;
	f->id = (uint8_t)etm_cfg_trace_id(&f->cfg);
	f->cache_on = 1; /* allocated at first use: not at all when off */
	f->pd = etm_pkt_alloc(&f->cfg);
	if (!f->pd)
		goto fail;
	err = flow_init(f);
	if (err < 0)
		goto fail;
	return f;
fail:
	etm_flow_free(f);
	return NULL;
}

void etm_flow_set_ctx_images(struct etm_flow *f, etm_ctx_image_fn fn,
			     void *ctx)
{
	if (!f)
		return;
	f->ctx_img = fn;
	f->ctx_img_arg = ctx;
}

void etm_flow_ctx_switch(struct etm_flow *f, uint32_t ctxid)
{
	const struct etm_image *img;

	if (!f->ctx_img)
		return;
	img = f->ctx_img(f->ctx_img_arg, ctxid);
	if (!img || img == f->img)
		return;
	f->img = img;
	if (f->bc)
		etm_bcache_clear(f->bc);
	if (f->img_changed)
		f->img_changed(f);
}

void etm_flow_free(struct etm_flow *f)
{
	if (!f)
		return;
	if (f->free_impl)
		f->free_impl(f);
	etm_bcache_free(f->bc);
	etm_pkt_free(f->pd);
	free(f);
}

struct etm_pkt_decoder *etm_flow_pkt(struct etm_flow *f)
{
	return f->pd;
}

int etm_flow_pull(struct etm_flow *f, struct etm_packet *pkt, uint64_t *np)
{
	int err = etm_pkt_next(f->pd, pkt, sizeof(*pkt));

	if (err < 0)
		return err;
	(*np)++;
	return etm_flow_put(f, pkt);
}

int etm_flow_drain(struct etm_flow *f, uint64_t *np)
{
	return f->drain(f, np);
}

const struct etm_elem *etm_flow_pop(struct etm_flow *f)
{
	if (!f->qlen)
		return NULL;
	f->qlen--;
	return &f->q[f->qhead++];
}

int etm_flow_next_batch_from(struct etm_flow *f, const struct etm_elem *el,
			     const struct etm_elem **els, size_t max)
{
	size_t n;

	if (!f->qhead || el != &f->q[f->qhead - 1] || max < 2)
		return 0;
	n = f->qlen < max - 1 ? f->qlen : max - 1;
	*els = el;
	f->qhead += (unsigned)n;
	f->qlen -= (unsigned)n;
	return (int)n + 1;
}

int etm_flow_next_batch(struct etm_flow *f, uint64_t *np,
			const struct etm_elem **els, size_t max)
{
	size_t n;
	int err;

	if (!f->qlen) {
		err = f->drain(f, np);
		if (err < 0)
			return err;
	}
	n = f->qlen < max ? f->qlen : max;
	*els = &f->q[f->qhead];
	f->qhead += (unsigned)n;
	f->qlen -= (unsigned)n;
	return (int)n;
}

unsigned etm_flow_queued(const struct etm_flow *f)
{
	return f->qlen;
}

int etm_flow_put(struct etm_flow *f, const struct etm_packet *pkt)
{
	if (!f || !pkt)
		return -etme_invalid;
	if (f->qlen)
		return -etme_busy;
	etm_flow_qstart(f);
	return f->put(f, pkt);
}

int etm_flow_finish(struct etm_flow *f)
{
	if (!f)
		return -etme_invalid;
	if (f->qlen)
		return -etme_busy;
	etm_flow_qstart(f);
	return f->finish ? f->finish(f) : 0;
}

int etm_flow_next(struct etm_flow *f, struct etm_elem *el, size_t size)
{
	if (!f || !el || size < sizeof(*el))
		return -etme_invalid;
	if (!f->qlen)
		return -etme_again;
	*el = f->q[f->qhead++];
	f->qlen--;
	return 0;
}

void etm_flow_reset(struct etm_flow *f)
{
	if (!f)
		return;
	f->qhead = 0;
	f->qlen = 0;
	if (f->reset)
		f->reset(f);
}

enum etm_isa etm_flow_isa(const struct etm_flow *f)
{
	return f && f->cur_isa ? f->cur_isa(f) : etmi_unknown;
}

void etm_flow_set_cache(struct etm_flow *f, int on)
{
	if (f)
		f->cache_on = on;
}

int etm_flow_cache_init(struct etm_flow *f)
{
	f->bc = etm_bcache_alloc(ETM_FLOW_BCACHE_LOG2, flow_stop_mask(&f->cfg));
	if (!f->bc)
		f->cache_on = 0; /* no memory: decode without the cache */
	return f->bc ? 0 : -etme_nomem;
}

int etm_flow_block_nocache(struct etm_flow *f, enum etm_space space,
			   uint64_t addr, enum etm_isa isa,
			   struct etm_block *tmp, const struct etm_block **blk)
{
	*blk = tmp;
	return etm_block_build(tmp, f->img, space, addr, isa,
			       flow_stop_mask(&f->cfg));
}

const char *etm_elem_kind_name(enum etm_elem_kind k)
{
	switch (k) {
	case etmk_range: return "range";
	case etmk_exception: return "exception";
	case etmk_exc_return: return "exc_return";
	case etmk_trace_on: return "trace_on";
	case etmk_nosync: return "nosync";
	case etmk_context: return "context";
	case etmk_timestamp: return "timestamp";
	case etmk_cycle_count: return "cycle_count";
	case etmk_event: return "event";
	case etmk_nomem: return "nomem";
	case etmk_error: return "error";
	case etmk_buffer_end: return "buffer_end";
	case etmk_piece: return "piece";
	case etmk_window: return "window";
	case etmk_itm_sw: return "itm_sw";
	case etmk_itm_ts: return "itm_ts";
	case etmk_itm_overflow: return "itm_overflow";
	case etmk_dwt_pc: return "dwt_pc";
	case etmk_dwt_exc: return "dwt_exc";
	case etmk_dwt_cmp: return "dwt_cmp";
	case etmk_dwt_counter: return "dwt_counter";
	case etmk_data: return "data";
	case etmk_invalid:
	case etmk_num_kinds: break;
	}
	return "invalid";
}

/* etm_elem_save()'s fields, packed at fixed offsets into a record that is
 * put at once (the same bytes as a put per field, without a capacity
 * check per field: checkpoints save every held element, ~150 of them on
 * TC2, and a put per field made them ~500 instructions each). */
static inline uint8_t *pk64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
	return p + sizeof(v);
}

static inline uint8_t *pk32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
	return p + sizeof(v);
}

#define PK8(p, v) (*(p)++ = (uint8_t)(v))

void etm_elem_save(struct etm_sbuf *s, const struct etm_elem *el)
{
	uint8_t rec[128], *p = rec;

	p = pk64(p, el->offset);
	PK8(p, el->kind);
	PK8(p, el->id);
	p = pk64(p, el->start);
	p = pk64(p, el->end);
	PK8(p, el->isa);
	p = pk32(p, (uint32_t)el->ninsn);
	p = pk64(p, el->last_addr);
	PK8(p, el->last_size);
	PK8(p, el->last_cls);
	PK8(p, el->last_link);
	PK8(p, el->last_exec);
	PK8(p, el->last_atom);
	PK8(p, el->has_cycles);
	p = pk32(p, (uint32_t)el->cycles);
	p = pk32(p, (uint32_t)el->exc_num);
	PK8(p, el->exc_cancel);
	p = pk64(p, el->ret_addr);
	PK8(p, el->has_ret);
	p = pk64(p, el->addr);
	PK8(p, el->reason);
	PK8(p, el->isync_reason);
	PK8(p, el->has_ctxid);
	PK8(p, el->has_vmid);
	p = pk32(p, (uint32_t)el->ctxid);
	PK8(p, el->vmid);
	PK8(p, el->ns);
	PK8(p, el->hyp);
	p = pk64(p, el->timestamp);
	p = pk32(p, (uint32_t)el->err);
	if (el->kind >= etmk_itm_sw && el->kind <= etmk_dwt_counter) {
		p = pk32(p, (uint32_t)el->itm_value);
		p = pk32(p, (uint32_t)el->itm_chan);
		PK8(p, el->itm_size);
		PK8(p, el->itm_fn);
		PK8(p, el->itm_flags);
		PK8(p, el->itm_tc);
	}
	if (el->kind == etmk_data) { /* (daddr: as timestamp above) */
		p = pk32(p, (uint32_t)el->dvalue);
		p = pk32(p, (uint32_t)el->dsize | (uint32_t)el->dflags << 8 |
				    (uint32_t)el->dtag << 16 |
				    (uint32_t)el->dindex << 24);
	}
	etm_sbuf_put(s, rec, (size_t)(p - rec));
}
#undef PK8

void etm_flow_save(const struct etm_flow *f, struct etm_sbuf *s)
{
	unsigned i;

	etm_sbuf_u8(s, f->cache_on);
	etm_sbuf_u32(s, f->qlen);
	for (i = 0; i < f->qlen; i++)
		etm_elem_save(s, &f->q[f->qhead + i]);
	if (f->save)
		f->save(f, s);
	else
		s->over = 1; /* unknown state: never equal */
}
