/* cli/synth_files.h - writing the files of `etmtrace synth`
 * (cli/synth_files.c). */
#ifndef ETM_CLI_SYNTH_FILES_H
#define ETM_CLI_SYNTH_FILES_H

#include <stddef.h>

/* Write @n bytes of @buf to @dir/@name (@name alone if @dir is NULL).
 * Returns 0, or -1 after printing why. */
int synth_file(const char *dir, const char *name, const void *buf, size_t n);

#endif
