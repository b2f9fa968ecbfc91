/* python/src/decoder.c - etmtrace.Decoder: an opened capture (every trace
 * buffer in turn) or one chunk of a buffer, iterated in batches; decoding
 * runs with the GIL released. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etmpy.h"

#define EPY_BATCH 65536 /* default records per batch */

_Static_assert(sizeof(struct epy_elem) == 56, "element record layout");
_Static_assert(sizeof(struct etm_pkt_rec) == 16, "packet record layout");

struct epy_dec {
	PyObject_HEAD struct etm_capture *cap;
	int packets;              /* packet batches (etm_dec_packets) */
	size_t cur;               /* buffer of the last batch (the window's elements) */
	struct etm_fd_range rg;   /* chunk mode: the buffer's file */
	uint64_t size;            /* chunk mode: its size */
	int done;                 /* every batch delivered */
	int busy;                 /* a thread decodes (GIL released) */
	Py_ssize_t batch;         /* records per batch */
	struct etm_chunk_dec *ch; /* chunk mode: the chunk's decoder */
	size_t buffer;            /* chunk mode: its buffer */
	uint64_t next_chunk;
	/* a window (start, stop, last, at): the elements go through it */
	struct etm_window *win;
	const struct etm_elem *els; /* the decoder's batch being put */
	size_t nels, iel;
	int win_finished;
};

PyObject *epy_decoder_type;

/* Up to @max records of the capture's next buffer(s) into @out (struct
 * epy_elem or struct etm_pkt_rec), read and decoded by the library
 * (etm_capture_next_elems(), etm_capture_next_packets()), or of the
 * chunk; *@got their count. No Python calls. */
static int fill(struct epy_dec *d, void *out, size_t max, size_t *got)
{
	struct epy_elem *er = out;
	struct etm_pkt_rec *pr = out;
	const struct etm_elem *els = NULL;
	size_t k = 0, i, buffer = d->buffer;
	int n;

	while (k < max && !d->done) {
		if (d->ch)
			n = etm_chunk_dec_next(d->ch, &els, max - k);
		else if (d->packets)
			n = etm_capture_next_packets(d->cap, pr + k, max - k, &buffer);
		else
			n = etm_capture_next_elems(d->cap, &els, max - k, &buffer);
		if (n > 0) {
			for (i = 0; !d->packets && i < (size_t)n; i++) {
				epy_elem_from(&er[k + i], &els[i]);
				er[k + i].buffer = (uint8_t)buffer;
			}
			k += (size_t)n;
		} else if (n == -etme_eos || (d->ch && n == -etme_again)) {
			if (d->ch)
				d->next_chunk = etm_chunk_dec_next_chunk(d->ch);
			d->done = 1;
		} else {
			return n;
		}
	}
	*got = k;
	return 0;
}

/* The next batch of the capture's elements (every buffer in turn) into
 * *@els: its size, 0 at the end of the last buffer, or an error. */
static int raw_elems(struct epy_dec *d, const struct etm_elem **els)
{
	int n = etm_capture_next_elems(d->cap, els, 4096, &d->cur);

	if (n == -etme_eos) {
		d->cur = etm_capture_nbuffers(d->cap);
		return 0;
	}
	return n;
}

/* fill() through the window: what it keeps of the elements. */
static int fill_window(struct epy_dec *d, struct epy_elem *er, size_t max,
		       size_t *got)
{
	struct etm_elem e;
	size_t k = 0;
	int n;

	while (k < max && !d->done) {
		if (etm_window_next(d->win, &e) == 0) {
			epy_elem_from(&er[k], &e);
			er[k++].buffer = (uint8_t)d->cur;
		} else if (d->win_finished || etm_window_done(d->win)) {
			d->done = 1;
		} else if (d->iel < d->nels) {
			if ((n = etm_window_put(d->win, &d->els[d->iel++])) < 0)
				return n;
		} else if ((n = raw_elems(d, &d->els)) > 0) {
			d->nels = (size_t)n;
			d->iel = 0;
		} else if (n == 0) {
			d->win_finished = 1;
			if ((n = etm_window_finish(d->win)) < 0)
				return n;
		} else {
			return n;
		}
	}
	*got = k;
	return 0;
}

