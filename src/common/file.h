/* common/file.h - opening input files safely: regular files only. */
#ifndef ETM_COMMON_FILE_H
#define ETM_COMMON_FILE_H

#include <sys/stat.h>

/* Open @path for reading if it is a regular file, without blocking on a
 * FIFO or a device on the way (a FIFO would block for ever, /dev/zero
 * never ends). Returns the descriptor with *@st filled, -1 if it cannot
 * be opened (errno set), or -2 if it is not a regular file. */
int etm_open_regular(const char *path, struct stat *st);

/* etm_file_problem() is declared in etmtrace/open.h. */
#include <etmtrace/open.h>

#endif
