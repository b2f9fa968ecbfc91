/* tests/unit/test-pieces.c - the pieces of a circular buffer found from
 * hand-built CoreSight frames (etm_pieces_find(), doc/circular.md). Each
 * frame is derived by hand below: even bytes with bit 0 set are ID changes
 * (ID = byte >> 1; aux bit 0 = at once), even data bytes take bit 0 from
 * the aux byte (byte 15, all 0 here, so every even data byte is even). */
#include <string.h>

#include <etmtrace/pieces.h>

#include "etest.h"

/* ID 0x10 starts: A-sync 00 00 00 00 00 80 (bytes 1-6), I-sync 08, info
 * 0x20 (reason 01: trace on), address 00 00 01 00 (0x00010000; byte 11 is
 * odd: 0x01 is data there), then P-headers 84 84. */
static const uint8_t f_start[16] = { 0x21, 0, 0, 0, 0, 0, 0x80, 0x08, 0x20,
				     0, 0, 0x01, 0, 0x84, 0x84, 0 };
/* the same with info 0x00: a periodic I-sync, not a run's start */
static const uint8_t f_periodic[16] = { 0x21, 0, 0, 0, 0, 0, 0x80, 0x08, 0,
					0, 0, 0x01, 0, 0x84, 0x84, 0 };
/* data, no ID byte: fifteen P-headers 0x84 */
static const uint8_t f_data[16] = { 0x84, 0x84, 0x84, 0x84, 0x84, 0x84,
				    0x84, 0x84, 0x84, 0x84, 0x84, 0x84,
				    0x84, 0x84, 0x84, 0 };
/* ID 0x11 (0x23), then its data */
static const uint8_t f_other[16] = { 0x23, 0x84, 0x84, 0x84, 0x84, 0x84,
				     0x84, 0x84, 0x84, 0x84, 0x84, 0x84,
				     0x84, 0x84, 0x84, 0 };
/* a stop: ID 0 (0x01), zeros: the formatter's padding */
static const uint8_t f_pad[16] = { 0x01 };
static const uint8_t f_zero[16] = { 0 };

static uint8_t buf[64 * 16];
static struct etm_config cfg;

static size_t build(const uint8_t *const *fr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		memcpy(buf + 16 * i, fr[i], 16);
	etm_config_init(&cfg);
	cfg.protocol = etm_proto_etmv3;
	cfg.traceid = 0x10;
	return 16 * n;
}

static void one_run(void)
{
	const uint8_t *fr[] = { f_start, f_data, f_data, f_pad };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 4), &cfg, 1, &ps);
	ET_EQ(ps.n, 1);
	ET_EQ(ps.p[0].end, 64);
	ET_EQ(etm_piece_role(&ps, 0), etm_role_whole);
}

/* tail (0..64: data, stop, more padding), older lap (64..96: data with no
 * ID byte after the padding), newest run (96..: ID change, A-sync, trace-on
 * I-sync, the older lap's data running to the frame before). Time: the
 * older lap (it is older than the tail that ended in the stop before it,
 * and than the run that cut it), the tail (the file ends in padding: the
 * last piece is the newest), the run. */
static void circular(void)
{
	const uint8_t *fr[] = { f_data, f_data, f_pad, f_zero, f_data,
				f_data, f_start, f_data, f_pad };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 9), &cfg, 1, &ps);
	ET_EQ(ps.n, 3);
	ET_EQ(ps.order_known, 1);
	ET_EQ(ps.p[0].start, 0);
	ET_EQ(ps.p[1].start, 64);
	ET_EQ(ps.p[2].start, 96);
	ET_EQ(ps.p[2].end, 144);
	ET_EQ(ps.p[0].end_kind, etm_piece_stop);
	ET_EQ(ps.p[1].begin, etm_piece_stale);
	ET_EQ(ps.p[1].end_kind, etm_piece_cut);
	ET_EQ(ps.p[2].begin, etm_piece_run_start);
	ET_EQ(ps.p[0].time_index, 1);
	ET_EQ(ps.p[1].time_index, 0);
	ET_EQ(ps.p[2].time_index, 2);
	ET_EQ(etm_piece_role(&ps, 0), etm_role_tail);
	ET_EQ(etm_piece_role(&ps, 1), etm_role_older_lap);
	ET_EQ(etm_piece_role(&ps, 2), etm_role_newest_run);
	/* without the source's configuration, no I-sync can be read: only
	 * the stale data's boundary */
	etm_pieces_find(buf, 144, NULL, 0, &ps);
	ET_EQ(ps.n, 2);
	ET_EQ(ps.p[1].start, 64);
}