static PyObject *dec_iternext(PyObject *self)
{
	struct epy_dec *d = (struct epy_dec *)self;
	Py_ssize_t isz = d->packets ? (Py_ssize_t)sizeof(struct etm_pkt_rec) :
				      (Py_ssize_t)sizeof(struct epy_elem);
	size_t got = 0;
	void *buf, *small;
	char msg[128];
	int r;

	if (!d->cap) {
		PyErr_SetString(PyExc_ValueError, "decoder is closed");
		return NULL;
	}
	if (d->done)
		return NULL;
	if (d->busy) {
		PyErr_SetString(PyExc_RuntimeError,
				"decoder in use by another thread");
		return NULL;
	}
	buf = malloc((size_t)(d->batch * isz));
	if (!buf)
		return PyErr_NoMemory();
	d->busy = 1;
	Py_BEGIN_ALLOW_THREADS
		r = d->win ? fill_window(d, buf, (size_t)d->batch, &got) :
			     fill(d, buf, (size_t)d->batch, &got);
	Py_END_ALLOW_THREADS
		d->busy = 0;
	if (r < 0) {
		free(buf);
		d->done = 1;
		snprintf(msg, sizeof(msg), "decode: %s", etm_errstr(r));
		return epy_raise(r, msg);
	}
	if (!got) {
		free(buf);
		return NULL;
	}
	if (got < (size_t)d->batch && (small = realloc(buf, got * (size_t)isz)))
		buf = small;
	return epy_batch_new(buf, (Py_ssize_t)got, isz,
			     d->packets ? EPY_PKT_FORMAT : EPY_ELEM_FORMAT,
			     d->packets);
}

static void dec_release(struct epy_dec *d)
{
	if (d->rg.fd >= 0)
		close(d->rg.fd);
	d->rg.fd = -1;
	etm_chunk_dec_free(d->ch);
	d->ch = NULL;
	etm_window_free(d->win);
	d->win = NULL;
	etm_capture_free(d->cap);
	d->cap = NULL;
}

static void dec_dealloc(PyObject *self)
{
	PyTypeObject *tp = Py_TYPE(self);
	freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);

	dec_release((struct epy_dec *)self);
	tp_free(self);
	Py_DECREF(tp);
}

/* A Decoder over @cap (taken over), or NULL with an exception set. */
static struct epy_dec *dec_new(struct etm_capture *cap, int packets)
{
	struct epy_dec *d = (struct epy_dec *)PyType_GenericAlloc(
		(PyTypeObject *)epy_decoder_type, 0);

	if (!d) {
		etm_capture_free(cap);
		return NULL;
	}
	d->cap = cap;
	d->rg.fd = -1;
	d->packets = packets;
	d->batch = EPY_BATCH;
	return d;
}

/* The window @wo over d's decoded sources; -1 with an exception set. */
static int dec_window(struct epy_dec *d, const struct etm_window_opts *wo)
{
	const struct etm_capture_source *s;
	size_t i;

	if (d->packets) {
		PyErr_SetString(PyExc_ValueError, "a window (start, stop, last) "
						  "needs elements, not packets");
		return -1;
	}
	d->win = etm_window_alloc(wo);
	if (!d->win) {
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; (s = etm_capture_source(d->cap, i)) != NULL; i++)
		if (!s->skip)
			etm_window_add_source(d->win, s->id, &s->cfg, s->img);
	return 0;
}

PyObject *epy_decoder_open(PyObject *path, const struct epy_opts *po,
			   const struct etm_window_opts *wo, unsigned jobs)
{
	struct etm_capture *cap;
	struct epy_dec *d;

	if (epy_capture_open(&cap, PyBytes_AsString(path), po) < 0)
		return NULL;
	d = dec_new(cap, po->o.mode == etm_dec_packets);
	if (d && wo && dec_window(d, wo) < 0)
		Py_CLEAR(d);
	if (d && jobs > 1 && !d->packets)
		etm_capture_set_jobs(d->cap, jobs);
	return (PyObject *)d;
}

