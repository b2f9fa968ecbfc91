/* listing/listing.c - the decode output of one item: the listing, the
 * canonical list, JSON lines or counts only. The lines themselves come
 * from out_fmt.c; here are counters, runs of repeated diagnostics, the
 * cached instruction lines (line_cache.c) and the annotations (line_annot.c:
 * symbols through a hook, time, offsets). The formatter keeps no state
 * from item to item except counters, so that parallel decode can format
 * on the worker threads (listing/listing_par.c). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>

#include "listing/listing.h"

int decfmt_init(struct decfmt *f, const struct etm_listing_source *src, int nsrc,
		struct wbuf *w, enum dec_fmt fmt,
		const struct etm_disasm_hook *dis, struct etm_diagset *dw,
		const struct line_annot_opts *ann)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->w = w;
	f->fmt = fmt;
	f->multi = nsrc > 1;
	if (dis)
		f->dis = *dis;
	f->dw = dw;
	if (ann) {
		f->ctx_img = ann->ctx_img;
		f->ctx_img_arg = ann->ctx_img_arg;
	}
	for (i = nsrc - 1; i >= 0; i--) /* the first of equal IDs wins */
		f->byid[src[i].id & 0xff] = &src[i];
	if (ann && ann->fields && !(f->fl = line_fields_open(ann->fields)))
		return -etme_nomem;
	return ann && line_annot_open(ann, &f->sym) < 0 ? -etme_nomem : 0;
}

void decfmt_fini(struct decfmt *f)
{
	line_cache_free(f->lc);
	f->lc = NULL;
	line_annot_close(f->sym);
	f->sym = NULL;
	line_fields_close(f->fl);
	f->fl = NULL;
}

void decfmt_add(struct dec_counts *to, const struct dec_counts *from)
{
	int k;

	to->insns += from->insns;
	to->errors += from->errors;
	to->packets += from->packets;
	for (k = 0; k < etmk_num_kinds; k++)
		to->elems[k] += from->elems[k];
}

static void text_prefix(struct decfmt *c, const struct etm_elem *el)
{
	line_annot_prefix(c->sym, c->w, el);
	if (c->multi)
		wbuf_printf(c->w, "[0x%02x] ", el->id);
}

