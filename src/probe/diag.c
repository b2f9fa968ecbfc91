/* probe/diag.c - configuration-mismatch diagnostics: per-source symptom
 * counts from decoded items (the one-line warning naming the likely cause
 * and the configuration differences the probe names: diag_text.c). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "probe/diag_int.h"
#include "probe/diag_marks.h"

/* Recent 4-byte instruction addresses, direct-mapped: a branch target two
 * bytes into one of them is not an instruction boundary. */
#define DIAG_WIDE 1024
/* Pending values per wide[] slot in a segment besides the one in wide[]
 * (more go to the hash table): the synthetic branch-heavy traces cycle
 * through three in one slot. */
#define DIAG_ALT 2
_Static_assert(DIAG_ALT == 2, "diag_range() compares alt[0] and alt[1]");

struct etm_diag {
	struct etm_config cfg;
	const struct etm_image *img;
	struct etm_diag_counts c;
	int synced, saw_packets;
	uint64_t last_end;        /* end of the previous range */
	uint64_t wide[DIAG_WIDE]; /* address + 1 (0 = empty) */
	/* A segment (etm_diag_alloc_segment()) starts from an unknown state:
	 * what depends on it is kept pending until etm_diag_append(). */
	int seg;
	int packed;                /* segment: counts in wide[] (below) */
	int sync_known, end_known; /* synced / last_end are known */
	int wtag;                  /* whole: a tagged value written */
	int pend_sync;             /* first nosync before synced was known */
	uint64_t pend_pkterr;      /* pkt_errors counted before a packet */
	int pend_first;            /* first range, start first_start */
	uint64_t first_start;
	uint64_t known[DIAG_WIDE / 64];   /* wide[] slots written */
	uint64_t touched[DIAG_WIDE / 64]; /* written or looked up */
	struct diag_pend *pend;           /* lookups of slots not written yet: a
				   * hash table by value (v = 0: empty) */
	size_t npend, pendcap;            /* used, capacity (a power of 2) */
	uint32_t id;                      /* the source's trace ID */
	uint32_t pn[DIAG_WIDE];           /* lookups of the pending value in wide[] */
	/* more pending values per slot (0 = none, the used ones first), and
	 * their lookups: loops whose branch targets share a slot cycle
	 * through a few values */
	uint64_t alt[DIAG_WIDE][DIAG_ALT];
	uint32_t altn[DIAG_WIDE][DIAG_ALT];
	struct diag_nmemo nm; /* answers read from img */
};

/* In a segment, wide[] slots not written yet hold DIAG_UNKNOWN, or the value
 * the latest lookup wanted with DIAG_TAG set (counted in pn[]): loops look
 * for the same value again and again. Addresses stay far below the tag. */
#define DIAG_TAG ((uint64_t)1 << 63)
#define DIAG_UNKNOWN (~(uint64_t)0)

/* A packed segment (etm_diag_pack_segment(): several interleaved sources)
 * keeps a slot's pending value in wide[] with its count, DIAG_TAG | n << 32
 * | value (address + 1, below 2^32; other values in alt[], packed the same
 * way, and in the table),
 * and PACK_UNKNOWN in a slot not written or looked up: a lookup compares
 * and counts in the one word a whole's lookup reads, without a branch (the
 * interleaved sources break runs and make the outcomes as good as random
 * for the predictor). At PACK_MAXN lookups a count moves to the table
 * (rare; reached by tests/unit/test-diagseg.c). */
#define PACK_UNKNOWN DIAG_TAG
#define PACK_ONE ((uint64_t)1 << 32)
#define PACK_MAXN 0x10000u
#define PACK_FULL (DIAG_TAG | (uint64_t)PACK_MAXN << 32)

/* A pending lookup: @n ranges found slot value @v (address + 1) wanted. */
struct diag_pend {
	uint64_t v, n;
};

