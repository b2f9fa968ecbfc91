/* load/open_perf.c - a perf.data file with cs_etm trace as a capture
 * (etm_capture_open()): one source per CPU of the AUXTRACE_INFO metadata,
 * one trace buffer per piece of AUX data (an AUXTRACE record's data cut at
 * the AUX records of its CPU, or of its thread in per-thread mode: each is
 * decoded by a decoder of its own, so nothing crosses a boundary), and the
 * program image of the process that ran, from its MMAP/MMAP2 records
 * (doc/perfdata.md). The file is read record by record; what is kept is a
 * few words per record of sideband, never the trace. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/perfdata.h>

#include "decoder/realign.h"
#include "load/open_int.h"
#include "load/open_perf_int.h"

int cap_is_perf(const char *path)
{
	FILE *f = fopen(path, "rb");
	char m[8];
	int yes;

	if (!f)
		return 0;
	yes = fread(m, 1, 8, f) == 8 &&
	      (!memcmp(m, "PERFILE2", 8) || !memcmp(m, "2ELIFREP", 8));
	fclose(f);
	return yes;
}

static void *pf_grow(void **arr, size_t *n, size_t size)
{
	char *t = realloc(*arr, (*n + 1) * size);

	if (!t)
		return NULL;
	*arr = t;
	memset(t + *n * size, 0, size);
	return t + (*n)++ * size;
}

static int pf_map_rec(struct pf *pf, const struct etm_perf_rec *r)
{
	struct pf_map *m = pf_grow((void **)&pf->maps, &pf->nmaps, sizeof(*m));

	if (!m || !(m->path = strdup(r->u.mmap.filename)))
		return -etme_nomem;
	m->pid = r->u.mmap.pid;
	m->addr = r->u.mmap.addr;
	m->len = r->u.mmap.len;
	m->pgoff = r->u.mmap.pgoff;
	m->bidlen = r->u.mmap.build_id_size;
	memcpy(m->bid, r->u.mmap.build_id, sizeof(m->bid));
	m->ord = pf->nrec;
	return 0;
}

static int pf_task_rec(struct pf *pf, const struct etm_perf_rec *r)
{
	struct pf_task *t = pf_grow((void **)&pf->tasks, &pf->ntasks, sizeof(*t));

	if (!t)
		return -etme_nomem;
	t->kind = r->type == ETM_PERF_COMM ? PT_COMM :
		  r->type == ETM_PERF_FORK ? PT_FORK :
					     PT_EXIT;
	t->pid = r->type == ETM_PERF_COMM ? r->u.comm.pid : r->u.fork.pid;
	t->tid = r->type == ETM_PERF_COMM ? r->u.comm.tid : r->u.fork.tid;
	t->ppid = r->type == ETM_PERF_COMM ? t->pid : r->u.fork.ppid;
	t->ord = pf->nrec;
	if (r->type == ETM_PERF_COMM)
		snprintf(t->comm, sizeof(t->comm), "%s", r->u.comm.comm);
	return 0;
}

/* AUX, ITRACE_START, SWITCH, SWITCH_CPU_WIDE: the process they name is
 * the sample id's, but ITRACE_START's own and SWITCH_CPU_WIDE out's next
 * (doc/perfdata.md). */
static int pf_aux_rec(struct pf *pf, const struct etm_perf_rec *r)
{
	struct pf_aux *a = pf_grow((void **)&pf->aux, &pf->naux, sizeof(*a));

	if (!a)
		return -etme_nomem;
	a->has_cpu = r->has_cpu;
	a->cpu = r->cpu;
	a->has_tid = r->has_tid;
	a->pid = r->pid;
	a->tid = r->tid;
	a->ord = pf->nrec;
	if (r->type == ETM_PERF_AUX) {
		a->kind = PA_AUX;
		a->off = r->u.aux.offset;
		a->size = r->u.aux.size;
		a->flags = r->u.aux.flags;
	} else if (r->type == ETM_PERF_ITRACE_START) {
		a->kind = PA_START;
		a->has_tid = 1;
		a->pid = r->u.itrace.pid;
		a->tid = r->u.itrace.tid;
	} else if (r->type == ETM_PERF_SWITCH) {
		a->kind = r->u.sw.out ? PA_OUT : PA_IN;
	} else {
		a->kind = PA_IN;
		if (r->u.sw.out) { /* the next process */
			a->has_tid = 1;
			a->pid = r->u.sw.pid;
			a->tid = r->u.sw.tid;
		}
	}
	return 0;
}

