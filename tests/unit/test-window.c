/* tests/unit/test-window.c - the element window (etmtrace/window.h) on
 * hand-made elements over a hand-assembled T32 image, every expected
 * value derived by hand below:
 *
 *   0x1000  2001       movs r0, #1      (16-bit)   index 0 of a copy
 *   0x1002  f04f 0102  mov.w r1, #2     (32-bit)         1
 *   0x1006  3001       adds r0, #1      (16-bit)         2
 *   0x1008  f04f 0203  mov.w r2, #3     (32-bit)         3
 *   0x100c  4770       bx lr            (16-bit)         4
 *
 * One range element [0x1000, 0x100e), 5 instructions, last 0x100c
 * (ibranch, E, 7 cycles) is "a copy"; the tests feed several copies. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/window.h>

#include "etest.h"

static const uint8_t code[] = { 0x01, 0x20, 0x4f, 0xf0, 0x02, 0x01, 0x01,
				0x30, 0x4f, 0xf0, 0x03, 0x02, 0x70, 0x47 };
static struct etm_image *img;
static struct etm_config cfg_ar, cfg_m;

static struct etm_elem copy(uint64_t off)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = etmk_range;
	e.offset = off;
	e.id = 0x10;
	e.start = 0x1000;
	e.end = 0x100e;
	e.isa = etmi_t32;
	e.ninsn = 5;
	e.last_addr = 0x100c;
	e.last_size = 2;
	e.last_cls = etmc_br_indirect;
	e.last_exec = 1;
	e.last_atom = 1;
	e.has_cycles = 1;
	e.cycles = 7;
	return e;
}

static struct etm_elem other(enum etm_elem_kind k, uint64_t off, uint64_t v)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = k;
	e.offset = off;
	e.id = 0x10;
	e.timestamp = k == etmk_timestamp ? v : 0;
	e.exc_num = k == etmk_exception ? (uint16_t)v : 0;
	return e;
}

static struct etm_window *win(const char *start, const char *stop,
			      uint64_t last, enum etm_win_at at,
			      const struct etm_config *cfg, int with_img)
{
	struct etm_window_opts o;
	struct etm_window *w;

	memset(&o, 0, sizeof(o));
	if (start && etm_window_parse(start, &o.start))
		return NULL;
	if (stop && etm_window_parse(stop, &o.stop))
		return NULL;
	o.last = last;
	o.at = at;
	w = etm_window_alloc(&o);
	if (w)
		etm_window_add_source(w, 0x10, cfg, with_img ? img : NULL);
	return w;
}

/* Feed @n elements then finish; the kept ones into @out (at most @max);
 * returns how many, or -1 on an error. */
static int run(struct etm_window *w, const struct etm_elem *in, int n,
	       struct etm_elem *out, int max)
{
	int i, k = 0;

	for (i = 0; i <= n; i++) {
		if ((i < n ? etm_window_put(w, &in[i]) : etm_window_finish(w)) < 0)
			return -1;
		while (k < max && etm_window_next(w, &out[k]) == 0)
			k++;
	}
	return k;
}

static void t_parse(void)
{
	struct etm_win_bound b = { etm_win_none, 0 };

	ET_EQ(etm_window_parse("0x1006", &b), 0);
	ET_CHECK(b.kind == etm_win_addr && b.value == 0x1006);
	ET_EQ(etm_window_parse("@0x10", &b), 0);
	ET_CHECK(b.kind == etm_win_offset && b.value == 16);
	ET_EQ(etm_window_parse("ts:5", &b), 0);
	ET_CHECK(b.kind == etm_win_ts && b.value == 5);
	ET_EQ(etm_window_parse("#7", &b), 0);
	ET_CHECK(b.kind == etm_win_insn && b.value == 7);
	ET_EQ(etm_window_parse("123", &b), -etme_parse);
	ET_EQ(etm_window_parse("#", &b), -etme_parse);
	ET_EQ(etm_window_parse("#x", &b), -etme_parse);
	ET_EQ(etm_window_parse("0x", &b), -etme_parse);
	ET_EQ(etm_window_parse("@-1", &b), -etme_parse);
	ET_EQ(etm_window_parse("0x10000000000000000", &b), -etme_parse);
	ET_CHECK(b.kind == etm_win_insn && b.value == 7); /* unchanged */
}

/* --start 0x1006: instructions 2-4 of the copy, its last unchanged. */
static void t_start_addr_cuts(void)
{
	struct etm_window *w = win("0x1006", NULL, 0, 0, &cfg_ar, 1);
	struct etm_elem in[2] = { copy(0), copy(9) }, out[4];

	ET_CHECK(w);
	ET_EQ(run(w, in, 2, out, 4), 2);
	ET_EQ(out[0].start, 0x1006);
	ET_EQ(out[0].end, 0x100e);
	ET_EQ(out[0].ninsn, 3);
	ET_EQ(out[0].last_addr, 0x100c);
	ET_EQ(out[0].cycles, 7);
	ET_EQ(out[1].ninsn, 5);
	etm_window_free(w);
}

