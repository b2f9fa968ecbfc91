/* packet/pktbuf.c - the packet decoder's byte core, shared by the ETMv3 and
 * PTM readers: push / next, parsing in place from the borrowed chunk,
 * assembling packets that straddle pushes, the A-sync rule. The compact
 * tokens are in pkttok.c, the batch records in pktrec.c, the object and
 * its state save in pktdec.c. */
#include <stdint.h>
#include <string.h>

#include "common/zero.h"
#include "packet/async.h"
#include "packet/pktbuf.h"
#include "packet/sync.h"

#include <etmtrace/error.h>

static void opts_init(struct etm_pkt_opts *o, const struct etm_config *cfg)
{
	o->cycle_acc = (uint8_t)etm_cfg_cycle_acc(cfg);
	o->ctxid_bytes = (uint8_t)etm_cfg_ctxid_bytes(cfg);
	o->alt_branch = (uint8_t)etm_cfg_alt_branch(cfg);
	o->ts64 = (uint8_t)etm_cfg_ts_64bit(cfg);
	o->ts_binary = (uint8_t)etm_cfg_ts_binary(cfg);
	o->data_addr = (uint8_t)etm_cfg_data_addr(cfg);
	o->data_only = (uint8_t)etm_cfg_data_only(cfg);
	/* An unknown ETMIDR (0) is taken as the newest version (v3.5). */
	o->arch_minor = cfg->etmidr ? (uint8_t)etm_cfg_arch_minor(cfg) : 5;
	o->ts_ok = (uint8_t)(etm_cfg_timestamps(cfg) && o->arch_minor >= 5);
	o->id = (uint8_t)etm_cfg_trace_id(cfg);
}

enum etm_hdr etm_pktp_hdr_common(unsigned b)
{
	if (b & 0x01)
		return etmh_branch; /* bCxxxxxx1 */
	if (b & 0x80)
		return etmh_atom; /* b1xxxxxx0 */
	switch (b) {
	case 0x00: return etmh_async;
	case 0x08: return etmh_isync;
	case 0x0c: return etmh_trigger;
	case 0x3c: return etmh_vmid;
	case 0x42:
	case 0x46: return etmh_timestamp; /* b01000R10 */
	case 0x66: return etmh_ignore;
	case 0x6e: return etmh_ctxid;
	case 0x76: return etmh_exc_return;
	default: return etmh_reserved;
	}
}

void etm_pktp_init(struct etm_pktp *p, const struct etm_config *cfg,
		   const struct etm_pkt_proto *ops)
{
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->proto = cfg->protocol;
	p->ops = ops;
	opts_init(&p->o, cfg);
	ops->hdr_table(cfg, p->hdr);
	etm_pktp_reset(p);
}

void etm_pkt_state_init(struct etm_pkt_state *st)
{
	memset(st, 0, sizeof(*st));
	st->isa = etmi_unknown;
}

void etm_pktp_build_tables(struct etm_pktp *p)
{
	struct etm_pkt_state st0;

	etm_pkt_state_init(&st0);
	etm_pktp_rec_table(p, &st0);
	etm_pktp_atom_table(p, &st0);
	p->tables = 1;
}

void etm_pktp_reset(struct etm_pktp *p)
{
	etm_pkt_state_init(&p->st);
	p->buf = NULL;
	p->len = p->pos = 0;
	p->off = 0;
	p->map = NULL;
	p->nmap = p->mapi = 0;
	p->rel = NULL;
	p->asm_len = 0;
	p->mode = p->ops && p->ops->starts_synced ? etm_pm_sync :
						    etm_pm_search;
	p->zrun = 0;
	memset(&p->ns, 0, sizeof(p->ns));
	p->qn = p->qi = 0;
	p->finished = 0;
	p->cut = 0;
}

int etm_pktp_push(struct etm_pktp *p, const uint8_t *buf, size_t n,
		  uint64_t offset)
{
	if (!p || (!buf && n))
		return -etme_invalid;
	if (p->pos < p->len)
		return -etme_busy;
	if (p->finished)
		return -etme_invalid;
	p->buf = buf;
	p->len = n;
	p->pos = 0;
	p->off = offset;
	p->map = NULL;
	p->nmap = p->mapi = 0;
	p->rel = NULL;
	p->rel_tried = 0;
	return 0;
}

