/* etmtrace/write.h - the one output sink of the library's writers: the
 * listing (etmtrace/listing.h), the coverage reports (etmtrace/coverage.h)
 * and the profile reports (etmtrace/profile.h) all write their text
 * through it. */
#ifndef ETM_ETMTRACE_WRITE_H
#define ETM_ETMTRACE_WRITE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Output sink: write the @n bytes of text at @s. Return 0, or a negative
 * value to stop: the writer that called it returns that value. */
typedef int (*etm_write_fn)(void *ctx, const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
