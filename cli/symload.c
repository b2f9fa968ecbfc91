/* cli/symload.c - gathers a session's symbols (--elf, --symbols, ELF files
 * named by the snapshot's memory dumps) and the snapshot's timestamp clock
 * (the DS-5 [timestamp] frequency of trace.ini, ../shared/docs/
 * snapshot-format.md §9). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/open.h>

#include "symload.h"

static int symload_snapshot(const struct session *s, struct etm_symbols *sy,
			    int *any)
{
	const struct etm_snapshot *snap = etm_capture_snapshot(s->cap);
	char err[512];
	size_t i, k;

	for (i = 0; snap && i < snap->nsources; i++) {
		const struct etm_snap_source *ss = &snap->sources[i];

		for (k = 0; k < ss->ndumps; k++) {
			const char *path = ss->dumps[k].path;
			int r;

			if (!etm_image_is_elf(path))
				continue;
			err[0] = 0;
			r = etm_symbols_add_elf(sy, path, 0, err, sizeof(err));
			if (r < 0) {
				fprintf(stderr, "etmtrace: %s\n", err);
				return 2;
			}
			*any = 1;
		}
	}
	return 0;
}

int symload_open(const struct session *s, struct etm_symbols **out)
{
	struct etm_symbols *sy = etm_symbols_alloc();
	char err[512];
	int i, r, any = 0;

	*out = NULL;
	if (!sy) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	for (i = 0; i < s->o->nelfs; i++, any = 1) {
		err[0] = 0;
		r = etm_symbols_add_elf(sy, s->o->elfs[i].path, s->o->elfs[i].addr,
					err, sizeof(err));
		if (r < 0)
			goto fail;
	}
	for (i = 0; i < s->o->nsymfiles; i++, any = 1) {
		err[0] = 0;
		r = etm_symbols_add_file(sy, s->o->symfiles[i], err, sizeof(err));
		if (r < 0)
			goto fail;
	}
	if (symload_snapshot(s, sy, &any)) {
		etm_symbols_free(sy);
		return 2;
	}
	if (any)
		*out = sy;
	else
		etm_symbols_free(sy);
	return 0;
fail:
	fprintf(stderr, "etmtrace: %s\n", etm_errmsg(r, err));
	etm_symbols_free(sy);
	return 2;
}

double symload_ts_hz(const struct session *s)
{
	const struct etm_snapshot *snap = etm_capture_snapshot(s->cap);
	char path[4096], line[512];
	int in_ts = 0;
	double hz = 0;
	FILE *f;

	if (!snap)
		return 0;
	snprintf(path, sizeof(path), "%s/trace.ini", snap->dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		if (*p == '[')
			in_ts = !strncmp(p, "[timestamp]", 11);
		else if (in_ts && !strncmp(p, "frequency", 9) &&
			 (p = strchr(p, '=')) != NULL)
			hz = strtod(p + 1, NULL);
	}
	fclose(f);
	return hz > 0 ? hz : 0;
}

int symload_srcpath(const struct opts *o, struct etm_srcpath **out)
{
	struct etm_srcpath *sp;
	int i, r = 0;

	*out = NULL;
	if (!o->nsource_maps && !o->nsource_dirs)
		return 0;
	sp = etm_srcpath_alloc();
	for (i = 0; sp && r == 0 && i < o->nsource_maps; i++)
		r = etm_srcpath_add_map_arg(sp, o->source_maps[i]);
	for (i = 0; sp && r == 0 && i < o->nsource_dirs; i++)
		r = etm_srcpath_add_dir(sp, o->source_dirs[i]);
	if (!sp || r < 0) {
		fprintf(stderr, "etmtrace %s: source paths: %s\n", o->cmd,
			etm_errstr(sp ? r : -etme_nomem));
		etm_srcpath_free(sp);
		return 2;
	}
	*out = sp;
	return 0;
}
