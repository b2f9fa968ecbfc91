/* tests/unit/test-flow_etm3_paths.c - the ETMv3 flow decoder's two paths
 * (with packet items: etm_flow_pull() packet by packet; without: the fast
 * path etm_flow_drain(), runs of one-byte P-headers as one) give the same
 * elements at the same input offsets, on hand-built byte streams whose
 * offsets are derived by hand below. The rule (doc/design.md): an element's
 * offset is that of the packet it comes from; the fast path used to give
 * the offset of the last packet outside a run for a non-range element
 * made inside a run or at the end of the trace. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "etest.h"
#include "etest_elems.h"

/* ETMv3.5 (ETMIDR 0x410CF250, as TC2), trace ID 0x10, ETMCR @etmcr; A32
 * code at 0x1000: mov r0, #1; nop; nop; nop. The bytes pushed whole,
 * every element kept. */
static void decode(const uint8_t *b, size_t n, uint32_t etmcr, int packets,
		   struct etest_run *r)
{
	static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3, 0x00, 0x00,
					0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
					0x00, 0x00, 0xa0, 0xe1 };
	struct etm_config cfg;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmcr = etmcr;
	cfg.etmidr = 0x410CF250;
	cfg.traceid = 0x10;
	etest_decode_elems(&cfg, code, sizeof(code), b, n, packets, r);
}

/* Both paths: the same kinds at the same offsets. *@at: the index of the
 * first element of kind @k (general path), or -1. */
static void both_paths(const uint8_t *b, size_t n, uint32_t etmcr,
		       enum etm_elem_kind k, struct etest_run *g, int *at)
{
	static struct etest_run f;
	int i;

	*at = -1;
	decode(b, n, etmcr, 1, g);
	decode(b, n, etmcr, 0, &f);
	ET_EQ(g->n, f.n);
	for (i = 0; i < g->n && i < f.n; i++) {
		ET_EQ(g->el[i].kind, f.el[i].kind);
		ET_EQ(g->el[i].offset, f.el[i].offset);
		ET_EQ(g->el[i].err, f.el[i].err);
		if (*at < 0 && g->el[i].kind == k)
			*at = i;
	}
}

/* Debug Halt, then atoms while halted (IHI 0014Q §7.3.5; etmv3.md §6.2,
 * §6.6; the flow reports the gap once, a nosync element with err
 * etme_halted, at the first packet that would decode instructions):
 *   0  00 00 00 00 00 80  A-sync
 *   6  08 01 00 10 00 00  I-sync 0x1000 A32
 *  12  81 90 80 80 48 02  branch address 0x1000 A32 (5th byte b0E001aaa,
 *                         E=1), exception byte 0 = b00000010: exception
 *                         1, halting debug entry
 *  18  84                 P-header "E": halted, the gap is reported here
 *  19  84                 P-header "E": halted, nothing (reported once)
 * The nosync element's offset is 18 on both paths (the fast path gave 12,
 * the branch's, before). */
static void halt_gap_offset(void)
{
	static const uint8_t b[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
				     0x08, 0x01, 0x00, 0x10, 0x00, 0x00,
				     0x81, 0x90, 0x80, 0x80, 0x48, 0x02,
				     0x84, 0x84 };
	static struct etest_run g;
	int i, n = 0, at;

	both_paths(b, sizeof(b), 0, etmk_nosync, &g, &at);
	ET_CHECK(at >= 0);
	if (at < 0)
		return;
	ET_EQ(g.el[at].offset, 18);
	ET_EQ(g.el[at].err, etme_halted);
	for (i = 0; i < g.n; i++)
		n += g.el[i].kind == etmk_nosync;
	ET_EQ(n, 1);
}

/* An out-of-order placeholder whose value never comes (ETMCR[3:2] = 01,
 * data values traced; etmv3.md §13: placeholder b01A1TT00, the value in a
 * later out-of-order data packet with the same tag):
 *   0  00 00 00 00 00 80  A-sync
 *   6  08 01 00 10 00 00  I-sync 0x1000 A32
 *  12  84                 P-header "E": mov at 0x1000
 *  13  54                 placeholder, tag 1, no address (A=0)
 *  14  84                 P-header "E": nop at 0x1004
 *  15  84                 P-header "E": nop at 0x1008
 * At the end of the trace the transfer (without its value) and the error
 * element for it are at the last packet's offset, 15, on both paths
 * (doc/datatrace.md; tests/vectors/etm3-data-ooo-unmatched_at_end-error.etv
 * with one P-header after the placeholder). Before, the fast path gave 14:
 * the two P-headers are one run, walked as one, at its first packet. */
static void unmatched_placeholder_offset(void)
{
	static const uint8_t b[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
				     0x08, 0x01, 0x00, 0x10, 0x00, 0x00,
				     0x84, 0x54, 0x84, 0x84 };
	static struct etest_run g;
	int at;

	both_paths(b, sizeof(b), 1u << 2, etmk_data, &g, &at);
	ET_CHECK(at >= 0 && at + 1 < g.n);
	if (at < 0 || at + 1 >= g.n)
		return;
	ET_EQ(g.el[at].offset, 15);
	ET_EQ(g.el[at].dflags & ETM_DATA_VALUE, 0);
	ET_EQ(g.el[at + 1].kind, etmk_error);
	ET_EQ(g.el[at + 1].err, etme_bad_packet);
	ET_EQ(g.el[at + 1].offset, 15);
}

/* A byte that is no P-header after memoised walks (the fast path looks a
 * byte up in the walk memo before it knows it is a P-header):
 *   0  00 00 00 00 00 80  A-sync
 *   6  08 01 00 10 00 00  I-sync 0x1000 A32
 *  12  84                 P-header "E": mov at 0x1000 (walked, memoised)
 *  13  01                 branch address 0x1000 (one byte, bits [7:2] 0)
 *  14  84                 "E": mov at 0x1000
 *  15  01                 branch address 0x1000
 *  16  84                 "E": mov at 0x1000 (a memo hit)
 *  17  66                 Ignore: no P-header, no branch
 *  18  84                 "E": nop at 0x1004
 *  19  01                 branch address 0x1000
 *  20  84                 "E": mov at 0x1000
 *  21  66 66 66 66 66     Ignore x5
 * Five E atoms: five instructions in the ranges, the same elements at the
 * same offsets on both paths. */
static void ignore_after_memo_hit(void)
{
	static const uint8_t b[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
				     0x08, 0x01, 0x00, 0x10, 0x00, 0x00,
				     0x84, 0x01, 0x84, 0x01, 0x84, 0x66,
				     0x84, 0x01, 0x84, 0x66, 0x66, 0x66,
				     0x66, 0x66 };
	static struct etest_run g;
	uint32_t ninsn = 0;
	int i, at;

	both_paths(b, sizeof(b), 0, etmk_range, &g, &at);
	ET_CHECK(at >= 0);
	for (i = 0; i < g.n; i++)
		if (g.el[i].kind == etmk_range)
			ninsn += g.el[i].ninsn;
	ET_EQ(ninsn, 5);
}

int main(void)
{
	ETEST(halt_gap_offset);
	ETEST(unmatched_placeholder_offset);
	ETEST(ignore_after_memo_hit);
	return etest_end();
}
