/* cli/synth_files.c - the files `etmtrace synth` writes: a buffer, a text,
 * a snapshot .ini text, each into the output directory with a message
 * naming the file when it cannot be written. */
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

int synth_text(const char *dir, const char *name, const char *text)
{
	return synth_file(dir, name, text, strlen(text));
}

/* A snapshot file's text from etmtrace/snapwrite.h (@len of it in @ini of
 * @n bytes): written, or -1 if it did not fit. */
int synth_ini(const char *dir, const char *name, const char *ini,
	      size_t n, int len)
{
	if (len < 0 || (size_t)len >= n) {
		fprintf(stderr, "etmtrace synth: %s does not fit\n", name);
		return -1;
	}
	return synth_text(dir, name, ini);
}
