/* python/src/module.c - the etmtrace._etmtrace module: etmtrace.Error,
 * open(), plan_chunks(), decode_chunk(), and the keyword options they
 * share (those of etm_capture_open()). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etmpy.h"

PyObject *epy_error;

PyObject *epy_raise(int err, const char *what)
{
	PyObject *e = PyObject_CallFunction(epy_error, "s", what), *c;

	if (!e)
		return NULL;
	c = PyLong_FromLong(err < 0 ? -err : err);
	if (c && PyObject_SetAttrString(e, "code", c) == 0)
		PyErr_SetObject(epy_error, e);
	Py_XDECREF(c);
	Py_DECREF(e);
	return NULL;
}

static PyObject *raise_msg(int err, const char *msg)
{
	return epy_raise(err, etm_errmsg(err, msg));
}

int epy_capture_open(struct etm_capture **cap, const char *path,
		     const struct epy_opts *po)
{
	char err[512];
	int r;

	err[0] = 0;
	Py_BEGIN_ALLOW_THREADS
		r = etm_capture_open(cap, path, &po->o, err, sizeof(err));
	Py_END_ALLOW_THREADS if (r < 0)
	{
		raise_msg(r, err);
		return -1;
	}
	return 0;
}

/* ---- options ------------------------------------------------------------- */

static int keep_path(struct epy_opts *po, PyObject *obj, const char **out)
{
	PyObject *b = NULL;

	if (!PyUnicode_FSConverter(obj, &b))
		return -1;
	if (PyList_Append(po->keep, b) < 0) {
		Py_DECREF(b);
		return -1;
	}
	Py_DECREF(b);
	*out = PyBytes_AsString(b);
	return 0;
}

static int u32_opt(PyObject *v, uint32_t *out, const char *name)
{
	unsigned long long x = PyLong_AsUnsignedLongLong(v);

	if (PyErr_Occurred() || x > 0xffffffffull) {
		PyErr_Clear();
		PyErr_Format(PyExc_ValueError, "%s must be a 32-bit unsigned integer",
			     name);
		return -1;
	}
	*out = (uint32_t)x;
	return 0;
}

static int enum_opt(PyObject *v, const char *const *names, int n, int *out,
		    const char *name)
{
	const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, NULL) : NULL;
	int i;

	for (i = 1; s && i < n; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	PyErr_Format(PyExc_ValueError, "bad %s %R", name, v);
	return -1;
}

static int ids_opt(struct epy_opts *po, PyObject *v)
{
	PyObject *it = PyLong_Check(v) ? NULL : PyObject_GetIter(v), *x;
	unsigned long id;

	if (PyLong_Check(v)) {
		id = PyLong_AsUnsignedLong(v);
		if (PyErr_Occurred() || !id || id >= 0x70)
			goto bad;
		po->ids[po->o.nids++] = (unsigned)id;
		po->o.ids = po->ids;
		return 0;
	}
	if (!it)
		return -1;
	while ((x = PyIter_Next(it)) != NULL) {
		id = PyLong_AsUnsignedLong(x);
		Py_DECREF(x);
		if (PyErr_Occurred() || !id || id >= 0x70 || po->o.nids >= 128) {
			Py_DECREF(it);
			goto bad;
		}
		po->ids[po->o.nids++] = (unsigned)id;
	}
	Py_DECREF(it);
	po->o.ids = po->ids;
	return PyErr_Occurred() ? -1 : 0;
bad:
	PyErr_Clear();
	PyErr_SetString(PyExc_ValueError, "ids: trace IDs 0x01-0x6f");
	return -1;
}

