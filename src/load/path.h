/* load/path.h - file references of a snapshot: joined to its directory,
 * kept inside it unless allowed, regular files only. */
#ifndef ETM_LOAD_PATH_H
#define ETM_LOAD_PATH_H

/* Full path of reference @rel of the snapshot in @dir (@realdir: its real
 * path) into *@out (malloc'd). Unless @outside, @rel must stay in the
 * directory: not absolute, no ".." component, and if it exists its real
 * path (symbolic links resolved) lies under @realdir. If it exists it must
 * be a regular file. Returns 0, -1 (no memory), -2 (outside), -3 (not a
 * regular file). */
int etm_snap_path(const char *dir, const char *realdir, int outside,
		  const char *rel, char **out);

#endif
