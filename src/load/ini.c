/* load/ini.c - bounded .ini parser used by the snapshot reader: one pass
 * over the text, entries kept in file order with their line numbers. */
#include "load/ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <unistd.h>

#include <etmtrace/error.h>

#include "common/file.h"
#include "common/strbuf.h"

void etm_ini_free(struct etm_ini *ini)
{
	if (!ini)
		return;
	free(ini->text);
	free(ini->sections);
	free(ini->section_line);
	free(ini->entries);
	free(ini->path);
	free(ini);
}

static char *ini_strndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

/* Trim [*s, *e) of surrounding whitespace. */
static void ini_trim(char **s, char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* New capacity for an array about to hold element @n, or 0 if it still
 * has room: capacities 16, 32, 64, ... so that growing stays linear. */
static size_t ini_grow(size_t n)
{
	if (n == 0)
		return 16;
	return n >= 16 && !(n & (n - 1)) ? 2 * n : 0;
}

/* Section @s (NUL-terminated in the text copy). */
static int ini_add_section(struct etm_ini *ini, char *s, unsigned line)
{
	size_t cap = ini_grow(ini->nsections);
	unsigned *l = ini->section_line;
	char **p = ini->sections;

	if (cap) {
		l = realloc(ini->section_line, cap * sizeof(*l));
		if (!l)
			return -etme_nomem;
		ini->section_line = l;
		p = realloc(ini->sections, cap * sizeof(*p));
		if (!p)
			return -etme_nomem;
		ini->sections = p;
	}
	l[ini->nsections] = line;
	p[ini->nsections++] = s;
	return 0;
}

/* Entry @k = @v (both NUL-terminated in the text copy). */
static int ini_add_entry(struct etm_ini *ini, char *k, char *v, unsigned line)
{
	struct etm_ini_entry *e;

	if (ini_grow(ini->nentries)) {
		e = realloc(ini->entries,
			    ini_grow(ini->nentries) * sizeof(*ini->entries));
		if (!e)
			return -etme_nomem;
		ini->entries = e;
	}
	e = &ini->entries[ini->nentries];
	e->section = ini->nsections - 1;
	e->line = line;
	e->key = k;
	e->value = v;
	ini->nentries++;
	return 0;
}

/* Parse one line [s, e) (no newline) of the text copy: names and values
 * are cut in place with NULs. */
static int ini_line(struct etm_ini *ini, const char *name, unsigned line,
		    char *s, char *e, char *err, size_t errlen)
{
	char *eq, *ke, *vs;

	ini_trim(&s, &e);
	if (s == e || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		char *ns = s + 1, *ne = e - 1;

		if (e[-1] != ']' || e - s < 2)
			return etm_err_msg(err, errlen, -etme_parse,
					   "%s:%u: unterminated section header",
					   name, line);
		ini_trim(&ns, &ne);
		if (ns == ne)
			return etm_err_msg(err, errlen, -etme_parse,
					   "%s:%u: empty section name", name, line);
		*ne = 0;
		return ini_add_section(ini, ns, line);
	}
	eq = memchr(s, '=', (size_t)(e - s));
	if (!eq)
		return etm_err_msg(err, errlen, -etme_parse,
				   "%s:%u: expected key=value or [section]", name,
				   line);
	ke = eq;
	vs = eq + 1;
	ini_trim(&s, &ke);
	ini_trim(&vs, &e);
	if (s == ke)
		return etm_err_msg(err, errlen, -etme_parse, "%s:%u: empty key",
				   name, line);
	*ke = 0;
	*e = 0;
	return ini_add_entry(ini, s, vs, line);
}

static int ini_parse_text(struct etm_ini *ini, const char *name,
			  char *text, size_t len, char *err, size_t errlen)
{
	char *p = text, *end = text + len;
	unsigned line = 0;
	int rc;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3; /* UTF-8 BOM */
	if (memchr(text, 0, len))
		return etm_err_msg(err, errlen, -etme_parse,
				   "%s: binary data (NUL byte), not an ini file",
				   name);
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end;

		line++;
		if (le - p > ETM_INI_MAX_LINE)
			return etm_err_msg(err, errlen, -etme_parse,
					   "%s:%u: line longer than %d bytes", name,
					   line, ETM_INI_MAX_LINE);
		rc = ini_line(ini, name, line, p, le, err, errlen);
		if (rc < 0)
			return rc;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

int etm_ini_parse(struct etm_ini **out, const char *name, const char *text,
		  size_t len, char *err, size_t errlen)
{
	struct etm_ini *ini;
	int rc;

	if (!out || (!text && len))
		return -etme_invalid;
	*out = NULL;
	if (!name)
		name = "<ini>";
	if (len > ETM_INI_MAX_SIZE)
		return etm_err_msg(err, errlen, -etme_parse,
				   "%s: file larger than %u bytes", name,
				   ETM_INI_MAX_SIZE);
	ini = calloc(1, sizeof(*ini));
	if (!ini)
		return -etme_nomem;
	ini->path = ini_strndup(name, strlen(name));
	/* one copy of the text holds every name and value */
	ini->text = malloc(len + 1);
	rc = ini->path && ini->text ? 0 : -etme_nomem;
	if (!rc) {
		if (len)
			memcpy(ini->text, text, len);
		ini->text[len] = 0;
		rc = ini_add_section(ini, ini->text + len, 0);
	}
	if (!rc)
		rc = ini_parse_text(ini, name, ini->text, len, err, errlen);
	if (rc < 0) {
		if (rc == -etme_nomem)
			etm_err_msg(err, errlen, rc, "%s: out of memory", name);
		etm_ini_free(ini);
		return rc;
	}
	ini->size = len;
	*out = ini;
	return 0;
}

/* Read the whole of @f, at most ETM_INI_MAX_SIZE + 1 bytes (one more than
 * allowed, so that oversize input is detected without trusting st_size). */
static int ini_slurp(FILE *f, char **out, size_t *n)
{
	size_t cap = 0, len = 0, got;
	char *buf = NULL, *p;

	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 16384;
			if (cap > ETM_INI_MAX_SIZE + 1)
				cap = ETM_INI_MAX_SIZE + 1;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				return -etme_nomem;
			}
			buf = p;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got && len <= ETM_INI_MAX_SIZE);
	if (ferror(f)) {
		free(buf);
		return -etme_io;
	}
	*out = buf;
	*n = len;
	return 0;
}

