/* load/ini.h - minimal bounded .ini reader for snapshot files: sections,
 * key=value, ';' / '#' comment lines; errors name the file and line. */
#ifndef ETM_LOAD_INI_H
#define ETM_LOAD_INI_H

#include <stddef.h>

/* Bounds: longer lines or bigger files are rejected with -etme_parse. */
#define ETM_INI_MAX_LINE 4096
#define ETM_INI_MAX_SIZE (4u << 20)

struct etm_ini_entry {
	size_t section; /* index into etm_ini.sections */
	char *key;      /* trimmed, as written */
	char *value;    /* trimmed */
	unsigned line;
};

struct etm_ini {
	char *path;
	char *text;             /* copy of the text: every name and value points here */
	char **sections;        /* section names in file order ("" = before any) */
	unsigned *section_line; /* line of each section header (0 for "") */
	size_t nsections;
	struct etm_ini_entry *entries; /* in file order, so by section */
	size_t nentries;
	size_t size; /* bytes of text parsed */
};

/* Parse @len bytes of @text; @name is used in error messages.
 * Returns 0 with *@ini set, -etme_parse (message in @err), -etme_nomem. */
int etm_ini_parse(struct etm_ini **ini, const char *name, const char *text,
		  size_t len, char *err, size_t errlen);
/* Read and parse file @path.
 * Returns 0, -etme_io (cannot read), -etme_parse, -etme_nomem. */
int etm_ini_load(struct etm_ini **ini, const char *path, char *err,
		 size_t errlen);
void etm_ini_free(struct etm_ini *ini);

/* Index of section @name (case-insensitive), or -1. */
long etm_ini_section(const struct etm_ini *ini, const char *name);
/* Value of @key in @section (both case-insensitive, first match), or NULL.
 * With @line non-NULL the entry's line number is stored there. */
const char *etm_ini_get(const struct etm_ini *ini, const char *section,
			const char *key, unsigned *line);

/* Value of @key (case-insensitive, first match) in the section with index
 * @sec only, or NULL: O(log entries + entries of the section). */
const char *etm_ini_get_in(const struct etm_ini *ini, size_t sec,
			   const char *key, unsigned *line);

/* Parse an unsigned number: "0x" hex or decimal, whole string.
 * Returns 0, or -etme_parse. */
int etm_ini_u64(const char *s, unsigned long long *v);

#endif