/* images=[(path, addr), ...] / elfs=[path or (path, bias), ...] */
static int files_opt(struct epy_opts *po, PyObject *v, int elf)
{
	PyObject *it = PyObject_GetIter(v), *x;
	size_t used = po->o.nimages + po->o.nelfs;
	struct etm_open_file *f;
	PyObject *p, *a;

	if (!it)
		return -1;
	if (elf && !po->o.nelfs)
		po->o.elfs = &po->files[used];
	if (!elf && !po->o.nimages)
		po->o.images = &po->files[used];
	while ((x = PyIter_Next(it)) != NULL) {
		if (used >= 64) {
			Py_DECREF(x);
			Py_DECREF(it);
			PyErr_SetString(PyExc_ValueError,
					"images and elfs: at most 64 files");
			return -1;
		}
		f = &po->files[used++];
		f->addr = 0;
		if (PyTuple_Check(x) && PyTuple_Size(x) == 2) {
			p = PyTuple_GetItem(x, 0);
			a = PyTuple_GetItem(x, 1);
			f->addr = PyLong_AsUnsignedLongLong(a);
		} else if (elf) {
			p = x;
		} else {
			p = NULL;
		}
		if (!p || PyErr_Occurred() || keep_path(po, p, &f->path) < 0) {
			Py_DECREF(x);
			Py_DECREF(it);
			if (!PyErr_Occurred() || !p)
				PyErr_SetString(PyExc_ValueError, elf ?
									  "elfs: paths or (path, bias) pairs" :
									  "images: (path, address) pairs");
			return -1;
		}
		Py_DECREF(x);
		if (elf)
			po->o.nelfs++;
		else
			po->o.nimages++;
	}
	Py_DECREF(it);
	return PyErr_Occurred() ? -1 : 0;
}

static int one_opt(struct epy_opts *po, const char *k, PyObject *v)
{
	static const char *const protos[] = { "", "etmv3", "ptm" };
	static const char *const fmts[] = { "", "raw", "coresight", "tpiu",
					    "tpiu-nofsync" };
	int e;

	if (!strcmp(k, "packets")) {
		po->o.mode = PyObject_IsTrue(v) ? etm_dec_packets : etm_dec_elements;
	} else if (!strcmp(k, "protocol")) {
		if (enum_opt(v, protos, 3, &e, k) < 0)
			return -1;
		po->o.protocol = (enum etm_protocol)e;
	} else if (!strcmp(k, "input_format")) {
		if (enum_opt(v, fmts, 5, &e, k) < 0)
			return -1;
		po->o.format = (enum etm_input_format)e;
	} else if (!strcmp(k, "ids")) {
		return ids_opt(po, v);
	} else if (!strcmp(k, "etmcr")) {
		po->o.regs |= ETM_OPEN_ETMCR;
		return u32_opt(v, &po->o.etmcr, k);
	} else if (!strcmp(k, "etmccer")) {
		po->o.regs |= ETM_OPEN_ETMCCER;
		return u32_opt(v, &po->o.etmccer, k);
	} else if (!strcmp(k, "etmidr")) {
		po->o.regs |= ETM_OPEN_ETMIDR;
		return u32_opt(v, &po->o.etmidr, k);
	} else if (!strcmp(k, "m_profile")) {
		if (PyObject_IsTrue(v))
			po->o.cfg_flags |= ETM_CFG_M_PROFILE;
	} else if (!strcmp(k, "infer")) {
		if (!PyObject_IsTrue(v))
			po->o.flags |= ETM_OPEN_NO_INFER;
	} else if (!strcmp(k, "pieces")) { /* doc/circular.md */
		po->o.flags |= PyObject_IsTrue(v) ? ETM_OPEN_PIECES : ETM_OPEN_NO_PIECES;
	} else if (!strcmp(k, "images") || !strcmp(k, "elfs")) {
		return 1; /* second pass */
	} else {
		PyErr_Format(PyExc_TypeError, "unknown option %s", k);
		return -1;
	}
	return 0;
}

