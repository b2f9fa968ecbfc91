/* source/pieces.c - the pieces of a circular trace buffer read from its
 * write pointer, found from the CoreSight frames' bytes, and the order in
 * time the bytes prove (etmtrace/pieces.h; the rules and why:
 * doc/circular.md). A byte scan of the frames, nothing decoded: a buffer
 * where no rule fires is one piece. */
#include <string.h>

#include <etmtrace/pieces.h>

#define PC_FRAME 16
/* how many bytes of a source the run-start rule reads after its ID change
 * (A-syncs, an optional cycle count packet, the I-sync's header, cycle
 * count and Context ID up to its information byte) */
#define PC_LOOK 48
/* bit 0 of bytes 0, 2, 4 and 6 of a 64-bit word read from memory */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PC_EVEN_BIT0 0x0100010001000100ull
#else
#define PC_EVEN_BIT0 0x0001000100010001ull
#endif

/* One frame deformatted: bytes [0, n) with their IDs (-1: not known);
 * lead_id: byte 0 is an ID change. *cur is the ID in force, updated. */
struct pc_frame {
	int n, lead_id;
	int id[PC_FRAME];
	uint8_t b[PC_FRAME];
	int idpos[PC_FRAME]; /* for each byte: index of the ID change it follows
			      * in this frame (-1: none) */
};

static void pc_deformat(const uint8_t *f, int *cur, struct pc_frame *o)
{
	uint8_t aux = f[15];
	int last_chg = -1;

	o->n = 0;
	o->lead_id = f[0] & 1;
	for (int i = 0; i < 8; i++) {
		uint8_t x = f[2 * i];
		int auxb = (aux >> i) & 1, delayed = -1;

		if (x & 1) { /* an ID change: aux says after the next byte */
			if (auxb)
				delayed = x >> 1;
			else
				*cur = x >> 1;
			last_chg = 2 * i;
		} else {
			o->id[o->n] = *cur;
			o->idpos[o->n] = last_chg;
			o->b[o->n++] = (uint8_t)(x | auxb);
		}
		if (i < 7) {
			o->id[o->n] = *cur;
			o->idpos[o->n] = last_chg;
			o->b[o->n++] = f[2 * i + 1];
		}
		if (delayed >= 0)
			*cur = delayed;
	}
}

static int pc_all_zero(const uint8_t *f)
{
	for (int i = 0; i < PC_FRAME; i++)
		if (f[i])
			return 0;
	return 1;
}

/* Skip a cycle count field (1-5 bytes, bit 7 continues) at s[*k]. */
static int pc_skip_cc(const uint8_t *s, int n, int *k)
{
	for (int j = 0; j < 5 && *k < n; j++)
		if (!(s[(*k)++] & 0x80))
			return 0;
	return *k < n ? 0 : -1;
}

/* The I-sync reason (bits 6:5 of its information byte) at the start of
 * stream @s (@n bytes) of a source configured by @cfg, past one or more
 * A-syncs; -1 when the stream does not begin that way. */
static int pc_isync_reason(const uint8_t *s, int n,
			   const struct etm_config *cfg)
{
	int k = 0, syncs = 0, ca = etm_cfg_cycle_acc(cfg);
	int cid = etm_cfg_ctxid_bytes(cfg);

	for (;;) { /* A-sync: five or more zeros, then 0x80 */
		int z = 0;

		while (k < n && s[k] == 0)
			z++, k++;
		if (z < 5 || k >= n || s[k] != 0x80)
			break;
		k++, syncs++;
		if (k >= n || s[k] != 0)
			break;
	}
	if (!syncs || k >= n)
		return -1;
	if (cfg->protocol == etm_proto_ptm)
		return s[k] == 0x08 && k + 5 < n ? (s[k + 5] >> 5) & 3 : -1;
	if (cfg->protocol != etm_proto_etmv3)
		return -1;
	if (ca && s[k] == 0x04) { /* a cycle count packet before the I-sync */
		k++;
		if (pc_skip_cc(s, n, &k) < 0)
			return -1;
	}
	if (k >= n || (s[k] != 0x08 && !(ca && s[k] == 0x70)))
		return -1;
	if (s[k++] == 0x70 && pc_skip_cc(s, n, &k) < 0)
		return -1;
	k += cid;
	return k < n ? (s[k] >> 5) & 3 : -1;
}