/* 0x1004 is the middle of mov.w: no instruction there, nothing kept. */
static void t_start_not_an_insn(void)
{
	struct etm_window *w = win("0x1004", NULL, 0, 0, &cfg_ar, 1);
	struct etm_elem in[2] = { copy(0), copy(9) }, out[4];

	ET_CHECK(w);
	ET_EQ(run(w, in, 2, out, 4), 0);
	etm_window_free(w);
}

/* --stop #2: instructions 0-1, ending in the 32-bit mov.w at 0x1002,
 * which passed (the range went on); the cycles stay with the cut-off
 * part; the window is done at once. */
static void t_stop_index_cuts(void)
{
	struct etm_window *w = win(NULL, "#2", 0, 0, &cfg_ar, 1);
	struct etm_elem in = copy(0), out[2];

	ET_CHECK(w);
	ET_EQ(etm_window_put(w, &in), 0);
	ET_EQ(etm_window_next(w, &out[0]), 0);
	ET_EQ(etm_window_next(w, &out[1]), -etme_eos);
	ET_CHECK(etm_window_done(w));
	ET_EQ(out[0].start, 0x1000);
	ET_EQ(out[0].end, 0x1006);
	ET_EQ(out[0].ninsn, 2);
	ET_EQ(out[0].last_addr, 0x1002);
	ET_EQ(out[0].last_size, 4);
	ET_EQ(out[0].last_cls, etmc_other);
	ET_EQ(out[0].last_exec, 1);
	ET_EQ(out[0].has_cycles, 0);
	etm_window_free(w);
}

/* --start #1 --stop #4 in one copy: [0x1002, 0x100c), 3 instructions,
 * the last the mov.w at 0x1008; a timestamp before is left out, one in
 * the window kept. */
static void t_index_window(void)
{
	struct etm_window *w = win("#6", "#9", 0, 0, &cfg_ar, 1);
	struct etm_elem in[4] = { other(etmk_timestamp, 0, 1), copy(1),
				  other(etmk_timestamp, 5, 2), copy(9) };
	struct etm_elem out[4];

	ET_CHECK(w);
	ET_EQ(run(w, in, 4, out, 4), 1); /* #6-#8: the second copy's 1-3 */
	ET_EQ(out[0].start, 0x1002);
	ET_EQ(out[0].end, 0x100c);
	ET_EQ(out[0].ninsn, 3);
	ET_EQ(out[0].last_addr, 0x1008);
	etm_window_free(w);
	w = win("#1", "#4", 0, 0, &cfg_ar, 1);
	ET_EQ(run(w, in, 4, out, 4), 1);
	ET_EQ(out[0].start, 0x1002);
	ET_EQ(out[0].ninsn, 3);
	etm_window_free(w);
	w = win("#6", "#2", 0, 0, &cfg_ar, 1); /* a stop before the start */
	ET_EQ(run(w, in, 4, out, 4), 0);
	ET_CHECK(etm_window_done(w));
	etm_window_free(w);
	w = win("#3", "#7", 0, 0, &cfg_ar, 1); /* 3-4, the timestamp, 5-6 */
	ET_EQ(run(w, in, 4, out, 4), 3);
	ET_EQ(out[0].start, 0x1008);
	ET_EQ(out[0].ninsn, 2);
	ET_EQ(out[1].kind, etmk_timestamp);
	ET_EQ(out[1].timestamp, 2);
	ET_EQ(out[2].end, 0x1006);
	ET_EQ(out[2].ninsn, 2);
	etm_window_free(w);
}

/* Start and stop at 0x1000: one copy, up to the next time 0x1000 runs. */
static void t_loop_trip(void)
{
	struct etm_window *w = win("0x1000", "0x1000", 0, 0, &cfg_ar, 1);
	struct etm_elem in[3] = { copy(0), copy(9), copy(18) }, out[4];

	ET_CHECK(w);
	ET_EQ(run(w, in, 3, out, 4), 1);
	ET_EQ(out[0].ninsn, 5);
	ET_EQ(out[0].offset, 0);
	ET_CHECK(etm_window_done(w));
	etm_window_free(w);
}

/* @offset and ts: bounds are whole elements: from the element at offset
 * 9 up to the first timestamp of 20 or more. */
static void t_offset_ts(void)
{
	struct etm_window *w = win("@9", "ts:20", 0, 0, &cfg_ar, 1);
	struct etm_elem in[5] = { copy(0), copy(9), other(etmk_timestamp, 12, 19),
				  other(etmk_timestamp, 13, 20), copy(14) };
	struct etm_elem out[4];

	ET_CHECK(w);
	ET_EQ(run(w, in, 5, out, 4), 2);
	ET_EQ(out[0].offset, 9);
	ET_EQ(out[1].timestamp, 19);
	etm_window_free(w);
}

/* --last 7 of 3 copies (15 instructions) and an error after them: the
 * second copy's last 2 (0x1008, 0x100c), the third copy, the error; the
 * timestamp before the second copy is left out. */
