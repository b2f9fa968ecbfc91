/* tests/unit/test-cov_streams.c - the range memo's counting (the memo hit,
 * cov_range_fast() with its pending run and branch, cov_on_range()) on
 * element streams that repeat: counts derived by hand on a
 * seven-instruction A32 program, and the same elements counted with the
 * memo emptied after every element (each range walked) must save the
 * same coverage; likewise for pseudo-random element streams, and for
 * streams with elements coverage ignores or gaps of every kind. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>

#include "cov/cov_int.h"
#include "etest.h"
#include "etest_cov.h"

/* The saved form of @c (malloc'ed, NUL-terminated; NULL on failure). */
static char *saved(const struct etm_cov *c)
{
	struct etest_sbuf sb = { NULL, 0 };

	if (etm_cov_save(c, etest_sbuf_write, &sb) < 0) {
		free(sb.b);
		return NULL;
	}
	return sb.b;
}

/* How @els are fed (all protocols set on sources 0x10 ETMv3, 0x11 PTM). */
enum feed { FEED_MEMO,
	    FEED_WALK };

/* @els counted into a new coverage fed as @how says, in calls of 1, 2, 3,
 * ... elements (FEED_WALK: one at a time, the memo emptied by a merge of
 * an empty coverage after each); its saved form, or NULL. */
static char *count(struct etm_image *img, const struct etm_elem *els,
		   size_t n, enum feed how)
{
	struct etm_cov *c = etm_cov_alloc(), *empty = etm_cov_alloc();
	size_t at = 0, step = 1;
	char *s = NULL;
	int err = !c || !empty;

	if (!err) {
		err = etm_cov_set_source(c, 0x10, etm_proto_etmv3, img) ||
		      etm_cov_set_source(c, 0x11, etm_proto_ptm, img);
	}
	while (!err && at < n) {
		size_t k = how == FEED_WALK ? 1 : step < n - at ? step :
								  n - at;

		err = etm_cov_add_elems(c, els + at, k) < 0;
		if (!err && how == FEED_WALK)
			err = etm_cov_merge(c, empty) < 0;
		at += k;
		step = step % 7 + 1;
	}
	if (!err && etm_cov_end(c) == 0)
		s = saved(c);
	etm_cov_free(c);
	etm_cov_free(empty);
	return s;
}

/* The two feeds of @els save the same coverage; returns 1 if so. */
static int feeds_agree(struct etm_image *img, const struct etm_elem *els,
		       size_t n)
{
	char *a = count(img, els, n, FEED_MEMO);
	char *w = count(img, els, n, FEED_WALK);
	int same = a && w && !strcmp(a, w);

	if (!same)
		printf("memo:\n%s---\nwalked:\n%s", a ? a : "(null)",
		       w ? w : "(null)");
	free(a);
	free(w);
	return same;
}

/* ETMv3 source 0x10, 9 iterations i: A A B C G E, and for i % 3 == 2
 * (i = 2, 5, 8) A A B C G H G E. A = [0x1000, 3 insns, bne taken], B =
 * the same with bne not taken (runs on into C), C = [0x100c bl, taken],
 * G = [0x1018 bx lr, taken], H = [0x1014 nop] (runs on into G), E =
 * [0x1010 b, taken]. Transitions: A->A and A->B (taken: A's successor
 * changes at every A), B->C (straight on), C->G, G->E, E->A (taken),
 * G->H, H->G; G->E after H->G ends the run from 0x1014, not the run
 * pending in G's memo entry (from 0x1018). By hand: executions 0x1000, 0x1004,
 * 0x1008 27 (3 an iteration; 0x1008 fails 9: B), 0x100c 9, 0x1018 12,
 * 0x1014 3, 0x1010 9. Branches: 0x1008->0x1000 18 (A->A, A->B),
 * 0x100c->0x1018 9, 0x1018->0x1010 9, 0x1018->0x1014 3, 0x1010->0x1000
 * 8 (the last E has no successor). Runs: [0x1000,0x1008] 18,
 * [0x1000,0x100c] 9, [0x1018,0x1018] 9, [0x1014,0x1018] 3,
 * [0x1010,0x1010] 9 (the last closed at the end). */