int etm_ini_load(struct etm_ini **out, const char *path, char *err,
		 size_t errlen)
{
	struct stat st;
	FILE *f;
	char *buf;
	size_t n;
	int fd, rc;

	if (!out || !path)
		return -etme_invalid;
	*out = NULL;
	fd = etm_open_regular(path, &st);
	if (fd == -2)
		return etm_err_msg(err, errlen, -etme_io, "%s: not a regular file",
				   path);
	f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		rc = errno;
		if (fd >= 0)
			close(fd);
		return etm_err_msg(err, errlen, -etme_io, "%s: %s", path,
				   strerror(rc));
	}
	rc = ini_slurp(f, &buf, &n);
	fclose(f);
	if (rc < 0)
		return etm_err_msg(err, errlen, rc, "%s: %s", path,
				   rc == -etme_io ? "read error" : "out of memory");
	rc = etm_ini_parse(out, path, buf, n, err, errlen);
	free(buf);
	return rc;
}

long etm_ini_section(const struct etm_ini *ini, const char *name)
{
	size_t i;

	for (i = 0; ini && i < ini->nsections; i++)
		if (!strcasecmp(ini->sections[i], name))
			return (long)i;
	return -1;
}

const char *etm_ini_get(const struct etm_ini *ini, const char *section,
			const char *key, unsigned *line)
{
	size_t i;

	for (i = 0; ini && i < ini->nentries; i++) {
		const struct etm_ini_entry *e = &ini->entries[i];

		if (strcasecmp(ini->sections[e->section], section) ||
		    strcasecmp(e->key, key))
			continue;
		if (line)
			*line = e->line;
		return e->value;
	}
	return NULL;
}

const char *etm_ini_get_in(const struct etm_ini *ini, size_t sec,
			   const char *key, unsigned *line)
{
	size_t lo = 0, hi = ini ? ini->nentries : 0, mid;

	/* entries are appended in file order: their sections never decrease */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ini->entries[mid].section < sec)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; ini && lo < ini->nentries && ini->entries[lo].section == sec;
	     lo++) {
		if (strcasecmp(ini->entries[lo].key, key))
			continue;
		if (line)
			*line = ini->entries[lo].line;
		return ini->entries[lo].value;
	}
	return NULL;
}

int etm_ini_u64(const char *s, unsigned long long *v)
{
	char *end;
	int base = 10;

	if (!s || !v)
		return -etme_parse;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s) ||
	    (base == 10 && !isdigit((unsigned char)*s)))
		return -etme_parse;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (errno || *end)
		return -etme_parse;
	return 0;
}
