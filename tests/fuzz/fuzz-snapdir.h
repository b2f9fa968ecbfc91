/* tests/fuzz/fuzz-snapdir.h - a snapshot directory built from fuzz input
 * (shared by the ini and session targets): the input, split at NUL bytes,
 * gives snapshot.ini, cpu.ini, etm.ini, trace.ini, buf.bin and mem.bin in
 * that order (the last one takes the rest, NULs included). '/' is replaced
 * so that every reference stays in the per-process directory, which lives
 * on tmpfs (/dev/shm) when there is one and is removed at exit. */
#ifndef ETM_TESTS_FUZZ_SNAPDIR_H
#define ETM_TESTS_FUZZ_SNAPDIR_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static const char *const fz_snap_files[] = {
	"snapshot.ini",
	"cpu.ini",
	"etm.ini",
	"trace.ini",
	"buf.bin",
	"mem.bin",
};
#define FZ_SNAP_NFILES (sizeof(fz_snap_files) / sizeof(fz_snap_files[0]))

static char fz_snap_tmp[64];

static void fz_snap_cleanup(void)
{
	char path[128];
	size_t f;

	for (f = 0; f < FZ_SNAP_NFILES; f++) {
		snprintf(path, sizeof(path), "%s/%s", fz_snap_tmp,
			 fz_snap_files[f]);
		unlink(path);
	}
	rmdir(fz_snap_tmp);
}

static const char *fz_snap_dir(void)
{
	if (fz_snap_tmp[0])
		return fz_snap_tmp;
	snprintf(fz_snap_tmp, sizeof(fz_snap_tmp), "/dev/shm/etmfz.XXXXXX");
	if (!mkdtemp(fz_snap_tmp)) {
		snprintf(fz_snap_tmp, sizeof(fz_snap_tmp), "/tmp/etmfz.XXXXXX");
		FZ_ASSERT(mkdtemp(fz_snap_tmp));
	}
	atexit(fz_snap_cleanup);
	return fz_snap_tmp;
}

static void fz_snap_write(const char *dir, const char *name, const uint8_t *p,
			  size_t n)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FZ_ASSERT(fd >= 0);
	FZ_ASSERT(write(fd, p, n) == (ssize_t)n);
	close(fd);
}

/* Write the snapshot files from @p[0..n); returns the directory. */
static const char *fz_snapshot(const uint8_t *p, size_t n)
{
	const char *dir = fz_snap_dir();
	uint8_t *buf = malloc(n ? n : 1);
	size_t i, f = 0, start = 0;

	FZ_ASSERT(buf);
	for (i = 0; i < n; i++)
		buf[i] = p[i] == '/' ? '_' : p[i];
	for (i = 0; i <= n && f < FZ_SNAP_NFILES; i++) {
		if (i < n && (buf[i] || f == FZ_SNAP_NFILES - 1))
			continue;
		fz_snap_write(dir, fz_snap_files[f++], buf + start, i - start);
		start = i + 1;
	}
	for (; f < FZ_SNAP_NFILES; f++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/%s", dir, fz_snap_files[f]);
		unlink(path);
	}
	free(buf);
	return dir;
}

#endif