/* An A-sync and a periodic I-sync at a frame start after an ID change: a
 * run going on, no boundary. */
static void periodic_sync(void)
{
	const uint8_t *fr[] = { f_data, f_periodic, f_data };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 3), &cfg, 1, &ps);
	ET_EQ(ps.n, 1);
}

/* A source that starts tracing after an idle time (another source's data
 * fills the frame before): a run in order (TC2 @16480), no boundary. */
static void idle_source_starts(void)
{
	const uint8_t *fr[] = { f_start, f_other, f_start, f_data };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 4), &cfg, 1, &ps);
	ET_EQ(ps.n, 1);
}

/* TC2 @16480's shape: a frame begins with 0x11's data (ID byte 0x23,
 * eleven P-headers), then 0x21 names 0x10 at byte 12, whose A-sync
 * (zeros at 13, 14 and 0-2 of the next frame, 0x80 at 3) and trace-on
 * I-sync (08 20, address 00 00 01 00: the 0x01 at even byte 8 is written
 * 0x00 with aux bit 4 set) follow. With both sources configured the first
 * one the frame names, 0x11, goes on with no A-sync: a run going on. With
 * only 0x10 configured it is 0x10's start, and 0x10 had data in the frame
 * before: a boundary. 0x11 syncs in the last frame (f_sync11: ID byte
 * 0x23, A-sync 00 00 00 00 00 80 at bytes 1-6), so it is a source that can
 * start a run; that frame is no boundary (0x11 had no data in the frame
 * before). */
static const uint8_t f_mixed[16] = { 0x23, 0x84, 0x84, 0x84, 0x84, 0x84,
				     0x84, 0x84, 0x84, 0x84, 0x84, 0x84,
				     0x21, 0, 0, 0 };
static const uint8_t f_cont[16] = { 0, 0, 0, 0x80, 0x08, 0x20, 0, 0,
				    0, 0, 0x84, 0x84, 0x84, 0x84, 0x84,
				    0x10 };
static const uint8_t f_sync11[16] = { 0x23, 0, 0, 0, 0, 0, 0x80, 0x84, 0x84,
				      0x84, 0x84, 0x84, 0x84, 0x84, 0x84, 0 };

static void another_source_first(void)
{
	const uint8_t *fr[] = { f_start, f_data, f_mixed, f_cont, f_sync11 };
	struct etm_config two[2];
	struct etm_circ_pieces ps;

	build(fr, 5);
	two[0] = two[1] = cfg;
	two[1].traceid = 0x11;
	etm_pieces_find(buf, 80, two, 2, &ps);
	ET_EQ(ps.n, 1);
	etm_pieces_find(buf, 80, &cfg, 1, &ps);
	ET_EQ(ps.n, 2);
	ET_EQ(ps.p[1].start, 32);
	ET_EQ(ps.p[1].begin, etm_piece_run_start);
}

/* The same frames without f_sync11: 0x11's data (the 0x84s of f_mixed)
 * hold no A-sync anywhere, so 0x11 can never start a run and does not
 * count as the first configured source named (am243x's ID 0x6F, a counter
 * byte, configured beside 0x10): f_mixed is 0x10's run start, as with 0x10
 * alone: two pieces, the second at 32. */
