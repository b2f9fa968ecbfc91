/* load/perfwr.c - perf.data writer (etm_perf_write(), etmtrace/perfdata.h)
 * and the ELF files holding the memory it maps (etm_elf_write()). The
 * records are written as `perf record -e cs_etm//` does (doc/perfdata.md):
 * AUXTRACE_INFO first, COMM and MMAP2 sideband, then per trace buffer an
 * ITRACE_START, an AUX_OUTPUT_HW_ID (header version 2), the AUX record and
 * the AUXTRACE record followed by its data padded to 8 bytes. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/perfdata.h>

#define W_HDR 104u
#define W_ATTR 128u                                             /* perf_event_attr (PERF_ATTR_SIZE_VER7) */
#define W_DATA 256u                                             /* data section offset */
#define W_SAMPLE_TYPE (1u | (1u << 1) | (1u << 7) | (1u << 16)) /* IP TID CPU IDENTIFIER */
#define W_FEAT_AUXTRACE 18u

struct pw {
	FILE *f;
	uint64_t *idx; /* AUXTRACE records: offset, size */
	size_t nidx;
	int be;
	uint8_t rec[65536];
	size_t n;
	int err;
};

static void pw_put(struct pw *w, uint64_t v, int size)
{
	int i;

	if (w->n + (size_t)size > sizeof(w->rec)) {
		w->err = 1;
		return;
	}
	for (i = 0; i < size; i++)
		w->rec[w->n + (size_t)i] =
			(uint8_t)(v >> (8 * (w->be ? size - 1 - i : i)));
	w->n += (size_t)size;
}

static void pw_str(struct pw *w, const char *s)
{
	size_t k = strlen(s) + 1, pad = (8 - (w->n + k) % 8) % 8;

	if (w->n + k + pad > sizeof(w->rec)) {
		w->err = 1;
		return;
	}
	memcpy(w->rec + w->n, s, k);
	memset(w->rec + w->n + k, 0, pad);
	w->n += k + pad;
}

static void pw_begin(struct pw *w, uint32_t type, uint16_t misc)
{
	w->n = 0;
	pw_put(w, type, 4);
	pw_put(w, misc, 2);
	pw_put(w, 0, 2); /* size, set by pw_end() */
}

/* The sample id (TID, CPU) and the record out. */
static void pw_end(struct pw *w, int sid, uint32_t pid, uint32_t tid,
		   uint32_t cpu)
{
	size_t n;

	if (sid) {
		pw_put(w, pid, 4);
		pw_put(w, tid, 4);
		pw_put(w, cpu, 4);
		pw_put(w, 0, 4);
		pw_put(w, 1, 8); /* the attr's id */
	}
	n = w->n;
	w->n = 6;
	pw_put(w, n, 2);
	if (!w->err && fwrite(w->rec, 1, n, w->f) != n)
		w->err = 1;
}

static void pw_info(struct pw *w, const struct etm_perfw_opts *o,
		    const struct etm_config *cfgs, size_t ncpus)
{
	size_t i;

	pw_begin(w, ETM_PERF_AUXTRACE_INFO, 0);
	pw_put(w, 3, 4); /* cs_etm */
	pw_put(w, 0, 4);
	pw_put(w, o->version, 8);
	pw_put(w, (uint64_t)(o->pmu_type ? o->pmu_type : 8) << 32 | ncpus, 8);
	pw_put(w, o->snapshot ? 1 : 0, 8);
	for (i = 0; i < ncpus; i++) {
		uint32_t id = cfgs[i].traceid & 0x7f;

		if (o->version >= 2) /* the legacy ID, flagged unused */
			id = (uint32_t)(0x10 + 2 * i) | 0x80000000u;
		pw_put(w, 0x3030303030303030ull, 8);
		pw_put(w, i, 8);
		if (o->version)
			pw_put(w, 4, 8);
		pw_put(w, cfgs[i].etmcr, 8);
		pw_put(w, id, 8);
		pw_put(w, cfgs[i].etmccer, 8);
		pw_put(w, cfgs[i].etmidr, 8);
	}
	pw_end(w, 0, 0, 0, 0);
}

