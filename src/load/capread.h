/* load/capread.h - the reader of a capture's trace buffer: its file (from
 * an offset, for a length), its bytes in memory, a file descriptor read
 * to its end, or a stream read as it arrives; handed out in chunks. The
 * one place etmtrace reads trace input to push into a decoder
 * (load/caprun.c, load/caprun_pull.c). Private to load/. */
#ifndef ETM_LOAD_CAPREAD_H
#define ETM_LOAD_CAPREAD_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/caprun.h>

struct cap_reader {
	const char *path;   /* in messages */
	int fd;             /* -1: none */
	int own_fd;         /* opened here: closed by cap_reader_close() */
	const uint8_t *mem; /* memory input, or NULL */
	uint64_t pos;       /* memory: next byte */
	uint64_t left;      /* bytes still to read when @bounded */
	int bounded;
	int sized; /* a regular file: @expect bytes must come */
	uint64_t expect;
	uint64_t base;           /* the file offset of the buffer's first byte */
	etm_stream_read_fn read; /* a stream, or NULL */
	void *rctx;
	const uint8_t *head; /* a stream's head, not yet handed out */
	size_t nhead;
	uint8_t *buf; /* @chunk bytes, owned (etm_skewed_alloc(): half a page in) */
	size_t chunk;
	uint64_t total; /* bytes handed out */
	char *err;      /* the caller's reason buffer (may be NULL) */
	size_t errlen;
};

/* Bytes read and pushed at once by default: a buffer that stays in the
 * core's L2 cache, which read() writes and the deformatter reads back
 * (1 MiB, twice the 512 KiB L2 of the EPYC VM: the kernel's copy took
 * 11-14% of `decode --id 13 --stats` on TC2 x4096 in CPU samples, 128 KiB
 * 3-4%; 256 KiB as 1 MiB; doc/measurements/2026-12-07-read-chunk.md). */
#define CAP_CHUNK ((size_t)1 << 17)

/* Set @r up to read buffer @b (@snap: a snapshot's buffer, which must be
 * a regular file) or the input @ro names instead. Returns 0, -etme_io
 * (reason in r->err), -etme_nomem. */
int cap_reader_open(struct cap_reader *r, const struct etm_capture_buffer *b,
		    int snap, const struct etm_capture_run_opts *ro);
/* The next bytes: *@p, *@n (0 at the end). Returns 0, or -etme_io (reason
 * in r->err, empty for a stream whose reader reported it). */
int cap_reader_next(struct cap_reader *r, const uint8_t **p, size_t *n);
void cap_reader_close(struct cap_reader *r);
/* The bytes of a regular file @r reads, for the worker threads: the whole
 * file, or a part of it (an offset with a length: a perf.data AUX piece),
 * not yet read; its size, or -1 (memory, a stream, an offset alone). */
int64_t cap_reader_range(const struct cap_reader *r);
/* pread() of @n bytes at @off of @r's buffer (from r->base), as the
 * parallel runner reads (any thread; EINTR and short reads retried). */
size_t cap_pread(void *r, uint64_t off, uint8_t *buf, size_t n);
/* A reason into r->err: "PATH: WHAT" (printf-style WHAT). */
void cap_reader_fail(struct cap_reader *r, const char *what);

#endif