static int pf_record(struct pf *pf, const struct etm_perf_rec *r)
{
	int e = 0;

	if ((r->type == ETM_PERF_MMAP || r->type == ETM_PERF_MMAP2) &&
	    r->u.mmap.prot & 4) {
		e = pf_map_rec(pf, r);
	} else if (r->type == ETM_PERF_COMM || r->type == ETM_PERF_FORK ||
		   r->type == ETM_PERF_EXIT) {
		e = pf_task_rec(pf, r);
	} else if (r->type == ETM_PERF_AUX || r->type == ETM_PERF_ITRACE_START ||
		   r->type == ETM_PERF_SWITCH ||
		   r->type == ETM_PERF_SWITCH_CPU_WIDE) {
		e = pf_aux_rec(pf, r);
	} else if (r->type == ETM_PERF_AUXTRACE) {
		struct pf_atr *t = pf_grow((void **)&pf->atr, &pf->natr, sizeof(*t));

		if (!t)
			return -etme_nomem;
		t->cpu = r->u.auxtrace.cpu;
		t->tid = r->u.auxtrace.tid;
		t->off = r->u.auxtrace.offset;
		t->size = r->u.auxtrace.size;
		t->data = r->u.auxtrace.data;
		t->seq = pf->naux;
	} else if (r->type == ETM_PERF_AUX_OUTPUT_HW_ID && r->has_cpu) {
		struct pf_hw *h = pf_grow((void **)&pf->hw, &pf->nhw, sizeof(*h));

		if (!h)
			return -etme_nomem;
		h->cpu = r->cpu;
		h->id = (unsigned)(r->u.hw_id & 0xff);
	}
	pf->nrec++;
	return e;
}

static int pf_scan(struct cap_ctx *c, struct pf *pf)
{
	struct etm_perf_rec r;
	int e;

	while ((e = etm_perf_next(pf->p, &r, c->err, c->errlen)) == 0)
		if ((e = pf_record(pf, &r)) < 0)
			return cap_err(c, e, "out of memory");
	return e == -etme_eos ? 0 : e;
}

void pf_free(struct pf *pf)
{
	size_t i;

	for (i = 0; i < pf->nmaps; i++)
		free(pf->maps[i].path);
	free(pf->maps);
	free(pf->tasks);
	free(pf->aux);
	free(pf->atr);
	free(pf->hw);
	free(pf->pimg);
	free(pf->ids);
	etm_perf_close(pf->p);
}

/* The trace ID of metadata CPU @i (0: not known). */
static unsigned pf_trace_id(const struct pf *pf, size_t i)
{
	const struct etm_perf_cpu *m = &etm_perf_info(pf->p)->cpus[i];
	size_t k;

	if (!m->id_from_hw)
		return m->cfg.traceid & 0x7f;
	for (k = pf->nhw; k-- > 0;)
		if (pf->hw[k].cpu == m->cpu)
			return pf->hw[k].id & 0x7f;
	return 0;
}

/* Who buffer @b's trace is of: CPU @cpu, process and thread @w. */
static int pf_buffer_who(struct cap_ctx *c, const struct pf *pf,
			 const struct pf_who *w, uint32_t cpu,
			 struct etm_capture_buffer *b)
{
	uint32_t tid = w->tid, pid = w->pid;
	size_t k;