/* One bound: a str as etm_window_parse() reads it. */
static int bound_opt(PyObject *kw, const char *k, struct etm_win_bound *b)
{
	PyObject *v = PyDict_GetItemString(kw, k);
	const char *s;

	if (!v)
		return 0;
	s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, NULL) : NULL;
	if (!s || etm_window_parse(s, b) < 0) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_ValueError, "%s: '0xADDRESS', '@OFFSET', "
						       "'ts:TIMESTAMP' or '#INDEX'",
				     k);
		return -1;
	}
	return 1;
}

int epy_window_opts(PyObject *kw, struct etm_window_opts *wo)
{
	PyObject *v;
	const char *s;
	int a, b;

	memset(wo, 0, sizeof(*wo));
	if (!kw)
		return 0;
	if ((a = bound_opt(kw, "start", &wo->start)) < 0 ||
	    (b = bound_opt(kw, "stop", &wo->stop)) < 0)
		return -1;
	if ((v = PyDict_GetItemString(kw, "last"))) {
		wo->last = PyLong_AsUnsignedLongLong(v);
		if (PyErr_Occurred() || !wo->last) {
			PyErr_Clear();
			PyErr_SetString(PyExc_ValueError, "last: a count of 1 or more");
			return -1;
		}
	}
	if ((v = PyDict_GetItemString(kw, "at"))) {
		s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, NULL) : NULL;
		if (!s || (strcmp(s, "end") && strcmp(s, "halt"))) {
			PyErr_Clear();
			PyErr_SetString(PyExc_ValueError, "at: 'end' or 'halt'");
			return -1;
		}
		wo->at = !strcmp(s, "halt") ? etm_win_at_halt : etm_win_at_end;
		if (wo->at == etm_win_at_halt && !wo->last) {
			PyErr_SetString(PyExc_ValueError, "at='halt' needs last=N");
			return -1;
		}
	}
	return a || b || wo->last;
}

const struct etm_capture_buffer *epy_buffer_file(struct etm_capture *cap,
						 Py_ssize_t idx,
						 struct etm_fd_range *rg,
						 uint64_t *size)
{
	const struct etm_capture_buffer *b = NULL;
	int r;

	/* a perf.data piece's decoder is made when it is loaded */
	if (idx >= 0 && (size_t)idx < etm_capture_nbuffers(cap) &&
	    etm_capture_load(cap, (size_t)idx) >= 0)
		b = etm_capture_buffer(cap, (size_t)idx);
	if (!b || !b->dec) {
		PyErr_Format(PyExc_ValueError, "no decodable trace buffer %zd", idx);
		return NULL;
	}
	r = etm_capture_range(cap, (size_t)idx, rg, size);
	if (r == -etme_io) {
		PyErr_Format(PyExc_OSError, "%s: cannot be opened", b->path);
		return NULL;
	}
	if (r) {
		PyErr_Format(PyExc_ValueError, "trace buffer %zd is not a file "
					       "range (ETMv1 samples, or images "
					       "by Context ID): decode it whole",
			     idx);
		return NULL;
	}
	return b;
}

PyObject *epy_chunk_decoder(PyObject *path, const struct epy_opts *po,
			    Py_ssize_t buffer, uint64_t offset,
			    uint64_t length, uint64_t target)
{
	const struct etm_capture_buffer *b;
	struct etm_capture *cap;
	struct epy_dec *d;

	if (po->o.mode == etm_dec_packets) {
		PyErr_SetString(PyExc_ValueError, "chunks decode elements only");
		return NULL;
	}
	if (epy_capture_open(&cap, PyBytes_AsString(path), po) < 0)
		return NULL;
	d = dec_new(cap, 0);
	if (!d)
		return NULL;
	b = epy_buffer_file(d->cap, buffer, &d->rg, &d->size);
	d->buffer = (size_t)buffer;
	if (b && (offset > d->size || length > d->size - offset)) {
		PyErr_SetString(PyExc_ValueError, "chunk beyond the end of input");
		b = NULL;
	}
	if (b)
		d->ch = etm_chunk_dec_alloc(b->dec, etm_fd_read, &d->rg, d->size,
					    target, offset, length);
	if (b && !d->ch)
		PyErr_SetString(PyExc_ValueError,
				"cannot decode this chunk (TPIU input is one chunk)");
	if (!d->ch) {
		Py_DECREF(d);
		return NULL;
	}
	return (PyObject *)d;
}

