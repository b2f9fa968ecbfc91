/* common/srcpath.c - source files named by debug information written on
 * another machine (etmtrace/srcpath.h): substitution rules as gdb's
 * substitute-path, then directories searched by the path's tails down to
 * the file name. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/error.h>
#include <etmtrace/srcpath.h>

#include "common/grow.h"

#define SP_MAX 4096 /* longest candidate path tried */

struct sp_rule {
	char *from, *to;
	int icase; /* @from begins with a drive letter */
};

struct etm_srcpath {
	struct sp_rule *rule;
	size_t nrule, caprule;
	char **dir;
	size_t ndir, capdir;
};

struct etm_srcpath *etm_srcpath_alloc(void)
{
	return calloc(1, sizeof(struct etm_srcpath));
}

void etm_srcpath_free(struct etm_srcpath *sp)
{
	size_t i;

	if (!sp)
		return;
	for (i = 0; i < sp->nrule; i++) {
		free(sp->rule[i].from);
		free(sp->rule[i].to);
	}
	for (i = 0; i < sp->ndir; i++)
		free(sp->dir[i]);
	free(sp->rule);
	free(sp->dir);
	free(sp);
}

static int sp_sep(char c)
{
	return c == '/' || c == '\\';
}

static int sp_drive(const char *s)
{
	return isalpha((unsigned char)s[0]) && s[1] == ':';
}

int etm_srcpath_add_map(struct etm_srcpath *sp, const char *from,
			const char *to)
{
	struct sp_rule *r;
	char *f, *t;

	if (!sp || !from || !*from || !to)
		return -etme_invalid;
	r = etm_grow(sp->rule, &sp->caprule, sp->nrule + 1, sizeof(*r), 4);
	if (!r)
		return -etme_nomem;
	sp->rule = r;
	f = strdup(from);
	t = strdup(to);
	if (!f || !t) {
		free(f);
		free(t);
		return -etme_nomem;
	}
	r[sp->nrule].from = f;
	r[sp->nrule].to = t;
	r[sp->nrule].icase = sp_drive(from);
	sp->nrule++;
	return 0;
}

int etm_srcpath_add_map_arg(struct etm_srcpath *sp, const char *arg)
{
	const char *eq = arg ? strchr(arg, '=') : NULL;
	char *from;
	int r;

	if (!sp || !arg)
		return -etme_invalid;
	if (!eq)
		return -etme_parse;
	from = strndup(arg, (size_t)(eq - arg));
	if (!from)
		return -etme_nomem;
	r = etm_srcpath_add_map(sp, from, eq + 1);
	free(from);
	return r;
}

int etm_srcpath_add_dir(struct etm_srcpath *sp, const char *dir)
{
	char **d;

	if (!sp || !dir || !*dir)
		return -etme_invalid;
	d = etm_grow(sp->dir, &sp->capdir, sp->ndir + 1, sizeof(*d), 4);
	if (!d)
		return -etme_nomem;
	sp->dir = d;
	d[sp->ndir] = strdup(dir);
	if (!d[sp->ndir])
		return -etme_nomem;
	sp->ndir++;
	return 0;
}

/* Where the rest of @path begins after directory @r->from, or NULL when
 * the rule does not match there. */
static const char *sp_match(const struct sp_rule *r, const char *path)
{
	const char *f = r->from, *p = path;

	for (; *f; f++, p++) {
		if (sp_sep(*f) && sp_sep(*p))
			continue;
		if (r->icase ? tolower((unsigned char)*f) != tolower((unsigned char)*p) :
			       *f != *p)
			return NULL;
	}
	return !*p || sp_sep(*p) || sp_sep(f[-1]) ? p : NULL;
}

static int sp_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* @a, a '/' unless @a is empty or ends in one and @b is not empty, @b -
 * with every '\' as '/' - into @out; 1 if it fits. */
static int sp_join(char *out, size_t n, const char *a, const char *b)
{
	size_t k = strlen(a), i;

	if (k + 1 + strlen(b) + 1 > n)
		return 0;
	memcpy(out, a, k);
	if (k && !sp_sep(a[k - 1]) && *b)
		out[k++] = '/';
	for (i = 0; b[i]; i++)
		out[k++] = b[i] == '\\' ? '/' : b[i];
	out[k] = 0;
	return 1;
}

/* @cand into @out (@n bytes) if it is a regular file; 1 if so. */
static int sp_take(const char *cand, char *out, size_t n)
{
	size_t k = strlen(cand);

	if (k >= n || !sp_file(cand))
		return 0;
	memcpy(out, cand, k + 1);
	return 1;
}

/* @name relative: no drive letter, leading separators, "." or ".."
 * components. */
static const char *sp_relative(const char *name)
{
	const char *p = sp_drive(name) ? name + 2 : name;

	for (;;) {
		while (sp_sep(*p))
			p++;
		if (p[0] == '.' && (sp_sep(p[1]) || !p[1]))
			p += 1;
		else if (p[0] == '.' && p[1] == '.' && (sp_sep(p[2]) || !p[2]))
			p += 2;
		else
			return p;
	}
}

/* Each directory: @name relative to it, then without its first directory,
 * ..., then its file name alone. */
static int sp_search(const struct etm_srcpath *sp, const char *name,
		     char *out, size_t n)
{
	static const size_t max = SP_MAX;
	char cand[SP_MAX];
	const char *rel = sp_relative(name), *t;
	size_t d;

	for (d = 0; sp && d < sp->ndir; d++) {
		for (t = rel; *(t = sp_relative(t));) {
			if (sp_join(cand, max, sp->dir[d], t) && sp_take(cand, out, n))
				return 0;
			while (*t && !sp_sep(*t))
				t++;
		}
	}
	return -etme_nomap;
}

int etm_srcpath_find(const struct etm_srcpath *sp, const char *path,
		     char *out, size_t n)
{
	char cand[SP_MAX];
	const char *rest = NULL;
	size_t i;

	if (!path || !out || !n)
		return -etme_invalid;
	for (i = 0; sp && i < sp->nrule && !rest; i++) {
		rest = sp_match(&sp->rule[i], path);
		if (rest) {
			while (sp_sep(*rest))
				rest++;
			if (!sp_join(cand, sizeof(cand), sp->rule[i].to, rest))
				return -etme_nomap;
			if (sp_take(cand, out, n))
				return 0;
			return sp_search(sp, cand, out, n);
		}
	}
	if (sp_take(path, out, n))
		return 0;
	if (strchr(path, '\\') && sp_join(cand, sizeof(cand), "", path) &&
	    sp_take(cand, out, n))
		return 0;
	return sp_search(sp, path, out, n);
}