static void loop_by_hand(void)
{
	static const uint64_t br[5][3] = { { 0x1008, 0x1000, 18 }, { 0x100c, 0x1018, 9 }, { 0x1018, 0x1010, 9 }, { 0x1018, 0x1014, 3 }, { 0x1010, 0x1000, 8 } };
	static const uint64_t run[5][3] = { { 0x1000, 0x1008, 18 }, { 0x1000, 0x100c, 9 }, { 0x1018, 0x1018, 9 }, { 0x1014, 0x1018, 3 }, { 0x1010, 0x1010, 9 } };
	static const uint64_t execs[7][3] = { { 0x1000, 27, 0 }, { 0x1004, 27, 0 }, { 0x1008, 27, 9 }, { 0x100c, 9, 0 }, { 0x1010, 9, 0 }, { 0x1014, 3, 0 }, { 0x1018, 12, 0 } };
	struct etm_image *img = etest_cov_image();
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el[80];
	struct etm_cov_insn ci;
	struct etm_cov_pair *p;
	size_t n, k = 0;
	int i, b;

	ET_CHECK(img && c);
	for (i = 0; i < 9; i++) {
		el[k++] = etest_cov_range(0x10, 0x1000, 3, 1);
		el[k++] = etest_cov_range(0x10, 0x1000, 3, 1);
		el[k++] = etest_cov_range(0x10, 0x1000, 3, 0);
		el[k++] = etest_cov_range(0x10, 0x100c, 1, 1);
		el[k++] = etest_cov_range(0x10, 0x1018, 1, 1);
		if (i % 3 == 2) {
			el[k++] = etest_cov_range(0x10, 0x1014, 1, 1);
			el[k++] = etest_cov_range(0x10, 0x1018, 1, 1);
		}
		el[k++] = etest_cov_range(0x10, 0x1010, 1, 1);
	}
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_etmv3, img), 0);
	ET_EQ(etm_cov_add_elems(c, el, k), 0);
	ET_EQ(etm_cov_end(c), 0);
	for (b = 1; b >= 0; b--) {
		const uint64_t(*pr)[3] = b ? br : run;

		ET_EQ(etm_cov_pairs(c, b, &p, &n), 0);
		ET_EQ(n, 5);
		for (i = 0; i < 5; i++)
			ET_EQ(etest_cov_pair_count(p, n, pr[i][0], pr[i][1]), pr[i][2]);
		free(p);
	}
	for (i = 0; i < 7; i++) {
		ET_EQ(etm_cov_insn_at(c, execs[i][0], &ci), 0);
		ET_EQ(ci.exec, execs[i][1]);
		ET_EQ(ci.fail, execs[i][2]);
	}
	ET_CHECK(feeds_agree(img, el, k));
	etm_cov_free(c);
	etm_image_free(img);
}

/* Pseudo-random streams over the program: ranges of ETMv3 source 0x10
 * and PTM source 0x11 interleaved, from a few fixed ranges (so that most
 * follow a range they followed before) with random outcomes, a range
 * with no atom, exceptions, trace-on gaps, elements of an undeclared
 * source. The memo and walked feeds must agree. */
