/* common/strbuf.c - snprintf-style appending to a caller's buffer
 * (common/strbuf.h). */
#include <limits.h>
#include <stdio.h>

#include "common/strbuf.h"

void etm_strbuf_vput(struct etm_strbuf *b, const char *fmt, va_list ap)
{
	size_t room = b->len < b->n ? b->n - b->len : 0;
	int r = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);

	if (r > 0)
		b->len += (size_t)r;
}

void etm_strbuf_put(struct etm_strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	etm_strbuf_vput(b, fmt, ap);
	va_end(ap);
}

int etm_strbuf_end(struct etm_strbuf *b)
{
	if (b->n && b->len < b->n)
		b->buf[b->len] = '\0';
	else if (b->n)
		b->buf[b->n - 1] = '\0';
	return b->len > (size_t)INT_MAX ? -1 : (int)b->len;
}

int etm_err_msg(char *err, size_t n, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && n) {
		va_start(ap, fmt);
		vsnprintf(err, n, fmt, ap);
		va_end(ap);
	}
	return code;
}
