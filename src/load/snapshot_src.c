/* load/snapshot_src.c - what a loaded snapshot gives (etmtrace/snapshot.h):
 * the source of a trace ID, a source's memory dumps added to a program
 * image, and freeing it. Reading the directory is snapshot.c. */
#include <stdio.h>
#include <stdlib.h>

#include <etmtrace/error.h>
#include <etmtrace/snapshot.h>

void etm_snapshot_free(struct etm_snapshot *snap)
{
	size_t i, k;

	if (!snap)
		return;
	for (i = 0; i < snap->nsources + snap->nothers; i++) {
		struct etm_snap_source *s = i < snap->nsources ?
						    &snap->sources[i] :
						    &snap->others[i - snap->nsources];

		for (k = 0; k < s->ndumps; k++)
			free(s->dumps[k].path);
		free(s->dumps);
		free(s->name);
		free(s->core);
		free(s->core_type);
		free(s->buffer);
		free(s->type);
	}
	for (i = 0; i < snap->nbuffers; i++) {
		for (k = 0; k < snap->buffers[i].nfiles; k++)
			free(snap->buffers[i].files[k]);
		free(snap->buffers[i].files);
		free(snap->buffers[i].name);
	}
	free(snap->sources);
	free(snap->others);
	free(snap->buffers);
	free(snap->dir);
	free(snap);
}

const struct etm_snap_source *etm_snapshot_find(const struct etm_snapshot *snap,
						unsigned id)
{
	size_t i;

	for (i = 0; snap && i < snap->nsources; i++)
		if (etm_cfg_trace_id(&snap->sources[i].cfg) == id)
			return &snap->sources[i];
	return NULL;
}

int etm_snapshot_add_memory(const struct etm_snap_source *src,
			    struct etm_image *img, char *errbuf, size_t errlen)
{
	size_t i;
	int rc;

	if (!src || !img)
		return -etme_invalid;
	for (i = 0; i < src->ndumps; i++) {
		const struct etm_snap_dump *d = &src->dumps[i];

		/* a dump that names an ELF file: its executable segments at
		 * their own addresses (doc/profile.md) */
		if (etm_image_is_elf(d->path)) {
			rc = etm_image_add_elf(img, d->path, 0, errbuf, errlen);
			if (rc < 0)
				return rc;
			continue;
		}
		rc = etm_image_add_file(img, d->space, d->addr, d->path,
					d->offset, d->length);
		if (rc < 0) {
			if (errbuf && errlen)
				snprintf(errbuf, errlen,
					 "%s: cannot load dump at 0x%llx: %s",
					 d->path, (unsigned long long)d->addr,
					 rc == -etme_invalid ?
						 "it does not fit in the 32-bit address space" :
						 etm_errstr(rc));
			return rc;
		}
		etm_image_name_last(img, d->path);
	}
	return 0;
}