static void t_last(void)
{
	struct etm_window *w = win(NULL, NULL, 7, etm_win_at_end, &cfg_ar, 1);
	struct etm_elem in[5] = { copy(0), other(etmk_timestamp, 5, 1), copy(9),
				  copy(18), other(etmk_error, 27, 0) };
	struct etm_elem out[8];

	ET_CHECK(w);
	ET_EQ(run(w, in, 5, out, 8), 3);
	ET_EQ(out[0].start, 0x1008);
	ET_EQ(out[0].ninsn, 2);
	ET_EQ(out[0].offset, 9);
	ET_EQ(out[1].offset, 18);
	ET_EQ(out[1].ninsn, 5);
	ET_EQ(out[2].kind, etmk_error);
	etm_window_free(w);
}

/* --last 3 --at halt: copy, halt, copy, copy, halt: the first copy's last
 * 3 and its halt; a window element for the 5 + 2 instructions left out;
 * the third copy's last 3 and its halt. On an M-profile core exception 1
 * is an interrupt: only the last 3 before the end. */
static void t_at_halt(void)
{
	struct etm_window *w = win(NULL, NULL, 3, etm_win_at_halt, &cfg_ar, 1);
	struct etm_elem in[5] = { copy(0), other(etmk_exception, 8, 1), copy(9),
				  copy(18), other(etmk_exception, 26, 1) };
	struct etm_elem out[8];

	ET_CHECK(w);
	ET_EQ(run(w, in, 5, out, 8), 5);
	ET_EQ(out[0].start, 0x1006);
	ET_EQ(out[0].ninsn, 3);
	ET_EQ(out[1].kind, etmk_exception);
	ET_EQ(out[2].kind, etmk_window);
	ET_EQ(out[2].ninsn, 7);
	ET_EQ(out[2].offset, 9);
	ET_EQ(out[2].id, 0);
	ET_EQ(out[3].start, 0x1006);
	ET_EQ(out[3].offset, 18);
	ET_EQ(out[4].kind, etmk_exception);
	etm_window_free(w);
	w = win(NULL, NULL, 3, etm_win_at_halt, &cfg_m, 1);
	ET_EQ(run(w, in, 5, out, 8), 2);
	ET_EQ(out[0].offset, 18);
	ET_EQ(out[0].ninsn, 3);
	ET_EQ(out[1].offset, 26);
	etm_window_free(w);
}

/* --last 2 over a copy and 10000 timestamps: the ring holds at most
 * 2 * 2 + 4096 elements; the oldest timestamps go (counted), never the
 * instructions. */
static void t_ring_bounded(void)
{
	struct etm_window *w = win(NULL, NULL, 2, etm_win_at_end, &cfg_ar, 1);
	struct etm_elem e = copy(0), out;
	int i, k = 0, first_range = 0;

	ET_CHECK(w);
	ET_EQ(etm_window_put(w, &e), 0);
	for (i = 0; i < 10000; i++) {
		e = other(etmk_timestamp, (uint64_t)i + 1, (uint64_t)i);
		ET_EQ(etm_window_put(w, &e), 0);
	}
	ET_EQ(etm_window_finish(w), 0);
	while (etm_window_next(w, &out) == 0) {
		if (!k)
			first_range = out.kind == etmk_range && out.ninsn == 2 &&
				      out.start == 0x100a - 2;
		k++;
	}
	ET_CHECK(first_range);
	ET_CHECK(k <= 2 * 2 + 4096);
	ET_CHECK(etm_window_dropped(w) > 0);
	ET_EQ((uint64_t)k + etm_window_dropped(w), 10001);
	ET_EQ(out.timestamp, 9999); /* the newest are kept */
	etm_window_free(w);
}

/* Output not taken: the next put is refused; without an image a range
 * holding the bound is kept whole. */
static void t_busy_and_no_image(void)
{
	struct etm_window *w = win("#2", NULL, 0, 0, &cfg_ar, 0);
	struct etm_elem in[2] = { copy(0), copy(9) }, out[4];

	ET_CHECK(w);
	ET_EQ(etm_window_put(w, &in[0]), 0);
	ET_EQ(etm_window_put(w, &in[1]), -etme_busy);
	ET_EQ(etm_window_next(w, &out[0]), 0);
	ET_EQ(out[0].ninsn, 5);
	ET_EQ(etm_window_next(w, &out[1]), -etme_again);
	etm_window_free(w);
	ET_CHECK(!etm_window_alloc(&(struct etm_window_opts){ .at = 7 }));
	etm_window_free(NULL);
}

int main(void)
{
	img = etm_image_alloc();
	if (!img || etm_image_add_buffer(img, etm_space_any, 0x1000, code,
					 sizeof(code)))
		return 1;
	cfg_ar.protocol = etm_proto_etmv3;
	cfg_m.protocol = etm_proto_etmv3;
	cfg_m.flags = ETM_CFG_M_PROFILE;
	ETEST(t_parse);
	ETEST(t_start_addr_cuts);
	ETEST(t_start_not_an_insn);
	ETEST(t_stop_index_cuts);
	ETEST(t_index_window);
	ETEST(t_loop_trip);
	ETEST(t_offset_ts);
	ETEST(t_last);
	ETEST(t_at_halt);
	ETEST(t_ring_bounded);
	ETEST(t_busy_and_no_image);
	etm_image_free(img);
	return etest_end();
}
