/* common/file.c - opening input files safely: regular files only, checked
 * on the open descriptor (no race between a stat and the open). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/file.h"

int etm_open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int fl;

	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return -2;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int etm_file_problem(const char *path, int dir_ok, char *why, size_t n)
{
	const char *pre = "", *w = NULL;
	struct stat st;
	int fd;

	if (why && n)
		why[0] = 0;
	if (stat(path, &st) != 0) {
		w = errno == ENOENT ? "no such file" : strerror(errno);
		pre = errno == ENOENT ? "" : "cannot be read: ";
	} else if (S_ISDIR(st.st_mode)) {
		w = dir_ok ? NULL : "a directory, not a file";
	} else if (!S_ISREG(st.st_mode)) {
		w = "not a regular file (a FIFO, socket or device)";
	} else if (st.st_size == 0) {
		w = "an empty file (0 bytes)";
	} else if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		w = strerror(errno);
		pre = "cannot be read: ";
	} else {
		close(fd);
	}
	if (!w)
		return 0;
	if (why && n)
		snprintf(why, n, "%s%s", pre, w);
	return -1;
}
