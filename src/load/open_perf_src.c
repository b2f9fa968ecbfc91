/* load/open_perf_src.c - the sources and program images of a perf.data
 * capture: a source per CPU of the cs_etm metadata (trace ID from the
 * metadata, or from the CPU's AUX_OUTPUT_HW_ID record in header version
 * 2), and per process an image of its executable mappings, each the bytes
 * of the mapped file at the mapping's file offset, as the kernel mapped
 * them. The file is looked up by build id in --buildid-dir, under
 * --symfs, at its recorded path, and beside the perf.data file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/error.h>

#include "common/file.h"
#include "load/open_perf_int.h"

static int pf_exists(const char *p)
{
	char why[128];

	return etm_file_problem(p, 0, why, sizeof(why)) == 0;
}

/* The build id of mapping @m: its own, or the build id feature's. */
static size_t pf_bid(const struct pf *pf, const struct pf_map *m,
		     const uint8_t **id)
{
	const char *name;
	size_t i, n;

	if (m->bidlen) {
		*id = m->bid;
		return m->bidlen;
	}
	for (i = 0; etm_perf_build_id(pf->p, i, &name, id, &n) == 0; i++)
		if (!strcmp(name, m->path))
			return n;
	return 0;
}

/* The file of mapping @m into @out; 0, or -1 if none is found. */
static int pf_find(struct cap_ctx *c, const struct pf *pf,
		   const struct pf_map *m, char *out, size_t n)
{
	const char *dir = c->o.buildid_dir, *base, *slash;
	const uint8_t *id;
	size_t k, len = pf_bid(pf, m, &id);
	char hex[41];

	for (k = 0; k < len; k++)
		snprintf(hex + 2 * k, 3, "%02x", id[k]);
	if (dir && len > 1) {
		snprintf(out, n, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
		if (pf_exists(out))
			return 0;
		snprintf(out, n, "%s/.build-id/%.2s/%s/elf", dir, hex, hex + 2);
		if (pf_exists(out))
			return 0;
	}
	if (c->o.symfs) {
		snprintf(out, n, "%s/%s", c->o.symfs, m->path);
		if (pf_exists(out))
			return 0;
	}
	snprintf(out, n, "%s", m->path);
	if (pf_exists(out))
		return 0;
	base = strrchr(m->path, '/');
	base = base ? base + 1 : m->path;
	slash = strrchr(c->cap->path, '/');
	snprintf(out, n, "%.*s%s", slash ? (int)(slash - c->cap->path + 1) : 0,
		 c->cap->path, base);
	return pf_exists(out) ? 0 : -1;
}

/* Mapping @m into @img: the file's bytes from its offset. */
static int pf_add_map(struct cap_ctx *c, const struct pf *pf,
		      const struct pf_map *m, struct etm_image *img)
{
	char path[4200];
	struct stat st;
	uint64_t len = m->len;
	int r;

	if (pf_find(c, pf, m, path, sizeof(path)) < 0)
		return cap_note(c->cap, "no image for pid %u at %#llx: %s not "
					"found (give --symfs DIR or --buildid-dir "
					"DIR)",
				m->pid, (unsigned long long)m->addr, m->path);
	if (stat(path, &st) != 0 || (uint64_t)st.st_size <= m->pgoff)
		return cap_note(c->cap, "no image for pid %u at %#llx: %s is "
					"shorter than the mapping's offset %#llx",
				m->pid, (unsigned long long)m->addr, path,
				(unsigned long long)m->pgoff);
	if (len > (uint64_t)st.st_size - m->pgoff)
		len = (uint64_t)st.st_size - m->pgoff;
	r = etm_image_add_file(img, etm_space_any, m->addr, path, m->pgoff, len);
	if (r < 0)
		return cap_err(c, r, "%s: mapping at %#llx: %s", path,
			       (unsigned long long)m->addr, etm_errstr(r));
	etm_image_name_last(img, path);
	return 0;
}

/* The image of process @pid in generation @gen (made once). */
int pf_image(struct cap_ctx *c, struct pf *pf, uint32_t pid, size_t gen,
	     const struct etm_image **out)
{
	struct pf_lineage l;
	struct pf_img *t;
	struct etm_image *img;
	size_t k, used = 0;
	int r = 0;

	for (k = 0; k < pf->npimg; k++)
		if (pf->pimg[k].pid == pid && pf->pimg[k].gen == gen) {
			*out = pf->pimg[k].img;
			return 0;
		}
	img = cap_new_image(c->cap);
	t = realloc(pf->pimg, (pf->npimg + 1) * sizeof(*t));
	if (!img || !t)
		return cap_err(c, -etme_nomem, "out of memory");
	pf->pimg = t;
	pf_lineage(pf, pid, gen, &l);
	for (k = 0; k < pf->nmaps && r >= 0; k++)
		if (pf_map_in(pf, &pf->maps[k], &l)) {
			r = pf_add_map(c, pf, &pf->maps[k], img);
			used++;
		}
	if (r >= 0)
		r = cap_user_images(c, img);
	if (r >= 0 && !used && !(c->o.flags & ETM_OPEN_NO_IMAGES))
		r = cap_note(c->cap, "no image for %s%u: no executable mapping "
				     "recorded%s",
			     pid == PF_NO_PID ? "an unknown process, pid " : "pid ",
			     pid, c->o.nelfs || c->o.nimages ? " (the --elf/--image "
							       "files are used)" :
							       "");
	if (r < 0)
		return r;
	pf->pimg[pf->npimg].pid = pid;
	pf->pimg[pf->npimg].gen = gen;
	pf->pimg[pf->npimg++].img = img;
	*out = img;
	return 0;
}

/* Source of metadata CPU @i in buffer @bi (configured, not wired). */
static struct etm_capture_source *pf_source(struct cap_ctx *c, struct pf *pf,
					    size_t i, size_t bi)
{
	const struct etm_perf_cpu *m = &etm_perf_info(pf->p)->cpus[i];
	struct etm_capture_source *s = cap_add_source(c->cap);
	char name[32];

	if (!s)
		return NULL;
	snprintf(name, sizeof(name), "cpu%u", m->cpu);
	s->name = cap_strdup(c->cap, name);
	s->type = m->unsupported                   ? "ETMv4/ETE" :
		  m->cfg.protocol == etm_proto_ptm ? "PTM" :
						     "ETMv3";
	s->cfg = m->cfg;
	s->cfg.traceid = pf->ids[i];
	s->id = pf->ids[i];
	s->buffer = bi;
	s->how = ETM_HOW_SNAPSHOT;
	if (m->unsupported) {
		s->cfg.protocol = etm_proto_unknown;
		s->skip = m->unsupported;
	} else if (!s->id) {
		s->skip = "no trace ID recorded for its CPU (no AUX_OUTPUT_HW_ID "
			  "record)";
	} else if (!cap_selected(c, s->id)) {
		s->skip = "not selected";
	} else if (cap_override(c, &s->cfg)) {
		s->how |= ETM_HOW_OPTIONS;
	}
	return s->name ? s : NULL;
}

int pf_sources(struct cap_ctx *c, struct pf *pf, const struct pf_who *w,
	       size_t bi, uint32_t cpu)
{
	const struct etm_perf_info *in = etm_perf_info(pf->p);
	int raw = c->cap->buf[bi].format == etm_fmt_raw;
	const struct etm_image *img = NULL;
	const char *why = NULL;
	size_t i;
	int r;

	for (i = 0; i < in->ncpus; i++) {
		struct etm_capture_source *s;

		if (raw && cpu != in->cpus[i].cpu &&
		    !(cpu == ETM_PERF_NO_CPU && in->ncpus == 1))
			continue;
		if (in->cpus[i].unsupported && bi)
			continue; /* listed once */
		s = pf_source(c, pf, i, bi);
		if (!s)
			return cap_err(c, -etme_nomem, "out of memory");
		if (s->skip)
			continue;
		if (!img && !(c->o.flags & ETM_OPEN_NO_IMAGES)) {
			r = pf_image(c, pf, w->pid, pf_gen(pf, w->pid, w->ord), &img);
			if (r < 0)
				return r;
			s = &c->cap->src[c->cap->nsrc - 1];
		}
		s->img = img;
		if (etm_config_check(&s->cfg, &why) < 0)
			return cap_err(c, -etme_bad_config, "trace ID 0x%02x (%s): %s",
				       s->id, s->name, why);
	}
	return 0; /* wired when read: etm_capture_load() */
}

int pf_unsupported(struct cap_ctx *c, struct pf *pf)
{
	const struct etm_perf_info *in = etm_perf_info(pf->p);
	struct etm_capture_buffer *b = cap_add_buffer(c->cap);
	size_t i;

	if (!b)
		return cap_err(c, -etme_nomem, "out of memory");
	b->name = "no AUX trace";
	b->format = etm_fmt_coresight;
	for (i = 0; i < in->ncpus; i++) {
		struct etm_capture_source *s = pf_source(c, pf, i, 0);

		if (!s)
			return cap_err(c, -etme_nomem, "out of memory");
		if (!s->skip)
			s->skip = "no AUX trace data in the file";
	}
	return cap_note(c->cap, "%s: no AUXTRACE record: the file holds no trace",
			c->cap->path);
}
