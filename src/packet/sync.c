/* packet/sync.c - A-sync detection (>= 5 x 0x00 then 0x80, IHI 0014Q Table
 * 7.1 / IHI 0035B §4.5.1) and notsync reporting of the bytes skipped. */
#include <string.h>

#include "common/zero.h"
#include "packet/sync.h"

#include <etmtrace/error.h>

struct etm_packet *etm_sync_slot(struct etm_pktp *p)
{
	struct etm_packet *pkt = &p->q[p->qn++];

	etm_zero(pkt, sizeof(*pkt));
	pkt->id = p->o.id;
	return pkt;
}

static void queue_notsync(struct etm_pktp *p)
{
	struct etm_packet *pkt = etm_sync_slot(p);

	memcpy(pkt, &p->ns, sizeof(*pkt));
	pkt->type = etmp_notsync;
	pkt->id = p->o.id;
	memset(&p->ns, 0, sizeof(p->ns));
}

/* Describe a run of @zeros 0x00 bytes at zrun_off (plus the 0x80 if @end). */
static void fill_zeros(struct etm_pktp *p, struct etm_packet *pkt,
		       uint64_t zeros, int end)
{
	uint64_t size = zeros + (end ? 1 : 0);

	pkt->offset = p->zrun_off;
	pkt->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	pkt->raw_len = size > ETM_PKT_MAX_RAW ? ETM_PKT_MAX_RAW : (uint8_t)size;
	if (end)
		pkt->raw[pkt->raw_len - 1] = 0x80;
}

static void queue_async(struct etm_pktp *p)
{
	struct etm_packet *pkt = etm_sync_slot(p);

	pkt->type = etmp_async;
	fill_zeros(p, pkt, p->zrun, 1);
	p->zrun = 0;
	p->mode = etm_pm_sync;
}

/* Move pending zeros into the notsync packet; 1 if it filled up (queued). */
static int flush_zeros(struct etm_pktp *p)
{
	while (p->zrun) {
		uint64_t take = ETM_PKT_MAX_RAW - p->ns.raw_len;

		if (take > p->zrun)
			take = p->zrun;
		if (p->ns.size == 0)
			p->ns.offset = p->zrun_off;
		p->ns.raw_len += (uint8_t)take; /* raw[] is already zero */
		p->ns.size += (uint32_t)take;
		p->zrun -= take;
		p->zrun_off += take;
		if (p->ns.raw_len == ETM_PKT_MAX_RAW) {
			queue_notsync(p);
			return 1;
		}
	}
	return 0;
}

/* Out of sync, no zeros pending: the bytes before the next 0x00 (none of
 * them can end an A-sync) go to the notsync packet at once, as the loop
 * of etm_sync_search() would take them one by one. Returns 1 if the
 * packet filled up (queued). */
static int take_nonzero(struct etm_pktp *p)
{
	size_t room = ETM_PKT_MAX_RAW - p->ns.raw_len, k = p->len - p->pos;
	const uint8_t *b = p->buf + p->pos, *z;

	if (k > room)
		k = room;
	z = memchr(b, 0, k);
	if (z)
		k = (size_t)(z - b);
	if (!k)
		return 0;
	if (p->ns.size == 0)
		p->ns.offset = etm_pktp_off(p, p->pos);
	memcpy(p->ns.raw + p->ns.raw_len, b, k);
	p->ns.raw_len += (uint8_t)k;
	p->ns.size += (uint32_t)k;
	p->pos += k;
	if (p->ns.raw_len < ETM_PKT_MAX_RAW)
		return 0;
	queue_notsync(p);
	return 1;
}

int etm_sync_search(struct etm_pktp *p)
{
	while (p->pos < p->len) {
		uint8_t b;

		if (!p->zrun) {
			if (take_nonzero(p))
				return 1;
			if (p->pos == p->len)
				break;
		}
		b = p->buf[p->pos];
		if (b == 0x00) {
			if (p->zrun++ == 0)
				p->zrun_off = etm_pktp_off(p, p->pos);
			p->pos++;
			continue;
		}
		if (b == 0x80 && p->zrun >= ETM_ASYNC_ZEROS) {
			p->pos++;
			if (p->ns.size)
				queue_notsync(p);
			queue_async(p);
			return 1;
		}
		if (p->zrun && flush_zeros(p))
			return 1;
		if (p->ns.size == 0)
			p->ns.offset = etm_pktp_off(p, p->pos);
		p->ns.raw[p->ns.raw_len++] = b;
		p->ns.size++;
		p->pos++;
		if (p->ns.raw_len == ETM_PKT_MAX_RAW) {
			queue_notsync(p);
			return 1;
		}
	}
	return 0;
}

int etm_sync_zrun(struct etm_pktp *p)
{
	struct etm_packet *pkt;

	while (p->pos < p->len) {
		uint8_t b = p->buf[p->pos];

		if (b == 0x00) {
			p->zrun++;
			p->pos++;
			continue;
		}
		if (b == 0x80 && p->zrun >= ETM_ASYNC_ZEROS) {
			p->pos++;
			queue_async(p);
			return 1;
		}
		/* 0x00 is only ever an A-sync: this one is broken. */
		pkt = etm_sync_slot(p);
		pkt->type = etmp_error;
		pkt->err = etme_bad_packet;
		p->err_end = etm_pktp_off(p, p->pos) + 1; /* decided at b */
		if (b == 0x80) {
			/* Too few zeros, then the 0x80: the packet before
			 * was corrupt and took the first zeros of the A-sync
			 * as its own last bytes (a flipped header whose
			 * payload ends in zeros). Reported as an error, but
			 * the byte after the 0x80 is taken as a header, as
			 * after an A-sync, so the I-sync that follows is not
			 * lost. */
			p->pos++;
			fill_zeros(p, pkt, p->zrun, 1);
			p->zrun = 0;
			p->mode = etm_pm_sync;
			return 1;
		}
		/* The byte that ended it is searched again. */
		fill_zeros(p, pkt, p->zrun, 0);
		p->zrun = 0;
		p->mode = etm_pm_search;
		return 1;
	}
	return 0;
}

int etm_sync_flush(struct etm_pktp *p)
{
	struct etm_packet *pkt;

	if (p->mode == etm_pm_zrun) {
		pkt = etm_sync_slot(p);
		pkt->type = etmp_error;
		pkt->err = etme_truncated;
		fill_zeros(p, pkt, p->zrun, 0);
		p->zrun = 0;
		p->mode = etm_pm_search;
		return 1;
	}
	if (p->mode != etm_pm_search)
		return 0;
	if (p->zrun && flush_zeros(p))
		return 1;
	if (p->ns.size) {
		queue_notsync(p);
		return 1;
	}
	return 0;
}
