/* tests/fuzz/fuzz-snapdir.h - a snapshot directory built from fuzz input
 * (shared by the ini and session targets): the input, split at NUL bytes,
 * gives snapshot.ini, cpu.ini, etm.ini, trace.ini, buf.bin and mem.bin in
 * that order (the last one takes the rest, NULs included); or, in the
 * session target's layout (fz_snapshot_bin()), the four .ini files, then
 * a length byte L, L bytes of buf.bin and mem.bin, so that the trace can
 * hold the NUL bytes of an A-sync. '/' is replaced in the .ini text so
 * that every reference stays in the per-process directory, which lives on
 * tmpfs (/dev/shm) when there is one and is removed at exit. A file whose
 * content is what the last input wrote is not written again. */
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
/* what each file holds now (have: it exists) */
static uint8_t *fz_snap_last[FZ_SNAP_NFILES];
static size_t fz_snap_lastn[FZ_SNAP_NFILES];
static int fz_snap_have[FZ_SNAP_NFILES];

static void fz_snap_cleanup(void)
{
	char path[128];
	size_t f;

	for (f = 0; f < FZ_SNAP_NFILES; f++) {
		snprintf(path, sizeof(path), "%s/%s", fz_snap_tmp,
			 fz_snap_files[f]);
		unlink(path);
		free(fz_snap_last[f]);
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

/* File @f holds @p[0..n) (@p NULL: @f does not exist). */
static void fz_snap_put(const char *dir, size_t f, const uint8_t *p, size_t n)
{
	char path[128];
	ssize_t w;
	int fd;

	if (p ? fz_snap_have[f] && fz_snap_lastn[f] == n &&
			    (!n || !memcmp(fz_snap_last[f], p, n)) :
		!fz_snap_have[f])
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, fz_snap_files[f]);
	fz_snap_have[f] = 0;
	if (!p) {
		unlink(path);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FZ_ASSERT(fd >= 0);
	w = n ? write(fd, p, n) : 0;
	FZ_ASSERT(w >= 0 && (size_t)w == n);
	close(fd);
	free(fz_snap_last[f]);
	fz_snap_last[f] = malloc(n ? n : 1);
	FZ_ASSERT(fz_snap_last[f]);
	if (n)
		memcpy(fz_snap_last[f], p, n);
	fz_snap_lastn[f] = n;
	fz_snap_have[f] = 1;
}

/* Write files @f.. from @p[0..n) split at NULs (the last takes the rest),
 * '/' replaced; the files the input does not reach up to @end do not exist.
 * Returns the bytes used (the rest when the last file is reached). */
static size_t fz_snap_split(const char *dir, size_t f, size_t end,
			    const uint8_t *p, size_t n)
{
	uint8_t *buf = malloc(n ? n : 1);
	size_t i, start = 0;

	FZ_ASSERT(buf);
	for (i = 0; i < n; i++)
		buf[i] = p[i] == '/' ? '_' : p[i];
	for (i = 0; i <= n && f < end; i++) {
		if (i < n && (buf[i] || f == FZ_SNAP_NFILES - 1))
			continue;
		fz_snap_put(dir, f++, buf + start, i - start);
		start = i + 1;
	}
	for (i = f; i < end; i++)
		fz_snap_put(dir, i, NULL, 0);
	free(buf);
	return start < n ? start : n;
}

/* Write the snapshot files from @p[0..n); returns the directory. */
static inline const char *fz_snapshot(const uint8_t *p, size_t n)
{
	const char *dir = fz_snap_dir();

	fz_snap_split(dir, 0, FZ_SNAP_NFILES, p, n);
	return dir;
}

/* The session layout: four .ini files split at NULs, then the length byte
 * of buf.bin, buf.bin, mem.bin (each absent when the input ends before). */
static inline const char *fz_snapshot_bin(const uint8_t *p, size_t n)
{
	const char *dir = fz_snap_dir();
	size_t used = fz_snap_split(dir, 0, 4, p, n), len;

	if (used == n) {
		fz_snap_put(dir, 4, NULL, 0);
		fz_snap_put(dir, 5, NULL, 0);
		return dir;
	}
	p += used;
	n -= used;
	len = p[0] < n - 1 ? p[0] : n - 1;
	fz_snap_put(dir, 4, p + 1, len);
	if (p[0] <= n - 1)
		fz_snap_put(dir, 5, p + 1 + len, n - 1 - len);
	else
		fz_snap_put(dir, 5, NULL, 0);
	return dir;
}

#endif
