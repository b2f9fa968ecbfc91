#define _XOPEN_SOURCE 700 /* realpath() */
/* cli/perfconv.c - a CoreSight snapshot as a perf.data file (`etmtrace
 * convert SNAPSHOT --perf-data OUT`, `etmtrace synth DIR --perf-data`):
 * each ETMv3/PTM source becomes a CPU of the cs_etm metadata and a
 * process (pid 1000 + CPU) whose memory is an ELF file written beside OUT
 * (cpuN.elf, its dumps as PT_LOAD segments, mapped by MMAP2 records); the
 * trace of each source, taken out of the snapshot's buffers, becomes that
 * CPU's (or that thread's) AUX trace: 16-byte frames of its ID alone, or
 * raw. doc/perfdata.md says how the file is laid out. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/error.h>
#include <etmtrace/perfdata.h>
#include <etmtrace/snapshot.h>

#include "perfconv.h"

#define PC_MAX_CPUS 8
#define PC_MAX_SEGS 64

struct pc_stream {
	uint8_t *b;
	size_t n, cap;
};

static int pc_append(struct pc_stream *s, const uint8_t *b, size_t n)
{
	if (s->n + n > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;
		uint8_t *t;

		while (cap < s->n + n)
			cap *= 2;
		t = realloc(s->b, cap);
		if (!t)
			return -1;
		s->b = t;
		s->cap = cap;
	}
	memcpy(s->b + s->n, b, n);
	s->n += n;
	return 0;
}

static uint8_t *pc_slurp(const char *path, uint64_t off, uint64_t len, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long size;

	*n = 0;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
	    (uint64_t)size >= off) {
		if (!len || len > (uint64_t)size - off)
			len = (uint64_t)size - off;
		b = malloc(len ? (size_t)len : 1);
		if (b && (fseek(f, (long)off, SEEK_SET) != 0 ||
			  fread(b, 1, (size_t)len, f) != len)) {
			free(b);
			b = NULL;
		}
		*n = (size_t)len;
	}
	fclose(f);
	return b;
}

/* The bytes of each source (by index in @snap) out of buffer @buf. */
static int pc_split(const struct etm_snapshot *snap,
		    const struct etm_snap_buffer *buf, struct pc_stream *st)
{
	struct etm_dfmt_item it;
	struct etm_dfmt *d;
	size_t f, n, k;
	int r = 0;

	for (f = 0; f < buf->nfiles && !r; f++) {
		uint8_t *b = pc_slurp(buf->files[f], 0, 0, &n);

		if (!b)
			return -1;
		if (buf->format != etm_fmt_coresight) { /* one source's bytes */
			for (k = 0; k < snap->nsources; k++)
				if (snap->sources[k].buffer &&
				    !strcmp(snap->sources[k].buffer, buf->name))
					break;
			r = k < snap->nsources ? pc_append(&st[k], b, n) : 0;
			free(b);
			continue;
		}
		d = etm_dfmt_alloc(etm_fmt_coresight, 0);
		if (!d || etm_dfmt_push(d, b, n) < 0)
			r = -1;
		for (int fin = 0; !r;) {
			int e = etm_dfmt_next(d, &it, sizeof(it));

			if (e == -etme_again && !fin) {
				etm_dfmt_finish(d);
				fin = 1;
				continue;
			}
			if (e < 0)
				break;
			if (it.kind != etm_dfmt_data)
				continue;
			for (k = 0; k < snap->nsources; k++)
				if (etm_cfg_trace_id(&snap->sources[k].cfg) == it.run.id)
					r = pc_append(&st[k], it.run.data, it.run.size);
		}
		etm_dfmt_free(d);
		free(b);
	}
	return r;
}

/* cpuK.elf beside @out from source @s's dumps; its MMAP2 records. */
static int pc_elf(const struct perfconv *pc, const char *dir, int k,
		  const struct etm_snap_source *s, struct etm_perfw_map *maps,
		  size_t *nmaps, char *path, size_t pathlen)
{
	struct etm_elfw_seg segs[PC_MAX_SEGS];
	size_t i, n = s->ndumps < PC_MAX_SEGS ? s->ndumps : PC_MAX_SEGS;
	int r;

	snprintf(path, pathlen, "%s/cpu%d.elf", dir, k);
	for (i = 0; i < n; i++) {
		segs[i].addr = s->dumps[i].addr;
		segs[i].data = pc_slurp(s->dumps[i].path, s->dumps[i].offset,
					s->dumps[i].length, &segs[i].n);
		if (!segs[i].data)
			segs[i].n = 0;
	}
	r = etm_elf_write(path, segs, n);
	for (i = 0; i < n; i++) {
		struct etm_perfw_map *m = &maps[(*nmaps)++];
		uint64_t page = segs[i].addr & ~(uint64_t)0xfff;

		m->pid = m->tid = 1000u + (unsigned)k;
		m->addr = page;
		m->len = segs[i].addr - page + segs[i].n;
		m->pgoff = segs[i].offset - (segs[i].addr - page);
		m->path = path;
		for (size_t j = 0; j < pc->npids; j++) { /* --map-pids */
			struct etm_perfw_map *o = j ? &maps[(*nmaps)++] : m;

			*o = *m;
			o->pid = o->tid = pc->pids[j];
		}
		free((void *)segs[i].data);
	}
	return r;
}

