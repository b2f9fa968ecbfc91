/* tests/unit/test-hold_rules.c - the element hold's ring and switch as the
 * realign layer has them (realign/elem_hold.h), without a decoder: what a
 * realignment's cut withdraws (elem_hold_ring.c), the first sign of
 * trouble among the waiting elements, when the hold is on, engages and
 * lets go (elem_hold_rule.c), and the set of left-out sources
 * (left_sources.c). Every expected value is derived by hand in the
 * comments from the rules in doc/realign.md ("Element hold"): a cut at C
 * withdraws the waiting elements from C - 32 (two frames) on, or from 32
 * before the 16-byte frame of a sign of trouble that lies before C; an
 * error or a loss of sync stays; a source's last element before that, if
 * a range, goes too; ready elements (912 bytes behind the latest) stay. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/config.h>
#include <etmtrace/error.h>
#include <etmtrace/flow.h>

#include "etest.h"
#include "realign/elem_hold.h"
#include "realign/realign.h"

struct el {
	unsigned id;
	enum etm_elem_kind kind;
	int err;
	uint64_t off;
};

/* Append @n elements made of @e to @h (an empty hold made here). */
static void fill(struct etm_realign_hold *h, const struct el *e, size_t n)
{
	struct etm_elem x[16];
	size_t i;

	memset(x, 0, sizeof(x));
	for (i = 0; i < n; i++) {
		x[i].id = (uint8_t)e[i].id;
		x[i].kind = e[i].kind;
		x[i].err = e[i].err;
		x[i].offset = e[i].off;
	}
	ET_EQ(etm_realign_hold_room(h, n), 0);
	etm_realign_hold_add(h, x, n);
	etm_realign_hold_mark(h);
}

/* The offsets of the waiting elements, in order, equal @want. */
static void waiting(const struct etm_realign_hold *h, const uint64_t *want,
		    size_t n)
{
	size_t i;

	ET_EQ(h->n - h->head, n);
	for (i = 0; i < n && i < h->n - h->head; i++)
		ET_EQ(h->el[(h->head + i) & (h->cap - 1)].offset, want[i]);
}

/* Cut at 1000, no sign: from 968 on. 0x10's range at 880 is not its last
 * element before 968 (the timestamp at 900 is): both stay; 0x11's range at
 * 960 is its last before 968: it goes; 970 and 1010 go; the error at 980
 * stays. Flows 0x10 and 0x11 are live: their elements from 968 on are
 * lost as they come, each until its own frame_align error; 0x12 is not. */
static void retract_cut(void)
{
	static const struct el e[] = {
		{ 0x10, etmk_range, 0, 880 },
		{ 0x10, etmk_timestamp, 0, 900 },
		{ 0x11, etmk_range, 0, 960 },
		{ 0x10, etmk_timestamp, 0, 970 },
		{ 0x12, etmk_error, etme_frame_align, 980 },
		{ 0x11, etmk_range, 0, 1010 },
	};
	/* after: 975 (0x10, lost), 990 (0x12, not live: stays), 0x10's
	 * frame_align error at 1000 (stays, ends 0x10's loss), 976 (0x10: no
	 * longer losing), 950 (0x11, before 968: stays) */
	static const struct el a[] = {
		{ 0x10, etmk_range, 0, 975 },
		{ 0x12, etmk_range, 0, 990 },
		{ 0x10, etmk_error, etme_frame_align, 1000 },
		{ 0x10, etmk_range, 0, 976 },
		{ 0x11, etmk_range, 0, 950 },
	};
	static const uint64_t w1[] = { 880, 900, 980 };
	static const uint64_t w2[] = { 880, 900, 980, 990, 1000, 976, 950 };
	struct etm_realign_hold h;
	uint8_t live[ETM_REALIGN_HOLD_IDS] = { 0 };

	memset(&h, 0, sizeof(h));
	fill(&h, e, 6);
	ET_EQ(h.rdy, 0); /* 1010 - 912 = 98: none ready */
	live[0x10] = live[0x11] = 1;
	etm_realign_hold_retract(&h, 1000, live);
	waiting(&h, w1, 3);
	ET_EQ(h.losing, 2);
	ET_EQ(h.lose_from, 968);
	fill(&h, a, 5);
	waiting(&h, w2, 7);
	ET_EQ(h.losing, 1);
	ET_EQ(h.lose[0x10], 0);
	ET_EQ(h.lose[0x11], 1);
	etm_realign_hold_free(&h);
}

