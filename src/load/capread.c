/* load/capread.c - the reader of a capture's trace buffer (load/capread.h):
 * a file from an offset for a length, memory, a descriptor, or a stream,
 * handed out in chunks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/error.h>

#include "common/pagebuf.h"
#include "load/capread.h"

void cap_reader_fail(struct cap_reader *r, const char *what)
{
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "%s: %s", r->path ? r->path : "input",
			 what);
}

/* Open the buffer's own file: a snapshot's must be a regular file (a FIFO
 * would block, /dev/zero never ends); a trace file named by the caller
 * may be a pipe. */
static int open_file(struct cap_reader *r, const struct etm_capture_buffer *b,
		     int snap)
{
	struct stat st;

	r->fd = open(b->path, O_RDONLY | O_CLOEXEC | (snap ? O_NONBLOCK : 0));
	if (r->fd < 0) {
		cap_reader_fail(r, strerror(errno));
		return -etme_io;
	}
	r->own_fd = 1;
	if (b->skip && lseek(r->fd, (off_t)b->skip, SEEK_SET) < 0) {
		cap_reader_fail(r, strerror(errno));
		return -etme_io;
	}
	if (snap && (fstat(r->fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		cap_reader_fail(r, "not a regular file");
		return -etme_io;
	}
	r->bounded = b->length != 0;
	r->left = b->length;
	r->base = b->skip;
	/* a regular file: its size now is what must be read (one that
	 * shrinks while read is an error, not a shorter trace) */
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode)) {
		uint64_t n = (uint64_t)st.st_size > b->skip ?
				     (uint64_t)st.st_size - b->skip :
				     0;

		r->expect = b->length && b->length < n ? b->length : n;
		r->sized = 1;
	}
	return 0;
}

int cap_reader_open(struct cap_reader *r, const struct etm_capture_buffer *b,
		    int snap, const struct etm_capture_run_opts *ro)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->path = b->path;
	r->err = ro ? ro->err : NULL;
	r->errlen = ro ? ro->errlen : 0;
	if (r->err && r->errlen)
		r->err[0] = 0;
	r->chunk = ro && ro->chunk ? ro->chunk : CAP_CHUNK;
	if (ro && ro->mem) {
		r->mem = ro->mem;
		r->left = ro->nmem;
		r->bounded = 1;
		return 0;
	}
	if (ro && ro->read) {
		r->read = ro->read;
		r->rctx = ro->read_ctx;
		r->head = ro->head;
		r->nhead = ro->nhead;
	} else if (ro && ro->use_fd) {
		r->fd = ro->fd;
	} else if (b->data) {
		r->mem = b->data;
		r->left = b->size;
		r->bounded = 1;
		return 0;
	} else {
		int e = open_file(r, b, snap);

		if (e < 0)
			return e;
	}
	r->buf = etm_skewed_alloc(r->chunk);
	if (!r->buf) {
		if (r->err && r->errlen)
			snprintf(r->err, r->errlen, "out of memory");
		return -etme_nomem;
	}
	return 0;
}

/* A stream's next bytes: its head first. */
static int next_stream(struct cap_reader *r, const uint8_t **p, size_t *n)
{
	ssize_t k;

	if (r->nhead) {
		*p = r->head;
		*n = r->nhead;
		r->nhead = 0;
		return 0;
	}
	k = r->read(r->rctx, r->buf, r->chunk);
	if (k < 0) {
		if (r->err && r->errlen)
			r->err[0] = 0; /* the reader reported it */
		return -etme_io;
	}
	*p = r->buf;
	*n = (size_t)k;
	return 0;
}

int cap_reader_next(struct cap_reader *r, const uint8_t **p, size_t *n)
{
	size_t want = r->bounded && r->left < r->chunk ? (size_t)r->left : r->chunk;
	ssize_t k;
	int e = 0;

	*n = 0;
	if (r->read)
		e = next_stream(r, p, n);
	else if (r->mem) {
		*p = r->mem + r->pos;
		*n = want;
		r->pos += want;
	} else if (want) {
		while ((k = read(r->fd, r->buf, want)) < 0 && errno == EINTR)
			;
		if (k < 0) {
			cap_reader_fail(r, strerror(errno));
			return -etme_io;
		}
		*p = r->buf;
		*n = (size_t)k;
		if (!k && r->sized && r->total < r->expect) {
			char what[96];

			snprintf(what, sizeof(what), "ended after %llu of its %llu bytes",
				 (unsigned long long)r->total,
				 (unsigned long long)r->expect);
			cap_reader_fail(r, what);
			return -etme_io;
		}
	}
	r->left -= r->bounded ? *n : 0;
	r->total += *n;
	return e;
}

void cap_reader_close(struct cap_reader *r)
{
	if (r->own_fd && r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->own_fd = 0;
	etm_skewed_free(r->buf);
	r->buf = NULL;
}

int64_t cap_reader_range(const struct cap_reader *r)
{
	if (!r->own_fd || !r->sized || r->mem || r->read || r->total ||
	    (r->base && !r->bounded))
		return -1;
	return (int64_t)r->expect;
}

size_t etm_fd_read(void *range, uint64_t off, uint8_t *buf, size_t n)
{
	const struct etm_fd_range *g = range;
	size_t got = 0;

	while (got < n) {
		ssize_t k = pread(g->fd, buf + got, n - got, (off_t)(g->base + off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}

size_t cap_pread(void *vr, uint64_t off, uint8_t *buf, size_t n)
{
	const struct cap_reader *r = vr;
	struct etm_fd_range g = { r->fd, r->base };

	return etm_fd_read(&g, off, buf, n);
}
