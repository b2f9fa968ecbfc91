/* common/file.c - opening input files safely: regular files only, checked
 * on the open descriptor (no race between a stat and the open). */
#include <fcntl.h>
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