static PyObject *dec_batches(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "size", NULL };
	struct epy_dec *d = (struct epy_dec *)self;
	Py_ssize_t size = EPY_BATCH;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|n", kwlist, &size))
		return NULL;
	if (size < 1 || size > (1 << 24)) {
		PyErr_SetString(PyExc_ValueError, "size must be 1..16777216");
		return NULL;
	}
	d->batch = size;
	return Py_NewRef(self);
}

static PyObject *dec_close(PyObject *self, PyObject *unused)
{
	struct epy_dec *d = (struct epy_dec *)self;

	(void)unused;
	if (d->busy) {
		PyErr_SetString(PyExc_RuntimeError,
				"decoder in use by another thread");
		return NULL;
	}
	dec_release(d);
	d->done = 1;
	Py_RETURN_NONE;
}

static PyObject *dec_enter(PyObject *self, PyObject *unused)
{
	(void)unused;
	return Py_NewRef(self);
}

static PyObject *dec_exit(PyObject *self, PyObject *args)
{
	(void)args;
	return dec_close(self, NULL);
}

static PyObject *dec_iter(PyObject *self)
{
	return Py_NewRef(self);
}

static PyMethodDef dec_methods[] = {
	{ "batches", (PyCFunction)(void (*)(void))dec_batches,
	  METH_VARARGS | METH_KEYWORDS,
	  "batches(size=65536) -> Decoder\n\n"
	  "Iterate the decode in batches of up to @size records (the decoder\n"
	  "itself is the iterator: every batch is delivered once)." },
	{ "close", dec_close, METH_NOARGS,
	  "Release the capture, its images and files." },
	{ "__enter__", dec_enter, METH_NOARGS, NULL },
	{ "__exit__", dec_exit, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL },
};

static PyObject *get_next_chunk(PyObject *self, void *closure)
{
	struct epy_dec *d = (struct epy_dec *)self;

	(void)closure;
	if (!d->ch && !d->next_chunk)
		Py_RETURN_NONE;
	if (!d->done) {
		PyErr_SetString(PyExc_ValueError,
				"next_chunk is known once every batch was read");
		return NULL;
	}
	return PyLong_FromUnsignedLongLong(d->next_chunk);
}

static PyObject *need_cap(struct epy_dec *d)
{
	if (!d->cap)
		PyErr_SetString(PyExc_ValueError, "decoder is closed");
	return d->cap ? Py_None : NULL;
}

/* Entry @i of a listing of @cap as a new object; NULL past the last (no
 * exception set) or on error. */
typedef PyObject *(*entry_fn)(const struct etm_capture *cap, size_t i);

static PyObject *capture_list(struct epy_dec *d, entry_fn fn)
{
	PyObject *l, *o;
	size_t i;
	int r = 0;

	if (!need_cap(d) || !(l = PyList_New(0)))
		return NULL;
	for (i = 0; r == 0 && (o = fn(d->cap, i)) != NULL; i++) {
		r = PyList_Append(l, o);
		Py_DECREF(o);
	}
	if (PyErr_Occurred()) {
		Py_DECREF(l);
		return NULL;
	}
	return l;
}

