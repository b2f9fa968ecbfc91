/* output/wbuf.h - buffered output writer (library-internal; the formatters
 * of output/out_fmt.h and the CLI write through it): output is appended to a
 * large buffer and written with one write() per buffer-full, or (memory
 * mode, parallel decode) kept as a chain of blocks for another thread to
 * write. */
#ifndef ETM_OUTPUT_WBUF_H
#define ETM_OUTPUT_WBUF_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define WBLK_SIZE (1 << 16)

/* A block of output in memory mode. */
struct wblk {
	struct wblk *next;
	size_t len;
	char data[WBLK_SIZE];
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

struct wbuf {
	int fd; /* >= 0: write() when full; < 0: memory */
	size_t len;
	int err;
	char *buf;                /* own, or cur->data in memory mode */
	struct wblk *cur;         /* memory mode: block being filled */
	struct wblk *head, *tail; /* memory mode: full blocks */
	size_t held;              /* bytes allocated in head..tail */
	struct wpool *pool;       /* memory mode: blocks from here (or NULL) */
	unsigned long long out;   /* bytes written to fd */
	char own[WBLK_SIZE];
};

void wbuf_init(struct wbuf *w, int fd);
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

#endif