static int push_map(struct etm_pktp *p, const uint8_t *buf, size_t n,
		    const struct etm_offseg *map, size_t nmap)
{
	int err;

	if (!map || !nmap || map[0].pos)
		return -etme_invalid;
	err = etm_pktp_push(p, buf, n, map[0].off);
	if (err < 0)
		return err;
	p->map = map;
	p->nmap = nmap;
	return 0;
}

int etm_pktp_finish(struct etm_pktp *p)
{
	if (!p)
		return -etme_invalid;
	p->finished = 1;
	return 0;
}

int etm_pktp_cut(struct etm_pktp *p)
{
	if (!p || p->finished)
		return -etme_invalid;
	if (p->pos < p->len || p->qi < p->qn)
		return -etme_busy;
	p->cut = 1;
	return 0;
}

/* Index of the 0x80 that completes an A-sync in b[1..n) (the library's
 * one A-sync search, packet/async.h), or 0 if there is none; @avail bytes
 * are readable at @b (n <= ETM_PKT_ASM_MAX). */
static size_t async_end(const uint8_t *b, size_t n, size_t avail)
{
	uint64_t z = 0;
	size_t i;

	if (avail >= ETM_ASYNC_WIN)
		return etm_async_end32(b, n);
	i = etm_async_find(b + 1, n - 1, &z);
	return i < n - 1 ? i + 1 : 0;
}

/* Read one packet. The A-sync bit pattern "can occur only as the result of
 * an A-sync packet" (IHI 0035B §4.5.1; the same rule for ETMv3, our
 * ../shared/docs/etmv3.md §3: "scan for it"), so a packet whose bytes would hold one
 * was begun by a corrupted byte - typically a bit flip that made an I-sync
 * or Context ID header, whose fixed-size payload then swallows the real
 * A-sync and the I-sync after it, losing the trace until the next A-sync.
 * Such a packet is reported bad with size 1, so the search for A-sync goes
 * on from the byte after its header and finds the A-sync. Whichever comes
 * first in byte order wins: the reader's own verdict (a complete packet or
 * an error) within the bytes before the A-sync completes, or the A-sync;
 * this keeps the result independent of how the input is chunked. Packets
 * of valid trace never hold the pattern, so valid trace is unaffected. */
static int read_proto(const struct etm_pktp *p, const uint8_t *b, size_t n,
		      struct etm_packet *pkt, struct etm_pkt_state *st)
{
	int r = p->ops->read(p, b, n, pkt, st);

	if (r == -etme_bad_opc)
		pkt->size = 1; /* a bad header: only it is dropped */
	return r;
}

int etm_pktp_read(const struct etm_pktp *p, const uint8_t *b, size_t n,
		  struct etm_packet *pkt, struct etm_pkt_state *st)
{
	struct etm_pkt_state st0 = *st;
	int r = read_proto(p, b, n, pkt, st);
	size_t span = r > 0 ? (size_t)r : n, e;

	if (span > ETM_PKT_ASM_MAX)
		span = ETM_PKT_ASM_MAX;
	if (span < ETM_ASYNC_ZEROS + 2)
		return r;
	e = async_end(b, span, n);
	if (!e)
		return r;
	if (r < 0 && r != -etme_again) {
		/* did the reader find its error before the A-sync ended? */
		*st = st0;
		r = read_proto(p, b, e, pkt, st);
		if (r != -etme_again)
			return r;
	}
	*st = st0;
	etm_zero(pkt, sizeof(*pkt));
	pkt->size = 1;
	return -etme_bad_packet;
}

/* How many bytes of @b[0..n) the reader looks at before it decides the
 * packet is bad (it asks for more with fewer; readers are monotonic). */
static size_t decided_len(const struct etm_pktp *p, const uint8_t *b,
			  size_t n)
{
	struct etm_packet pkt;
	struct etm_pkt_state st;
	size_t k;

	if (n > ETM_PKT_ASM_MAX)
		n = ETM_PKT_ASM_MAX; /* step_asm()'s limit: an error there */
	for (k = 1; k < n; k++) {
		st = p->st;
		etm_zero(&pkt, sizeof(pkt));
		if (etm_pktp_read(p, b, k, &pkt, &st) != -etme_again)
			return k;
	}
	return n;
}

/* Reader result @r < 0 over @bytes[0..avail): @pkt becomes the error
 * (returns the bytes it covers), decided where the reader decided (the
 * assembled bytes come first, the rest at p->pos of the chunk), and the
 * search for A-sync begins. Kept out of line: valid trace never comes
 * here. */