/* The bytes of source @id from its ID change at byte @from of the frame at
 * @f on, across the frames that follow (up to @end): into @s, at most
 * PC_LOOK. Returns how many. */
static int pc_gather(const uint8_t *f, const uint8_t *end, int id, int chg,
		     uint8_t *s)
{
	struct pc_frame fr;
	int cur = -1, m = 0;

	for (; f + PC_FRAME <= end && m < PC_LOOK; f += PC_FRAME) {
		pc_deformat(f, &cur, &fr);
		for (int i = 0; i < fr.n && m < PC_LOOK; i++)
			if (fr.id[i] == id && (chg < 0 || fr.idpos[i] >= chg))
				s[m++] = fr.b[i];
		chg = -1;
	}
	return m;
}

/* Can source data that begins at byte @j of frame @f begin an A-sync, as
 * far as the frame shows (five or more zeros, then 0x80)? */
static int pc_async_here(const uint8_t *f, int j)
{
	int zeros = 0;

	for (; j < 15; j++) {
		uint8_t v = f[j];

		if (!(j & 1)) {
			if (v & 1)
				return 1; /* another ID: the rest is elsewhere */
			v |= (f[15] >> (j / 2)) & 1;
		}
		if (v == 0x80)
			return zeros >= 5;
		if (v)
			return 0;
		zeros++;
	}
	return 1;
}

/* The scan's view of the configurations: by trace ID. */
struct pc_scan {
	const struct etm_config *cfg[128];
	const uint8_t *end;
	/* which sources hold an A-sync, found by one pass of the frames
	 * (pc_syncs()) that goes only as far as a question needs: at frame
	 * @sync_at, ID @sync_cur in force, @zeros[id] zeros last in each */
	const uint8_t *sync_at;
	int sync_cur;
	uint8_t synced[128], zeros[128];
};

/* Does source @id's data hold an A-sync (five or more zeros, then 0x80)
 * anywhere in the frames? A source with none can never begin a run (rule
 * 2 needs one at its start): am243x's ID 0x6F, a counter byte. The pass
 * resumes where the last question left it and stops at @id's first
 * A-sync, so a source that syncs early costs a few frames. */
static int pc_syncs(struct pc_scan *sc, int id)
{
	struct pc_frame fr;

	for (; !sc->synced[id] && sc->sync_at < sc->end; sc->sync_at += PC_FRAME) {
		pc_deformat(sc->sync_at, &sc->sync_cur, &fr);
		for (int i = 0; i < fr.n; i++) {
			int k = fr.id[i];

			if (k < 0)
				continue;
			if (fr.b[i] == 0x80 && sc->zeros[k] >= 5)
				sc->synced[k] = 1;
			sc->zeros[k] = fr.b[i] ? 0 :
						 (uint8_t)(sc->zeros[k] + (sc->zeros[k] < 5));
		}
	}
	return sc->synced[id];
}

/* Does a run start at the frame at @f (byte 0 an ID change)? The first
 * source with a configuration that the frame names, of those that ever
 * sync (pc_syncs()), goes on with an A-sync and an I-sync that says trace
 * on or debug exit; and that source's data was in the frame before (@pf,
 * where ID @pcur was in force; all IDs count where it was not known, as
 * in older data before its first ID byte): it was cut mid-stream, not
 * idle. A source that starts after an idle time, or one named after
 * another source's data in the frame, is a run going on in order (TC2
 * @16480: 0x12's data, then 0x10's A-sync and trace-on I-sync). @pf NULL:
 * the dump's first frame. Cheap tests first: this runs for every frame
 * that begins with an ID change. */