struct etm_diag *etm_diag_alloc(const struct etm_config *cfg,
				const struct etm_image *img)
{
	struct etm_diag *d;

	if (!cfg)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	etm_config_from_user(&d->cfg, cfg, cfg->size);
	d->img = img;
	d->c.size = sizeof(d->c);
	d->sync_known = d->end_known = 1;
	d->id = etm_cfg_trace_id(&d->cfg);
	return d;
}

struct etm_diag *etm_diag_alloc_segment(const struct etm_config *cfg,
					const struct etm_image *img)
{
	struct etm_diag *d = etm_diag_alloc(cfg, img);

	if (d) {
		d->seg = 1;
		d->sync_known = d->end_known = 0;
		memset(d->wide, 0xff, sizeof(d->wide)); /* DIAG_UNKNOWN */
	}
	return d;
}

void etm_diag_free(struct etm_diag *d)
{
	if (d)
		free(d->pend);
	free(d);
}

static unsigned diag_slot_idx(uint64_t addr)
{
	return (unsigned)((addr >> 1) % DIAG_WIDE);
}

static uint64_t *diag_slot(struct etm_diag *d, uint64_t addr)
{
	return &d->wide[diag_slot_idx(addr)];
}

static size_t pend_hash(uint64_t v, size_t cap)
{
	return (size_t)((v * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

/* A lookup of slot value @v (never 0) in the state before the segment:
 * counted per distinct value, so memory is bounded by the branch targets
 * (addresses in the image), not by the trace. */
static void pend_add(struct etm_diag *d, uint64_t v, uint64_t n)
{
	size_t i, j;

	if (2 * (d->npend + 1) > d->pendcap) {
		size_t cap = d->pendcap ? 2 * d->pendcap : 64;
		struct diag_pend *t = calloc(cap, sizeof(*t));

		if (!t)
			return; /* no memory: the lookup is lost */
		for (i = 0; i < d->pendcap; i++) {
			if (!d->pend[i].v)
				continue;
			for (j = pend_hash(d->pend[i].v, cap); t[j].v;
			     j = (j + 1) & (cap - 1))
				;
			t[j] = d->pend[i];
		}
		free(d->pend);
		d->pend = t;
		d->pendcap = cap;
	}
	for (j = pend_hash(v, d->pendcap); d->pend[j].v && d->pend[j].v != v;
	     j = (j + 1) & (d->pendcap - 1))
		;
	if (!d->pend[j].v) {
		d->pend[j].v = v;
		d->npend++;
	}
	d->pend[j].n += n;
}

/* Segment: slot @i was looked up or written (etm_diag_reset_segment()
 * restores it), and slot @i is written in the segment (known). */
static void mark_touched(struct etm_diag *d, unsigned i)
{
	d->touched[i / 64] |= (uint64_t)1 << (i % 64);
}

static void mark_known(struct etm_diag *d, unsigned i)
{
	d->known[i / 64] |= (uint64_t)1 << (i % 64);
	mark_touched(d, i);
}

/* Segment: lookup of value @v in slot @i, not written in the segment and
 * none of its pending values (out of line: the hot path stays that of a
 * whole). Counts of slot @i in a diag_run are added first. */
static __attribute__((noinline)) void pend_slot(struct etm_diag *d,
						unsigned i, uint64_t v)
{
	uint64_t w = d->wide[i];

	if (w != DIAG_UNKNOWN) {
		uint64_t *a = d->alt[i];
		uint32_t *an = d->altn[i];
		unsigned k;

		/* the slot's pending value becomes another one, in the first
		 * free place (or the last one's, which goes to the table) */
		for (k = 0; k < DIAG_ALT - 1 && a[k]; k++)
			;
		if (a[k])
			pend_add(d, a[k], an[k]);
		a[k] = w & ~DIAG_TAG;
		an[k] = d->pn[i];
	}
	mark_touched(d, i);
	d->wide[i] = v | DIAG_TAG;
	d->pn[i] = 1;
}

/* Segment: slot @i, not written in the segment yet, is written now: its
 * pending lookups go to the table. */
static __attribute__((noinline)) void pend_known(struct etm_diag *d,
						 unsigned i)
{
	unsigned k;

	if (d->wide[i] != DIAG_UNKNOWN)
		pend_add(d, d->wide[i] & ~DIAG_TAG, d->pn[i]);
	for (k = 0; k < DIAG_ALT && d->alt[i][k]; k++)
		pend_add(d, d->alt[i][k], d->altn[i][k]);
	memset(d->alt[i], 0, sizeof(d->alt[i]));
	mark_known(d, i);
}

/* Segment: lookups of one pending value (in wide[] or alt[]) not added to
 * its count yet. Loops branch to the same target again and again: a batch
 * (etm_diag_elems_byid()) counts them in a register and adds each run
 * once. */
struct diag_run {
	uint32_t *cnt; /* pn[] or altn[] (NULL: none) */
	uint32_t n;
};

static inline void run_flush(struct diag_run *run)
{
	if (run->cnt)
		*run->cnt += run->n;
	run->cnt = NULL;
	run->n = 0;
}

/* Segment: a lookup of the pending value counted in @cnt. */
static inline void run_count(struct diag_run *run, uint32_t *cnt)
{
	if (cnt == run->cnt) {
		run->n++;
		return;
	}
	if (run->cnt)
		*run->cnt += run->n;
	run->cnt = cnt;
	run->n = 1;
}

/* Packed segment: slot @i's pending value in wide[] and its count (*@n),
 * or 0. */
static uint32_t pack_val(uint64_t w, uint64_t *n)
{
	*n = (w & ~DIAG_TAG) >> 32;
	return w >= DIAG_TAG ? (uint32_t)w : 0;
}

/* Packed segment: lookup of value @v in slot @i, not written in the
 * segment, that is not its pending value in wide[] (out of line: TC2 has
 * one in six): counted in alt[] (n << 32 | value, like wide[]), or the
 * slot's new pending value in wide[] (the one before going to alt[]'s
 * first free place, the last one's to the table); a value of 32 bits or
 * more goes to the table. Also a count in wide[] at PACK_MAXN, moved to
 * the table. */
static __attribute__((noinline)) void pack_slow(struct etm_diag *d,
						unsigned i, uint64_t v)
{
	uint64_t *a = d->alt[i], w = d->wide[i], n;
	uint32_t pv = pack_val(w, &n);
	unsigned k;

	if (w >= PACK_FULL) { /* the lookup counted, the count full */
		pend_add(d, pv, n);
		d->wide[i] = DIAG_TAG | pv;
		return;
	}
	for (k = 0; k < DIAG_ALT && a[k]; k++)
		if ((uint32_t)a[k] == v) {
			a[k] += PACK_ONE;
			if (a[k] >> 32 >= PACK_MAXN) {
				pend_add(d, v, a[k] >> 32);
				a[k] = v;
			}
			return;
		}
	mark_touched(d, i);
	if (v > UINT32_MAX) {
		pend_add(d, v, 1);
		return;
	}
	if (pv) {
		for (k = 0; k < DIAG_ALT - 1 && a[k]; k++)
			;
		if (a[k])
			pend_add(d, (uint32_t)a[k], a[k] >> 32);
		a[k] = n << 32 | pv;
	}
	d->wide[i] = DIAG_TAG | PACK_ONE | v;
}

/* Packed segment: slot @i, not written in the segment yet, is written now:
 * its pending lookups go to the table. */
static __attribute__((noinline)) void pack_known(struct etm_diag *d,
						 unsigned i)
{
	uint64_t n;
	uint32_t pv = pack_val(d->wide[i], &n);
	unsigned k;

	if (pv)
		pend_add(d, pv, n);
	for (k = 0; k < DIAG_ALT && d->alt[i][k]; k++)
		pend_add(d, (uint32_t)d->alt[i][k], d->alt[i][k] >> 32);
	memset(d->alt[i], 0, sizeof(d->alt[i]));
	mark_known(d, i);
}

/* Packed segment: the lookup of value @v (address + 1) in slot @i: one of
 * the pending value in wide[] adds PACK_ONE to it without a branch; the
 * others (rarer) out of line. */
static inline void pack_look(struct etm_diag *d, unsigned i, uint64_t v)
{
	uint64_t w = d->wide[i];
	uint64_t m = (w >> 63) & ((uint32_t)w == v); /* v below 2^32 too */

	if (w == v)
		d->c.mid_insn++;
	w += m << 32;
	d->wide[i] = w;
	if (__builtin_expect(((w >> 63) & (m ^ 1)) | (w >= PACK_FULL), 0))
		pack_slow(d, i, v);
}

/* A segment's first range: its lookup depends on the state before. */
static inline void diag_first(struct etm_diag *d, const struct etm_elem *e)
{
	d->pend_first = e->start >= 2;
	d->first_start = e->start;
	d->end_known = 1;
}

static inline void diag_range_marks(struct etm_diag *d,
				    const struct etm_elem *e)
{
	unsigned marks = diag_marks_memo(&d->nm, d->img, e);

	if (marks & etm_mark_undef)
		d->c.undef++;
	if (marks & etm_mark_n_uncond)
		d->c.n_uncond++;
}

/* Per range: table lookups, and an image read only for N atoms (rare),
 * so the checks cost little next to decoding. A segment's lookups of a
 * slot's pending value go to @run (the slow paths, which move pn[], after
 * flushing it). */
static inline __attribute__((always_inline)) void diag_range(struct etm_diag *d, const struct etm_elem *e,
							     struct diag_run *run)
{
	d->c.ranges++;
	d->c.insns += e->ninsn;
	/* a branch target inside a recent 4-byte instruction */
	if (!d->end_known) {
		diag_first(d, e);
	} else if (e->start != d->last_end && e->start >= 2) {
		unsigned i = diag_slot_idx(e->start - 2);
		uint64_t w = d->wide[i], v = e->start - 2 + 1;

		if (w == v) {
			d->c.mid_insn++;
		} else if (w == (v | DIAG_TAG)) { /* segment: pending again */
			run_count(run, &d->pn[i]);
		} else if (w >= DIAG_TAG) { /* segment: not written yet */
			if (d->alt[i][0] == v)
				run_count(run, &d->altn[i][0]);
			else if (d->alt[i][1] == v)
				run_count(run, &d->altn[i][1]);
			else {
				run_flush(run);
				pend_slot(d, i, v);
			}
		}
	}
	d->last_end = e->end;
	if (e->last_size == 4) {
		unsigned i = diag_slot_idx(e->last_addr);

		if (d->wide[i] >= DIAG_TAG) {
			run_flush(run);
			pend_known(d, i);
		}
		d->wide[i] = e->last_addr + 1;
	}
	diag_range_marks(d, e);
}

/* diag_range() in a packed segment. */
static inline void pack_range(struct etm_diag *d, const struct etm_elem *e)
{
	d->c.ranges++;
	d->c.insns += e->ninsn;
	if (!d->end_known)
		diag_first(d, e);
	else if (e->start != d->last_end && e->start >= 2)
		pack_look(d, diag_slot_idx(e->start - 2), e->start - 2 + 1);
	d->last_end = e->end;
	if (e->last_size == 4) {
		unsigned i = diag_slot_idx(e->last_addr);

		if (d->wide[i] >= DIAG_TAG)
			pack_known(d, i);
		d->wide[i] = e->last_addr + 1;
	}
	diag_range_marks(d, e);
}

void etm_diag_set_image(struct etm_diag *d, const struct etm_image *img)
{
	if (d && d->img != img) {
		d->img = img;
		diag_nmemo_clear(&d->nm);
	}
}

static void diag_error(struct etm_diag *d, int err)
{
	switch (err) {
	case etme_bad_opc:
	case etme_bad_packet:
	case etme_truncated:
		if (!d->saw_packets) {
			d->c.pkt_errors++;
			d->pend_pkterr += d->seg;
		}
		break;
	case etme_mismatch:
	case etme_bad_insn:
	case etme_retstack_empty:
		d->c.mismatch++;
		break;
	default:
		break;
	}
}

void etm_diag_item(struct etm_diag *d, const struct etm_item *it)
{
	if (!d || !it)
		return;
	if (it->kind == etm_item_elem) {
		etm_diag_elem(d, &it->elem);
		return;
	}
	if (it->pkt.id != d->id)
		return;
	d->saw_packets = 1;
	d->c.packets++;
	/* a packet cut by the end of the buffer is not a symptom */
	d->c.pkt_errors += it->pkt.type == etmp_error &&
			   it->pkt.err != etme_truncated;
}

/* An element other than a range. */
static void diag_other(struct etm_diag *d, const struct etm_elem *e)
{
	switch (e->kind) {
	case etmk_trace_on:
		d->synced = 1;
		d->sync_known = 1;
		break;
	case etmk_nosync:
		if (e->err == etme_halted)
			break; /* a restart sync not captured: no evidence of a
				 * wrong configuration */
		if (d->sync_known)
			d->c.sync_lost += d->synced;
		else
			d->pend_sync = 1;
		d->synced = 0;
		d->sync_known = 1;
		break;
	case etmk_nomem:
		d->c.nomem++;
		break;
	case etmk_error:
		diag_error(d, e->err);
		break;
	default:
		break;
	}
}

void etm_diag_elem(struct etm_diag *d, const struct etm_elem *e)
{
	struct diag_run run = { NULL, 0 };

	if (!d || !e || e->id != d->id)
		return;
	if (e->kind == etmk_range && e->last_size == 4 &&
	    e->last_addr >= DIAG_TAG - 1)
		d->wtag = 1; /* whole: whole_run() no more */
	if (e->kind != etmk_range)
		diag_other(d, e);
	else if (d->packed)
		pack_range(d, e);
	else
		diag_range(d, e, &run);
	run_flush(&run);
}

/* The elements from @e (up to @n) of whole @d's ID: diag_range() and
 * diag_other() with the counts and last end in registers. A whole's slot
 * holds no tagged value (an address of 2^63 or more) until one is written
 * (d->wtag: diag_range() then); the run stops before. Returns its length. */
static size_t whole_run(struct etm_diag *d, const struct etm_elem *e, size_t n)
{
	uint64_t ranges = 0, insns = 0, mid = 0, undef = 0, nunc = 0;
	uint64_t end = d->last_end, *wide = d->wide;
	const uint32_t id = d->id;
	size_t k;

	_Static_assert(etm_mark_n_uncond == 1 && etm_mark_undef == 2, "bits");
	for (k = 0; k < n && e[k].id == id; k++) {
		const struct etm_elem *r = &e[k];
		uint64_t *to = NULL;
		unsigned m;

		if (r->kind != etmk_range) {
			diag_other(d, r);
			continue;
		}
		if (r->last_size == 4) {
			if (r->last_addr >= DIAG_TAG - 1) {
				d->wtag = 1;
				break;
			}
			to = &wide[diag_slot_idx(r->last_addr)];
		}
		ranges++;
		insns += r->ninsn;
		if (r->start != end && r->start >= 2)
			mid += wide[diag_slot_idx(r->start - 2)] == r->start - 2 + 1;
		end = r->end;
		if (to)
			*to = r->last_addr + 1;
		m = diag_marks_memo(&d->nm, d->img, r);
		undef += m >> 1;
		nunc += m & 1;
	}
	d->last_end = end;
	d->c.ranges += ranges;
	d->c.insns += insns;
	d->c.mid_insn += mid;
	d->c.undef += undef;
	d->c.n_uncond += nunc;
	return k;
}

/* whole_run() for segment @d (not packed, its first range seen): a lookup
 * of a slot's pending value is counted in pn[] in the loop; one that
 * would make a new pending value, and a write of a slot not written in
 * the segment yet, stop the run before the element (diag_range() takes
 * it). Returns the run's length. */
static size_t seg_run(struct etm_diag *d, const struct etm_elem *e, size_t n)
{
	uint64_t ranges = 0, insns = 0, mid = 0, undef = 0, nunc = 0;
	uint64_t end = d->last_end, *wide = d->wide;
	uint32_t *pn = d->pn;
	const uint32_t id = d->id;
	size_t k;

	for (k = 0; k < n && e[k].id == id; k++) {
		const struct etm_elem *r = &e[k];
		uint64_t *to = NULL, *at = NULL, v = 0;
		unsigned m;

		if (r->kind != etmk_range) {
			diag_other(d, r);
			continue;
		}
		if (r->start != end && r->start >= 2) {
			v = r->start - 2 + 1;
			at = &wide[diag_slot_idx(r->start - 2)];
			if (*at != v && *at != (v | DIAG_TAG) && *at >= DIAG_TAG &&
			    d->alt[at - wide][0] != v && d->alt[at - wide][1] != v)
				break; /* a new pending value */
		}
		if (r->last_size == 4) {
			if (r->last_addr >= DIAG_TAG - 1)
				break;
			to = &wide[diag_slot_idx(r->last_addr)];
			if (*to >= DIAG_TAG)
				break; /* its pending lookups go to the table */
		}
		if (at && *at == v)
			mid++;
		else if (at && *at == (v | DIAG_TAG))
			pn[at - wide]++;
		else if (at && *at >= DIAG_TAG)
			d->altn[at - wide][d->alt[at - wide][0] == v ? 0 : 1]++;
		ranges++;
		insns += r->ninsn;
		end = r->end;
		if (to)
			*to = r->last_addr + 1;
		m = diag_marks_memo(&d->nm, d->img, r);
		undef += m >> 1;
		nunc += m & 1;
	}
	d->last_end = end;
	d->c.ranges += ranges;
	d->c.insns += insns;
	d->c.mid_insn += mid;
	d->c.undef += undef;
	d->c.n_uncond += nunc;
	return k;
}

/* The loop of etm_diag_elems_byid() (@packed 0) and of
 * etm_diag_elems_packed() (1), each compiled for its kind of objects. */
static inline __attribute__((always_inline)) void
elems_loop(struct etm_diag *const *byid, const struct etm_elem *els, size_t n,
	   int packed)
{
	struct diag_run run = { NULL, 0 };
	size_t k, t;

	for (k = 0; k < n; k++) {
		const struct etm_elem *e = &els[k];
		struct etm_diag *d = byid[e->id & 0x7f];

		if (!d || e->id != d->id)
			continue;
		if (!packed && !d->seg && !d->wtag && (t = whole_run(d, e, n - k))) {
			k += t - 1;
			continue;
		}
		if (!packed && d->seg && d->end_known) {
			run_flush(&run);
			if ((t = seg_run(d, e, n - k))) {
				k += t - 1;
				continue;
			}
		}
		if (e->kind == etmk_range && packed)
			pack_range(d, e);
		else if (e->kind == etmk_range)
			diag_range(d, e, &run);
		else
			diag_other(d, e);
	}
	run_flush(&run);
}

void etm_diag_elems_byid(struct etm_diag *const *byid,
			 const struct etm_elem *els, size_t n)
{
	elems_loop(byid, els, n, 0);
}

void etm_diag_elems_packed(struct etm_diag *const *byid,
			   const struct etm_elem *els, size_t n)
{
	elems_loop(byid, els, n, 1);
}

int etm_diag_pack_segment(struct etm_diag *d)
{
	unsigned i;

	if (!d || !d->seg || d->c.ranges || d->npend)
		return -etme_invalid;
	d->packed = 1;
	for (i = 0; i < DIAG_WIDE; i++)
		d->wide[i] = PACK_UNKNOWN;
	return 0;
}

void etm_diag_reset_segment(struct etm_diag *d)
{
	unsigned i;
	uint64_t m;

	if (!d || !d->seg)
		return;
	for (i = 0; i < DIAG_WIDE / 64; i++)
		for (m = d->touched[i]; m; m &= m - 1) {
			unsigned k = i * 64 + (unsigned)__builtin_ctzll(m);

			d->wide[k] = d->packed ? PACK_UNKNOWN : DIAG_UNKNOWN;
			memset(d->alt[k], 0, sizeof(d->alt[k]));
		}
	memset(d->known, 0, sizeof(d->known));
	memset(d->touched, 0, sizeof(d->touched));
	memset(&d->c, 0, sizeof(d->c));
	d->c.size = sizeof(d->c);
	d->synced = d->saw_packets = 0;
	d->last_end = 0;
	d->sync_known = d->end_known = 0;
	d->pend_sync = d->pend_first = 0;
	d->pend_pkterr = 0;
	d->first_start = 0;
	if (d->npend)
		memset(d->pend, 0, d->pendcap * sizeof(*d->pend));
	d->npend = 0;
}

int etm_diag_append(struct etm_diag *d, const struct etm_diag *s)
{
	const struct etm_diag_counts *c = &s->c;
	uint64_t m;
	size_t i, j;

	if (!d || !s || d->seg || !s->seg)
		return -etme_invalid;
	/* lookups against the state before the segment, then its writes */
	if (s->pend_first && d->last_end != s->first_start &&
	    *diag_slot(d, s->first_start - 2) == s->first_start - 2 + 1)
		d->c.mid_insn++;
	for (i = 0; s->npend && i < s->pendcap; i++)
		if (s->pend[i].v && *diag_slot(d, s->pend[i].v - 1) == s->pend[i].v)
			d->c.mid_insn += s->pend[i].n;
	for (i = 0; i < DIAG_WIDE / 64; i++)
		for (m = s->touched[i] & ~s->known[i]; m; m &= m - 1) {
			size_t k = i * 64 + (unsigned)__builtin_ctzll(m);

			uint64_t n = s->pn[k], v = s->wide[k] & ~DIAG_TAG;

			if (s->packed)
				v = pack_val(s->wide[k], &n);
			if (v && d->wide[k] == v)
				d->c.mid_insn += n;
			for (j = 0; j < DIAG_ALT && s->alt[k][j]; j++) {
				v = s->alt[k][j];
				n = s->altn[k][j];
				if (s->packed) {
					v = (uint32_t)s->alt[k][j];
					n = s->alt[k][j] >> 32;
				}
				if (d->wide[k] == v)
					d->c.mid_insn += n;
			}
		}
	if (s->pend_sync)
		d->c.sync_lost += d->synced;
	if (s->sync_known)
		d->synced = s->synced;
	if (s->end_known)
		d->last_end = s->last_end;
	for (i = 0; i < DIAG_WIDE / 64; i++)
		for (m = s->known[i]; m; m &= m - 1) {
			size_t k = i * 64 + (unsigned)__builtin_ctzll(m);

			d->wide[k] = s->wide[k];
			d->wtag |= s->wide[k] >= DIAG_TAG;
		}
	d->c.pkt_errors += c->pkt_errors - (d->saw_packets ? s->pend_pkterr : 0);
	d->saw_packets |= s->saw_packets;
	d->c.packets += c->packets;
	d->c.sync_lost += c->sync_lost;
	d->c.insns += c->insns;
	d->c.ranges += c->ranges;
	d->c.nomem += c->nomem;
	d->c.mismatch += c->mismatch;
	d->c.n_uncond += c->n_uncond;
	d->c.undef += c->undef;
	d->c.mid_insn += c->mid_insn;
	return 0;
}

int etm_diag_counts(const struct etm_diag *d, struct etm_diag_counts *c,
		    size_t size)
{
	if (!d || !c || size < sizeof(size_t))
		return -etme_invalid;
	if (size > sizeof(d->c))
		size = sizeof(d->c);
	memcpy(c, &d->c, size);
	c->size = size;
	return 0;
}

const struct etm_config *etm_diag_cfg(const struct etm_diag *d)
{
	return &d->cfg;
}
