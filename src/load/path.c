/* load/path.c - file references of a snapshot: a stranger's snapshot may
 * not pull other files in (absolute paths, "..", links pointing out) nor
 * name a FIFO or a device as one of its files. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/path.h"

/* Whether @rel (full path @path) stays under @realdir. */
static int path_inside(const char *realdir, const char *rel, const char *path)
{
	const char *p = rel;
	size_t n, k;
	char *real;
	int ok;

	if (rel[0] == '/')
		return 0;
	while (*p) {
		k = strcspn(p, "/");
		if (k == 2 && p[0] == '.' && p[1] == '.')
			return 0;
		p += k;
		p += strspn(p, "/");
	}
	real = realpath(path, NULL);
	if (!real)
		return 1; /* missing: reported when it is opened */
	n = strlen(realdir);
	if (n == 1 && realdir[0] == '/')
		n = 0; /* the root directory: every path is under it */
	ok = !strncmp(real, realdir, n) && real[n] == '/';
	free(real);
	return ok;
}

int etm_snap_path(const char *dir, const char *realdir, int outside,
		  const char *rel, char **out)
{
	struct stat st;
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *path = malloc(n);

	*out = NULL;
	if (!path)
		return -1;
	if (rel[0] == '/')
		snprintf(path, n, "%s", rel);
	else
		snprintf(path, n, "%s/%s", dir, rel);
	if (!outside && !path_inside(realdir, rel, path)) {
		free(path);
		return -2;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		free(path);
		return -3;
	}
	*out = path;
	return 0;
}
