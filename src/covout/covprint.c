/* covout/covprint.c - the reports' text through the caller's writer
 * (covout.h): formatted into a line buffer, a longer line (a long symbol
 * name) into one of its size. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <etmtrace/error.h>

#include "common/strbuf.h"
#include "covout/covout.h"

void cov_printf(struct covout *o, const char *fmt, ...)
{
	char line[512];
	struct etm_strbuf b = { line, sizeof(line), 0 }, big;
	va_list ap;
	int k;

	if (o->err)
		return;
	va_start(ap, fmt);
	etm_strbuf_vput(&b, fmt, ap);
	va_end(ap);
	if (b.len >= sizeof(line)) {
		big.n = b.len + 1;
		big.len = 0;
		big.buf = malloc(big.n);
		if (!big.buf) {
			o->err = -etme_nomem;
			return;
		}
		va_start(ap, fmt);
		etm_strbuf_vput(&big, fmt, ap);
		va_end(ap);
		b.buf = big.buf;
	}
	k = o->write(o->write_ctx, b.buf, b.len);
	if (k < 0)
		o->err = k;
	if (b.buf != line)
		free(b.buf);
}
