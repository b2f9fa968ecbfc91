/* common/file.h - opening input files safely: regular files only. */
#ifndef ETM_COMMON_FILE_H
#define ETM_COMMON_FILE_H

#include <sys/stat.h>

/* Open @path for reading if it is a regular file, without blocking on a
 * FIFO or a device on the way (a FIFO would block for ever, /dev/zero
 * never ends). Returns the descriptor with *@st filled, -1 if it cannot
 * be opened (errno set), or -2 if it is not a regular file. */
int etm_open_regular(const char *path, struct stat *st);

/* Why @path cannot be read as an input file, into @why (@n bytes): "no
 * such file", "a directory, not a file", "not a regular file", "an empty
 * file (0 bytes)" or "cannot be read: REASON". Returns 0 (it can: @why
 * empty) or -1. A directory is accepted when @dir_ok. */
int etm_file_problem(const char *path, int dir_ok, char *why, size_t n);

#endif
