/* common/strbuf.h - text appended snprintf-style to a caller's buffer:
 * what does not fit is counted, not written (library-internal: the packet
 * descriptions, the snapshot writer's texts, the coverage reports' lines);
 * and an error's message into a caller's error buffer. */
#ifndef ETM_COMMON_STRBUF_H
#define ETM_COMMON_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct etm_strbuf {
	char *buf;  /* may be NULL when n is 0 */
	size_t n;   /* its size */
	size_t len; /* length of everything appended (may exceed n - 1) */
};

/* Append vsnprintf(@fmt, @ap) (nothing if it fails). */
void etm_strbuf_vput(struct etm_strbuf *b, const char *fmt, va_list ap);
/* Append printf-style. */
void etm_strbuf_put(struct etm_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* NUL-terminate what fits; the whole length (-1 past INT_MAX). */
int etm_strbuf_end(struct etm_strbuf *b);

/* An error's message for the caller: printf-style into @err (@n bytes,
 * cut to fit; nothing when @err is NULL or @n is 0). Returns @code (a
 * negated enum etm_error), so that `return etm_err_msg(...)` reports it.
 * Every layer's "error buffer" of its public functions is written so. */
int etm_err_msg(char *err, size_t n, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