static void pw_sideband(struct pw *w, const struct etm_perfw_opts *o,
			const struct etm_perfw_map *maps, size_t nmaps)
{
	size_t i, j;

	for (i = 0; i < nmaps; i++) {
		for (j = 0; j < i && maps[j].pid != maps[i].pid; j++)
			;
		if (j == i) { /* first mapping of the process */
			pw_begin(w, ETM_PERF_COMM, 0);
			pw_put(w, maps[i].pid, 4);
			pw_put(w, maps[i].tid, 4);
			pw_str(w, o->comm ? o->comm : "etmsynth");
			pw_end(w, 1, maps[i].pid, maps[i].tid, ETM_PERF_NO_CPU);
		}
		pw_begin(w, ETM_PERF_MMAP2, 2); /* misc: user */
		pw_put(w, maps[i].pid, 4);
		pw_put(w, maps[i].tid, 4);
		pw_put(w, maps[i].addr, 8);
		pw_put(w, maps[i].len, 8);
		pw_put(w, maps[i].pgoff, 8);
		pw_put(w, 0, 8); /* maj, min */
		pw_put(w, 0, 8); /* ino */
		pw_put(w, 0, 8); /* ino_generation */
		pw_put(w, 5, 4); /* PROT_READ | PROT_EXEC */
		pw_put(w, 2, 4); /* MAP_PRIVATE */
		pw_str(w, maps[i].path);
		pw_end(w, 1, maps[i].pid, maps[i].tid, ETM_PERF_NO_CPU);
	}
}

/* Whether @o asks for CPU-wide recording (a field older callers lack). */
static int pw_has_cpu_wide(const struct etm_perfw_opts *o)
{
	return o->size >= offsetof(struct etm_perfw_opts, cpu_wide) + sizeof(int) &&
	       o->cpu_wide;
}

/* Who runs buffer @b: ITRACE_START, or (cpu_wide) a SWITCH_CPU_WIDE out
 * from *@last, the CPU's process before (0: none), to @b's. */
static void pw_who(struct pw *w, const struct etm_perfw_opts *o,
		   const struct etm_perfw_buf *b, uint32_t *last)
{
	if (!pw_has_cpu_wide(o)) {
		pw_begin(w, ETM_PERF_ITRACE_START, 0);
		pw_put(w, b->pid, 4);
		pw_put(w, b->tid, 4);
		pw_end(w, 1, b->pid, b->tid, b->cpu);
		return;
	}
	if (*last == b->pid + 1)
		return;
	pw_begin(w, ETM_PERF_SWITCH_CPU_WIDE, 0x2000); /* misc: SWITCH_OUT */
	pw_put(w, b->pid, 4);
	pw_put(w, b->tid, 4);
	pw_end(w, 1, *last ? *last - 1 : 0, *last ? *last - 1 : 0, b->cpu);
	*last = b->pid + 1;
}

static void pw_buf(struct pw *w, const struct etm_perfw_opts *o,
		   const struct etm_perfw_buf *b, uint64_t aux_off,
		   const struct etm_config *cfg, uint32_t *last)
{
	static const uint8_t zero[8];
	size_t pad = (8 - b->n % 8) % 8;
	uint32_t cpu = b->cpu, apid = pw_has_cpu_wide(o) ? 0 : b->pid,
		 atid = pw_has_cpu_wide(o) ? 0 : b->tid;

	pw_who(w, o, b, last);
	if (o->version >= 2 && cfg) {
		pw_begin(w, ETM_PERF_AUX_OUTPUT_HW_ID, 0);
		pw_put(w, cfg->traceid & 0x7f, 8);
		pw_end(w, 1, apid, atid, cpu);
	}
	pw_begin(w, ETM_PERF_AUX, 0);
	pw_put(w, aux_off, 8);
	pw_put(w, b->n, 8);
	pw_put(w, (b->raw ? ETM_PERF_AUX_RAW : 0) | (o->snapshot ? ETM_PERF_AUX_OVERWRITE : 0),
	       8);
	pw_end(w, 1, apid, atid, cpu);
	w->idx[2 * w->nidx] = (uint64_t)ftell(w->f);
	w->idx[2 * w->nidx++ + 1] = 48; /* the record, not its data */
	pw_begin(w, ETM_PERF_AUXTRACE, 0);
	pw_put(w, b->n + pad, 8);
	pw_put(w, aux_off, 8);
	pw_put(w, 0, 8);                       /* reference */
	pw_put(w, o->per_thread ? 0 : cpu, 4); /* idx: the mmap's */
	pw_put(w, o->per_thread ? b->tid : ETM_PERF_NO_CPU, 4);
	pw_put(w, o->per_thread ? ETM_PERF_NO_CPU : cpu, 4);
	pw_put(w, 0, 4);
	pw_end(w, 0, 0, 0, 0);
	if (!w->err && b->n && fwrite(b->data, 1, b->n, w->f) != b->n)
		w->err = 1;
	if (!w->err && pad && fwrite(zero, 1, pad, w->f) != pad)
		w->err = 1;
}

