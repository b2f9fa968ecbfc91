/* cli/decfmt.c - `etmtrace decode` output of one item: the listing, the
 * canonical list, JSON lines or counts only. The formatter keeps no state
 * from item to item except counters, so that parallel decode can format
 * on the worker threads (cli/decpar.c). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/diag.h>

#include "decfmt.h"

void decfmt_init(struct decfmt *f, const struct session *s, struct wbuf *w,
		 enum dec_fmt fmt, struct disasm *dis, struct diagwarn *dw)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->s = s;
	f->w = w;
	f->fmt = fmt;
	f->multi = s->nsrc > 1;
	f->dis = dis;
	f->dw = dw;
	for (i = s->nsrc - 1; i >= 0; i--) /* the first of equal IDs wins */
		f->byid[s->src[i].id & 0xff] = &s->src[i];
}

void decfmt_fini(struct decfmt *f)
{
	lcache_free(f->lc);
	f->lc = NULL;
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

static int canon_range(struct decfmt *c, const struct etm_elem *el,
		       const struct etm_image *img)
{
	struct etm_walk wk;
	struct etm_insn in;
	char isa = el->isa == etmi_a32 ? 'A' : 'T';
	uint32_t i = 0;

	if (etm_walk_init(&wk, img, el) < 0)
		return -1;
	while (etm_walk_next(&wk, &in) == 0) {
		char *p;

		i++;
		wbuf_hex8(c->w, (uint32_t)in.addr);
		p = wbuf_reserve(c->w, 4);
		p[0] = ' ';
		p[1] = isa;
		if (i == el->ninsn && !el->last_exec) {
			p[2] = ' ';
			p[3] = 'N';
			wbuf_commit(c->w, 4);
		} else {
			wbuf_commit(c->w, 2);
		}
		wbuf_char(c->w, '\n');
	}
	c->n.insns += i;
	return 0;
}

static void text_prefix(struct decfmt *c, const struct etm_elem *el)
{
	decsym_prefix(c->sym, c->w, el);
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

/* The last line of a range: its cached parts around E/N, cycles, time. */
static void text_last(struct decfmt *c, const struct etm_elem *el,
		      struct lc_text l, const struct etm_image *img)
{
	unsigned marks = etm_diag_elem_marks(img, el);

	wbuf_put(c->w, l.text, l.hlen);
	if (el->last_atom)
		wbuf_put(c->w, el->last_exec ? " E" : " N", 2);
	else if (!el->last_exec)
		wbuf_put(c->w, " N", 2);
	else
		wbuf_put(c->w, "  ", 2);
	if (el->has_cycles)
		text_cycles(c->w, el->cycles);
	decsym_tail(c->sym, c->w, el, 1);
	wbuf_put(c->w, l.text + l.hlen, l.slen);
	/* where the trace disagrees with the image (counted on stderr) */
	if (marks & etm_mark_n_uncond)
		wbuf_str(c->w, "  !N-on-unconditional");
	if (marks & etm_mark_undef)
		wbuf_str(c->w, "  !undefined-instruction");
	wbuf_char(c->w, '\n');
}

/* Append "head  sym\n" of a line to the range text being collected. */
static void text_collect(char *blk, size_t *len, size_t cap, struct lc_text l)
{
	if (*len + l.hlen + l.slen + 3 > cap) {
		*len = cap + 1; /* too long: not cached */
		return;
	}
	memcpy(blk + *len, l.text, l.hlen);
	memcpy(blk + *len + l.hlen, "  ", 2);
	memcpy(blk + *len + l.hlen + 2, l.text + l.hlen, l.slen);
	*len += l.hlen + l.slen + 3;
	blk[*len - 1] = '\n';
}

static void text_range(struct decfmt *c, const struct etm_elem *el,
		       const struct etm_image *img)
{
	struct etm_walk wk;
	struct etm_insn in;
	struct lc_range rg;
	char blk[2048];
	size_t blen = 0;
	uint32_t i = 0;
	/* lines that are only their instruction: whole ranges are cached */
	int whole = !c->multi && !decsym_per_line(c->sym);

	if (etm_walk_init(&wk, img, el) < 0)
		return;
	if (whole && lcache_range_get(c->lc, el, wk.space, &rg)) {
		wbuf_put(c->w, rg.body, rg.len);
		text_last(c, el, rg.last, img);
		c->n.insns += el->ninsn;
		return;
	}
	while (etm_walk_next(&wk, &in) == 0) {
		int last = ++i == el->ninsn;
		struct lc_text l = lcache_line(&c->lc, c->dis, c->sym, img,
					       wk.space, &in);

		decsym_source(c->sym, c->w, el, &in);
		text_prefix(c, el);
		if (last) {
			text_last(c, el, l, img);
			if (whole && blen <= sizeof(blk))
				lcache_range_put(c->lc, el, wk.space, blk, blen, l);
			break;
		}
		wbuf_put(c->w, l.text, l.hlen);
		wbuf_put(c->w, "  ", 2);
		wbuf_put(c->w, l.text + l.hlen, l.slen);
		wbuf_char(c->w, '\n');
		if (whole)
			text_collect(blk, &blen, sizeof(blk), l);
	}
	c->n.insns += i;
}

/* The I-sync reason of a trace-on element (docs: ETMv3 / PTM I-sync). */
static const char *decfmt_isync_name(unsigned r)
{
	static const char *const n[] = { "periodic", "trace enabled",
					 "overflow", "debug exit" };

	return r < 4 ? n[r] : "?";
}

static const char *decfmt_on_name(unsigned r)
{
	static const char *const n[] = { "start", "enable", "overflow",
					 "debug_exit", "resync" };

	return r < 5 ? n[r] : "?";
}

static void text_exception(struct decfmt *c, const struct etm_elem *el)
{
	const char *name = etm_exc_name(el->exc_num,
					etm_cfg_m_profile(&c->byid[el->id]->cfg));

	wbuf_printf(c->w, "-- exception %s (%u)%s", name, el->exc_num,
		    el->exc_cancel ? " cancels last instruction" : "");
	if (!strcmp(name, "DebugHalt")) /* no vector: the core halts */
		wbuf_str(c->w, ": core halted in debug state");
	else
		wbuf_printf(c->w, " -> 0x%08llx", (unsigned long long)el->addr);
	if (el->has_ret)
		wbuf_printf(c->w, ", return 0x%08llx", (unsigned long long)el->ret_addr);
	wbuf_char(c->w, '\n');
}

static void text_trace_on(struct decfmt *c, const struct etm_elem *el)
{
	static const char *const reasons[] = { "start", "trace enabled",
					       "overflow (data lost)", "debug exit", "resync" };

	if (el->reason == etm_on_resync) { /* after a loss of sync */
		wbuf_printf(c->w, "-- resynchronised at 0x%08llx (I-sync: "
				  "%s): the listing resumes here\n",
			    (unsigned long long)el->addr,
			    decfmt_isync_name(el->isync_reason));
		return;
	}
	wbuf_printf(c->w, "-- trace on (%s, I-sync: %s) at 0x%08llx\n",
		    el->reason < 5 ? reasons[el->reason] : "?",
		    decfmt_isync_name(el->isync_reason),
		    (unsigned long long)el->addr);
}

static void text_other(struct decfmt *c, const struct etm_elem *el)
{
	text_prefix(c, el);
	switch (el->kind) {
	case etmk_exception:
		text_exception(c, el);
		break;
	case etmk_exc_return:
		wbuf_str(c->w, "-- exception return\n");
		break;
	case etmk_trace_on:
		text_trace_on(c, el);
		break;
	case etmk_nosync:
		wbuf_str(c->w, "-- not synchronised");
		if (el->err)
			wbuf_printf(c->w, ": %s", etm_errstr(el->err));
		else
			wbuf_str(c->w, ": trace lost here, the listing resumes at "
				       "the next address the trace gives");
		wbuf_char(c->w, '\n');
		break;
	case etmk_context:
		wbuf_printf(c->w, "-- context %s%s", el->ns ? "NS" : "S", el->hyp ? " Hyp" : "");
		if (el->has_ctxid)
			wbuf_printf(c->w, " ctxid=0x%08x", el->ctxid);
		if (el->has_vmid)
			wbuf_printf(c->w, " vmid=%u", el->vmid);
		wbuf_char(c->w, '\n');
		break;
	case etmk_timestamp:
		wbuf_printf(c->w, "-- timestamp %llu", (unsigned long long)el->timestamp);
		decsym_other(c->sym, c->w, el);
		wbuf_char(c->w, '\n');
		break;
	case etmk_cycle_count:
		wbuf_printf(c->w, "-- cycle count %u", el->cycles);
		decsym_other(c->sym, c->w, el);
		wbuf_char(c->w, '\n');
		break;
	case etmk_event:
		wbuf_str(c->w, "-- trigger\n");
		break;
	case etmk_nomem:
		wbuf_printf(c->w, "-- memory not accessible at 0x%08llx (%s): no "
				  "image there, resuming at the next address\n",
			    (unsigned long long)el->addr, el->isa == etmi_unknown ? "instruction set unknown" : etm_isa_name(el->isa));
		break;
	case etmk_error:
		wbuf_printf(c->w, "-- error at offset %llu: %s\n",
			    (unsigned long long)el->offset, etm_errstr(el->err));
		break;
	case etmk_range:
	case etmk_invalid:
	case etmk_num_kinds:
		break;
	}
}

static void jsonl_elem(struct decfmt *c, const struct etm_elem *el)
{
	wbuf_printf(c->w, "{\"offset\":%llu,\"id\":\"0x%02x\",\"kind\":\"%s\"",
		    (unsigned long long)el->offset, el->id, etm_elem_kind_name(el->kind));
	switch (el->kind) {
	case etmk_range:
		wbuf_printf(c->w, ",\"start\":\"0x%08llx\",\"end\":\"0x%08llx\",\"isa\":\"%s\","
				  "\"n\":%u,\"last\":\"0x%08llx\",\"last_class\":\"%s\"",
			    (unsigned long long)el->start, (unsigned long long)el->end,
			    etm_isa_name(el->isa), el->ninsn,
			    (unsigned long long)el->last_addr,
			    etm_insn_class_name(el->last_cls));
		if (el->last_atom)
			wbuf_printf(c->w, ",\"atom\":\"%c\"", el->last_exec ? 'E' : 'N');
		if (el->has_cycles)
			wbuf_printf(c->w, ",\"cycles\":%u", el->cycles);
		decsym_json(c->sym, c->w, el);
		c->n.insns += el->ninsn;
		break;
	case etmk_exception:
		wbuf_printf(c->w, ",\"exception\":%u,\"name\":\"%s\",\"addr\":\"0x%08llx\"",
			    el->exc_num, etm_exc_name(el->exc_num, etm_cfg_m_profile(&c->byid[el->id]->cfg)),
			    (unsigned long long)el->addr);
		if (el->has_ret)
			wbuf_printf(c->w, ",\"return\":\"0x%08llx\"",
				    (unsigned long long)el->ret_addr);
		if (el->exc_cancel)
			wbuf_str(c->w, ",\"cancel\":true");
		break;
	case etmk_trace_on:
		wbuf_printf(c->w, ",\"reason\":%u,\"reason_name\":\"%s\",\"isync\":\"%s\"",
			    el->reason, decfmt_on_name(el->reason),
			    decfmt_isync_name(el->isync_reason));
		wbuf_printf(c->w, ",\"addr\":\"0x%08llx\"",
			    (unsigned long long)el->addr);
		break;
	case etmk_context:
		wbuf_printf(c->w, ",\"ns\":%u,\"hyp\":%u", el->ns, el->hyp);
		if (el->has_ctxid)
			wbuf_printf(c->w, ",\"ctxid\":\"0x%08x\"", el->ctxid);
		if (el->has_vmid)
			wbuf_printf(c->w, ",\"vmid\":%u", el->vmid);
		break;
	case etmk_timestamp:
		wbuf_printf(c->w, ",\"timestamp\":%llu", (unsigned long long)el->timestamp);
		break;
	case etmk_cycle_count:
		wbuf_printf(c->w, ",\"cycles\":%u", el->cycles);
		break;
	case etmk_nomem:
		wbuf_printf(c->w, ",\"addr\":\"0x%08llx\"", (unsigned long long)el->addr);
		break;
	case etmk_error:
		wbuf_printf(c->w, ",\"error\":\"%s\"", etm_errname(el->err));
		break;
	case etmk_nosync:
		if (el->err)
			wbuf_printf(c->w, ",\"reason\":\"%s\"", etm_errname(el->err));
		break;
	case etmk_exc_return:
	case etmk_event:
	case etmk_invalid:
	case etmk_num_kinds:
		break;
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
	if (el->kind == etmk_error)
		wbuf_printf(c->w, "-- error at offsets %llu-%llu: %s (%llu times)\n",
			    (unsigned long long)el->offset, r->last_off,
			    etm_errstr(el->err), r->n);
	else
		wbuf_printf(c->w, "-- not synchronised: %s (%llu times, offsets "
				  "%llu-%llu)\n",
			    el->err ? etm_errstr(el->err) :
				      "trace lost",
			    r->n, (unsigned long long)el->offset,
			    r->last_off);
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

int decfmt_item(void *vctx, const struct etm_item *it)
{
	struct decfmt *c = vctx;

	if (it->is_elem)
		return decfmt_elem(c, &it->elem);
	diagwarn_item(c->dw, it);
	c->n.packets++;
	return 0;
}

int decfmt_elems(void *vctx, const struct etm_elem *els, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		decfmt_elem(vctx, &els[i]);
	return 0;
}

int decfmt_elem(struct decfmt *c, const struct etm_elem *el)
{
	const struct session_src *src;

	diagwarn_elem(c->dw, el);
	if (el->kind < etmk_num_kinds)
		c->n.elems[el->kind]++;
	if (el->kind == etmk_error)
		c->n.errors++;
	src = c->byid[el->id];
	switch (c->fmt) {
	case DF_STATS:
		if (el->kind == etmk_range)
			c->n.insns += el->ninsn;
		break;
	case DF_JSONL:
		jsonl_elem(c, el);
		break;
	case DF_CANON:
		if (el->kind == etmk_range && src)
			canon_range(c, el, src->img);
		else if (el->kind == etmk_trace_on || el->kind == etmk_nosync ||
			 el->kind == etmk_nomem || el->kind == etmk_error)
			wbuf_str(c->w, "GAP\n");
		break;
	case DF_TEXT:
		if (!src && el->kind != etmk_error)
			break;
		if (run_kind(el)) {
			c->lost[el->id] |= el->kind == etmk_nosync;
			run_add(c, el);
			break;
		}
		run_out(c);
		c->lead = 0;
		if (el->kind == etmk_range) {
			text_resumed(c, el);
			text_range(c, el, src->img);
		} else {
			c->lost[el->id] &= el->kind != etmk_trace_on;
			text_other(c, el);
		}
		break;
	}
	return 0;
}