static int pc_run_start(struct pc_scan *sc, const uint8_t *f,
			const uint8_t *pf, int pcur)
{
	uint8_t s[PC_LOOK];
	struct pc_frame fr;
	int i, id = -1, m, r;

	for (i = 0; i < 8 && id < 0; i++)
		if ((f[2 * i] & 1) && sc->cfg[f[2 * i] >> 1] &&
		    pc_async_here(f, 2 * i + 1 + ((f[15] >> i) & 1)) &&
		    pc_syncs(sc, f[2 * i] >> 1))
			id = f[2 * i] >> 1;
	if (id < 0)
		return 0; /* no source that syncs begins an A-sync here */
	i--;
	for (int k = 0; k < i; k++) /* sources named before it */
		if ((f[2 * k] & 1) && sc->cfg[f[2 * k] >> 1] &&
		    pc_syncs(sc, f[2 * k] >> 1))
			return 0; /* the first that syncs goes on mid-stream */
	if (pf) {
		int seen = 0;

		pc_deformat(pf, &pcur, &fr);
		for (int k = 0; k < fr.n && !seen; k++)
			seen = fr.id[k] == id || fr.id[k] < 0;
		if (!seen)
			return 0;
	}
	m = pc_gather(f, sc->end, id, 2 * i, s);
	r = pc_isync_reason(s, m, sc->cfg[id]);
	return r == 1 || r == 3;
}

/* Bytes of the formatter's padding before a stop, at least: a flush
 * fills the frame with ID 0 and zeros (am243x: 11 bytes and two whole
 * frames before the older lap, 11 and three at the end; the encoder: the
 * frame's rest and a frame). A frame cut out of place by damage ends in
 * an ID-0 byte now and then, hardly ever in this much padding. */
#define PC_PAD_MIN 12

/* After frame @f: *@cur, the ID in force (that of its last ID change), and
 * the return: how many bytes of padding the trace ends in (@pad before the
 * frame): none unless the last ID change names ID 0 and only zeros and
 * more ID-0 bytes follow it (the byte an ID change defers to, aside); an
 * all-zero frame adds 16. Most frames have no ID change (one word test). */
static int pc_frame_end(const uint8_t *f, int *cur, int pad)
{
	uint64_t w0, w1;
	int k = 14, j, n = 0;

	memcpy(&w0, f, 8);
	memcpy(&w1, f + 8, 8);
	if (!((w0 | w1) & PC_EVEN_BIT0))
		return pad && pc_all_zero(f) ? pad + 16 : 0;
	while (!(f[k] & 1))
		k -= 2;
	*cur = f[k] >> 1;
	if (f[k] != 0x01)
		return 0;
	for (j = k + 1 + ((f[15] >> (k / 2)) & 1); j < 15; j++, n++)
		if (f[j] && !(!(j & 1) && f[j] == 0x01))
			return 0;
	return n + 1;
}

/* The order in time the boundaries prove (older[i][j]: piece i was
 * written before piece j), closed transitively; a unique topological order
 * is the time order, anything less leaves the file order and says so. */
static void pc_order(struct etm_circ_pieces *ps)
{
	uint8_t older[ETM_PIECES_MAX][ETM_PIECES_MAX] = { { 0 } };
	uint8_t placed[ETM_PIECES_MAX] = { 0 };
	size_t n = ps->n, i, j, k;

	for (i = 1; i < n; i++) {
		if (ps->p[i].begin == etm_piece_stale)
			older[i][i - 1] = 1; /* data the later run did not reach */
		else
			older[i - 1][i] = 1; /* a newer run overwrote the rest */
	}
	if (ps->p[n - 1].end_kind == etm_piece_stop)
		for (i = 0; i + 1 < n; i++) /* the file ends at the write pointer */
			older[i][n - 1] = 1;
	for (k = 0; k < n; k++)
		for (i = 0; i < n; i++)
			for (j = 0; j < n && older[i][k]; j++)
				older[i][j] |= older[k][j];
	for (k = 0; k < n; k++) {
		size_t pick = n, cands = 0;

		for (i = 0; i < n; i++) {
			int free_ = !placed[i];

			for (j = 0; j < n && free_; j++)
				free_ = placed[j] || !older[j][i];
			if (free_)
				cands++, pick = i;
		}
		if (cands != 1) {
			ps->order_known = 0;
			for (i = 0; i < n; i++)
				ps->p[i].time_index = (unsigned)i;
			return;
		}
		placed[pick] = 1;
		ps->p[pick].time_index = (unsigned)k;
	}
	ps->order_known = 1;
}

static void pc_add(struct etm_circ_pieces *ps, uint64_t at,
		   enum etm_piece_begin begin, enum etm_piece_end prev_end)
{
	struct etm_circ_piece *p;

