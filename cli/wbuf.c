/* cli/wbuf.c - buffered output writer (see wbuf.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wbuf.h"

void wbuf_init(struct wbuf *w, int fd)
{
	w->fd = fd;
	w->len = 0;
	w->err = 0;
}

void wbuf_flush(struct wbuf *w)
{
	size_t off = 0;

	while (off < w->len && !w->err) {
		ssize_t r = write(w->fd, w->buf + off, w->len - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			w->err = errno;
			break;
		}
		off += (size_t)r;
	}
	w->len = 0;
}

char *wbuf_reserve(struct wbuf *w, size_t n)
{
	if (w->len + n > sizeof(w->buf))
		wbuf_flush(w);
	return w->buf + w->len;
}

void wbuf_commit(struct wbuf *w, size_t n)
{
	w->len += n;
}

void wbuf_put(struct wbuf *w, const char *s, size_t n)
{
	while (n) {
		size_t room, k;

		if (w->len == sizeof(w->buf))
			wbuf_flush(w);
		room = sizeof(w->buf) - w->len;
		k = n < room ? n : room;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
	}
}

void wbuf_str(struct wbuf *w, const char *s)
{
	wbuf_put(w, s, strlen(s));
}

void wbuf_char(struct wbuf *w, char c)
{
	if (w->len == sizeof(w->buf))
		wbuf_flush(w);
	w->buf[w->len++] = c;
}

void wbuf_hex8(struct wbuf *w, uint32_t v)
{
	static const char hx[] = "0123456789ABCDEF";
	char *p = wbuf_reserve(w, 8);
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = hx[v & 0xf];
		v >>= 4;
	}
	wbuf_commit(w, 8);
}

void wbuf_printf(struct wbuf *w, const char *fmt, ...)
{
	va_list ap;
	char *p = wbuf_reserve(w, 4096);
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, 4096, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	wbuf_commit(w, (size_t)n < 4096 ? (size_t)n : 4095);
}
