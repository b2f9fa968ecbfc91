/* tests/unit/test-verify.c - verified output filter (etmtrace/verify.h) on
 * hand-made item sequences: a passed periodic I-sync releases what it
 * confirms, an error puts an etme_unverified element in front of the held
 * items of its source only, restarts and the end release unconfirmed, the
 * hold limit bounds memory, order is kept. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/verify.h>

#include "etest.h"

static struct etm_item range(unsigned id, uint64_t off, uint64_t start)
{
	struct etm_item it;

	memset(&it, 0, sizeof(it));
	it.is_elem = 1;
	it.elem.kind = etmk_range;
	it.elem.id = (uint8_t)id;
	it.elem.offset = off;
	it.elem.start = start;
	it.elem.end = start + 4;
	it.elem.ninsn = 1;
	return it;
}

static struct etm_item isync(unsigned id, uint64_t off, int reason)
{
	struct etm_item it;

	memset(&it, 0, sizeof(it));
	it.pkt.type = etmp_isync;
	it.pkt.id = (uint8_t)id;
	it.pkt.offset = off;
	it.pkt.reason = (uint8_t)reason;
	return it;
}

static struct etm_item error(unsigned id, uint64_t off, int err)
{
	struct etm_item it = range(id, off, 0);

	it.elem.kind = etmk_error;
	it.elem.ninsn = 0;
	it.elem.err = err;
	return it;
}

static int put(struct etm_verify *v, struct etm_item it)
{
	return etm_verify_put(v, &it);
}

/* Take every released item into @out; returns how many. */
static int drain(struct etm_verify *v, struct etm_item *out, int max)
{
	int n = 0;

	while (n < max && etm_verify_next(v, &out[n]) == 0)
		n++;
	return n;
}

static void held_until_checked(void)
{
	struct etm_verify *v = etm_verify_alloc(0);
	struct etm_verify_stats st;
	struct etm_item out[16], zero;

	memset(&zero, 0, sizeof(zero));
	ET_CHECK(v != NULL);
	ET_EQ(put(v, zero), 0);
	/* the deformatter's items (ID 0) are never held */
	ET_EQ(drain(v, out, 16), 1);
	ET_EQ(put(v, isync(0x10, 0, 1)), 0);
	ET_EQ(put(v, range(0x10, 10, 0x100)),
	      0);
	ET_EQ(put(v, range(0x10, 11, 0x200)),
	      0);
	ET_EQ(drain(v, out, 16), 0);
	ET_EQ(put(v, isync(0x10, 20, 0)), 0);
	ET_EQ(drain(v, out, 16), 0);
	/* an item after the periodic I-sync and no error: the check passed */
	ET_EQ(put(v, range(0x10, 30, 0x300)),
	      0);
	ET_EQ(drain(v, out, 16), 4);
	ET_EQ(out[0].is_elem, 0);
	ET_EQ(out[1].elem.start, 0x100);
	ET_EQ(out[2].elem.start, 0x200);
	ET_EQ(out[3].pkt.offset, 20);
	ET_EQ(etm_verify_next(v, &out[0]), -etme_again);
	/* a trace-on I-sync cannot be checked: what came before goes out
	 * unconfirmed */
	ET_EQ(put(v, isync(0x10, 40, 1)), 0);
	ET_EQ(drain(v, out, 16), 1);
	ET_EQ(out[0].elem.start, 0x300);
	ET_EQ(etm_verify_finish(v), 0);
	ET_EQ(drain(v, out, 16), 1);
	ET_EQ(out[0].pkt.offset, 40);
	ET_EQ(etm_verify_next(v, &out[0]), -etme_eos);
	etm_verify_stats(v, &st);
	ET_EQ(st.confirmed, 4);
	ET_EQ(st.unconfirmed, 2);
	ET_EQ(st.rejected, 0);
	ET_EQ(st.markers, 0);
	etm_verify_free(v);
}

static void rejected_get_marker_first(void)
{
	struct etm_verify *v = etm_verify_alloc(0);
	struct etm_verify_stats st;
	struct etm_item out[16];

	ET_CHECK(v != NULL);
	/* source 0x11 interleaved: it is not affected by 0x10's error */
	ET_EQ(put(v, range(0x10, 5, 0x100)),
	      0);
	ET_EQ(put(v, range(0x11, 6, 0x900)),
	      0);
	ET_EQ(put(v, range(0x10, 7, 0x104)),
	      0);
	ET_EQ(put(v, isync(0x10, 9, 0)), 0);
	/* the I-sync's check failed: mismatch at its offset */
	ET_EQ(put(v, error(0x10, 9, etme_mismatch)), 0);
	/* the marker, then 0x10's first range; 0x11's range, next in
	 * order, is still held */
	ET_EQ(drain(v, out, 16), 2);
	ET_EQ(out[0].elem.kind, etmk_error);
	ET_EQ(out[0].elem.err, etme_unverified);
	ET_EQ(out[0].elem.id, 0x10);
	ET_EQ(out[0].elem.offset, 5);
	ET_EQ(out[1].elem.start, 0x100);
	ET_EQ(drain(v, out, 16), 0);
	ET_EQ(etm_verify_finish(v), 0);
	ET_EQ(drain(v, out, 16), 4);
	ET_EQ(out[0].elem.start, 0x900);
	ET_EQ(out[1].elem.start, 0x104);
	ET_EQ(out[2].is_elem, 0);
	ET_EQ(out[3].elem.err, etme_mismatch);
	etm_verify_stats(v, &st);
	ET_EQ(st.rejected, 3);
	ET_EQ(st.markers, 1);
	ET_EQ(st.unconfirmed, 1);
	etm_verify_free(v);
}

static void hold_limit(void)
{
	struct etm_verify *v = etm_verify_alloc(8);
	struct etm_item out[16];
	int i, n = 0, busy = 0, r;

	ET_CHECK(v != NULL);
	/* no periodic I-sync ever: the filter must not grow */
	for (i = 0; i < 100; i++) {
		struct etm_item it = range(0x10, (uint64_t)i, 4u * (unsigned)i);

		while ((r = etm_verify_put(v, &it)) == -etme_busy) {
			busy++;
			n += drain(v, out, 16);
		}
		ET_EQ(r, 0);
	}
	ET_CHECK(busy > 0);
	etm_verify_finish(v);
	n += drain(v, out, 16);
	ET_EQ(n, 100);
	ET_EQ(etm_verify_put(NULL, out), -etme_invalid);
	ET_EQ(etm_verify_put(v, out), -etme_invalid); /* after finish */
	etm_verify_free(v);
	etm_verify_free(NULL);
}

int main(void)
{
	ETEST(held_until_checked);
	ETEST(rejected_get_marker_first);
	ETEST(hold_limit);
	return etest_end();
}