	ps->p[ps->n - 1].end = at;
	ps->p[ps->n - 1].end_kind = prev_end;
	p = &ps->p[ps->n];
	memset(p, 0, sizeof(*p));
	p->start = at;
	p->begin = begin;
	p->file_index = p->time_index = (unsigned)ps->n;
	ps->n++;
}

void etm_pieces_find(const uint8_t *buf, size_t n,
		     const struct etm_config *cfgs, size_t ncfgs,
		     struct etm_circ_pieces *out)
{
	struct pc_scan sc = { .end = buf + n - n % PC_FRAME, .sync_at = buf, .sync_cur = -1 };
	const uint8_t *pf = NULL;
	int cur = -1, pcur = -1, pad = 0; /* pad: bytes of padding so far */

	memset(out, 0, sizeof(*out));
	out->n = 1;
	out->p[0].end = n;
	out->order_known = 1;
	if (!buf || n < PC_FRAME)
		return;
	for (size_t i = ncfgs; i-- > 0;)
		sc.cfg[cfgs[i].traceid & 0x7f] = &cfgs[i];
	if ((buf[0] & 1) && pc_run_start(&sc, buf, NULL, -1))
		out->p[0].begin = etm_piece_run_start;
	for (const uint8_t *f = buf; f < sc.end; pf = f, f += PC_FRAME) {
		uint64_t at = (uint64_t)(f - buf);

		if (pf && out->n < ETM_PIECES_MAX) {
			if (pad >= PC_PAD_MIN && !(f[0] & 1) && !pc_all_zero(f)) {
				pc_add(out, at, etm_piece_stale, etm_piece_stop);
				cur = -1; /* its first bytes' ID was overwritten */
			} else if (!pad && (f[0] & 1) &&
				   pc_run_start(&sc, f, pf, pcur)) {
				pc_add(out, at, etm_piece_run_start, etm_piece_cut);
			}
		}
		pcur = cur;
		pad = pc_frame_end(f, &cur, pad);
	}
	out->p[out->n - 1].end = n;
	out->p[out->n - 1].end_kind = pad >= PC_PAD_MIN ? etm_piece_stop :
							  etm_piece_dump_end;
	if (out->n > 1)
		pc_order(out);
}

/* The piece listed after piece @i in time, or NULL. */
static const struct etm_circ_piece *pc_time_next(const struct etm_circ_pieces *ps,
						 size_t i)
{
	for (size_t j = 0; j < ps->n; j++)
		if (ps->p[j].time_index == ps->p[i].time_index + 1)
			return &ps->p[j];
	return NULL;
}

enum etm_piece_role etm_piece_role(const struct etm_circ_pieces *ps, size_t i)
{
	const struct etm_circ_piece *p, *next;

	if (!ps || i >= ps->n || ps->n == 1)
		return etm_role_whole;
	p = &ps->p[i];
	next = ps->order_known ? pc_time_next(ps, i) : NULL;
	if (ps->order_known && !next)
		return p->begin == etm_piece_run_start ? etm_role_newest_run :
							 etm_role_newest;
	if (p->begin == etm_piece_run_start)
		return etm_role_earlier_run;
	if (p->begin == etm_piece_stale)
		return next && next->begin != etm_piece_run_start ?
			       etm_role_older_lap :
			       etm_role_older;
	if (p->end_kind == etm_piece_stop && ps->order_known)
		return etm_role_tail;
	return etm_role_data;
}

const char *etm_piece_role_name(enum etm_piece_role r)
{
	switch (r) {
	case etm_role_whole: return "the whole buffer";
	case etm_role_newest_run: return "newest run";
	case etm_role_newest: return "newest data";
	case etm_role_earlier_run: return "an earlier run";
	case etm_role_older_lap: return "older lap of the previous run";
	case etm_role_older: return "older data";
	case etm_role_tail: return "tail of the previous run";
	case etm_role_data: return "data";
	}
	return "data";
}

const char *etm_piece_gap_name(enum etm_piece_gap g)
{
	switch (g) {
	case etm_gap_none: return "";
	case etm_gap_overwritten: return "overwritten";
	case etm_gap_runs: return "between runs";
	case etm_gap_joins: return "joins";
	case etm_gap_apart: return "not adjacent in time";
	case etm_gap_unknown: return "order unknown";
	}
	return "";
}
