/* tests/unit/test-retstack.c - unit tests of the PTM return stack model:
 * LIFO order, overflow discarding the oldest entry, flush, empty pop. */
#include <etmtrace/error.h>

#include "etest.h"
#include "flow/retstack.h"

static void t_lifo(void)
{
	struct etm_retstack rs;
	struct etm_retent e;

	etm_retstack_flush(&rs);
	ET_EQ(etm_retstack_count(&rs), 0);
	ET_EQ(etm_retstack_pop(&rs, &e), -etme_retstack_empty);
	etm_retstack_push(&rs, 0x1000, etmi_a32, 0);
	etm_retstack_push(&rs, 0x2002, etmi_t32, 1);
	ET_EQ(etm_retstack_count(&rs), 2);
	/* newest first: 0x2002 Thumb NS, then 0x1000 ARM secure */
	ET_EQ(etm_retstack_pop(&rs, &e), 0);
	ET_EQ(e.addr, 0x2002);
	ET_EQ(e.isa, etmi_t32);
	ET_EQ(e.ns, 1);
	ET_EQ(etm_retstack_pop(&rs, &e), 0);
	ET_EQ(e.addr, 0x1000);
	ET_EQ(e.isa, etmi_a32);
	ET_EQ(e.ns, 0);
	ET_EQ(etm_retstack_pop(&rs, &e), -etme_retstack_empty);
}

static void t_overflow(void)
{
	struct etm_retstack rs;
	struct etm_retent e;
	unsigned i;

	/* push DEPTH + 5 entries 0, 4, 8, ...: the 5 oldest (0..16) are
	 * discarded, so DEPTH pops give (DEPTH+4)*4 down to 5*4, then empty */
	etm_retstack_flush(&rs);
	for (i = 0; i < ETM_RETSTACK_DEPTH + 5; i++)
		etm_retstack_push(&rs, i * 4, etmi_a32, 0);
	ET_EQ(etm_retstack_count(&rs), ETM_RETSTACK_DEPTH);
	for (i = ETM_RETSTACK_DEPTH + 5; i-- > 5;) {
		ET_EQ(etm_retstack_pop(&rs, &e), 0);
		ET_EQ(e.addr, i * 4);
	}
	ET_EQ(etm_retstack_pop(&rs, &e), -etme_retstack_empty);
}

static void t_flush(void)
{
	struct etm_retstack rs;
	struct etm_retent e;

	etm_retstack_flush(&rs);
	etm_retstack_push(&rs, 0x10, etmi_a32, 0);
	etm_retstack_push(&rs, 0x20, etmi_a32, 0);
	etm_retstack_flush(&rs);
	ET_EQ(etm_retstack_count(&rs), 0);
	ET_EQ(etm_retstack_pop(&rs, &e), -etme_retstack_empty);
	/* usable again after a flush */
	etm_retstack_push(&rs, 0x30, etmi_t32, 0);
	ET_EQ(etm_retstack_pop(&rs, &e), 0);
	ET_EQ(e.addr, 0x30);
}

int main(void)
{
	ETEST(t_lifo);
	ETEST(t_overflow);
	ETEST(t_flush);
	return etest_end();
}