int epy_opts_parse(struct epy_opts *po, PyObject *kw, const char *const *own)
{
	PyObject *k, *v;
	Py_ssize_t pos = 0;
	const char *ks;
	int r, i, skip;

	memset(po, 0, sizeof(*po));
	po->o.size = sizeof(po->o);
	po->o.mode = etm_dec_elements;
	po->keep = PyList_New(0);
	if (!po->keep)
		return -1;
	while (kw && PyDict_Next(kw, &pos, &k, &v)) {
		ks = PyUnicode_AsUTF8AndSize(k, NULL);
		if (!ks)
			return -1;
		for (i = 0, skip = 0; own && own[i]; i++)
			skip |= !strcmp(ks, own[i]);
		if (!skip && (r = one_opt(po, ks, v)) < 0)
			return -1;
	}
	/* images first, then elfs: each list contiguous in po->files */
	if (kw && (v = PyDict_GetItemString(kw, "images")) && files_opt(po, v, 0) < 0)
		return -1;
	if (kw && (v = PyDict_GetItemString(kw, "elfs")) && files_opt(po, v, 1) < 0)
		return -1;
	return 0;
}

void epy_opts_free(struct epy_opts *po)
{
	Py_CLEAR(po->keep);
}

/* ---- module functions ----------------------------------------------------- */

/* open()'s window keywords (etmtrace/window.h), not open options */
static const char *const window_own[] = { "start", "stop", "last", "at",
					  "jobs", NULL };

/* open()'s jobs=N: worker threads (etm_capture_set_jobs()); 1 if absent,
 * 0 with an exception set if not a count of 1 or more. */
static unsigned jobs_opt(PyObject *kw)
{
	PyObject *v = kw ? PyDict_GetItemString(kw, "jobs") : NULL;
	long n;

	if (!v)
		return 1;
	n = PyLong_Check(v) ? PyLong_AsLong(v) : -1;
	if (n < 1 || n > 1024) {
		PyErr_Clear();
		PyErr_SetString(PyExc_ValueError, "jobs: a count of 1 to 1024");
		return 0;
	}
	return (unsigned)n;
}

static PyObject *m_open(PyObject *self, PyObject *args, PyObject *kw)
{
	struct etm_window_opts wo;
	struct epy_opts po;
	PyObject *path = NULL, *d = NULL;
	unsigned jobs;
	int w;

	(void)self;
	if (!PyArg_ParseTuple(args, "O&:open", PyUnicode_FSConverter, &path))
		return NULL;
	w = epy_window_opts(kw, &wo);
	jobs = w >= 0 ? jobs_opt(kw) : 0;
	w = jobs ? w : -1;
	if (w >= 0 && epy_opts_parse(&po, kw, window_own) == 0)
		d = epy_decoder_open(path, &po, w ? &wo : NULL, jobs);
	if (w < 0) {
		Py_DECREF(path);
		return NULL;
	}
	epy_opts_free(&po);
	Py_DECREF(path);
	return d;
}

static const char *const chunk_own[] = { "chunk_size", "buffer", "trace_ids",
					 NULL };

/* chunk_size, buffer, trace_ids from @kw (they are not open options). */
static int chunk_args(PyObject *kw, unsigned long long *target,
		      Py_ssize_t *buffer, int *ids)
{
	PyObject *v;

	*target = 0;
	*buffer = 0;
	*ids = 1;
	if (!kw)
		return 0;
	if ((v = PyDict_GetItemString(kw, "chunk_size")) &&
	    ((*target = PyLong_AsUnsignedLongLong(v)), PyErr_Occurred()))
		return -1;
	if ((v = PyDict_GetItemString(kw, "buffer")) &&
	    ((*buffer = PyLong_AsSsize_t(v)), PyErr_Occurred()))
		return -1;
	if ((v = PyDict_GetItemString(kw, "trace_ids")))
		*ids = PyObject_IsTrue(v);
	return 0;
}

/* The plan's chunks as [(offset, length, (trace IDs...)), ...]: IDs named
 * in the chunk that are decoded sources of the buffer (raw input: the
 * buffer's source). */
