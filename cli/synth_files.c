/* cli/synth_files.c - the files `etmtrace synth` writes beside its snapshot
 * (the expected lists; the snapshot itself: etm_snapw_write()), with a
 * message naming the file when it cannot be written. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "synth_files.h"

int synth_file(const char *dir, const char *name, const void *buf,
	       size_t n)
{
	char path[4096];
	FILE *f;
	int ok;

	if (dir)
		snprintf(path, sizeof(path), "%s/%s", dir, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "etmtrace synth: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	ok = fwrite(buf, 1, n, f) == n;
	ok &= fclose(f) == 0;
	if (!ok)
		fprintf(stderr, "etmtrace synth: error writing %s\n", path);
	return ok ? 0 : -1;
}