/* A sign of trouble at 950 (frame 944) before the cut at 1000 moves the
 * start back to 944 - 32 = 912: the timestamp at 920 goes (it would stay
 * from 968); 905 stays; the bad packet error stays. A sign after the cut
 * (1010, frame 1008 >= 968 + 32) does not move it. */
static void retract_sign(void)
{
	static const struct el e[] = {
		{ 0x11, etmk_timestamp, 0, 905 },
		{ 0x11, etmk_timestamp, 0, 920 },
		{ 0x10, etmk_error, etme_bad_packet, 950 },
		{ 0x10, etmk_range, 0, 990 },
	};
	static const struct el f[] = {
		{ 0x11, etmk_timestamp, 0, 920 },
		{ 0x10, etmk_error, etme_bad_packet, 1010 },
	};
	static const uint64_t w1[] = { 905, 950 }, w2[] = { 920, 1010 };
	struct etm_realign_hold h;
	uint8_t live[ETM_REALIGN_HOLD_IDS] = { 0 };

	memset(&h, 0, sizeof(h));
	fill(&h, e, 4);
	etm_realign_hold_retract(&h, 1000, live);
	waiting(&h, w1, 2);
	ET_EQ(h.lose_from, 912);
	ET_EQ(h.losing, 0);
	etm_realign_hold_clear(&h);
	fill(&h, f, 2);
	etm_realign_hold_retract(&h, 1000, live);
	waiting(&h, w2, 2);
	ET_EQ(h.lose_from, 968);
	etm_realign_hold_free(&h);
}

/* A ready element is final: the range at 100 (2000 - 912 = 1088 >= 100)
 * stays though it is 0x10's last range before the cut's 1978. */
static void retract_ready(void)
{
	static const struct el e[] = {
		{ 0x10, etmk_range, 0, 100 },
		{ 0x10, etmk_timestamp, 0, 2000 },
	};
	static const uint64_t w[] = { 100 };
	struct etm_realign_hold h;
	uint8_t live[ETM_REALIGN_HOLD_IDS] = { 0 };

	memset(&h, 0, sizeof(h));
	fill(&h, e, 2);
	ET_EQ(h.rdy, 1);
	etm_realign_hold_retract(&h, 2010, live);
	waiting(&h, w, 1);
	ET_EQ(h.rdy, 1);
	etm_realign_hold_free(&h);
}

/* The first trouble at or after @from among the waiting elements: a bad
 * packet at 300, no image at 500; the range at 200 and a frame_align
 * error at 400 are none. */
static void sign_first(void)
{
	static const struct el e[] = {
		{ 0x10, etmk_nomem, 0, 500 },
		{ 0x10, etmk_error, etme_bad_packet, 300 },
		{ 0x10, etmk_range, 0, 200 },
		{ 0x11, etmk_error, etme_frame_align, 400 },
	};
	struct etm_realign_hold h;

	memset(&h, 0, sizeof(h));
	fill(&h, e, 4);
	ET_EQ(etm_realign_hold_sign(&h, 0), 300);
	ET_EQ(etm_realign_hold_sign(&h, 301), 500);
	ET_EQ(etm_realign_hold_sign(&h, 501), UINT64_MAX);
	etm_realign_hold_free(&h);
}

/* On: always in precise, in basic while engaged, never in off, nor for
 * packets (frames 0), unless elements wait. A suspicion at 100 engages
 * basic until 100 + 2 * 912 = 1924; one at 50 engages nothing more and
 * keeps 1924; the hold lets go when empty, nothing pending and the input
 * is at 1924. */