	b->perf_cpu = cpu == ETM_PERF_NO_CPU ? -1 : (int)cpu;
	b->perf_pid = pid == PF_NO_PID ? -1 : (int)pid;
	b->perf_tid = tid == PF_NO_PID ? -1 : (int)tid;
	for (k = pf->ntasks; k-- > 0;)
		if (pf->tasks[k].kind == PT_COMM && pf->tasks[k].pid == pid &&
		    pf->tasks[k].ord <= w->ord && pf->tasks[k].comm[0]) {
			b->perf_comm = cap_strdup(c->cap, pf->tasks[k].comm);
			return b->perf_comm ? 0 : -1;
		}
	return 0;
}

/* Mark the capture's last buffer as made when read. */
static int cap_lazy(struct etm_capture *cap)
{
	uint8_t *t = realloc(cap->lazy, cap->nbuf);

	if (!t)
		return -1;
	memset(t + cap->nlazy, 0, cap->nbuf - cap->nlazy);
	cap->lazy = t;
	cap->nlazy = cap->nbuf;
	t[cap->nbuf - 1] = 1;
	return 0;
}

int cap_perf_nonempty(const struct etm_capture *cap)
{
	size_t i;

	for (i = 0; i < cap->nsrc; i++)
		if (!cap->src[i].skip && cap->src[i].buffer < cap->nlazy &&
		    cap->lazy[cap->src[i].buffer])
			return 1;
	return 0;
}

/* Buffer @i's decoder: its sources, and those of others its frames may
 * name; the decoder of the piece loaded before is freed. */
int etm_capture_load(struct etm_capture *cap, size_t i)
{
	struct etm_capture_buffer *b;
	size_t k;
	int r = 0;

	if (!cap || i >= cap->nbuf)
		return -etme_invalid;
	b = &cap->buf[i];
	cap_pctx_load(cap, i);
	if (i >= cap->nlazy || !cap->lazy[i] || b->dec)
		return 0;
	if (cap->live) {
		etm_decoder_free(cap->buf[cap->live - 1].dec);
		cap->buf[cap->live - 1].dec = NULL;
		cap->live = 0;
	}
	for (k = 0; k < cap->nsrc && r >= 0; k++) {
		const struct etm_capture_source *s = &cap->src[k];

		if (s->buffer != i || (s->skip && strcmp(s->skip, "not selected")))
			continue;
		if (!b->dec && !(b->dec = etm_decoder_alloc(b->format, cap->mode)))
			return -etme_nomem;
		r = s->skip ? etm_decoder_note_source_img(b->dec, &s->cfg, s->img) :
			      etm_decoder_add_source(b->dec, &s->cfg, s->img);
		if (r >= 0 && !s->skip)
			r = cap_pctx_wire(cap, b->dec, s);
	}
	if (b->dec)
		cap->live = i + 1;
	return r < 0 ? r : 0;
}

/* Add the buffer piece [@lo, @hi) of @t's AUX space, written on CPU @cpu
 * (the AUX record's; raw trace is that CPU's source's), ended by AUX
 * record @k (SIZE_MAX: none). */
static int pf_piece(struct cap_ctx *c, struct pf *pf, const struct pf_atr *t,
		    uint64_t lo, uint64_t hi, int raw, uint32_t cpu, size_t k)
{
	struct pf_who w = pf_piece_who(pf, t, k);
	struct etm_capture_buffer *b;
	uint64_t tlo = t->off, thi = t->off + t->size;
	char name[160];

	if (lo < tlo)
		lo = tlo;
	if (hi > thi)
		hi = thi;
	if (hi <= lo)
		return 0;
	b = cap_add_buffer(c->cap);
	if (!b)
		return cap_err(c, -etme_nomem, "out of memory");
	b->path = c->cap->path;
	b->format = raw ? etm_fmt_raw : etm_fmt_coresight;
	b->skip = t->data + (lo - t->off);
	b->length = hi - lo;
	snprintf(name, sizeof(name), "perf.data AUX trace of %s %u at offset "
				     "%llu, %llu bytes",
		 t->cpu == ETM_PERF_NO_CPU ? "thread" : "CPU",
		 t->cpu == ETM_PERF_NO_CPU ? t->tid : t->cpu,
		 (unsigned long long)b->skip, (unsigned long long)b->length);
	b->name = cap_strdup(c->cap, name);
	if (!b->name || cap_lazy(c->cap) || pf_buffer_who(c, pf, &w, cpu, b) < 0)
		return cap_err(c, -etme_nomem, "out of memory");
	return pf_sources(c, pf, &w, c->cap->nbuf - 1, cpu);
}

