/* python/src/batch.c - etmtrace.Batch: decoded elements (or packets) as a
 * block of fixed-layout records exported through the buffer protocol, so
 * that numpy.asarray(batch) is a structured array over the batch's own
 * memory (no copy). */
#include <stdlib.h>
#include <string.h>

#include "etmpy.h"

struct epy_batch {
	PyObject_HEAD void *data;
	Py_ssize_t n; /* records */
	Py_ssize_t itemsize;
	const char *format;
	int packets;
	Py_ssize_t shape[1], strides[1];
};

PyObject *epy_batch_type;

/* ITM/DWT elements (doc/python.md): address = PC or data address,
 * ctxid = the value, exc_num = the exception number or the channel
 * (stimulus port, comparator), reason = itm_fn, isync = itm_size, flags =
 * itm_flags (ETM_ITM_*), cycles = itm_tc. */
static void epy_itm_from(struct epy_elem *r, const struct etm_elem *e)
{
	r->address = e->addr;
	r->timestamp = e->timestamp;
	r->ctxid = e->itm_value;
	r->exc_num = e->kind == etmk_dwt_exc ? e->exc_num : e->itm_chan;
	r->reason = e->itm_fn;
	r->isync = e->itm_size;
	r->flags = e->itm_flags;
	r->cycles = e->itm_tc;
}

void epy_elem_from(struct epy_elem *r, const struct etm_elem *e)
{
	memset(r, 0, sizeof(*r));
	r->offset = e->offset;
	r->kind = (uint8_t)e->kind;
	r->trace_id = e->id;
	switch (e->kind) {
	case etmk_range:
		r->address = e->start;
		r->end = e->end;
		r->ninsn = e->ninsn;
		r->isa = (uint8_t)e->isa;
		r->last_class = (uint8_t)e->last_cls;
		r->flags = (e->last_atom ? EPY_F_ATOM : 0) |
			   (e->last_atom && e->last_exec ? EPY_F_EXEC : 0) |
			   (e->has_cycles ? EPY_F_CYCLES : 0);
		r->cycles = e->has_cycles ? e->cycles : 0;
		break;
	case etmk_exception:
		r->address = e->addr;
		r->exc_num = e->exc_num;
		r->flags = e->exc_cancel ? EPY_F_CANCEL : 0;
		break;
	case etmk_trace_on:
		r->address = e->addr;
		r->reason = e->reason;
		r->isync = e->isync_reason;
		break;
	case etmk_nomem:
		r->address = e->addr;
		break;
	case etmk_context:
		r->ctxid = e->has_ctxid ? e->ctxid : 0;
		r->flags = (e->has_ctxid ? EPY_F_CTXID : 0) |
			   (e->ns ? EPY_F_NS : 0) | (e->hyp ? EPY_F_HYP : 0);
		break;
	case etmk_timestamp:
		r->timestamp = e->timestamp;
		break;
	case etmk_cycle_count:
		r->cycles = e->cycles;
		break;
	case etmk_error:
	case etmk_buffer_end:
		r->error = (uint8_t)(e->err < 0 ? -e->err : e->err);
		break;
	ETM_CASE_ITM_KINDS:
		epy_itm_from(r, e);
		break;
	case etmk_data: /* address = instruction, end = data address,
			 * ninsn = value, exc_num = dflags, reason = size,
			 * isync = out-of-order tag */
		r->address = e->addr;
		r->isa = (uint8_t)e->isa;
		r->end = e->daddr;
		r->ninsn = e->dvalue;
		r->exc_num = e->dflags;
		r->reason = e->dsize;
		r->isync = e->dtag;
		break;
	default:
		break;
	}
}

PyObject *epy_batch_new(void *data, Py_ssize_t n, Py_ssize_t itemsize,
			const char *format, int packets)
{
	struct epy_batch *b;

	b = (struct epy_batch *)PyType_GenericAlloc(
		(PyTypeObject *)epy_batch_type, 0);
	if (!b) {
		free(data);
		return NULL;
	}
	b->data = data;
	b->n = n;
	b->itemsize = itemsize;
	b->format = format;
	b->packets = packets;
	b->shape[0] = n;
	b->strides[0] = itemsize;
	return (PyObject *)b;
}

static void batch_dealloc(PyObject *self)
{
	struct epy_batch *b = (struct epy_batch *)self;
	PyTypeObject *tp = Py_TYPE(self);
	freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);

	free(b->data);
	tp_free(self);
	Py_DECREF(tp);
}

static int batch_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
	struct epy_batch *b = (struct epy_batch *)self;

	if (flags & PyBUF_WRITABLE) {
		PyErr_SetString(PyExc_BufferError, "etmtrace.Batch is read-only");
		view->obj = NULL;
		return -1;
	}
	view->buf = b->data;
	view->obj = Py_NewRef(self);
	view->len = b->n * b->itemsize;
	view->readonly = 1;
	view->itemsize = b->itemsize;
	view->format = (flags & PyBUF_FORMAT) ? (char *)b->format : NULL;
	view->ndim = 1;
	view->shape = (flags & PyBUF_ND) == PyBUF_ND ? b->shape : NULL;
	view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? b->strides : NULL;
	view->suboffsets = NULL;
	view->internal = NULL;
	return 0;
}

static Py_ssize_t batch_len(PyObject *self)
{
	return ((struct epy_batch *)self)->n;
}

static PyObject *batch_repr(PyObject *self)
{
	struct epy_batch *b = (struct epy_batch *)self;

	return PyUnicode_FromFormat("<etmtrace.Batch of %zd %s>", b->n,
				    b->packets ? "packets" : "elements");
}

static PyObject *batch_get_packets(PyObject *self, void *closure)
{
	(void)closure;
	return PyBool_FromLong(((struct epy_batch *)self)->packets);
}

static PyGetSetDef batch_getset[] = {
	{ "packets", batch_get_packets, NULL,
	  "True for a batch of packets, False for one of elements.", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyType_Slot batch_slots[] = {
	{ Py_tp_dealloc, batch_dealloc },
	{ Py_tp_repr, batch_repr },
	{ Py_sq_length, batch_len },
	{ Py_bf_getbuffer, batch_getbuffer },
	{ Py_tp_getset, batch_getset },
	{ Py_tp_doc,
	  "Decoded elements (or packets) as fixed-layout records.\n\n"
	  "A batch supports the buffer protocol: numpy.asarray(batch) is a\n"
	  "read-only structured array over the batch's memory (no copy; the\n"
	  "array keeps the batch alive). len(batch) is the record count." },
	{ 0, NULL },
};

static PyType_Spec batch_spec = {
	.name = "etmtrace.Batch",
	.basicsize = sizeof(struct epy_batch),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = batch_slots,
};

int epy_batch_init(PyObject *m)
{
	epy_batch_type = PyType_FromSpec(&batch_spec);
	if (!epy_batch_type)
		return -1;
	Py_INCREF(epy_batch_type);
	return PyModule_AddObject(m, "Batch", epy_batch_type);
}
