/* covout/covprint.c - the reports' text through the caller's writer
 * (covout.h): formatted into a line buffer, a longer line (a long symbol
 * name) into one of its size. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <etmtrace/error.h>

#include "covout/covout.h"

void cov_printf(struct covout *o, const char *fmt, ...)
{
	char buf[512], *s = buf;
	va_list ap;
	int k;

	if (o->err)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (k < 0) {
		o->err = -etme_invalid;
		return;
	}
	if ((size_t)k >= sizeof(buf)) {
		s = malloc((size_t)k + 1);
		if (!s) {
			o->err = -etme_nomem;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(s, (size_t)k + 1, fmt, ap);
		va_end(ap);
	}
	k = o->write(o->write_ctx, s, (size_t)k);
	if (k < 0)
		o->err = k;
	if (s != buf)
		free(s);
}
