/* python/src/stream.c - etmtrace.Stream: a capture opened from the head of
 * a trace stream (etm_open_opts.head; a socket, a FIFO, a pipe), fed the
 * stream's bytes as they arrive; each push() gives the records the decoder
 * can give at once (doc/live.md). etmtrace.decode_stream() reads a socket
 * or a file descriptor with it. Decoding runs with the GIL released. */
#include <stdlib.h>
#include <string.h>

#include "etmpy.h"

struct epy_stream {
	PyObject_HEAD struct etm_capture *cap;
	struct etm_decoder *dec; /* buffer 0's */
	int packets;
	int finished;
	int busy;
};

static PyObject *epy_stream_type;

/* The records ready now (all of them after finish: @final) into a new
 * malloc()ed array *@out of *@n records. Returns 0 or an error. */
static int stream_take(struct epy_stream *s, int final, void **out, size_t *n)
{
	size_t isz = s->packets ? sizeof(struct etm_pkt_rec) : sizeof(struct epy_elem);
	size_t cap = 0, k = 0, i;
	const struct etm_elem *els;
	uint8_t *buf = NULL, *nb;
	int r;

	for (;;) {
		if (cap - k < 4096) {
			cap = cap ? 2 * cap : 8192;
			nb = realloc(buf, cap * isz);
			if (!nb) {
				free(buf);
				return -etme_nomem;
			}
			buf = nb;
		}
		if (s->packets) {
			r = etm_decoder_next_packets(s->dec, (struct etm_pkt_rec *)(void *)buf + k,
						     cap - k);
		} else {
			r = etm_decoder_next_elems(s->dec, &els, cap - k);
			for (i = 0; r > 0 && i < (size_t)r; i++)
				epy_elem_from((struct epy_elem *)(void *)buf + k + i, &els[i]);
		}
		if (r > 0) {
			k += (size_t)r;
			continue;
		}
		if ((r == -etme_again && !final) || r == -etme_eos)
			break;
		free(buf);
		return r;
	}
	*out = buf;
	*n = k;
	return 0;
}

/* A Batch of what the decoder gives after @data was pushed (NULL: after
 * finish), or None when it gives nothing yet. */
static PyObject *stream_step(struct epy_stream *s, const Py_buffer *data)
{
	void *recs = NULL;
	size_t n = 0;
	int r;

	if (!s->cap || s->finished) {
		PyErr_SetString(PyExc_ValueError, s->cap ? "stream is finished" :
							   "stream is closed");
		return NULL;
	}
	if (s->busy) {
		PyErr_SetString(PyExc_RuntimeError, "stream in use by another thread");
		return NULL;
	}
	s->busy = 1;
	Py_BEGIN_ALLOW_THREADS
		r = data ? etm_decoder_push(s->dec, data->buf, (size_t)data->len) :
			   etm_decoder_finish(s->dec);
	if (!r)
		r = stream_take(s, !data, &recs, &n);
	Py_END_ALLOW_THREADS
		s->busy = 0;
	s->finished |= !data;
	if (r < 0)
		return epy_raise(r, data ? "push" : "finish");
	if (!n) {
		free(recs);
		Py_RETURN_NONE;
	}
	return epy_batch_new(recs, (Py_ssize_t)n,
			     s->packets ? (Py_ssize_t)sizeof(struct etm_pkt_rec) :
					  (Py_ssize_t)sizeof(struct epy_elem),
			     s->packets ? EPY_PKT_FORMAT : EPY_ELEM_FORMAT, s->packets);
}

static PyObject *stream_push(PyObject *self, PyObject *args)
{
	Py_buffer b;
	PyObject *res;

	if (!PyArg_ParseTuple(args, "y*:push", &b))
		return NULL;
	res = stream_step((struct epy_stream *)self, &b);
	PyBuffer_Release(&b);
	return res;
}

static PyObject *stream_finish(PyObject *self, PyObject *unused)
{
	(void)unused;
	return stream_step((struct epy_stream *)self, NULL);
}

static PyObject *stream_close(PyObject *self, PyObject *unused)
{
	struct epy_stream *s = (struct epy_stream *)self;

	(void)unused;
	if (s->busy) {
		PyErr_SetString(PyExc_RuntimeError, "stream in use by another thread");
		return NULL;
	}
	etm_capture_free(s->cap);
	s->cap = NULL;
	s->dec = NULL;
	Py_RETURN_NONE;
}