/* Header, attr and its id, written once the data section's size is known. */
static void pw_header(struct pw *w, const struct etm_perfw_opts *o,
		      uint64_t data_size)
{
	w->n = 0;
	if (w->be)
		memcpy(w->rec, "2ELIFREP", 8);
	else
		memcpy(w->rec, "PERFILE2", 8);
	w->n = 8;
	pw_put(w, W_HDR, 8);
	pw_put(w, W_ATTR + 16, 8);
	pw_put(w, W_HDR, 8); /* attrs */
	pw_put(w, W_ATTR + 16, 8);
	pw_put(w, W_DATA, 8); /* data */
	pw_put(w, data_size, 8);
	pw_put(w, 0, 8); /* event types */
	pw_put(w, 0, 8);
	pw_put(w, (uint64_t)1 << W_FEAT_AUXTRACE, 8); /* features */
	pw_put(w, 0, 8);
	pw_put(w, 0, 8);
	pw_put(w, 0, 8);
	/* the attr */
	pw_put(w, o->pmu_type ? o->pmu_type : 8, 4);
	pw_put(w, W_ATTR, 4);
	pw_put(w, 0, 8); /* config */
	pw_put(w, 1, 8); /* sample_period */
	pw_put(w, W_SAMPLE_TYPE, 8);
	pw_put(w, 0, 8); /* read_format */
	/* disabled, mmap, comm, enable_on_exec, sample_id_all, mmap2 */
	pw_put(w, 1u | 1u << 8 | 1u << 9 | 1u << 12 | 1u << 18 | 1u << 23, 8);
	while (w->n < W_HDR + W_ATTR)
		pw_put(w, 0, 1);
	pw_put(w, W_HDR + W_ATTR + 16, 8); /* ids: one u64 */
	pw_put(w, 8, 8);
	pw_put(w, 1, 8); /* id 1 */
	while (w->n < W_DATA)
		pw_put(w, 0, 1);
	if (fseek(w->f, 0, SEEK_SET) != 0 || fwrite(w->rec, 1, w->n, w->f) != w->n)
		w->err = 1;
}

/* The HEADER_AUXTRACE feature at @end (the data section's end): its
 * section entry, then the index: count, and per AUXTRACE record its
 * offset and the record's size (without its data). */
static void pw_index(struct pw *w, uint64_t end)
{
	size_t i;

	w->n = 0;
	pw_put(w, end + 16, 8);
	pw_put(w, 8 + 16 * (uint64_t)w->nidx, 8);
	pw_put(w, w->nidx, 8);
	for (i = 0; i < w->nidx && !w->err; i++) {
		pw_put(w, w->idx[2 * i], 8);
		pw_put(w, w->idx[2 * i + 1], 8);
		if (w->n > sizeof(w->rec) - 16) {
			w->err |= fwrite(w->rec, 1, w->n, w->f) != w->n;
			w->n = 0;
		}
	}
	if (!w->err && fwrite(w->rec, 1, w->n, w->f) != w->n)
		w->err = 1;
}

/* The configuration of @b's CPU, if it has one. */
static const struct etm_config *pw_cfg(const struct etm_perfw_buf *b,
				       const struct etm_config *cfgs, size_t n)
{
	return b->cpu < n ? &cfgs[b->cpu] : NULL;
}

