/* etmtrace/srcpath.h - finding source files named by debug information
 * that was written on another machine: path substitution rules (as gdb's
 * `set substitute-path`) and directories to search (as gdb's `directory`),
 * for source lines in listings and the SF: records of lcov files. */
#ifndef ETM_ETMTRACE_SRCPATH_H
#define ETM_ETMTRACE_SRCPATH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct etm_srcpath;

/** An empty set of rules and directories: etm_srcpath_find() then finds
 * a file only where DWARF says it is. NULL on no memory. */
struct etm_srcpath *etm_srcpath_alloc(void);
/** Free; NULL is a no-op. */
void etm_srcpath_free(struct etm_srcpath *sp);

/** Add a substitution rule: a path that begins with directory @from is
 * looked for under @to instead (the rest of the path appended). @from
 * matches at directory boundaries only (`/usr/src` matches `/usr/src` and
 * `/usr/src/x.c`, not `/usr/srcx/x.c`); `/` and `\` are the same
 * separator in it and in the path; a @from that begins with a drive
 * letter (`C:`) matches ignoring case, as Windows file names do. Rules
 * are tried in the order they were added and the first that matches is
 * the only one applied (gdb's rule). @to may be empty (the rest, as a
 * relative path). Copies both strings. Returns 0, -etme_invalid (@from
 * empty or NULL), -etme_nomem. */
int etm_srcpath_add_map(struct etm_srcpath *sp, const char *from,
			const char *to);
/** etm_srcpath_add_map() from one "OLD=NEW" argument (split at the first
 * '='). Returns as etm_srcpath_add_map(); -etme_parse without '='. */
int etm_srcpath_add_map_arg(struct etm_srcpath *sp, const char *arg);
/** Add a directory to search, after those added before. Copies @dir.
 * Returns 0, -etme_invalid, -etme_nomem. */
int etm_srcpath_add_dir(struct etm_srcpath *sp, const char *dir);

/** The local file for source path @path (as DWARF names it), into @out
 * (@n bytes): the path the first matching rule makes, if that file
 * exists; else, with no rule matching, @path itself (also with `\` read
 * as `/`), if it exists; else, in each directory in turn, the path (the
 * rule's result if one matched) relative to it - without a drive letter,
 * leading separators and leading `.`/`..` components - then the same
 * without its first directory, and so on down to the file name alone.
 * Only regular files count; a candidate longer than @n - 1 bytes is not
 * tried. @sp may be NULL (no rules, no directories). Returns 0,
 * -etme_nomap (not found), -etme_invalid (NULL @path or @out, @n 0). */
int etm_srcpath_find(const struct etm_srcpath *sp, const char *path,
		     char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