static void random_streams(void)
{
	static const uint32_t ranges[][2] = { { 0x1000, 3 }, { 0x1000, 2 }, { 0x1008, 1 }, { 0x100c, 1 }, { 0x1010, 1 }, { 0x1014, 2 }, { 0x1018, 1 }, { 0x1004, 3 } };
	struct etm_image *img = etest_cov_image();
	struct etm_elem *el = calloc(3000, sizeof(*el));
	uint64_t x = 0x2545f4914f6cdd1dull;
	int round;

	ET_CHECK(img && el);
	for (round = 0; round < 6; round++) {
		size_t k;

		for (k = 0; k < 3000; k++) {
			unsigned r, id;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			r = (unsigned)(x >> 32);
			/* round 0-1: one source; later rounds interleave */
			id = round < 2 ? 0x10 + (unsigned)round : 0x10 + (r >> 20) % 2;
			if (r % 61 == 0) { /* an exception */
				memset(&el[k], 0, sizeof(el[k]));
				el[k].kind = etmk_exception;
				el[k].id = (uint8_t)id;
				el[k].has_ret = (r >> 8) & 1;
				el[k].ret_addr = 0x1010;
				continue;
			}
			if (r % 89 == 0) { /* a gap */
				memset(&el[k], 0, sizeof(el[k]));
				el[k].kind = etmk_trace_on;
				el[k].id = (uint8_t)id;
				continue;
			}
			/* mostly a loop: 0x1000 x3, 0x100c, 0x1018, 0x1010 */
			if ((r >> 4) % 4)
				r = (unsigned)(k % 4 == 0 ? 0 : k % 4 == 1 ? 3 :
							k % 4 == 2         ? 6 :
									     4) |
				    (r & ~7u);
			el[k] = etest_cov_range(r % 97 == 1 ? 0x12 : id, ranges[r & 7][0],
						ranges[r & 7][1], (r >> 9) % 5 != 0);
			if (r % 53 == 0)
				el[k].last_atom = 0;
		}
		ET_CHECK(feeds_agree(img, el, 3000));
	}
	free(el);
	etm_image_free(img);
}

/* Element kinds coverage takes no note of (doc/coverage.md): a stream
 * with them added between its elements saves what it saves without them. */
static const enum etm_elem_kind ignored_kinds[] = { etmk_context, etmk_timestamp, etmk_cycle_count, etmk_exc_return, etmk_event };
/* Element kinds that end a run as a trace-on gap does. */
static const enum etm_elem_kind gap_kinds[] = { etmk_trace_on, etmk_nosync, etmk_nomem, etmk_error, etmk_buffer_end };

/* The loop stream of random_streams() over two sources, with trace-on
 * gaps, into @el (room for @n): element k is a range for k % 4 != 3. */
static void loop_stream(struct etm_elem *el, size_t n, uint64_t x)
{
	static const uint32_t ranges[4][2] = { { 0x1000, 3 }, { 0x100c, 1 }, { 0x1018, 1 }, { 0x1010, 1 } };
	size_t k;

	for (k = 0; k < n; k++) {
		unsigned r;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r = (unsigned)(x >> 32);
		if (r % 29 == 0) {
			memset(&el[k], 0, sizeof(el[k]));
			el[k].kind = etmk_trace_on;
			el[k].id = (uint8_t)(0x10 + (r >> 9) % 2);
			continue;
		}
		el[k] = etest_cov_range(0x10 + (r >> 9) % 2, ranges[k % 4][0], ranges[k % 4][1],
					(r >> 3) % 4 != 0);
	}
}

/* Elements coverage ignores, of any source (also an undeclared one and
 * one past the ids), inserted between the elements of a stream change
 * nothing; a gap of any kind ends a run as a trace-on gap does. Each
 * variant is counted through the memo and walked, and all save the same
 * coverage as the plain stream walked. */
static void kinds_between_ranges(void)
{
	enum { N = 2000 };
	struct etm_image *img = etest_cov_image();
	struct etm_elem *el = calloc(N, sizeof(*el)), *mix = calloc(3 * N, sizeof(*mix));
	char *plain;
	size_t k, m = 0;

	ET_CHECK(img && el && mix);
	loop_stream(el, N, 0x9e3779b97f4a7c15ull);
	plain = count(img, el, N, FEED_WALK);
	ET_CHECK(plain != NULL);
	/* ignored elements: none, one or two before each element */
	for (k = 0; k < N; k++) {
		size_t j;

		for (j = 0; j < k % 3; j++) {
			memset(&mix[m], 0, sizeof(mix[m]));
			mix[m].kind = ignored_kinds[(k + j) % 5];
			mix[m].id = (uint8_t)(k % 7 == 0 ? 0x12 : k % 11 == 0 ? 200 :
										0x10 + (k + j) % 2);
			m++;
		}
		mix[m++] = el[k];
	}
	for (k = 0; k < 2; k++) {
		char *s = count(img, mix, m, k ? FEED_WALK : FEED_MEMO);

		ET_CHECK(s && plain && !strcmp(s, plain));
		free(s);
	}
	/* every gap kind in turn instead of the trace-on gaps */
	for (k = 0; k < N; k++)
		if (el[k].kind == etmk_trace_on)
			el[k].kind = gap_kinds[k % 5];
	for (k = 0; k < 2; k++) {
		char *s = count(img, el, N, k ? FEED_WALK : FEED_MEMO);

		ET_CHECK(s && plain && !strcmp(s, plain));
		free(s);
	}
	free(plain);
	free(mix);
	free(el);
	etm_image_free(img);
}

