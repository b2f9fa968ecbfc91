/* tests/fuzz/fuzz-ini.c - fuzz target for the snapshot readers: mode 0
 * parses the input as one .ini text; mode 1 splits it at NUL bytes into the
 * files of a snapshot directory and loads it with its memory dumps. */
#include <stdio.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/snapshot.h>

#include "fuzz.h"
#include "fuzz-snapdir.h"
#include "load/ini.h"

static void ini_mode(const uint8_t *p, size_t n)
{
	struct etm_ini *ini = NULL;
	unsigned long long v;
	char err[128];
	unsigned line;
	size_t i;
	int rc;

	rc = etm_ini_parse(&ini, "fuzz.ini", (const char *)p, n, err,
			   sizeof(err));
	if (rc < 0) {
		FZ_ASSERT(!ini && (rc == -etme_parse || rc == -etme_nomem));
		FZ_ASSERT(strlen(err) < sizeof(err));
		return;
	}
	FZ_ASSERT(ini);
	for (i = 0; i < ini->nentries; i++) {
		const struct etm_ini_entry *e = &ini->entries[i];

		FZ_ASSERT(e->section < ini->nsections);
		FZ_ASSERT(etm_ini_section(ini, ini->sections[e->section]) >= 0);
		FZ_ASSERT(etm_ini_get(ini, ini->sections[e->section], e->key,
				      &line));
		FZ_ASSERT(line <= e->line);
		etm_ini_u64(e->value, &v);
	}
	etm_ini_free(ini);
}

static void use_snapshot(const struct etm_snapshot *s)
{
	struct etm_image *img = etm_image_alloc();
	char err[128];
	size_t i;

	FZ_ASSERT(img);
	for (i = 0; i < s->nsources; i++) {
		const struct etm_snap_source *src = &s->sources[i];

		FZ_ASSERT(src->name);
		FZ_ASSERT(etm_snapshot_find(s, etm_cfg_trace_id(&src->cfg)));
		etm_snapshot_add_memory(src, img, err, sizeof(err));
		etm_config_check(&src->cfg, NULL);
	}
	for (i = 0; i < s->nbuffers; i++)
		FZ_ASSERT(s->buffers[i].name && s->buffers[i].nfiles);
	etm_image_free(img);
}

static void snap_mode(const uint8_t *p, size_t n)
{
	const char *dir = fz_snapshot(p, n);
	struct etm_snapshot *s = NULL;
	char err[256];
	int rc;

	rc = etm_snapshot_load(&s, dir, err, sizeof(err));
	if (rc < 0) {
		FZ_ASSERT(rc == -etme_io || rc == -etme_parse ||
			  rc == -etme_nomem);
		FZ_ASSERT(strlen(err) < sizeof(err));
		etm_snapshot_free(s);
		return;
	}
	FZ_ASSERT(s);
	use_snapshot(s);
	etm_snapshot_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };

	if (fz_u8(&in) & 1)
		snap_mode(in.p, in.n);
	else
		ini_mode(in.p, in.n);
	return 0;
}
