/* python/src/etmpy.h - the etmtrace Python extension (CPython limited API
 * 3.11, stable ABI): record layouts of element and packet batches, the
 * Batch and Decoder types, and helpers shared by its files. */
#ifndef ETMPY_H
#define ETMPY_H

#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x030b0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include <etmtrace/etmtrace.h>

/* One decoded element as a numpy record (the dtype of an element batch,
 * EPY_ELEM_FORMAT): fixed little-endian layout without implicit padding.
 * Fields a kind does not use are zero. */
struct epy_elem {
	uint64_t offset;    /* input offset of the packet that produced it */
	uint64_t address;   /* range: start; exception: vector; trace_on:
			      * first instruction; nomem: unreadable address */
	uint64_t end;       /* range: address after the last instruction */
	uint64_t timestamp; /* timestamp */
	uint32_t ninsn;     /* range: instructions */
	uint32_t cycles;    /* range (cycle-accurate), cycle_count */
	uint32_t ctxid;     /* context (when it carries a context ID) */
	uint16_t exc_num;   /* exception */
	uint8_t kind;       /* enum etm_elem_kind */
	uint8_t isa;        /* range: enum etm_isa */
	uint8_t trace_id;
	uint8_t flags;      /* EPY_F_* */
	uint8_t error;      /* error: enum etm_error */
	uint8_t reason;     /* trace_on: enum etm_on_reason */
	uint8_t last_class; /* range: enum etm_insn_class of the last one */
	uint8_t isync;      /* trace_on: enum etm_isync_reason of the I-sync */
	uint8_t buffer;     /* index of the trace buffer (its file: offset) */
	uint8_t pad;
};

#define EPY_F_ATOM 0x01   /* range: the last instruction's E/N is known */
#define EPY_F_EXEC 0x02   /* range: ... and it executed (E) */
#define EPY_F_CYCLES 0x04 /* range: cycles are given */
#define EPY_F_CANCEL 0x08 /* exception: the last instruction cancelled */
#define EPY_F_CTXID 0x10  /* context: ctxid is given */
#define EPY_F_NS 0x20     /* context: non-secure */
#define EPY_F_HYP 0x40    /* context: Hyp mode */

#define EPY_ELEM_FORMAT                                                     \
	"T{<Q:offset:Q:address:Q:end:Q:timestamp:I:ninsn:I:cycles:I:ctxid:" \
	"H:exc_num:B:kind:B:isa:B:trace_id:B:flags:B:error:B:reason:"       \
	"B:last_class:B:isync:B:buffer:x}"

/* A packet batch holds struct etm_pkt_rec as the library gives them. */
#define EPY_PKT_FORMAT \
	"T{<Q:offset:I:value:B:type:B:trace_id:B:size:B:count:}"

extern PyObject *epy_error; /* etmtrace.Error */
extern PyObject *epy_batch_type;
extern PyObject *epy_decoder_type;

int epy_batch_init(PyObject *m);
int epy_decoder_init(PyObject *m);
/* etmtrace.Stream and open_stream() (stream.c). */
int epy_stream_init(PyObject *m);
/* listing() and coverage() (outputs.c). */
extern PyMethodDef epy_output_methods[];

/* A new Batch owning @data (malloc()ed, @n records of @itemsize bytes in
 * @format), or NULL with an exception set (@data is freed). */
PyObject *epy_batch_new(void *data, Py_ssize_t n, Py_ssize_t itemsize,
			const char *format, int packets);

/* Trace buffer @idx of @cap (one with a decoder) as the library's parallel
 * runs read it (etm_capture_range(): read with etm_fd_read() over *@rg,
 * whose rg->fd the caller closes), its size in *@size; NULL with an
 * exception set if there is no such buffer or it is not read so. */
const struct etm_capture_buffer *epy_buffer_file(struct etm_capture *cap,
						 Py_ssize_t idx,
						 struct etm_fd_range *rg,
						 uint64_t *size);

/* Element @e as a record. */
void epy_elem_from(struct epy_elem *r, const struct etm_elem *e);

/* Raise etmtrace.Error for library error @err, with @what in front. */
PyObject *epy_raise(int err, const char *what);

/* Options (keyword arguments) of open() and the chunk functions into
 * @o; strings it points to stay valid while @kw lives. @keep receives
 * objects to release with epy_opts_free(). Returns 0, or -1 with an
 * exception set. */
struct epy_opts {
	struct etm_open_opts o;
	unsigned ids[128];
	struct etm_open_file files[64];
	PyObject *keep;
};
int epy_opts_parse(struct epy_opts *po, PyObject *kw, const char *const *own);
void epy_opts_free(struct epy_opts *po);

/* Open @path with @po into *@cap. Returns 0, or -1 with etmtrace.Error
 * set (the library's message). The GIL is released while opening. */
int epy_capture_open(struct etm_capture **cap, const char *path,
		     const struct epy_opts *po);

/* A Decoder over the capture at @path (bytes, file system encoding), its
 * elements through a window @wo if not NULL, decoded on @jobs worker
 * threads (etm_capture_set_jobs()). */
PyObject *epy_decoder_open(PyObject *path, const struct epy_opts *po,
			   const struct etm_window_opts *wo, unsigned jobs);
/* The window keywords of open() (start, stop, last, at) into @wo: 1 if
 * a window is asked for, 0 if not, -1 with an exception set. */
int epy_window_opts(PyObject *kw, struct etm_window_opts *wo);
/* A Decoder of the chunk [@offset, @offset + @length) of buffer @buffer
 * of the capture at @path, in a plan of @target bytes (0: default). */
PyObject *epy_chunk_decoder(PyObject *path, const struct epy_opts *po,
			    Py_ssize_t buffer, uint64_t offset,
			    uint64_t length, uint64_t target);

#endif