/* A range across a page boundary is counted through the memo like one
 * inside a page (cov_range_walk() keeps ranges of two consecutive pages).
 * The program of etest_cov_prog placed at 0x1ff8: 0x1ff8 cmp, 0x1ffc
 * moveq (page 0x1000), 0x2000 bne 0x1ff8 (page 0x2000). Stream: 12
 * iterations i of an ETMv3 range (source 0x10) then a PTM range (0x11),
 * each [0x1ff8, 3 insns], bne taken, failed when i % 4 == 3; then one
 * PTM range whose bne has no atom. By hand: 0x1ff8 and 0x1ffc run 25
 * times (12 + 13), untold 13 (PTM: every instruction but a waypoint);
 * 0x2000 runs 25, fails 6 (3 per source), untold 1. After the first 6
 * elements (3 iterations, none failed): 6, 6 with 3 untold, 6 and no
 * failure. The memo feed and the walked one save the same coverage. */
static void across_pages(void)
{
	struct etm_image *img = etm_image_alloc();
	struct etm_cov *c = etm_cov_alloc();
	struct etm_elem el[25];
	struct etm_cov_insn ci;
	uint8_t b[sizeof(etest_cov_prog)];
	size_t i, k = 0;

	ET_CHECK(img && c);
	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(etest_cov_prog[i / 4] >> (8 * (i % 4)));
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x1ff8, b, sizeof(b)), 0);
	for (i = 0; i < 12; i++) {
		el[k++] = etest_cov_range(0x10, 0x1ff8, 3, i % 4 != 3);
		el[k++] = etest_cov_range(0x11, 0x1ff8, 3, i % 4 != 3);
	}
	el[k] = etest_cov_range(0x11, 0x1ff8, 3, 1);
	el[k++].last_atom = 0;
	ET_EQ(etm_cov_set_source(c, 0x10, etm_proto_etmv3, img), 0);
	ET_EQ(etm_cov_set_source(c, 0x11, etm_proto_ptm, img), 0);
	ET_EQ(etm_cov_add_elems(c, el, 6), 0);
	/* both ranges were kept in the memo: the rest is counted there */
	ET_CHECK(c->memo && cov_memo_find(c->memo, &el[0], 0) &&
		 cov_memo_find(c->memo, &el[1], COV_MEMO_PTM));
	ET_EQ(etm_cov_insn_at(c, 0x1ffc, &ci), 0);
	ET_EQ(ci.exec, 6);
	ET_EQ(ci.unknown, 3);
	ET_EQ(etm_cov_insn_at(c, 0x2000, &ci), 0);
	ET_EQ(ci.exec, 6);
	ET_EQ(ci.fail, 0);
	ET_EQ(etm_cov_add_elems(c, el + 6, k - 6), 0);
	ET_EQ(etm_cov_end(c), 0);
	for (i = 0; i < 2; i++) {
		ET_EQ(etm_cov_insn_at(c, 0x1ff8 + 4 * i, &ci), 0);
		ET_EQ(ci.exec, 25);
		ET_EQ(ci.fail, 0);
		ET_EQ(ci.unknown, 13);
	}
	ET_EQ(etm_cov_insn_at(c, 0x2000, &ci), 0);
	ET_EQ(ci.exec, 25);
	ET_EQ(ci.fail, 6);
	ET_EQ(ci.unknown, 1);
	ET_CHECK(feeds_agree(img, el, k));
	etm_cov_free(c);
	etm_image_free(img);
}

int main(void)
{
	ETEST(loop_by_hand);
	ETEST(random_streams);
	ETEST(kinds_between_ranges);
	ETEST(across_pages);
	return etest_end();
}
