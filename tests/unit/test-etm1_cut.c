/* tests/unit/test-etm1_cut.c - where an ETMv1 sample stream may be cut
 * (etm_e1_cut_find(), flow/etm1_run.c), on records built by hand: byte 0 =
 * PIPESTAT | TRACESYNC << 4 | TRIGGER << 5, bytes 1-2 TRACEPKT, byte 3 0
 * (doc/etmv1.md §1). A chunk may start at a BE (4) or BD (5) whose two
 * following cycles give an address packet offset (APO = PIPESTAT[1:0] of
 * the first | of the second << 2, IHI 0014Q §5.6.1) that locates its
 * address: neither of them a BE/BD (which abandons the branch), a TD (7,
 * "cannot happen"), a 4-bit status, nor APO 15; no trigger on the branch
 * (TR, 6, takes its real status from TRACEPKT[2:0] and is a trigger). */
#include <stdint.h>
#include <string.h>

#include "etest.h"
#include "flow/etm1_run.h"

enum { IE = 0,
       ID = 1,
       IN = 2,
       WT = 3,
       BE = 4,
       BD = 5,
       TR = 6,
       TD = 7 };

/* Records of statuses @ps (@n of them) into @buf; returns the bytes. */
static size_t recs(uint8_t *buf, const uint8_t *ps, size_t n)
{
	size_t i;

	memset(buf, 0, 4 * n);
	for (i = 0; i < n; i++)
		buf[4 * i] = ps[i];
	return 4 * n;
}

static void t_first_branch(void)
{
	/* BE at record 2, APO 0 (IE, IE): the cut is its first byte */
	static const uint8_t a[] = { IE, IE, BE, IE, IE, IE };
	/* BD with TRACESYNC at record 1 (byte 0x15), APO 3 (WT, IE) */
	static const uint8_t b[] = { IN, BD | 0x10, WT, IE, WT };
	uint8_t buf[64];

	ET_EQ(etm_e1_cut_find(buf, recs(buf, a, 6)), 8);
	ET_EQ(etm_e1_cut_find(buf, recs(buf, b, 5)), 4);
}

static void t_unusable_branches(void)
{
	/* record 0: a BE abandoned by the BE in its APO cycle; record 1:
	 * APO 2 (IN, IE) locates its address: the cut */
	static const uint8_t ab[] = { BE, BE, IN, IE, IE };
	/* BD with a trigger; BE with a TD in an APO cycle; BE with APO 15
	 * (WT, WT); a 4-bit status 12; then a plain BE at record 9 */
	static const uint8_t bad[] = { BD | 0x20, IE, IE, BE, TD, IE,
				       BE, WT, WT, BE, IE, IE };
	uint8_t buf[64];

	ET_EQ(etm_e1_cut_find(buf, recs(buf, ab, 5)), 4);
	ET_EQ(etm_e1_cut_find(buf, recs(buf, bad, 12)), 36);
	/* no BE/BD with room for its APO cycles: the whole (record) length */
	buf[0] = 12; /* a 4-bit PIPESTAT, not a BE */
	ET_EQ(etm_e1_cut_find(buf, 4), 4);
}

static void t_trigger_status(void)
{
	/* TR whose TRACEPKT[2:0] says BE: a trigger cycle, not a cut; the
	 * BE two records later is */
	static const uint8_t ps[] = { TR, IE, IE, BE, IE, ID };
	uint8_t buf[64];
	size_t n = recs(buf, ps, 6);

	buf[1] = BE; /* TRACEPKT of record 0 */
	ET_EQ(etm_e1_cut_find(buf, n), 12);
}

static void t_end_of_buffer(void)
{
	/* a BE whose APO cycles are not in the buffer, and a partial
	 * record: none, the length rounded down to records */
	static const uint8_t ps[] = { IE, IE, BE, IE };
	uint8_t buf[64];

	recs(buf, ps, 4);
	ET_EQ(etm_e1_cut_find(buf, 14), 12);
	ET_EQ(etm_e1_cut_find(buf, 16), 16);
	ET_EQ(etm_e1_cut_find(buf, 0), 0);
}

int main(void)
{
	ETEST(t_first_branch);
	ETEST(t_unusable_branches);
	ETEST(t_trigger_status);
	ETEST(t_end_of_buffer);
	return etest_end();
}