static PyObject *plan_list(const struct etm_capture *cap, size_t buffer,
			   const struct etm_chunk *ch, size_t n)
{
	const struct etm_capture_source *s;
	PyObject *l = PyList_New(0), *ids, *t;
	size_t i, j, k;

	for (i = 0; l && i < n; i++) {
		ids = PyList_New(0);
		for (j = 0; ids && (s = etm_capture_source(cap, j)) != NULL; j++) {
			int raw = !ch[i].ids[0] && !ch[i].ids[1];

			if (s->skip || s->buffer != buffer || s->id >= 128 ||
			    (!raw && !(ch[i].ids[s->id >> 6] >> (s->id & 63) & 1)))
				continue;
			t = PyLong_FromUnsignedLong(s->id);
			k = t ? (size_t)PyList_Append(ids, t) : 1;
			Py_XDECREF(t);
			if (k)
				Py_CLEAR(ids);
		}
		t = ids ? PyList_AsTuple(ids) : NULL;
		Py_XDECREF(ids);
		ids = t ? Py_BuildValue("(KKN)", (unsigned long long)ch[i].offset,
					(unsigned long long)ch[i].length, t) :
			  NULL;
		if (!ids || PyList_Append(l, ids) < 0)
			Py_CLEAR(l);
		Py_XDECREF(ids);
	}
	return l;
}

static PyObject *m_plan_chunks(PyObject *self, PyObject *args, PyObject *kw)
{
	const struct etm_capture_buffer *b = NULL;
	struct etm_capture *cap = NULL;
	struct etm_chunk *ch = NULL;
	unsigned long long target;
	PyObject *path = NULL, *res = NULL;
	struct epy_opts po;
	Py_ssize_t buffer;
	uint64_t size = 0;
	size_t n = 0;
	struct etm_fd_range rg = { -1, 0 };
	int ids, r = 0;

	(void)self;
	memset(&po, 0, sizeof(po));
	if (!PyArg_ParseTuple(args, "O&:plan_chunks", PyUnicode_FSConverter, &path))
		return NULL;
	if (chunk_args(kw, &target, &buffer, &ids) < 0 ||
	    epy_opts_parse(&po, kw, chunk_own) < 0)
		goto out;
	if (po.o.mode == etm_dec_packets) {
		PyErr_SetString(PyExc_ValueError, "chunks decode elements only");
		goto out;
	}
	if (epy_capture_open(&cap, PyBytes_AsString(path), &po) < 0)
		goto out;
	b = epy_buffer_file(cap, buffer, &rg, &size);
	if (!b)
		goto out;
	Py_BEGIN_ALLOW_THREADS
		r = etm_chunk_plan(b->dec, etm_fd_read, &rg, size, target,
				   ids, &ch, &n);
	Py_END_ALLOW_THREADS if (r < 0)
		raise_msg(r, "plan_chunks");
	else res = plan_list(cap, (size_t)buffer, ch, n);
out:
	if (rg.fd >= 0)
		close(rg.fd);
	free(ch);
	etm_capture_free(cap);
	epy_opts_free(&po);
	Py_XDECREF(path);
	return res;
}

static PyObject *m_decode_chunk(PyObject *self, PyObject *args, PyObject *kw)
{
	unsigned long long target, offset, length;
	PyObject *path = NULL, *d = NULL;
	struct epy_opts po;
	Py_ssize_t buffer;
	int ids;

	(void)self;
	memset(&po, 0, sizeof(po));
	if (!PyArg_ParseTuple(args, "O&KK:decode_chunk", PyUnicode_FSConverter,
			      &path, &offset, &length))
		return NULL;
	if (chunk_args(kw, &target, &buffer, &ids) == 0 &&
	    epy_opts_parse(&po, kw, chunk_own) == 0)
		d = epy_chunk_decoder(path, &po, buffer, offset, length, target);
	epy_opts_free(&po);
	Py_DECREF(path);
	return d;
}

static PyObject *m_errstr(PyObject *self, PyObject *arg)
{
	long code = PyLong_AsLong(arg);

	(void)self;
	if (code == -1 && PyErr_Occurred())
		return NULL;
	return PyUnicode_FromString(etm_errstr((int)code));
}

