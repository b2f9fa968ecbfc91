/* python/src/outputs.c - the library's parallel outputs from Python:
 * listing() (etm_listing_run(): text, canon or jsonl formatted on the
 * decoding worker threads) and coverage() (etm_cov_run(): the coverage
 * accumulated on them, as its saved text) of one trace buffer of a
 * capture. The GIL is released while decoding. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>

#include "etmpy.h"

static const char *const out_own[] = { "format", "jobs", "buffer", NULL };

/* Text gathered from a write callback. */
struct out_text {
	char *s;
	size_t n, cap;
};

static int out_put(void *ctx, const char *s, size_t n)
{
	struct out_text *t = ctx;

	if (n > t->cap - t->n) {
		size_t cap = t->cap ? t->cap : 1u << 16;
		char *p;

		while (n > cap - t->n)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p)
			return -etme_nomem;
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	return 0;
}

/* What both functions take: the path, their own keywords, the capture
 * with buffer @buffer's file open. */
struct out_call {
	struct epy_opts po;
	struct etm_capture *cap;
	const struct etm_capture_buffer *b;
	struct etm_fd_range rg; /* the buffer's file */
	uint64_t size;
	unsigned jobs;
	const char *format;
};

static int out_open(struct out_call *c, PyObject *args, PyObject *kw,
		    const char *name)
{
	PyObject *path = NULL, *v;
	Py_ssize_t buffer = 0;
	int r = -1;

	memset(c, 0, sizeof(*c));
	c->rg.fd = -1;
	c->jobs = 1;
	c->format = "text";
	if (!PyArg_ParseTuple(args, name[0] == 'l' ? "O&:listing" : "O&:coverage",
			      PyUnicode_FSConverter, &path))
		return -1;
	if (kw && (v = PyDict_GetItemString(kw, "jobs")) &&
	    ((c->jobs = (unsigned)PyLong_AsUnsignedLong(v)), PyErr_Occurred()))
		goto out;
	if (kw && (v = PyDict_GetItemString(kw, "buffer")) &&
	    ((buffer = PyLong_AsSsize_t(v)), PyErr_Occurred()))
		goto out;
	if (kw && (v = PyDict_GetItemString(kw, "format")) &&
	    !(c->format = PyUnicode_AsUTF8(v)))
		goto out;
	if (epy_opts_parse(&c->po, kw, out_own) < 0 ||
	    epy_capture_open(&c->cap, PyBytes_AsString(path), &c->po) < 0)
		goto out;
	c->b = epy_buffer_file(c->cap, buffer, &c->rg, &c->size);
	r = c->b ? 0 : -1;
out:
	Py_XDECREF(path);
	return r;
}

static void out_close(struct out_call *c)
{
	if (c->rg.fd >= 0)
		close(c->rg.fd);
	etm_capture_free(c->cap);
	epy_opts_free(&c->po);
}

/* The capture's decoded sources as a listing takes them (NULL: none or
 * no memory, *@n 0). */
static struct etm_listing_source *out_sources(const struct etm_capture *cap,
					      size_t *n)
{
	size_t i, k = etm_capture_nsources(cap);
	struct etm_listing_source *ls = calloc(k ? k : 1, sizeof(*ls));

	*n = 0;
	for (i = 0; ls && i < k; i++) {
		const struct etm_capture_source *s = etm_capture_source(cap, i);

		if (s->skip)
			continue;
		ls[*n].id = s->id;
		ls[*n].cfg = &s->cfg;
		ls[(*n)++].img = s->img;
	}
	return ls;
}

static PyObject *out_str(struct out_text *t)
{
	PyObject *s = PyUnicode_DecodeUTF8(t->s ? t->s : "", (Py_ssize_t)t->n,
					   "replace");

	free(t->s);
	return s;
}

static PyObject *m_listing(PyObject *self, PyObject *args, PyObject *kw)
{
	struct etm_listing_opts o;
	struct etm_listing *l = NULL;
	struct out_text t = { 0 };
	struct out_call c;
	PyObject *res = NULL;
	int r;

	(void)self;
	if (out_open(&c, args, kw, "listing") < 0)
		goto out;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.format = !strcmp(c.format, "canon") ? etm_listing_canon :
		   !strcmp(c.format, "jsonl") ? etm_listing_jsonl :
						etm_listing_text;
	if (o.format == etm_listing_text && strcmp(c.format, "text")) {
		PyErr_Format(PyExc_ValueError, "format %s: text, canon or jsonl",
			     c.format);
		goto out;
	}
	o.src = out_sources(c.cap, &o.nsrc);
	o.write = out_put;
	o.write_ctx = &t;
	r = o.src ? etm_listing_alloc(&l, &o) : -etme_nomem;
	if (r >= 0) {
		Py_BEGIN_ALLOW_THREADS
			r = etm_listing_run(l, c.b->dec, etm_fd_read, &c.rg, c.size,
					    c.jobs);
		if (r >= 0)
			r = etm_listing_flush(l);
		Py_END_ALLOW_THREADS
	}
	etm_listing_free(l);
	free((void *)o.src);
	if (r < 0) {
		free(t.s);
		epy_raise(r, "listing");
	} else {
		res = out_str(&t);
	}
out:
	out_close(&c);
	return res;
}

static PyObject *m_coverage(PyObject *self, PyObject *args, PyObject *kw)
{
	struct etm_cov *cov = NULL;
	struct out_text t = { 0 };
	struct out_call c;
	PyObject *res = NULL;
	size_t i;
	int r = -etme_nomem;

	(void)self;
	if (out_open(&c, args, kw, "coverage") < 0)
		goto out;
	cov = etm_cov_alloc();
	for (i = 0; cov && i < etm_capture_nsources(c.cap); i++) {
		const struct etm_capture_source *s = etm_capture_source(c.cap, i);

		if (!s->skip)
			etm_cov_set_source(cov, s->id, s->cfg.protocol, s->img);
	}
	if (cov) {
		Py_BEGIN_ALLOW_THREADS
			r = etm_cov_run(cov, c.b->dec, etm_fd_read, &c.rg, c.size, c.jobs,
					NULL);
		if (r >= 0)
			r = etm_cov_end(cov);
		if (r >= 0)
			r = etm_cov_save(cov, out_put, &t);
		Py_END_ALLOW_THREADS
	}
	etm_cov_free(cov);
	if (r < 0) {
		free(t.s);
		epy_raise(r, "coverage");
	} else {
		res = out_str(&t);
	}
out:
	out_close(&c);
	return res;
}

PyMethodDef epy_output_methods[] = {
	{ "listing", (PyCFunction)(void (*)(void))m_listing,
	  METH_VARARGS | METH_KEYWORDS,
	  "listing(path, *, format='text', jobs=1, buffer=0, **options) -> str\n\n"
	  "The listing of trace buffer @buffer of the capture at @path ('text',\n"
	  "'canon' or 'jsonl'; no disassembly: text lines show the instruction\n"
	  "class), formatted on @jobs decoding threads: the same text whatever\n"
	  "@jobs. Options as for open()." },
	{ "coverage", (PyCFunction)(void (*)(void))m_coverage,
	  METH_VARARGS | METH_KEYWORDS,
	  "coverage(path, *, jobs=1, buffer=0, **options) -> str\n\n"
	  "The coverage of trace buffer @buffer of the capture at @path,\n"
	  "accumulated on @jobs decoding threads, in its saved form (the text\n"
	  "of `etmtrace coverage --format save`). Options as for open()." },
	{ NULL, NULL, 0, NULL },
};
