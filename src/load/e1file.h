/* load/e1file.h - reading ETMv1 sample files (load/open_e1.c), for the
 * CLI's description of a sample file (`etmtrace info`) besides the
 * capture. Library-internal. */
#ifndef ETM_LOAD_E1FILE_H
#define ETM_LOAD_E1FILE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/etmv1.h>

/* The whole of @path into a new buffer (*@buf, *@n bytes). Returns 0, or
 * -1 with errno set. */
int etm_e1_slurp(const char *path, uint8_t **buf, size_t *n);
/* The sample-file format named @name ("bin", "text", "openocd", "etb"),
 * etm_e1f_unknown for NULL or any other name. */
enum etm_e1_format etm_e1_format_named(const char *name);

/* The sample-file format @path shows by itself: etm_e1f_bin (the ETM1TRC
 * magic) or etm_e1f_openocd (an OpenOCD `etm dump`: its depth word gives
 * the file size, and the first samples' status and flags words are in
 * range), else etm_e1f_unknown (text and ETB images are not recognised
 * without --protocol etmv1 / --samples: their bytes say too little). */
enum etm_e1_format etm_e1_file_format(const char *path);

#endif