static PyObject *stream_enter(PyObject *self, PyObject *unused)
{
	(void)unused;
	return Py_NewRef(self);
}

static PyObject *stream_exit(PyObject *self, PyObject *args)
{
	(void)args;
	return stream_close(self, NULL);
}

static PyObject *stream_notes(PyObject *self, void *closure)
{
	struct epy_stream *s = (struct epy_stream *)self;
	PyObject *l = PyList_New(0), *o;
	const char *n;
	size_t i;

	(void)closure;
	for (i = 0; l && s->cap && (n = etm_capture_note(s->cap, i)) != NULL; i++) {
		o = PyUnicode_DecodeUTF8(n, (Py_ssize_t)strlen(n), "replace");
		if (!o || PyList_Append(l, o) < 0) {
			Py_XDECREF(o);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(o);
	}
	return l;
}

static void stream_dealloc(PyObject *self)
{
	PyTypeObject *tp = Py_TYPE(self);
	freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);

	etm_capture_free(((struct epy_stream *)self)->cap);
	tp_free(self);
	Py_DECREF(tp);
}

static PyMethodDef stream_methods[] = {
	{ "push", stream_push, METH_VARARGS,
	  "push(data) -> Batch or None\n\n"
	  "The next bytes of the stream (the head first): the records the\n"
	  "decoder gives now, or None. Some are held back until more input\n"
	  "comes (doc/live.md)." },
	{ "finish", stream_finish, METH_NOARGS,
	  "finish() -> Batch or None: the end of the stream; the rest." },
	{ "close", stream_close, METH_NOARGS, "Release the capture." },
	{ "__enter__", stream_enter, METH_NOARGS, NULL },
	{ "__exit__", stream_exit, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL },
};

static PyGetSetDef stream_getset[] = {
	{ "notes", stream_notes, NULL,
	  "What opening decided (detected format, inferred registers).", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyType_Slot stream_slots[] = {
	{ Py_tp_dealloc, stream_dealloc },
	{ Py_tp_methods, stream_methods },
	{ Py_tp_getset, stream_getset },
	{ Py_tp_doc, "A trace stream being decoded (etmtrace.open_stream)." },
	{ 0, NULL },
};

static PyType_Spec stream_spec = {
	.name = "etmtrace.Stream",
	.basicsize = sizeof(struct epy_stream),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = stream_slots,
};

static PyObject *m_open_stream(PyObject *self, PyObject *args, PyObject *kw)
{
	struct epy_opts po;
	struct epy_stream *s = NULL;
	struct etm_capture *cap;
	const char *name;
	Py_buffer head;

	(void)self;
	if (!PyArg_ParseTuple(args, "sy*:open_stream", &name, &head))
		return NULL;
	if (epy_opts_parse(&po, kw, NULL) == 0) {
		po.o.head = head.buf;
		po.o.nhead = (size_t)head.len;
		if (epy_capture_open(&cap, name, &po) == 0) {
			s = (struct epy_stream *)PyType_GenericAlloc(
				(PyTypeObject *)epy_stream_type, 0);
			if (s) {
				s->cap = cap;
				s->dec = etm_capture_buffer(cap, 0)->dec;
				s->packets = po.o.mode == etm_dec_packets;
			} else {
				etm_capture_free(cap);
			}
		}
	}
	epy_opts_free(&po);
	PyBuffer_Release(&head);
	return (PyObject *)s;
}

static PyMethodDef stream_funcs[] = {
	{ "open_stream", (PyCFunction)(void (*)(void))m_open_stream,
	  METH_VARARGS | METH_KEYWORDS,
	  "open_stream(name, head, **options) -> Stream\n\n"
	  "A trace stream named @name (in messages) whose first bytes @head are\n"
	  "what format detection and inference look at (options as for open();\n"
	  "no ETMv1 sample files). Push @head and then the rest as it comes." },
	{ NULL, NULL, 0, NULL },
};

int epy_stream_init(PyObject *m)
{
	epy_stream_type = PyType_FromSpec(&stream_spec);
	if (!epy_stream_type || PyModule_AddFunctions(m, stream_funcs) < 0)
		return -1;
	Py_INCREF(epy_stream_type);
	return PyModule_AddObject(m, "Stream", epy_stream_type);
}
