/* cli/synth_files.h - writing the files of `etmtrace synth`
 * (cli/synth_files.c). */
#ifndef ETM_CLI_SYNTH_FILES_H
#define ETM_CLI_SYNTH_FILES_H

#include <stddef.h>

/* Write @n bytes of @buf to @dir/@name (@name alone if @dir is NULL).
 * Returns 0, or -1 after printing why. */
int synth_file(const char *dir, const char *name, const void *buf, size_t n);
/* The same for the NUL-terminated @text. */
int synth_text(const char *dir, const char *name, const char *text);
/* A snapshot file's text from etmtrace/snapwrite.h (@len of it in @ini of
 * @n bytes): written, or -1 if it did not fit. */
int synth_ini(const char *dir, const char *name, const char *ini, size_t n,
	      int len);

#endif
