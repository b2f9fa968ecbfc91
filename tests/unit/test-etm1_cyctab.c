/* tests/unit/test-etm1_cyctab.c - the ETMv1 decoder's per-cycle table
 * (e1_cyc_tab, flow/etm1.c): for each of the 64 values of a sample
 * record's byte 0 (PIPESTAT[3:0] | TRACESYNC << 4 | TRIGGER << 5), the
 * fast loop's action and whether TRACEPKT holds a byte, derived here by
 * hand from IHI 0014Q Table 5.2 (IE 0, ID 1, IN 2, WT 3, BE 4, BD 5, TR 6,
 * TD 7; TR and TD cycles carry no packet byte, TR's real status is on
 * TRACEPKT[2:0]; a pre-resolved trigger cycle carries none either), and
 * checked against e1_word(), the resolution the general step uses. */
#include <stdint.h>

#include "etest.h"
#include "flow/etm1_int.h"

/* What the fast loop may do itself: IE and IN step, WT and TD pass;
 * everything else (ID, BE, BD, TR, a 4-bit status, any trigger) needs the
 * general step. */
static unsigned want_act(unsigned ps, unsigned trig)
{
	if (trig)
		return e1a_slow;
	switch (ps) {
	case 0:
		return e1a_exec;
	case 2:
		return e1a_nexec;
	case 3:
	case 7:
		return e1a_pass;
	default:
		return e1a_slow;
	}
}

/* A byte on TRACEPKT: not in TR (6) / TD (7) cycles nor a trigger cycle;
 * a 4-bit status (8-15, an error reported by the loop) keeps its byte. */
static int want_pkt(unsigned ps, unsigned trig)
{
	if (ps >= 8)
		return 1;
	return !trig && ps != 6 && ps != 7;
}

static void t_table_by_hand(void)
{
	unsigned v;

	for (v = 0; v < 64; v++) {
		unsigned ps = v & 15, trig = v >> 5 & 1;

		ET_EQ(e1_cyc_tab[v] & E1C_ACT, want_act(ps, trig));
		ET_EQ(!!(e1_cyc_tab[v] & E1C_PKT), want_pkt(ps, trig));
	}
	/* a few spelt out: IE = exec with a byte; TRACESYNC changes
	 * nothing; TD passes without a byte; IE with TRIGGER is slow */
	ET_EQ(e1_cyc_tab[0x00], e1a_exec | E1C_PKT);
	ET_EQ(e1_cyc_tab[0x10], e1a_exec | E1C_PKT);
	ET_EQ(e1_cyc_tab[0x07], e1a_pass);
	ET_EQ(e1_cyc_tab[0x03], e1a_pass | E1C_PKT);
	ET_EQ(e1_cyc_tab[0x20], e1a_slow);
	ET_EQ(e1_cyc_tab[0x06], e1a_slow);
	ET_EQ(e1_cyc_tab[0x14], e1a_slow | E1C_PKT);
}

/* The byte flag agrees with e1_word()'s E1_NOPKT for every byte 0 and any
 * TRACEPKT (TR takes its status from TRACEPKT, not its byte flag). */
static void t_table_matches_word(void)
{
	static const uint32_t pkts[] = { 0, 1, 6, 7, 0xa5, 0xffff };
	unsigned v, k;

	for (v = 0; v < 64; v++)
		for (k = 0; k < sizeof(pkts) / sizeof(pkts[0]); k++) {
			uint32_t w = e1_word(v | pkts[k] << 8);

			ET_EQ(!(w & E1_NOPKT), !!(e1_cyc_tab[v] & E1C_PKT));
		}
}

int main(void)
{
	ETEST(t_table_by_hand);
	ETEST(t_table_matches_word);
	return etest_end();
}