static int pc_write(const struct perfconv *pc, const struct etm_snapshot *snap,
		    struct pc_stream *st, const size_t *sel, size_t n,
		    char (*paths)[PATH_MAX + 16])
{
	static struct etm_perfw_map maps[PC_MAX_CPUS * PC_MAX_SEGS *
					 (1 + PERFCONV_MAX_PIDS)];
	struct etm_perfw_buf bufs[PC_MAX_CPUS];
	struct etm_config cfgs[PC_MAX_CPUS];
	struct etm_fenc *fe[PC_MAX_CPUS] = { NULL };
	struct etm_perfw_opts o = { .size = sizeof(o) };
	size_t nmaps = 0, k;
	char err[512], dir[PATH_MAX], abs[PATH_MAX], *slash;
	int r = 0;

	snprintf(dir, sizeof(dir), "%s", pc->out);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	if (!realpath(dir, abs)) {
		fprintf(stderr, "etmtrace: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (k = 0; k < n && !r; k++) {
		cfgs[k] = snap->sources[sel[k]].cfg;
		r = pc_elf(pc, abs, (int)k, &snap->sources[sel[k]], maps, &nmaps, paths[k],
			   sizeof(paths[k]));
		bufs[k] = (struct etm_perfw_buf){ .cpu = pc->cpu_wide ? 0 : (uint32_t)k,
						  .pid = 1000u + (unsigned)k,
						  .tid = 1000u + (unsigned)k,
						  .data = st[sel[k]].b,
						  .n = st[sel[k]].n,
						  .raw = pc->raw };
		if (pc->raw)
			continue;
		fe[k] = etm_fenc_alloc(0, 1);
		if (!fe[k] || etm_fenc_put(fe[k], etm_cfg_trace_id(&cfgs[k]), st[sel[k]].b, st[sel[k]].n) < 0 ||
		    etm_fenc_finish(fe[k]) < 0)
			r = -1;
		else
			bufs[k].data = etm_fenc_data(fe[k], &bufs[k].n);
	}
	o.version = pc->version;
	o.per_thread = pc->per_thread;
	o.big_endian = pc->big_endian;
	o.cpu_wide = pc->cpu_wide;
	if (!r)
		r = etm_perf_write(pc->out, &o, cfgs, n, maps, nmaps, bufs, n, err,
				   sizeof(err));
	if (r < 0)
		fprintf(stderr, "etmtrace: writing %s: %s\n", pc->out,
			r == -1 ? "cannot write the ELF files or frames" : err);
	for (k = 0; k < n; k++)
		etm_fenc_free(fe[k]);
	return r < 0 ? -1 : 0;
}

int perfconv_run(const struct perfconv *pc)
{
	struct etm_snapshot *snap = NULL;
	struct pc_stream st[PC_MAX_CPUS];
	static char paths[PC_MAX_CPUS][PATH_MAX + 16];
	char err[512];
	size_t k, sel[PC_MAX_CPUS], n = 0;
	int r;

	memset(st, 0, sizeof(st));
	r = etm_snapshot_load(&snap, pc->snapshot, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s\n", err);
		return 2;
	}
	for (k = 0; k < snap->nsources && k < PC_MAX_CPUS; k++) {
		if (pc->id && etm_cfg_trace_id(&snap->sources[k].cfg) != pc->id)
			continue;
		if (snap->sources[k].cfg.protocol != etm_proto_etmv3 &&
		    snap->sources[k].cfg.protocol != etm_proto_ptm)
			r = -1;
		sel[n++] = k;
	}
	if (r < 0 || snap->nsources > PC_MAX_CPUS || !n) {
		fprintf(stderr, "etmtrace: %s: a perf.data file holds 1-%d ETMv3/PTM "
				"sources (this snapshot has %zu%s, or another "
				"protocol)\n",
			pc->snapshot, PC_MAX_CPUS, snap->nsources,
			pc->id ? ", none with that trace ID" : "");
		etm_snapshot_free(snap);
		return 2;
	}
	if (pc->cpu_wide && (pc->raw || pc->per_thread || pc->version >= 2)) {
		fprintf(stderr, "etmtrace: --cpu-wide writes 16-byte frames of "
				"CPU 0 with header version 0 or 1\n");
		etm_snapshot_free(snap);
		return 2;
	}
	for (k = 0; k < snap->nbuffers && !r; k++)
		r = pc_split(snap, &snap->buffers[k], st);
	if (r < 0)
		fprintf(stderr, "etmtrace: %s: cannot read its trace\n", pc->snapshot);
	else
		r = pc_write(pc, snap, st, sel, n, paths);
	for (k = 0; k < PC_MAX_CPUS; k++)
		free(st[k].b);
	etm_snapshot_free(snap);
	return r < 0 ? 2 : 0;
}