/* "  cyc=N" without printf (once per cycle-accurate range). */
static void text_cycles(struct wbuf *w, uint32_t v)
{
	char b[16];
	int n = 16;

	do {
		b[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	wbuf_put(w, "  cyc=", 6);
	wbuf_put(w, b + n, (size_t)(16 - n));
}

/* What follows the head of a range's last line: " E", " N" or "  ". */
static const char *text_en(const struct etm_elem *el)
{
	if (el->last_atom)
		return el->last_exec ? " E" : " N";
	return el->last_exec ? "  " : " N";
}

/* A range's last line @l: its head, E/N, cycles, time, its sym, marks;
 * padding only where something follows it (no trailing whitespace). */
static void text_end(struct decfmt *c, const struct etm_elem *el,
		     struct lc_text l, unsigned marks)
{
	const char *en = text_en(el);

	if (en[1] == ' ' && !el->has_cycles && !l.slen && !marks) {
		wbuf_put(c->w, l.text, l.tlen);
		wbuf_char(c->w, '\n');
		return;
	}
	wbuf_put(c->w, l.text, l.hlen);
	wbuf_put(c->w, en, 2);
	if (el->has_cycles)
		text_cycles(c->w, el->cycles);
	line_annot_tail(c->sym, c->w, el, 1);
	wbuf_put(c->w, l.text + l.hlen, l.slen);
	/* where the trace disagrees with the image (counted on stderr) */
	if (marks & etm_mark_n_uncond)
		wbuf_str(c->w, "  !N-on-unconditional");
	if (marks & etm_mark_undef)
		wbuf_str(c->w, "  !undefined-instruction");
	wbuf_char(c->w, '\n');
}

/* A cached range: where its last line is as cached (no cycles, no marks,
 * the same E/N), the whole text by reference (wbuf_ref(): staged output
 * points into the cache's arena); else the lines before the last by
 * reference, and the last. */
static void text_cached(struct decfmt *c, const struct etm_elem *el,
			const struct lc_range *rg, unsigned marks)
{
	const char *en = text_en(el);

	if (!el->has_cycles && !marks && rg->en[0] == en[0] &&
	    rg->en[1] == en[1]) {
		wbuf_ref(c->w, rg->body, rg->total, rg->arena, rg->blk);
		return;
	}
	if (rg->len)
		wbuf_ref(c->w, rg->body, rg->len, rg->arena, rg->blk);
	text_end(c, el,
		 (struct lc_text){ rg->head, rg->hlen, rg->slen, rg->tlen, 0 },
		 marks);
}

/* A line but a range's last, as written, into @b (room for 2 + the line's
 * parts): "head  sym\n", or the head without its padding where there is
 * no sym. Returns its length. */
static size_t text_line(char *b, struct lc_text l)
{
	if (!l.slen) {
		memcpy(b, l.text, l.tlen);
		b[l.tlen] = '\n';
		return l.tlen + 1;
	}
	memcpy(b, l.text, l.hlen);
	memcpy(b + l.hlen, "  ", 2);
	memcpy(b + l.hlen + 2, l.text + l.hlen, l.slen);
	b[l.hlen + l.slen + 2] = '\n';
	return l.hlen + l.slen + 3;
}

/* A range's last line as cached (no cycles, no marks), into @b. */
static size_t text_last_line(char *b, struct lc_text l, const char *en)
{
	if (en[1] == ' ' && !l.slen)
		return text_line(b, l);
	memcpy(b, l.text, l.hlen);
	memcpy(b + l.hlen, en, 2);
	memcpy(b + l.hlen + 2, l.text + l.hlen, l.slen);
	b[l.hlen + l.slen + 2] = '\n';
	return l.hlen + l.slen + 3;
}

/* Append a line to the range text being collected. */
static void text_collect(char *blk, size_t *len, size_t cap, struct lc_text l)
{
	if (*len + l.hlen + l.slen + 3 > cap) {
		*len = cap + 1; /* too long: not cached */
		return;
	}
	*len += text_line(blk + *len, l);
}

static void text_range(struct decfmt *c, const struct etm_elem *el,
		       const struct etm_image *img)
{
	struct etm_walk wk;
	struct etm_insn in;
	struct lc_range rg;
	char blk[2048], last[520];
	size_t blen = 0;
	uint32_t i = 0;
	/* lines that are only their instruction: whole ranges are cached */
	int whole = !c->multi && !line_annot_per_line(c->sym) && !c->fl;

	if (etm_walk_init(&wk, img, el) < 0)
		return;
	if (c->lc_img[el->id & 0x7f] != img) {
		if (c->lc_img[el->id & 0x7f]) {
			line_cache_free(c->lc);
			c->lc = NULL;
			memset(c->lc_img, 0, sizeof(c->lc_img));
		}
		c->lc_img[el->id & 0x7f] = img;
	}
	if (whole && line_cache_range_get(c->lc, el, wk.space, &rg)) {
		text_cached(c, el, &rg, etm_diag_elem_marks(img, el));
		c->n.insns += el->ninsn;
		return;
	}
	while (etm_walk_next(&wk, &in) == 0) {
		int last_insn = ++i == el->ninsn;
		struct lc_text l = line_cache_line(&c->lc, &c->fresh, &c->dis,
						   c->sym, img, wk.space, &in);

		line_annot_source(c->sym, c->w, el, &in);
		if (c->fl) { /* --fields */
			line_fields_line(c->fl, c->w, el, &in, l, last_insn, c->sym);
			if (last_insn)
				break;
			continue;
		}
		text_prefix(c, el);
		if (last_insn) {
			text_end(c, el, l, etm_diag_elem_marks(img, el));
			if (whole && blen <= sizeof(blk))
				line_cache_range_put(c->lc, el, wk.space, blk, blen, l,
						     text_en(el), last,
						     text_last_line(last, l, text_en(el)));
			break;
		}
		if (l.slen) {
			wbuf_put(c->w, l.text, l.hlen);
			wbuf_put(c->w, "  ", 2);
			wbuf_put(c->w, l.text + l.hlen, l.slen);
		} else {
			wbuf_put(c->w, l.text, l.tlen);
		}
		wbuf_char(c->w, '\n');
		if (whole)
			text_collect(blk, &blen, sizeof(blk), l);
	}
	c->n.insns += i;
}

/* The configuration of @el's source (NULL if it is not one of ours). */
static const struct etm_config *elem_cfg(const struct decfmt *c,
					 const struct etm_elem *el)
{
	const struct etm_listing_source *src = c->byid[el->id];

	return src ? src->cfg : NULL;
}

static void text_other(struct decfmt *c, const struct etm_elem *el)
{
	if (!etm_out_text_shown(el, elem_cfg(c, el)))
		return;
	if (el->kind == etmk_piece) { /* no packet's offset, no time: its
				       * bytes are in the line */
		if (el->reason != etm_gap_none) {
			if (c->multi)
				wbuf_str(c->w, "[0x00] ");
			etm_out_text_piece_gap(c->w, el);
			wbuf_char(c->w, '\n');
		}
		if (c->multi)
			wbuf_str(c->w, "[0x00] ");
	} else {
		text_prefix(c, el);
	}
	if (!etm_out_text_event(c->w, el, elem_cfg(c, el)))
		return;
	if (el->kind == etmk_timestamp || el->kind == etmk_cycle_count ||
	    el->kind == etmk_dwt_pc || el->kind == etmk_dwt_cmp)
		line_annot_other(c->sym, c->w, el);
	wbuf_char(c->w, '\n');
}

static void jsonl_elem(struct decfmt *c, const struct etm_elem *el)
{
	etm_out_jsonl_open(c->w, el, elem_cfg(c, el));
	if (el->kind == etmk_dwt_pc || el->kind == etmk_dwt_cmp)
		line_annot_json(c->sym, c->w, el); /* the function of its PC */
	if (el->kind == etmk_range) {
		line_annot_json(c->sym, c->w, el);
		c->n.insns += el->ninsn;
	}
	wbuf_str(c->w, "}\n");
}

/* Runs: consecutive error or nosync lines of one source with one reason. */
static int run_kind(const struct etm_elem *el)
{
	return el->kind == etmk_error || el->kind == etmk_nosync;
}

static int run_same(const struct dec_run *r, const struct etm_elem *el)
{
	return r->n && r->el.kind == el->kind && r->el.id == el->id &&
	       r->el.err == el->err;
}

static void run_write(struct decfmt *c, const struct dec_run *r)
{
	const struct etm_elem *el = &r->el;

	if (r->n == 1) {
		text_other(c, el);
		return;
	}
	text_prefix(c, el);
	etm_out_text_run(c->w, el, r->n, r->last_off);
	wbuf_char(c->w, '\n');
}

static void run_out(struct decfmt *c)
{
	if (!c->run.n)
		return;
	if (c->split && c->lead)
		c->head = c->run; /* may continue the previous piece's run */
	else
		run_write(c, &c->run);
	c->run.n = 0;
	c->lead = 0;
}

void decfmt_flush(struct decfmt *c)
{
	run_out(c);
	memset(c->lost, 0, sizeof(c->lost));
}

static void run_add(struct decfmt *c, const struct etm_elem *el)
{
	if (run_same(&c->run, el)) {
		c->run.n++;
		c->run.last_off = el->offset;
		return;
	}
	run_out(c);
	c->run.el = *el;
	c->run.n = 1;
	c->run.last_off = el->offset;
}

void decfmt_join_head(struct decfmt *c, const struct dec_run *head,
		      int has_text)
{
	if (head->n && run_same(&c->run, &head->el)) {
		c->run.n += head->n;
		c->run.last_off = head->last_off;
	} else if (head->n) {
		run_out(c);
		c->run = *head;
	}
	if (has_text)
		run_out(c);
}

void decfmt_join_tail(struct decfmt *c, const struct dec_run *tail)
{
	if (!tail->n)
		return;
	run_out(c);
	c->run = *tail;
}

/* The first range after a loss of sync that no trace on ended: the flow
 * resumed at an address a branch packet gave. */
static void text_resumed(struct decfmt *c, const struct etm_elem *el)
{
	if (!c->lost[el->id])
		return;
	c->lost[el->id] = 0;
	text_prefix(c, el);
	wbuf_printf(c->w, "-- resynchronised at 0x%08llx (branch address): "
			  "the listing resumes here\n",
		    (unsigned long long)el->start);
}

static inline int elem_out(struct decfmt *c, const struct etm_elem *el);
static inline void elem_fmt(struct decfmt *c, const struct etm_elem *el);
static void elem_filtered(struct decfmt *c, const struct etm_elem *el);

int decfmt_item(void *vctx, const struct etm_item *it)
{
	struct decfmt *c = vctx;

	if (it->kind == etm_item_elem)
		return elem_out(c, &it->elem);
	diagset_item(c->dw, it);
	c->n.packets++;
	return 0;
}

/* elem_fmt() of a batch for --stats: the counts alone, in one loop
 * without a branch on the kind (the switch per element cost 28
 * instructions of 132 per decoded PTM instruction, TC2). */
static void elems_stats(struct decfmt *c, const struct etm_elem *els, size_t n)
{
	unsigned long long insns = 0, errors = c->n.elems[etmk_error];
	size_t i;

	for (i = 0; i < n; i++) {
		enum etm_elem_kind k = els[i].kind;

		if (k < etmk_num_kinds)
			c->n.elems[k]++;
		insns += k == etmk_range ? els[i].ninsn : 0;
	}
	c->n.insns += insns;
	c->n.errors += c->n.elems[etmk_error] - errors; /* the batch's */
}

int decfmt_elems(void *vctx, const struct etm_elem *els, size_t n)
{
	struct decfmt *c = vctx;
	size_t i;

	etm_diagset_elems(c->dw, els, n);
	if (c->fmt == DF_STATS && !c->df.on) {
		elems_stats(c, els, n);
		return c->werr;
	}
	if (c->df.on) {
		for (i = 0; i < n; i++)
			elem_filtered(c, &els[i]);
		return c->werr;
	}
	for (i = 0; i < n; i++)
		elem_fmt(c, &els[i]);
	return c->werr;
}

/* The image range @el of @src was read from: its process's, when the
 * images are per process. */
static const struct etm_image *src_img(const struct decfmt *c,
				       const struct etm_listing_source *src,
				       const struct etm_elem *el)
{
	const struct etm_image *img = NULL;

	if (c->ctx_img && el->has_ctxid)
		img = c->ctx_img(c->ctx_img_arg, el->ctxid);
	return img ? img : src->img;
}

/* Canonical list: the instructions of ranges, GAP where trace was lost. */
static void canon_elem(struct decfmt *c, const struct etm_elem *el,
		       const struct etm_listing_source *src)
{
	long n;

	if (src && src->cfg && src->cfg->protocol == etm_proto_itm)
		return; /* ITM/DWT: no instructions, no gaps in them */
	if (el->kind == etmk_range && src) {
		n = etm_out_canon_range(c->w, el, src_img(c, src, el));
		if (n > 0)
			c->n.insns += (unsigned long long)n;
	} else if (el->kind == etmk_trace_on || el->kind == etmk_nosync ||
		   el->kind == etmk_nomem || el->kind == etmk_error ||
		   el->kind == etmk_window) {
		wbuf_str(c->w, "GAP\n");
	}
}

/* Whether filter @df drops @el (counted, not output). */
static int dfilter_drops(const struct dec_dfilter *df, const struct etm_elem *el)
{
	if (el->kind != etmk_data)
		return df->only && el->kind != etmk_error;
	return df->range && (!(el->dflags & ETM_DATA_ADDR) || el->daddr < df->lo ||
			     el->daddr > df->hi);
}

/* elem_fmt() behind the data filter (decided once per batch: the
 * unfiltered loop stays as it was). */
static void elem_filtered(struct decfmt *c, const struct etm_elem *el)
{
	if (!dfilter_drops(&c->df, el)) {
		elem_fmt(c, el);
		return;
	}
	if (el->kind < etmk_num_kinds)
		c->n.elems[el->kind]++;
	if (el->kind == etmk_range)
		c->n.insns += el->ninsn;
}

/* decfmt_elem() but the diagnostics, static: inlined into the loop of
 * decfmt_elems() (the library is built as position-independent code, where
 * a global function is not inlined into its callers), which gives the
 * diagnostics the whole batch at once. */
static inline void elem_fmt(struct decfmt *c, const struct etm_elem *el)
{
	const struct etm_listing_source *src;

	if (el->kind < etmk_num_kinds)
		c->n.elems[el->kind]++;
	if (el->kind == etmk_error)
		c->n.errors++;
	src = c->byid[el->id];
	switch (c->fmt) {
	case DF_DATA:
		if (el->kind == etmk_range)
			c->n.insns += el->ninsn;
		else if (el->kind == etmk_data)
			etm_out_data_line(c->w, el);
		break;
	case DF_STATS:
		if (el->kind == etmk_range)
			c->n.insns += el->ninsn;
		break;
	case DF_JSONL:
		jsonl_elem(c, el);
		break;
	case DF_CANON:
		canon_elem(c, el, src);
		break;
	case DF_TEXT:
		if (!src && el->kind != etmk_error && el->kind != etmk_buffer_end &&
		    el->kind != etmk_piece && el->kind != etmk_window)
			break; /* the deformatter's: no source */
		if (run_kind(el)) {
			c->lost[el->id] |= el->kind == etmk_nosync;
			run_add(c, el);
			break;
		}
		run_out(c);
		c->lead = 0;
		if (el->kind == etmk_range) {
			text_resumed(c, el);
			text_range(c, el, src_img(c, src, el));
		} else {
			c->lost[el->id] &= el->kind != etmk_trace_on;
			if (c->fl)
				line_fields_event(c->fl, el);
			text_other(c, el);
		}
		break;
	}
}

static inline int elem_out(struct decfmt *c, const struct etm_elem *el)
{
	diagset_elem(c->dw, el);
	if (c->df.on)
		elem_filtered(c, el);
	else
		elem_fmt(c, el);
	return 0;
}

int decfmt_elem(struct decfmt *c, const struct etm_elem *el)
{
	return elem_out(c, el);
}