static __attribute__((noinline, cold)) size_t
complete_err(struct etm_pktp *p, struct etm_packet *pkt,
	     const uint8_t *bytes, size_t avail, int r)
{
	size_t size = pkt->size, e = decided_len(p, bytes, avail) - 1;

	p->err_end = 1 + (e < p->asm_len ?
				  p->asm_offs[e] :
				  etm_pktp_off(p, p->pos + e - p->asm_len));
	if (size == 0)
		size = 1;
	if (size > avail)
		size = avail;
	etm_zero(pkt, sizeof(*pkt));
	pkt->type = etmp_error;
	pkt->err = r == -etme_again ? etme_internal : -r;
	p->mode = etm_pm_search;
	return size;
}

/* Complete @pkt (reader result @r over @bytes at @offset); commit the state
 * or, for an error, keep only the error fields and start searching. Returns
 * the number of bytes the packet covers. */
static size_t complete(struct etm_pktp *p, struct etm_packet *pkt,
		       const uint8_t *bytes, size_t avail, int r,
		       uint64_t offset, const struct etm_pkt_state *st)
{
	size_t size;

	if (r > 0) {
		size = (size_t)r;
		p->st = *st;
	} else {
		size = complete_err(p, pkt, bytes, avail, r);
	}
	pkt->id = p->o.id;
	pkt->offset = offset;
	pkt->size = (uint32_t)size;
	pkt->raw_len = size > ETM_PKT_MAX_RAW ? ETM_PKT_MAX_RAW : (uint8_t)size;
	memcpy(pkt->raw, bytes, pkt->raw_len);
	return size;
}

/* The next @k bytes of the chunk (at p->pos) join the assembly buffer,
 * whose bytes already are in asmb: note their input offsets. */
static void asm_offsets(struct etm_pktp *p, size_t k)
{
	size_t i;

	for (i = 0; i < k; i++)
		p->asm_offs[p->asm_len + i] = etm_pktp_off(p, p->pos + i);
	p->asm_len += k;
}

/* An A-sync found inside a packet assembled across pushes (read_pkt): the
 * packet was dropped with its first @from bytes only, and the search for
 * A-sync goes on over asmb[from..to) - bytes of earlier pushes - before
 * the current chunk, as it would have had the input come in one piece.
 * (The A-sync itself cannot end within those bytes: the reader would have
 * been stopped there already.) */
static void replay_search(struct etm_pktp *p, size_t from, size_t to)
{
	struct etm_offseg seg[ETM_PKT_ASM_MAX];
	const uint8_t *buf = p->buf;
	const struct etm_offseg *map = p->map;
	const uint32_t *rel = p->rel;
	uint8_t rel_tried = p->rel_tried;
	size_t len = p->len, pos = p->pos, nmap = p->nmap, mapi = p->mapi;
	uint64_t off = p->off;
	size_t i, ns = 0;

	for (i = from; i < to; i++)
		if (i == from || p->asm_offs[i] != p->asm_offs[i - 1] + 1) {
			seg[ns].pos = i - from;
			seg[ns++].off = p->asm_offs[i];
		}
	p->buf = p->asmb + from;
	p->len = to - from;
	p->pos = 0;
	p->map = seg;
	p->nmap = ns;
	p->mapi = 0;
	p->rel = NULL; /* the offsets of asmb are in seg */
	p->rel_tried = 1;
	p->off = ns ? seg[0].off : 0;
	while (p->pos < p->len &&
	       p->qn < sizeof(p->q) / sizeof(p->q[0]))
		etm_sync_search(p);
	p->buf = buf;
	p->len = len;
	p->pos = pos;
	p->map = map;
	p->nmap = nmap;
	p->mapi = mapi;
	p->rel = rel;
	p->rel_tried = rel_tried;
	p->off = off;
}

/* A packet begins in the current chunk. With @direct (the caller's packet,
 * the queue being empty) it is decoded in place: returns 2. */