/* The AUX records of @t's CPU (or thread) cut its data; none: all of it. */
static int pf_buffers(struct cap_ctx *c, struct pf *pf, const struct pf_atr *t)
{
	size_t k, hit = 0, start = 0, nb;
	int r = 0;

	for (k = 0; k < pf->naux && !r; k++) {
		const struct pf_aux *a = &pf->aux[k];

		if (a->kind != PA_AUX || !a->size ||
		    (t->cpu != ETM_PERF_NO_CPU ? !a->has_cpu || a->cpu != t->cpu :
						 !a->has_tid || a->tid != t->tid) ||
		    a->off >= t->off + t->size || a->off + a->size <= t->off)
			continue;
		hit++;
		nb = c->cap->nbuf;
		r = pf_piece(c, pf, t, a->off, a->off + a->size,
			     (a->flags & ETM_PERF_AUX_RAW) != 0,
			     a->has_cpu ? a->cpu : t->cpu, k);
		if (!r && c->cap->nbuf > nb)
			r = pf_ctx_piece(c, c->cap->nbuf - 1, start, a->ord);
		start = a->ord;
	}
	nb = c->cap->nbuf;
	if (!r && !hit)
		r = pf_piece(c, pf, t, t->off, t->off + t->size, 0, t->cpu,
			     SIZE_MAX);
	if (!r && c->cap->nbuf > nb) /* the whole recording */
		r = pf_ctx_piece(c, c->cap->nbuf - 1, 0, SIZE_MAX);
	return r;
}

int cap_open_perf(struct cap_ctx *c)
{
	const struct etm_perf_info *in;
	struct pf pf;
	size_t i;
	int r;

	memset(&pf, 0, sizeof(pf));
	c->cap->mode = c->o.mode ? c->o.mode : etm_dec_elements;
	r = etm_perf_open(&pf.p, c->cap->path, c->err, c->errlen);
	if (r < 0)
		return r;
	in = etm_perf_info(pf.p);
	if (!in->have_auxtrace_info)
		r = cap_err(c, -etme_bad_config, "%s: no cs_etm AUXTRACE_INFO "
						 "record%s: not CoreSight trace",
			    c->cap->path,
			    in->auxtrace_type ? " (AUX trace of another kind)" : "");
	if (!r)
		r = pf_scan(c, &pf);
	pf.ids = calloc(in->ncpus ? in->ncpus : 1, sizeof(*pf.ids));
	for (i = 0; !r && pf.ids && i < in->ncpus; i++)
		pf.ids[i] = pf_trace_id(&pf, i);
	if (!r && !pf.ids)
		r = cap_err(c, -etme_nomem, "out of memory");
	if (!r)
		r = cap_note(c->cap, "%s: perf.data, cs_etm header version %llu, "
				     "%zu CPU%s, %s mode%s, %zu AUXTRACE buffer%s, "
				     "%zu executable mapping%s",
			     c->cap->path, (unsigned long long)in->header_version,
			     in->ncpus, in->ncpus == 1 ? "" : "s",
			     pf.natr && pf.atr[0].cpu == ETM_PERF_NO_CPU ?
				     "per-thread" :
				     "per-CPU",
			     in->snapshot ? ", snapshot" : "", pf.natr,
			     pf.natr == 1 ? "" : "s", pf.nmaps,
			     pf.nmaps == 1 ? "" : "s");
	if (!r)
		r = pf_ctx_images(c, &pf);
	for (i = 0; !r && i < pf.natr; i++)
		r = pf_buffers(c, &pf, &pf.atr[i]);
	if (!r && !pf.natr)
		r = pf_unsupported(c, &pf);
	pf_free(&pf);
	return r;
}
