/* tests/unit/test-flow_ptm_paths.c - the PTM flow decoder's two paths (with
 * packet items: etm_flow_pull() packet by packet; without: the fast path
 * etm_flow_drain(), whose plain loop reads the packets other than its
 * atom and branch tokens in place, etm_pkt_tok_packet()) give the same
 * elements at the same input offsets, and the elements derived by hand
 * below, on a byte stream with I-syncs and a timestamp between atoms. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "etest.h"
#include "etest_elems.h"

/* PFTv1.1 (ETMIDR 0x411CF312), trace ID 0x13, ETMCCER[28] = 1 (binary
 * timestamps), not cycle-accurate; A32 code at 0x1000: mov r0, #1;
 * b 0x1000 (0xeafffffd: offset -3 words from 0x1004 + 8). The bytes
 * pushed whole, every element kept. */
static void decode(const uint8_t *b, size_t n, int packets, struct etest_run *r)
{
	static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3,
					0xfd, 0xff, 0xff, 0xea };
	struct etm_config cfg;

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_ptm;
	cfg.etmidr = 0x411CF312;
	cfg.etmccer = 1u << 28;
	cfg.traceid = 0x13;
	etest_decode_elems(&cfg, code, sizeof(code), b, n, packets, r);
}

/* An element expected: kind, offset, and for a range its start, end and
 * count, for a trace-on its reason, for a timestamp its value. */
struct want {
	enum etm_elem_kind kind;
	uint64_t offset;
	uint64_t start, end; /* range */
	uint32_t ninsn;
	uint8_t reason;     /* trace_on */
	uint64_t timestamp; /* timestamp */
};

static void check(const struct etest_run *r, const struct want *w, int nw)
{
	int i;

	ET_EQ(r->n, nw);
	for (i = 0; i < r->n && i < nw; i++) {
		const struct etm_elem *el = &r->el[i];

		ET_EQ(el->kind, w[i].kind);
		ET_EQ(el->offset, w[i].offset);
		if (w[i].kind == etmk_range) {
			ET_EQ(el->start, w[i].start);
			ET_EQ(el->end, w[i].end);
			ET_EQ(el->ninsn, w[i].ninsn);
		} else if (w[i].kind == etmk_trace_on) {
			ET_EQ(el->reason, w[i].reason);
		} else if (w[i].kind == etmk_timestamp) {
			ET_EQ(el->timestamp, w[i].timestamp);
		}
	}
}

/* ptm.md section 4 (I-sync: header 0x08, address little-endian with the
 * T bit in bit 0, information byte with the reason in bits 6:5), 5
 * (atoms: 0x88 = two E, 0x84 = one E), 12 (timestamp 0x42, 7 bits a byte):
 *   0  00 00 00 00 00 80  A-sync
 *   6  08 00 10 00 00 01  I-sync 0x1000 A32, periodic: the first, so
 *                         trace on (start) and the context
 *  12  88                 E E: mov; b 0x1000 taken, twice
 *  13  84                 E: once more
 *  14  08 00 10 00 00 21  I-sync 0x1000 A32, trace on (enable)
 *  20  42 05              timestamp 5
 *  22  84                 E
 *  23  84                 E
 *  24  42 07              timestamp 7 (bits 2:0 sent)
 *  26  84                 E
 * Each E is the range [0x1000, 0x1008), two instructions, at its atom
 * packet's offset. */
static void isync_timestamp_in_loop(void)
{
	static const uint8_t b[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
				     0x08, 0x00, 0x10, 0x00, 0x00, 0x01,
				     0x88, 0x84, 0x08, 0x00, 0x10, 0x00,
				     0x00, 0x21, 0x42, 0x05, 0x84, 0x84,
				     0x42, 0x07, 0x84 };
	static const struct want w[] = {
		{ etmk_trace_on, 6, 0, 0, 0, etm_on_start, 0 },
		{ etmk_context, 6, 0, 0, 0, 0, 0 },
		{ etmk_range, 12, 0x1000, 0x1008, 2, 0, 0 },
		{ etmk_range, 12, 0x1000, 0x1008, 2, 0, 0 },
		{ etmk_range, 13, 0x1000, 0x1008, 2, 0, 0 },
		{ etmk_trace_on, 14, 0, 0, 0, etm_on_enable, 0 },
		{ etmk_timestamp, 20, 0, 0, 0, 0, 5 },
		{ etmk_range, 22, 0x1000, 0x1008, 2, 0, 0 },
		{ etmk_range, 23, 0x1000, 0x1008, 2, 0, 0 },
		{ etmk_timestamp, 24, 0, 0, 0, 0, 7 },
		{ etmk_range, 26, 0x1000, 0x1008, 2, 0, 0 },
	};
	static struct etest_run g, f;

	decode(b, sizeof(b), 1, &g);
	decode(b, sizeof(b), 0, &f);
	check(&g, w, (int)(sizeof(w) / sizeof(w[0])));
	check(&f, w, (int)(sizeof(w) / sizeof(w[0])));
}

int main(void)
{
	ETEST(isync_timestamp_in_loop);
	return etest_end();
}