static int step_fresh(struct etm_pktp *p, struct etm_packet *direct)
{
	const uint8_t *b = p->buf + p->pos;
	size_t n = p->len - p->pos;
	struct etm_pkt_state st = p->st;
	struct etm_packet *pkt;
	int r;

	if (b[0] == 0x00) {
		p->mode = etm_pm_zrun;
		p->zrun = 0;
		p->zrun_off = etm_pktp_off(p, p->pos);
		return etm_sync_zrun(p);
	}
	if (direct) {
		pkt = direct;
		etm_zero(pkt, sizeof(*pkt));
	} else {
		pkt = etm_sync_slot(p);
	}
	r = etm_pktp_read(p, b, n, pkt, &st);
	if (r == -etme_again && n < ETM_PKT_ASM_MAX) {
		if (!direct)
			p->qn--;
		memcpy(p->asmb, b, n);
		p->asm_len = 0;
		asm_offsets(p, n);
		p->asm_off = p->asm_offs[0];
		p->pos = p->len;
		return 0;
	}
	p->pos += complete(p, pkt, b, n, r, etm_pktp_off(p, p->pos), &st);
	return direct ? 2 : 1;
}

/* Continue a packet held in the assembly buffer with bytes of this chunk.
 * Readers are monotonic, so a result always covers more than the bytes
 * assembled before. */
static int step_asm(struct etm_pktp *p)
{
	size_t old = p->asm_len, k = ETM_PKT_ASM_MAX - old, size;
	struct etm_pkt_state st = p->st;
	struct etm_packet *pkt;
	int r;

	if (k > p->len - p->pos)
		k = p->len - p->pos;
	if (k == 0)
		return 0;
	memcpy(p->asmb + old, p->buf + p->pos, k);
	pkt = etm_sync_slot(p);
	r = etm_pktp_read(p, p->asmb, old + k, pkt, &st);
	if (r == -etme_again && old + k < ETM_PKT_ASM_MAX) {
		p->qn--;
		asm_offsets(p, k);
		p->pos += k;
		return 0;
	}
	size = complete(p, pkt, p->asmb, old + k, r, p->asm_off, &st);
	p->asm_len = 0;
	if (size < old)
		replay_search(p, size, old);
	p->pos += size > old ? size - old : 0;
	return 1;
}

/* Produce packets into the queue (returns 1) or into @direct (returns 2);
 * 0 if input is needed. */
static int step(struct etm_pktp *p, struct etm_packet *direct)
{
	switch (p->mode) {
	case etm_pm_search:
		return etm_sync_search(p);
	case etm_pm_zrun:
		return etm_sync_zrun(p);
	case etm_pm_sync:
		break;
	}
	if (p->asm_len)
		return step_asm(p);
	if (p->pos >= p->len)
		return 0;
	return step_fresh(p, direct);
}

/* End of data: a packet cut short, a pending notsync run or zero run. */
static int flush_end(struct etm_pktp *p)
{
	struct etm_packet *pkt;

	if (p->mode == etm_pm_sync && p->asm_len) {
		pkt = etm_sync_slot(p);
		pkt->type = etmp_error;
		pkt->err = etme_truncated;
		pkt->offset = p->asm_off;
		pkt->size = (uint32_t)p->asm_len;
		pkt->raw_len = (uint8_t)p->asm_len;
		memcpy(pkt->raw, p->asmb, p->asm_len);
		p->asm_len = 0;
		p->mode = etm_pm_search;
		return 1;
	}
	return etm_sync_flush(p);
}

int etm_pktp_next(struct etm_pktp *p, struct etm_packet *pkt, size_t size)
{
	struct etm_packet *direct;
	int r;

	if (!p || !pkt || !size)
		return -etme_invalid;
	direct = size >= sizeof(*pkt) ? pkt : NULL;
	for (;;) {
		if (p->qi < p->qn) {
			if (size > sizeof(*pkt))
				size = sizeof(*pkt);
			memcpy(pkt, &p->q[p->qi++], size);
			return 0;
		}
		p->qi = p->qn = 0;
		r = step(p, direct);
		if (r == 2)
			return 0;
		if (r)
			continue;
		if (p->cut && flush_end(p))
			continue; /* a cut: what is held, as at the end */
		if (p->cut) {     /* nothing carried over: search for A-sync */
			etm_pkt_state_init(&p->st);
			p->mode = etm_pm_search;
			p->cut = 0;
		}
		if (!p->finished) {
			/* chunk consumed: the caller may push the next one */
			p->buf = NULL;
			p->pos = p->len = 0;
			p->map = NULL;
			p->rel = NULL;
			return -etme_again;
		}
		if (flush_end(p))
			continue;
		return -etme_eos;
	}
}

int etm_pkt_push_map(struct etm_pkt_decoder *pd, const uint8_t *buf,
		     size_t n, const struct etm_offseg *map, size_t nmap)
{
	return pd ? push_map(&pd->core, buf, n, map, nmap) : -etme_invalid;
}