static void switch_rules(void)
{
	struct etm_realign_hold h;

	memset(&h, 0, sizeof(h));
	ET_EQ(etm_realign_hold_on(&h, etm_realign_precise, 1), 1);
	ET_EQ(etm_realign_hold_on(&h, etm_realign_precise, 0), 0);
	ET_EQ(etm_realign_hold_on(&h, etm_realign_basic, 1), 0);
	ET_EQ(etm_realign_hold_on(&h, etm_realign_off, 1), 0);
	ET_EQ(etm_realign_hold_suspect(&h, etm_realign_precise, 100), 0);
	ET_EQ(h.engaged, 0);
	ET_EQ(etm_realign_hold_suspect(&h, etm_realign_basic, 100), 1);
	ET_EQ(h.engaged_until, 1924);
	ET_EQ(etm_realign_hold_suspect(&h, etm_realign_basic, 50), 0);
	ET_EQ(h.engaged_until, 1924);
	ET_EQ(etm_realign_hold_on(&h, etm_realign_basic, 1), 1);
	ET_EQ(etm_realign_hold_on(&h, etm_realign_basic, 0), 0);
	h.maxoff = 1923;
	ET_EQ(etm_realign_hold_release(&h, 0), 0);
	h.maxoff = 1924;
	ET_EQ(etm_realign_hold_release(&h, 1), 0); /* a rewind pending */
	h.losing = 1;
	ET_EQ(etm_realign_hold_release(&h, 0), 0);
	h.losing = 0;
	h.n = 1; /* an element waits: on in any mode */
	ET_EQ(etm_realign_hold_release(&h, 0), 0);
	ET_EQ(etm_realign_hold_on(&h, etm_realign_off, 0), 1);
	h.n = 0;
	ET_EQ(etm_realign_hold_release(&h, 0), 1);
	ET_EQ(h.engaged, 0);
	ET_EQ(etm_realign_hold_release(&h, 0), 0);
	/* switching to another mode disengages */
	ET_EQ(etm_realign_hold_suspect(&h, etm_realign_basic, 3000), 1);
	etm_realign_hold_set_mode(&h, etm_realign_basic);
	ET_EQ(h.engaged, 1);
	etm_realign_hold_set_mode(&h, etm_realign_precise);
	ET_EQ(h.engaged, 0);
	/* nothing out from latest - 912 + 1 on; all out with the hold off */
	ET_EQ(etm_realign_hold_out_from(&h, 0), UINT64_MAX);
	h.maxoff = 912;
	ET_EQ(etm_realign_hold_out_from(&h, 1), 0);
	h.maxoff = 1000;
	ET_EQ(etm_realign_hold_out_from(&h, 1), 89);
}

/* The left-out sources: a configuration per ID, in ID order, as many as
 * asked; a second note of an ID replaces the first. */
static void left_set(void)
{
	struct etm_realign_left *l = NULL;
	struct etm_config cfg, out[4];

	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.etmidr = 0x410CF250;
	ET_EQ(etm_realign_left_cfgs(NULL, out, 4), 0);
	ET_EQ(etm_realign_left_add(&l, 0x20, &cfg, NULL), 0);
	ET_CHECK(l != NULL);
	ET_EQ(etm_realign_left_add(&l, 0x10, &cfg, NULL), 0);
	ET_EQ(etm_realign_left_add(&l, 0x10, &cfg, NULL), 0);
	ET_EQ(etm_realign_left_cfgs(l, out, 4), 2);
	ET_EQ(out[0].traceid, 0x10);
	ET_EQ(out[1].traceid, 0x20);
	ET_EQ(out[0].protocol, etm_proto_etmv3);
	ET_EQ(etm_realign_left_cfgs(l, out, 1), 1);
	ET_EQ(out[0].traceid, 0x10);
	ET_CHECK(l->pd[0x10] != NULL && l->ids[0x20] && !l->ids[0x11]);
	etm_realign_left_free(l);
	etm_realign_left_free(NULL);
}

int main(void)
{
	ETEST(retract_cut);
	ETEST(retract_sign);
	ETEST(retract_ready);
	ETEST(sign_first);
	ETEST(switch_rules);
	ETEST(left_set);
	return etest_end();
}