static PyObject *source_entry(const struct etm_capture *cap, size_t i)
{
	const struct etm_capture_source *s = etm_capture_source(cap, i);

	if (!s)
		return NULL;
	return Py_BuildValue("{s:I,s:s,s:z,s:s,s:k,s:k,s:k,s:n,s:z}",
			     "id", s->id, "name", s->name, "type", s->type,
			     "protocol", etm_protocol_name(s->cfg.protocol),
			     "etmcr", (unsigned long)s->cfg.etmcr,
			     "etmccer", (unsigned long)s->cfg.etmccer,
			     "etmidr", (unsigned long)s->cfg.etmidr,
			     "buffer", (Py_ssize_t)s->buffer, "skip", s->skip);
}

static PyObject *buffer_entry(const struct etm_capture *cap, size_t i)
{
	static const char *const fmts[] = { "unknown", "raw", "coresight",
					    "tpiu", "tpiu-nofsync" };
	const struct etm_capture_buffer *b = etm_capture_buffer(cap, i);

	if (!b)
		return NULL;
	return Py_BuildValue("{s:s,s:s,s:s,s:O,s:n}", "name", b->name,
			     "path", b->path,
			     "format", (unsigned)b->format < 5 ? fmts[b->format] : "unknown",
			     "decoded", b->dec ? Py_True : Py_False,
			     "sources", (Py_ssize_t)b->nsources);
}

static PyObject *note_entry(const struct etm_capture *cap, size_t i)
{
	const char *n = etm_capture_note(cap, i);

	return n ? PyUnicode_DecodeUTF8(n, (Py_ssize_t)strlen(n), "replace") :
		   NULL;
}

static PyObject *get_sources(PyObject *self, void *closure)
{
	(void)closure;
	return capture_list((struct epy_dec *)self, source_entry);
}

static PyObject *get_buffers(PyObject *self, void *closure)
{
	(void)closure;
	return capture_list((struct epy_dec *)self, buffer_entry);
}

static PyObject *get_notes(PyObject *self, void *closure)
{
	(void)closure;
	return capture_list((struct epy_dec *)self, note_entry);
}

static PyObject *get_packets(PyObject *self, void *closure)
{
	(void)closure;
	return PyBool_FromLong(((struct epy_dec *)self)->packets);
}

static PyGetSetDef dec_getset[] = {
	{ "next_chunk", get_next_chunk, NULL,
	  "Chunk decoders, after the last batch: the offset of the chunk whose\n"
	  "output follows this one's (the input size at the end); None for a\n"
	  "whole-capture decoder.",
	  NULL },
	{ "sources", get_sources, NULL,
	  "The capture's trace sources (dicts: id, name, type, protocol,\n"
	  "registers, buffer, skip = why it is not decoded or None).",
	  NULL },
	{ "buffers", get_buffers, NULL,
	  "The capture's trace buffers (dicts: name, path, format, decoded,\n"
	  "sources).",
	  NULL },
	{ "notes", get_notes, NULL,
	  "What opening decided (detected format, inferred registers, options\n"
	  "that overrode the snapshot), one line each.",
	  NULL },
	{ "packets", get_packets, NULL,
	  "True if the batches hold packets, False for elements.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyType_Slot dec_slots[] = {
	{ Py_tp_dealloc, dec_dealloc },
	{ Py_tp_iter, dec_iter },
	{ Py_tp_iternext, dec_iternext },
	{ Py_tp_methods, dec_methods },
	{ Py_tp_getset, dec_getset },
	{ Py_tp_doc,
	  "An opened capture (etmtrace.open) or one chunk of a trace buffer\n"
	  "(etmtrace.decode_chunk), decoded as it is iterated: each item is a\n"
	  "Batch. Decoding runs with the GIL released." },
	{ 0, NULL },
};

static PyType_Spec dec_spec = {
	.name = "etmtrace.Decoder",
	.basicsize = sizeof(struct epy_dec),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = dec_slots,
};

int epy_decoder_init(PyObject *m)
{
	epy_decoder_type = PyType_FromSpec(&dec_spec);
	if (!epy_decoder_type)
		return -1;
	Py_INCREF(epy_decoder_type);
	return PyModule_AddObject(m, "Decoder", epy_decoder_type);
}
