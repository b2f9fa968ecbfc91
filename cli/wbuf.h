/* cli/wbuf.h - buffered output writer: formatted output is appended to a
 * large buffer and written with one write() per buffer-full. */
#ifndef ETM_CLI_WBUF_H
#define ETM_CLI_WBUF_H

#include <stddef.h>
#include <stdint.h>

struct wbuf {
	int fd;
	size_t len;
	int err;
	char buf[1 << 16];
};

void wbuf_init(struct wbuf *w, int fd);
void wbuf_flush(struct wbuf *w);
void wbuf_put(struct wbuf *w, const char *s, size_t n);
void wbuf_str(struct wbuf *w, const char *s);
void wbuf_printf(struct wbuf *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void wbuf_hex8(struct wbuf *w, uint32_t v);   /* 8 upper-case hex digits */
void wbuf_char(struct wbuf *w, char c);
/* Reserve @n bytes (n <= 4096) and return a pointer to write into; commit
 * with wbuf_commit(). */
char *wbuf_reserve(struct wbuf *w, size_t n);
void wbuf_commit(struct wbuf *w, size_t n);

#endif