static PyObject *m_errname(PyObject *self, PyObject *arg)
{
	long code = PyLong_AsLong(arg);

	(void)self;
	if (code == -1 && PyErr_Occurred())
		return NULL;
	return PyUnicode_FromString(etm_errname((int)code));
}

static PyMethodDef m_methods[] = {
	{ "open", (PyCFunction)(void (*)(void))m_open, METH_VARARGS | METH_KEYWORDS,
	  "open(path, **options) -> Decoder\n\n"
	  "Open a snapshot directory or a trace file (see the package docs for\n"
	  "the options). Raises etmtrace.Error with the library's message.\n"
	  "A window (doc/window.md): start='0x8100' | '@OFFSET' | 'ts:T' | '#N'\n"
	  "and stop= (the same forms; the stop is not kept) keep the elements\n"
	  "between, ranges cut at the exact instruction; last=N only the last N\n"
	  "instructions, before the end or (at='halt') before each Debug Halt.\n"
	  "jobs=N: decode a regular file's elements on N worker threads (the\n"
	  "library's capture run; the same elements in the same order)." },
	{ "plan_chunks", (PyCFunction)(void (*)(void))m_plan_chunks,
	  METH_VARARGS | METH_KEYWORDS,
	  "plan_chunks(path, *, chunk_size=0, buffer=0, trace_ids=True,\n"
	  "            **options) -> [(offset, length, trace_ids), ...]\n\n"
	  "Cut trace buffer @buffer of the capture into chunks of about\n"
	  "@chunk_size bytes (0: CHUNK_SIZE) at sync points; the plan depends\n"
	  "on the bytes and @chunk_size only. trace_ids: the decoded sources\n"
	  "named in each chunk (reads the whole buffer; False: every decoded\n"
	  "source of the buffer). Options as for open()." },
	{ "decode_chunk", (PyCFunction)(void (*)(void))m_decode_chunk,
	  METH_VARARGS | METH_KEYWORDS,
	  "decode_chunk(path, offset, length, *, chunk_size=0, buffer=0,\n"
	  "             **options) -> Decoder\n\n"
	  "A Decoder of one chunk of plan_chunks() (same @chunk_size): its\n"
	  "batches are the chunk's share of the whole decode; after the last,\n"
	  ".next_chunk names the chunk whose share follows (see stitch())." },
	{ "errstr", m_errstr, METH_O,
	  "errstr(code) -> str: the library's message for an error code." },
	{ "errname", m_errname, METH_O,
	  "errname(code) -> str: the short name of an error code (\"bad_opc\")." },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef m_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "etmtrace._etmtrace",
	.m_doc = "C extension of the etmtrace package (libetmtrace).",
	.m_size = -1,
	.m_methods = m_methods,
};

PyMODINIT_FUNC PyInit__etmtrace(void)
{
	PyObject *m = PyModule_Create(&m_def);

	if (!m)
		return NULL;
	epy_error = PyErr_NewExceptionWithDoc(
		"etmtrace.Error",
		"A decode or input error; str() is the library's message and\n"
		".code the error code (enum etm_error).",
		NULL, NULL);
	if (!epy_error || PyModule_AddObject(m, "Error", Py_NewRef(epy_error)) < 0 ||
	    epy_batch_init(m) < 0 || epy_decoder_init(m) < 0 || epy_stream_init(m) < 0 ||
	    PyModule_AddFunctions(m, epy_output_methods) < 0 ||
	    PyModule_AddIntConstant(m, "ELEM_SIZE", sizeof(struct epy_elem)) < 0 ||
	    PyModule_AddIntConstant(m, "CHUNK_SIZE", ETM_CHUNK_TARGET) < 0 ||
	    PyModule_AddStringConstant(m, "ELEM_FORMAT", EPY_ELEM_FORMAT) < 0 ||
	    PyModule_AddStringConstant(m, "VERSION", ETM_VERSION_STRING) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