static void never_synced_source(void)
{
	const uint8_t *fr[] = { f_start, f_data, f_mixed, f_cont };
	struct etm_config two[2];
	struct etm_circ_pieces ps;

	build(fr, 4);
	two[0] = two[1] = cfg;
	two[1].traceid = 0x11;
	etm_pieces_find(buf, 64, two, 2, &ps);
	ET_EQ(ps.n, 2);
	ET_EQ(ps.p[1].start, 32);
	ET_EQ(ps.p[1].begin, etm_piece_run_start);
	/* the order of the configurations does not matter */
	two[0].traceid = 0x11;
	two[1].traceid = 0x10;
	etm_pieces_find(buf, 64, two, 2, &ps);
	ET_EQ(ps.n, 2);
}

/* A stop's padding, then a new start with its ID byte: trace stopped and
 * started again in order, no boundary. All-zero frames after padding are
 * more padding. */
static void stop_then_start(void)
{
	const uint8_t *fr[] = { f_start, f_data, f_pad, f_zero, f_start, f_data };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 6), &cfg, 1, &ps);
	ET_EQ(ps.n, 1);
}

/* dump start (0..16), a run (16..64, ends in a stop), older data (64..):
 * the run is newer than both, the file does not end in padding: which of
 * the other two is older is not in the bytes. */
static void order_unknown(void)
{
	const uint8_t *fr[] = { f_data, f_start, f_data, f_pad, f_data, f_data };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 6), &cfg, 1, &ps);
	ET_EQ(ps.n, 3);
	ET_EQ(ps.p[1].start, 16);
	ET_EQ(ps.p[2].start, 64);
	ET_EQ(ps.order_known, 0);
	ET_EQ(ps.p[2].time_index, 2); /* the file's order kept */
	ET_EQ(ps.p[2].end_kind, etm_piece_dump_end);
}

/* Frames out of place (damage): one ends in an ID-0 byte at byte 14, the
 * next begins with data. One byte of "padding" is no stop (at least 12:
 * a flush fills the frame): no boundary. */
static void stray_id0(void)
{
	static const uint8_t f_id0[16] = { 0x84, 0x84, 0x84, 0x84, 0x84, 0x84,
					   0x84, 0x84, 0x84, 0x84, 0x84, 0x84,
					   0x84, 0x84, 0x01, 0 };
	const uint8_t *fr[] = { f_start, f_id0, f_data, f_data };
	struct etm_circ_pieces ps;

	etm_pieces_find(buf, build(fr, 4), &cfg, 1, &ps);
	ET_EQ(ps.n, 1);
}

/* Hostile: every other frame padding then data; at most ETM_PIECES_MAX
 * pieces, the rest in the last. */
static void many_boundaries(void)
{
	const uint8_t *fr[64];
	struct etm_circ_pieces ps;

	for (int i = 0; i < 64; i++)
		fr[i] = i % 2 ? f_data : f_pad;
	etm_pieces_find(buf, build(fr, 64), &cfg, 1, &ps);
	ET_EQ(ps.n, ETM_PIECES_MAX);
	ET_EQ(ps.p[ETM_PIECES_MAX - 1].end, 1024);
	etm_pieces_find(buf, 15, &cfg, 1, &ps); /* less than a frame */
	ET_EQ(ps.n, 1);
	etm_pieces_find(NULL, 0, NULL, 0, &ps);
	ET_EQ(ps.n, 1);
}

int main(void)
{
	ETEST(one_run);
	ETEST(circular);
	ETEST(periodic_sync);
	ETEST(idle_source_starts);
	ETEST(another_source_first);
	ETEST(never_synced_source);
	ETEST(stop_then_start);
	ETEST(order_unknown);
	ETEST(stray_id0);
	ETEST(many_boundaries);
	return etest_end();
}
