/* listing/wbuf.h - buffered output writer (library-internal; the formatters
 * of listing/out_fmt.h and the CLI write through it): output is appended to a
 * large buffer and written with one write() per buffer-full, or (memory
 * mode, parallel decode) kept as a chain of blocks for another thread to
 * write. */
#ifndef ETM_LISTING_WBUF_H
#define ETM_LISTING_WBUF_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include <etmtrace/write.h>

#include "listing/text_arena.h"

#define WBLK_SIZE (1 << 16)
#define WBLK_SEGS (WBLK_SIZE / sizeof(struct iovec))

/* A block of output in memory mode: @len bytes of text, or (a block of
 * staged references) @len segments. */
struct wblk {
	struct wblk *next;
	size_t len;
	union {
		char data[WBLK_SIZE];
		struct iovec seg[WBLK_SEGS];
	};
};

/* The output staged in memory mode (wbuf_take_piece()): the text blocks
 * and, if references were staged (wbuf_ref()), the segments in order:
 * text in @arena (whose blocks in @pins it pins), or (iov_base NULL) the
 * next iov_len bytes of the text blocks. */
struct wpiece {
	struct wblk *text, *segs;
	struct text_arena *arena;
	uint64_t pins;
};

/* Free blocks shared by the writers of several threads (memory mode), so
 * that output blocks are reused instead of returned to the system. */
struct wpool {
	pthread_mutex_t mu;
	struct wblk *free;
	size_t n, max; /* blocks kept, at most */
};

void wpool_init(struct wpool *p, size_t max);
void wpool_fini(struct wpool *p);
/* Free the blocks kept for reuse (any thread; the pool stays usable). */
void wpool_trim(struct wpool *p);

/* A writer's destination other than a file descriptor: the text goes to
 * @fn (etm_listing_run(): the caller's write callback). */
struct wsink {
	etm_write_fn fn;
	void *ctx;
};

struct wbuf {
	int fd; /* >= 0: write() when full; < 0: memory (or @sink) */
	/* fd < 0 and not memory mode: written through this when full */
	const struct wsink *sink;
	size_t len;
	int err;
	char *buf;                /* own, or cur->data in memory mode */
	struct wblk *cur;         /* memory mode: block being filled */
	struct wblk *head, *tail; /* memory mode: full blocks */
	size_t held;              /* bytes allocated in head..tail */
	struct wpool *pool;       /* memory mode: blocks from here (or NULL) */
	unsigned long long out;   /* bytes written to fd */
	/* memory mode with references (wbuf_refs()): the segments staged, the
	 * text bytes before the last reference and in full blocks, the arena
	 * referenced and its blocks pinned */
	int refs;
	struct wblk *shead, *stail;
	unsigned long long mark, kept;
	struct text_arena *arena;
	uint64_t pins;
	char own[WBLK_SIZE];
};

void wbuf_init(struct wbuf *w, int fd);
/* A writer into @sink (borrowed): wbuf_init() whose writes go to sink->fn;
 * its error stops the writer (w->err EIO). */
void wbuf_init_sink(struct wbuf *w, const struct wsink *sink);
/* Memory mode: nothing is written; wbuf_take() hands over the output.
 * Blocks come from @pool if not NULL; then (blocks for another thread,
 * held a while) the output is staged in the writer's own buffer and
 * copied to each block, when full, without going through the cache.
 * Returns 0 or -1 (no memory). */
int wbuf_init_mem(struct wbuf *w, struct wpool *pool);
/* Memory mode: free the blocks. */
void wbuf_fini(struct wbuf *w);
/* Memory mode: the output so far as a chain of blocks (NULL if none), and
 * the bytes they take in *bytes; the writer starts empty. */
struct wblk *wbuf_take(struct wbuf *w, size_t *bytes);
/* Write the blocks of @b to @w's file (after @w's own buffer). */
void wbuf_write_chain(struct wbuf *w, const struct wblk *b);
/* Free the blocks of @b (to @pool if not NULL). */
void wbuf_free_chain(struct wpool *pool, struct wblk *b);
/* Memory mode with a pool: text in an arena may be staged by reference
 * (wbuf_ref()). Output is then taken with wbuf_take_piece(). */
void wbuf_refs(struct wbuf *w);
/* Memory mode: the output so far (*@p, the caller's to free with
 * wbuf_free_piece()), and the bytes it stands for (returned: the text's
 * length where referenced, so at least the memory it holds); the writer
 * starts empty. */
size_t wbuf_take_piece(struct wbuf *w, struct wpiece *p);
/* The memory @p holds: its text and segment blocks (where references
 * were staged, much less than the text's length). */
size_t wbuf_piece_mem(const struct wpiece *p);
/* Write @p to @w's file (after @w's own buffer). */
void wbuf_write_piece(struct wbuf *w, const struct wpiece *p);
/* Free @p's blocks (to @pool if not NULL) and unpin its arena blocks. */
void wbuf_free_piece(struct wpool *pool, struct wpiece *p);
/* Bytes held in full blocks (memory mode). */
static inline size_t wbuf_held(const struct wbuf *w)
{
	return w->held;
}

void wbuf_flush(struct wbuf *w);
void wbuf_put(struct wbuf *w, const char *s, size_t n);
void wbuf_str(struct wbuf *w, const char *s);
void wbuf_printf(struct wbuf *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wbuf_hex8(struct wbuf *w, uint32_t v); /* 8 upper-case hex digits */
void wbuf_char(struct wbuf *w, char c);
/* Reserve @n bytes (n <= 4096) and return a pointer to write into; commit
 * with wbuf_commit(). */
char *wbuf_reserve(struct wbuf *w, size_t n);
void wbuf_commit(struct wbuf *w, size_t n);

/* References shorter than this are copied: a segment costs 16 bytes and
 * a writev() iovec. */
#define WBUF_REF_MIN 64

void wbuf_ref_stage(struct wbuf *w, const char *s, size_t n, struct text_arena *a,
		    uint32_t blk);
/* Output @n bytes at @s, which stay put in block @blk of arena @a while it
 * is pinned: staged by reference in memory mode with references, else
 * copied as wbuf_put(). */
static inline void wbuf_ref(struct wbuf *w, const char *s, size_t n,
			    struct text_arena *a, uint32_t blk)
{
	struct wblk *t = w->stail;

	if (!w->refs || w->fd >= 0 || w->sink || n < WBUF_REF_MIN) {
		wbuf_put(w, s, n);
	} else if (t && t->len + 2 <= WBLK_SEGS && w->arena == a &&
		   (w->pins >> blk & 1)) {
		/* the common case: into a block already pinned, after a
		 * reference (contiguous with it: one segment) or after text
		 * (TC2: the previous range's last line; its segment first) */
		unsigned long long pos = w->kept + w->len;
		struct iovec *v = &t->seg[t->len - 1];

		if (pos != w->mark) {
			t->seg[t->len].iov_base = NULL;
			t->seg[t->len++].iov_len = (size_t)(pos - w->mark);
			w->mark = pos;
			t->seg[t->len].iov_base = (void *)s;
			t->seg[t->len++].iov_len = n;
		} else if ((char *)v->iov_base + v->iov_len == s) {
			v->iov_len += n;
		} else {
			t->seg[t->len].iov_base = (void *)s;
			t->seg[t->len++].iov_len = n;
		}
		w->held += n;
	} else {
		wbuf_ref_stage(w, s, n, a, blk);
	}
}

#endif