int etm_perf_write(const char *path, const struct etm_perfw_opts *o,
		   const struct etm_config *cfgs, size_t ncpus,
		   const struct etm_perfw_map *maps, size_t nmaps,
		   const struct etm_perfw_buf *bufs, size_t nbufs, char *err,
		   size_t errlen)
{
	struct pw *w;
	uint64_t *aux_off;
	uint32_t *last;
	long end;
	size_t i;
	int r = 0;

	if (!path || !o || o->version > 2 || !cfgs || !ncpus || ncpus > 4096) {
		if (err && errlen)
			snprintf(err, errlen, "invalid argument");
		return -etme_invalid;
	}
	w = calloc(1, sizeof(*w));
	aux_off = calloc(ncpus + 1, sizeof(*aux_off));
	last = calloc(ncpus + 1, sizeof(*last));
	if (w)
		w->idx = calloc(2 * nbufs + 2, sizeof(*w->idx));
	if (!w || !aux_off || !last || !w->idx || !(w->f = fopen(path, "wb"))) {
		int mem = w && aux_off && last && w->idx;

		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path,
				 mem ? strerror(errno) : "out of memory");
		if (w)
			free(w->idx);
		free(w);
		free(aux_off);
		free(last);
		return mem ? -etme_io : -etme_nomem;
	}
	w->be = o->big_endian;
	if (fseek(w->f, W_DATA, SEEK_SET) != 0)
		w->err = 1;
	pw_info(w, o, cfgs, ncpus);
	pw_sideband(w, o, maps, nmaps);
	for (i = 0; i < nbufs; i++) {
		size_t k = bufs[i].cpu < ncpus ? bufs[i].cpu : ncpus;

		pw_buf(w, o, &bufs[i], aux_off[k], pw_cfg(&bufs[i], cfgs, ncpus),
		       &last[k]);
		aux_off[k] += bufs[i].n;
	}
	end = ftell(w->f);
	if (end < (long)W_DATA)
		w->err = 1;
	else
		pw_index(w, (uint64_t)end);
	if (end >= (long)W_DATA)
		pw_header(w, o, (uint64_t)end - W_DATA);
	if (fclose(w->f) != 0 || w->err) {
		if (err && errlen)
			snprintf(err, errlen, "%s: writing failed%s", path,
				 w->n > sizeof(w->rec) - 64 ? " (a record too long)" : "");
		r = -etme_io;
	}
	free(aux_off);
	free(last);
	free(w->idx);
	free(w);
	return r;
}

static void le(uint8_t *b, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

int etm_elf_write(const char *path, struct etm_elfw_seg *segs, size_t nsegs)
{
	uint8_t h[52], ph[32];
	uint64_t off = 52 + 32 * (uint64_t)nsegs;
	FILE *f;
	size_t i;
	int bad = 0;

	if (!path || (!segs && nsegs) || nsegs > 1000)
		return -etme_invalid;
	for (i = 0; i < nsegs; i++) {
		off = (off + 4095) / 4096 * 4096 + segs[i].addr % 4096;
		segs[i].offset = off;
		off += segs[i].n;
	}
	memset(h, 0, sizeof(h));
	memcpy(h, "\177ELF\1\1\1", 7);
	le(h + 16, 2, 2);  /* ET_EXEC */
	le(h + 18, 40, 2); /* EM_ARM */
	le(h + 20, 1, 4);
	le(h + 24, nsegs ? segs[0].addr : 0, 4);
	le(h + 28, 52, 4);
	le(h + 36, 0x05000000, 4); /* EABI version 5 */
	le(h + 40, 52, 2);
	le(h + 42, 32, 2);
	le(h + 44, nsegs, 2);
	le(h + 46, 40, 2);
	f = fopen(path, "wb");
	if (!f)
		return -etme_io;
	bad |= fwrite(h, 1, sizeof(h), f) != sizeof(h);
	for (i = 0; i < nsegs; i++) {
		memset(ph, 0, sizeof(ph));
		le(ph, 1, 4); /* PT_LOAD */
		le(ph + 4, segs[i].offset, 4);
		le(ph + 8, segs[i].addr, 4);
		le(ph + 12, segs[i].addr, 4);
		le(ph + 16, segs[i].n, 4);
		le(ph + 20, segs[i].n, 4);
		le(ph + 24, 5, 4); /* R | X */
		le(ph + 28, 4096, 4);
		bad |= fwrite(ph, 1, sizeof(ph), f) != sizeof(ph);
	}
	for (i = 0; i < nsegs && !bad; i++)
		bad |= fseek(f, (long)segs[i].offset, SEEK_SET) != 0 ||
		       fwrite(segs[i].data, 1, segs[i].n, f) != segs[i].n;
	bad |= fclose(f) != 0;
	return bad ? -etme_io : 0;
}
