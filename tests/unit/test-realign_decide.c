/* tests/unit/test-realign_decide.c - the frame realignment's decision
 * (src/realign/decide.c) on small hand-built damaged inputs: the
 * deformatter with the decision above (etm_dfmt_set_decide()) stops and
 * asks (ETM_DFMT_ASK), the test answers with etm_realign_decide() and a
 * packet decoder for the one live ID, and checks where the decision puts
 * the lost alignment's error and the new frame start.
 *
 * The input, derived by hand: frames of trace ID 0x10 only, each
 *
 *   byte  0 2 4 ... 14 : 0x21   ID byte (0x10 << 1 | 1), re-announced
 *   byte  1 3 5 ... 13 : 0x85   data (ETMv3 branch address bytes)
 *   byte 15            : 0x00   aux (no data byte with bit 0 set, bit 7 0)
 *
 * and frame F (at input offset 16F) losing its first L bytes (1 <= L
 * <= 15): the damaged input holds frame F's last 16 - L bytes at 16F,
 * then frame F+1 at 16F + 16 - L. Read at the old alignment from 16F,
 * the frames are suspect at once: for an odd L the data bytes sit at the
 * even positions, where 0x85 is an ID byte naming 0x42, an ID nobody
 * announced; for an even L the aux byte is a data byte, 0x85, whose bit
 * 7 is reserved (etm_frame_aux_reserved()). At shift 16 - L from 16F every
 * frame is an original one: eight ID bytes naming the live ID, nothing
 * reserved. The frames before 16F are in place at the old alignment and
 * read at the new one would be the damaged ones. So the decision is:
 * the alignment changed at the damaged frame, an etme_frame_align error
 * at 16F (its first byte, the frame of the cut) and a sync at
 * 16F + 16 - L (the next frame start), nothing else lost or synced. */
#include <string.h>

#include <etmtrace/config.h>
#include <etmtrace/error.h>
#include <etmtrace/packet.h>
#include <etmtrace/source.h>

#include "etest.h"
#include "packet/pktdec.h"
#include "realign/realign.h"
#include "source/dfmt_bulk.h"

#define NFRAMES 96

static size_t make(uint8_t *b, size_t f_lost, size_t lost)
{
	size_t f, j, n = 0;

	for (f = 0; f < NFRAMES; f++)
		for (j = 0; j < 16; j++) {
			if (f == f_lost && j < lost)
				continue;
			b[n++] = j == 15 ? 0x00 : j % 2 ? 0x85 :
							  0x21;
		}
	return n;
}

struct outcome {
	int asks, errors, syncs, end;
	uint64_t err_at, sync_at;
};

/* The input through a bulk deformatter with the decision above; the
 * frame-alignment errors and the syncs after the first one. */
static void run(const uint8_t *b, size_t n, struct outcome *out)
{
	struct etm_dfmt *d = etm_dfmt_alloc_bulk(etm_fmt_coresight, 0);
	struct etm_realign_in in;
	struct etm_pkt_decoder *pd;
	struct etm_config cfg;
	struct etm_dfmt_item it;
	struct etm_dfmt_stage st;
	struct outcome o = { 0 };
	uint8_t sel[128] = { 0 };
	int r;

	memset(&in, 0, sizeof(in));
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	pd = etm_pkt_alloc(&cfg);
	in.pd[0x10] = pd;
	in.sign = UINT64_MAX;
	in.out = UINT64_MAX;
	sel[0x10] = 1;
	if (!d || !pd) {
		out->end = -etme_nomem;
		return;
	}
	etm_dfmt_set_decide(d, 1);
	etm_dfmt_note_ids(d, sel, sel); /* 0x10 is the input's only ID */
	etm_dfmt_push(d, b, n);
	etm_dfmt_finish(d);
	for (;;) {
		r = etm_dfmt_next_bulk(d, sel, &it, &st);
		if (r == ETM_DFMT_ASK) {
			o.asks++;
			etm_realign_decide(d, &in);
			continue;
		}
		if (r < 0)
			break;
		if (r == 1)
			continue;
		if (it.kind == etm_dfmt_error && it.err == etme_frame_align &&
		    !o.errors++)
			o.err_at = it.offset;
		else if (it.kind == etm_dfmt_error)
			o.errors++;
		if (it.kind == etm_dfmt_sync && o.errors && !o.syncs++)
			o.sync_at = it.offset;
	}
	o.end = r;
	etm_pkt_free(pd);
	etm_dfmt_free(d);
	*out = o;
}

/* Undamaged: nothing to decide, nothing said. */
static void realign_decide_clean(void)
{
	static uint8_t b[NFRAMES * 16];
	struct outcome o;

	run(b, make(b, NFRAMES, 0), &o);
	ET_EQ(o.end, -etme_eos);
	ET_EQ(o.errors, 0);
	ET_EQ(o.syncs, 0);
}

/* Every loss of 1 to 15 bytes at the start of frame 40: the error at
 * 16 * 40 = 640, the sync at 640 + 16 - L (header comment). */
static void realign_decide_lost_bytes(void)
{
	static uint8_t b[NFRAMES * 16];
	size_t lost;

	for (lost = 1; lost < 16; lost++) {
		struct outcome o;

		run(b, make(b, 40, lost), &o);
		ET_EQ(o.end, -etme_eos);
		ET_CHECK(o.asks >= 1);
		ET_EQ(o.errors, 1);
		ET_EQ(o.err_at, 640);
		ET_EQ(o.syncs, 1);
		ET_EQ(o.sync_at, 640 + 16 - lost);
	}
}

int main(void)
{
	ETEST(realign_decide_clean);
	ETEST(realign_decide_lost_bytes);
	return etest_end();
}
