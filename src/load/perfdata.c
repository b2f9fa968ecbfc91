/* load/perfdata.c - streaming reader of perf.data files (etmtrace/
 * perfdata.h): the file header, the first attr, and the data section's
 * records one at a time through a buffer of one record (a record's size
 * is 16 bits; AUXTRACE data is skipped, its offset given). Every offset is
 * checked against the section and the file before it is followed; a
 * record always moves the reader on by at least 8 bytes, so no file makes
 * it loop. The cs_etm metadata is parsed in load/perfdata_meta.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/error.h>
#include <etmtrace/perfdata.h>

#include "load/perfdata_int.h"

#define PERF_HDR_SIZE 104u
#define PERF_SAMPLE_TID (1u << 1)
#define PERF_SAMPLE_TIME (1u << 2)
#define PERF_SAMPLE_ID (1u << 6)
#define PERF_SAMPLE_CPU (1u << 7)
#define PERF_SAMPLE_STREAM_ID (1u << 9)
#define PERF_SAMPLE_IDENTIFIER (1u << 16)
#define PERF_FEAT_BUILD_ID 2u
#define PERF_MISC_MMAP_BUILD_ID (1u << 14)
#define PERF_MAX_BUILD_IDS 65536u

uint16_t perf_u16(const struct etm_perf *p, const uint8_t *b)
{
	return p->info.big_endian ? (uint16_t)(b[0] << 8 | b[1]) :
				    (uint16_t)(b[1] << 8 | b[0]);
}

uint32_t perf_u32(const struct etm_perf *p, const uint8_t *b)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)b[p->info.big_endian ? 3 - i : i] << (8 * i);
	return v;
}

uint64_t perf_u64(const struct etm_perf *p, const uint8_t *b)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)b[p->info.big_endian ? 7 - i : i] << (8 * i);
	return v;
}

/* @n bytes at file offset @off into @buf; -etme_parse if the file is
 * shorter. */
static int perf_read(struct etm_perf *p, uint64_t off, void *buf, size_t n,
		     char *err, size_t errlen, const char *what)
{
	if (off > p->fsize || n > p->fsize - off)
		return etm_err_msg(err, errlen, -etme_parse, "%s: %s at offset %llu "
							     "(%zu bytes) runs past the end of the file (%llu bytes)",
				   p->path, what, (unsigned long long)off, n,
				   (unsigned long long)p->fsize);
	if (fseeko(p->f, (off_t)off, SEEK_SET) != 0 || fread(buf, 1, n, p->f) != n)
		return etm_err_msg(err, errlen, -etme_io, "%s: reading %s at offset "
							  "%llu: %s",
				   p->path, what, (unsigned long long)off,
				   strerror(errno ? errno : EIO));
	return 0;
}

/* A section {offset, size} at @b that must lie inside the file. */
static int perf_section(struct etm_perf *p, const uint8_t *b, uint64_t *off,
			uint64_t *size, const char *what, char *err, size_t errlen)
{
	*off = perf_u64(p, b);
	*size = perf_u64(p, b + 8);
	if (*off > p->fsize || *size > p->fsize - *off)
		return etm_err_msg(err, errlen, -etme_parse, "%s: the %s section "
							     "(offset %llu, %llu bytes) runs past the end of "
							     "the file (%llu bytes)",
				   p->path, what,
				   (unsigned long long)*off, (unsigned long long)*size,
				   (unsigned long long)p->fsize);
	return 0;
}

/* The first attr: sample_type and sample_id_all. */
static int perf_attrs(struct etm_perf *p, const uint8_t *h, char *err,
		      size_t errlen)
{
	uint64_t off, size, asize = perf_u64(p, h + 16);
	uint8_t a[48];
	int r;

	r = perf_section(p, h + 24, &off, &size, "attrs", err, errlen);
	if (r < 0)
		return r;
	if (asize < sizeof(a) + 16 || asize > 4096)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset 16: attr "
							     "size %llu is not that of a perf_event_attr with "
							     "its ids section (64-4096 bytes)",
				   p->path,
				   (unsigned long long)asize);
	if (size < asize)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: no "
							     "attr (attrs section of %llu bytes)",
				   p->path,
				   (unsigned long long)off, (unsigned long long)size);
	p->info.nattrs = (size_t)(size / asize);
	r = perf_read(p, off, a, sizeof(a), err, errlen, "the first attr");
	if (r < 0)
		return r;
	p->info.sample_type = perf_u64(p, a + 24);
	p->info.sample_id_all = (int)(perf_u64(p, a + 40) >> 18 & 1);
	return 0;
}

/* HEADER_BUILD_ID: the feature sections follow the data section, one per
 * feature bit set, in bit order; build ids are kept (bounded count). */
static int perf_build_ids(struct etm_perf *p, const uint8_t *h, char *err,
			  size_t errlen)
{
	uint64_t feat = perf_u64(p, h + 72), off, size, pos;
	uint8_t sec[16];
	int r, k, before = 0;

	if (!(feat >> PERF_FEAT_BUILD_ID & 1))
		return 0;
	for (k = 0; k < (int)PERF_FEAT_BUILD_ID; k++)
		before += (int)(feat >> k & 1);
	pos = p->info.data_offset + p->info.data_size + 16u * (unsigned)before;
	r = perf_read(p, pos, sec, sizeof(sec), err, errlen,
		      "the build id feature's section entry");
	if (r < 0)
		return r;
	r = perf_section(p, sec, &off, &size, "build id", err, errlen);
	for (pos = off; !r && pos + 36 <= off + size &&
			p->nbid < PERF_MAX_BUILD_IDS;) {
		uint8_t b[4096 + 1];
		uint16_t n, misc;
		struct perf_bid *t;

		r = perf_read(p, pos, b, 8, err, errlen, "a build id record");
		n = perf_u16(p, b + 6);
		misc = perf_u16(p, b + 4);
		if (!r && (n < 36 || n > 4096 || pos + n > off + size))
			r = etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: "
								  "build id record of %u bytes (36-4096, "
								  "inside its section)",
					p->path,
					(unsigned long long)pos, n);
		if (!r)
			r = perf_read(p, pos, b, n, err, errlen, "a build id record");
		if (r < 0)
			break;
		b[n] = 0;
		t = realloc(p->bid, (p->nbid + 1) * sizeof(*t));
		if (!t)
			return -etme_nomem;
		p->bid = t;
		t += p->nbid;
		memcpy(t->id, b + 12, 20);
		t->len = misc & (1u << 15) && b[32] <= 20 ? b[32] : 20;
		t->name = strdup((const char *)b + 36);
		if (!t->name)
			return -etme_nomem;
		p->nbid++;
		pos += n;
	}
	return r;
}

static int perf_header(struct etm_perf *p, char *err, size_t errlen)
{
	uint8_t h[PERF_HDR_SIZE];
	int r;

	r = perf_read(p, 0, h, sizeof(h), err, errlen, "the file header");
	if (r < 0)
		return r == -etme_parse ?
			       etm_err_msg(err, errlen, r, "%s: offset 0: %llu bytes, "
							   "too short for a perf.data header (104)",
					   p->path, (unsigned long long)p->fsize) :
			       r;
	if (!memcmp(h, "2ELIFREP", 8))
		p->info.big_endian = 1;
	else if (memcmp(h, "PERFILE2", 8))
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset 0: not a "
							     "perf.data file (magic is not PERFILE2)",
				   p->path);
	if (perf_u64(p, h + 8) < PERF_HDR_SIZE)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset 8: header "
							     "size %llu (at least 104)",
				   p->path,
				   (unsigned long long)perf_u64(p, h + 8));
	r = perf_attrs(p, h, err, errlen);
	if (!r)
		r = perf_section(p, h + 40, &p->info.data_offset,
				 &p->info.data_size, "data", err, errlen);
	if (!r)
		r = perf_build_ids(p, h, err, errlen);
	return r;
}

/* Bytes of the sample id at the end of a non-sample record. */
static size_t perf_id_size(uint64_t st)
{
	return (st & PERF_SAMPLE_TID ? 8u : 0) + (st & PERF_SAMPLE_TIME ? 8u : 0) +
	       (st & PERF_SAMPLE_ID ? 8u : 0) +
	       (st & PERF_SAMPLE_STREAM_ID ? 8u : 0) +
	       (st & PERF_SAMPLE_CPU ? 8u : 0) +
	       (st & PERF_SAMPLE_IDENTIFIER ? 8u : 0);
}

static void perf_sample_id(struct etm_perf *p, struct etm_perf_rec *r)
{
	uint64_t st = p->info.sample_type;
	size_t n = perf_id_size(st);
	const uint8_t *b;

	if (!p->info.sample_id_all || r->type >= 64 || r->type == 9 ||
	    n + 8 > r->size)
		return;
	b = p->buf + r->size - n; /* IDENTIFIER, if any, comes last */
	if (st & PERF_SAMPLE_TID) {
		r->has_tid = 1;
		r->pid = perf_u32(p, b);
		r->tid = perf_u32(p, b + 4);
		b += 8;
	}
	b += (st & PERF_SAMPLE_TIME ? 8 : 0) + (st & PERF_SAMPLE_ID ? 8 : 0) +
	     (st & PERF_SAMPLE_STREAM_ID ? 8 : 0);
	if (st & PERF_SAMPLE_CPU) {
		r->has_cpu = 1;
		r->cpu = perf_u32(p, b);
	}
}

/* The string at @off of the record (NUL-terminated by the buffer). */
static const char *perf_str(struct etm_perf *p, const struct etm_perf_rec *r,
			    size_t off)
{
	return off < r->size ? (const char *)p->buf + off : "";
}

static void perf_mmap(struct etm_perf *p, struct etm_perf_rec *r)
{
	const uint8_t *b = p->buf;

	r->u.mmap.pid = perf_u32(p, b + 8);
	r->u.mmap.tid = perf_u32(p, b + 12);
	r->u.mmap.addr = perf_u64(p, b + 16);
	r->u.mmap.len = perf_u64(p, b + 24);
	r->u.mmap.pgoff = perf_u64(p, b + 32);
	if (r->type == ETM_PERF_MMAP) {
		r->u.mmap.prot = r->misc & (1u << 13) ? 1 : 4; /* MMAP_DATA */
		r->u.mmap.filename = perf_str(p, r, 40);
		return;
	}
	if (r->misc & PERF_MISC_MMAP_BUILD_ID && b[40] <= 20) {
		r->u.mmap.build_id_size = b[40];
		memcpy(r->u.mmap.build_id, b + 44, 20);
	}
	r->u.mmap.prot = r->size >= 72 ? perf_u32(p, b + 64) : 0;
	r->u.mmap.filename = perf_str(p, r, 72);
}

/* Minimum record sizes by type (0: no fields read). */
static unsigned perf_min_size(uint32_t type)
{
	switch (type) {
	case ETM_PERF_MMAP: return 40;
	case ETM_PERF_MMAP2: return 72;
	case ETM_PERF_COMM: return 16;
	case ETM_PERF_FORK:
	case ETM_PERF_EXIT: return 24;
	case ETM_PERF_AUX: return 32;
	case ETM_PERF_ITRACE_START: return 16;
	case ETM_PERF_SWITCH_CPU_WIDE: return 16;
	case ETM_PERF_AUX_OUTPUT_HW_ID: return 16;
	case ETM_PERF_AUXTRACE_INFO: return 16;
	case ETM_PERF_AUXTRACE: return 48;
	}
	return 8;
}

static void perf_fields(struct etm_perf *p, struct etm_perf_rec *r)
{
	const uint8_t *b = p->buf;

	switch (r->type) {
	case ETM_PERF_MMAP:
	case ETM_PERF_MMAP2: perf_mmap(p, r); break;
	case ETM_PERF_COMM:
		r->u.comm.pid = perf_u32(p, b + 8);
		r->u.comm.tid = perf_u32(p, b + 12);
		r->u.comm.comm = perf_str(p, r, 16);
		break;
	case ETM_PERF_FORK:
	case ETM_PERF_EXIT:
		r->u.fork.pid = perf_u32(p, b + 8);
		r->u.fork.ppid = perf_u32(p, b + 12);
		r->u.fork.tid = perf_u32(p, b + 16);
		r->u.fork.ptid = perf_u32(p, b + 20);
		break;
	case ETM_PERF_AUX:
		r->u.aux.offset = perf_u64(p, b + 8);
		r->u.aux.size = perf_u64(p, b + 16);
		r->u.aux.flags = perf_u64(p, b + 24);
		break;
	case ETM_PERF_ITRACE_START:
		r->u.itrace.pid = perf_u32(p, b + 8);
		r->u.itrace.tid = perf_u32(p, b + 12);
		break;
	case ETM_PERF_SWITCH:
	case ETM_PERF_SWITCH_CPU_WIDE:
		r->u.sw.out = (r->misc & (1u << 13)) != 0; /* SWITCH_OUT */
		if (r->type == ETM_PERF_SWITCH_CPU_WIDE) {
			r->u.sw.pid = perf_u32(p, b + 8);
			r->u.sw.tid = perf_u32(p, b + 12);
		}
		break;
	case ETM_PERF_AUX_OUTPUT_HW_ID: r->u.hw_id = perf_u64(p, b + 8); break;
	case ETM_PERF_AUXTRACE:
		r->u.auxtrace.size = perf_u64(p, b + 8);
		r->u.auxtrace.offset = perf_u64(p, b + 16);
		r->u.auxtrace.reference = perf_u64(p, b + 24);
		r->u.auxtrace.idx = perf_u32(p, b + 32);
		r->u.auxtrace.tid = perf_u32(p, b + 36);
		r->u.auxtrace.cpu = perf_u32(p, b + 40);
		r->u.auxtrace.data = r->offset + r->size;
		break;
	}
}

int etm_perf_next(struct etm_perf *p, struct etm_perf_rec *r, char *err,
		  size_t errlen)
{
	uint64_t end;
	int e;

	if (!p || !r)
		return -etme_invalid;
	end = p->info.data_offset + p->info.data_size;
	memset(r, 0, sizeof(*r));
	if (p->pos >= end)
		return -etme_eos;
	if (end - p->pos < 8)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: %llu "
							     "bytes left in the data section, too few for a "
							     "record header",
				   p->path, (unsigned long long)p->pos,
				   (unsigned long long)(end - p->pos));
	e = perf_read(p, p->pos, p->buf, 8, err, errlen, "a record header");
	if (e < 0)
		return e;
	r->offset = p->pos;
	r->type = perf_u32(p, p->buf);
	r->misc = perf_u16(p, p->buf + 4);
	r->size = perf_u16(p, p->buf + 6);
	if (r->size < perf_min_size(r->type) || r->size > end - p->pos)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: record "
							     "of type %u has size %u (%s)",
				   p->path,
				   (unsigned long long)p->pos, r->type, r->size,
				   r->size < perf_min_size(r->type) ?
					   "too small for its fields" :
					   "past the end of the data section");
	e = perf_read(p, p->pos, p->buf, r->size, err, errlen, "a record");
	if (e < 0)
		return e;
	p->buf[r->size] = 0;
	perf_fields(p, r);
	perf_sample_id(p, r);
	p->pos += r->size;
	if (r->type == ETM_PERF_AUXTRACE) {
		if (r->u.auxtrace.size > end - p->pos)
			return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: "
								     "AUXTRACE record of %llu bytes of trace runs "
								     "past the end of the data section (%llu bytes "
								     "left)",
					   p->path, (unsigned long long)r->offset,
					   (unsigned long long)r->u.auxtrace.size,
					   (unsigned long long)(end - p->pos));
		p->pos += r->u.auxtrace.size;
	}
	if (r->type == ETM_PERF_AUXTRACE_INFO && !p->info_read) {
		e = perf_meta(p, r, err, errlen);
		if (e < 0)
			return e;
	}
	return 0;
}

int etm_perf_rewind(struct etm_perf *p)
{
	if (!p)
		return -etme_invalid;
	p->pos = p->info.data_offset;
	return 0;
}

int etm_perf_open(struct etm_perf **out, const char *path, char *err,
		  size_t errlen)
{
	struct etm_perf *p;
	struct etm_perf_rec r;
	struct stat st;
	int e;

	if (!out || !path)
		return -etme_invalid;
	*out = NULL;
	p = calloc(1, sizeof(*p));
	if (p)
		p->path = strdup(path);
	if (!p || !p->path) {
		free(p);
		return -etme_nomem;
	}
	p->f = fopen(path, "rb");
	if (!p->f || fstat(fileno(p->f), &st) != 0 || !S_ISREG(st.st_mode)) {
		e = etm_err_msg(err, errlen, -etme_io, "%s: %s", path,
				p->f ? "not a regular file" : strerror(errno));
		etm_perf_close(p);
		return e;
	}
	p->fsize = (uint64_t)st.st_size;
	e = perf_header(p, err, errlen);
	if (!e)
		e = etm_perf_rewind(p);
	while (!e && !p->info_read && (e = etm_perf_next(p, &r, err, errlen)) == 0)
		;
	if (e == -etme_eos)
		e = 0;
	if (!e)
		e = etm_perf_rewind(p);
	if (e < 0) {
		etm_perf_close(p);
		return e;
	}
	*out = p;
	return 0;
}

void etm_perf_close(struct etm_perf *p)
{
	size_t i;

	if (!p)
		return;
	if (p->f)
		fclose(p->f);
	for (i = 0; i < p->nbid; i++)
		free(p->bid[i].name);
	free(p->bid);
	free(p->info.cpus);
	free(p->path);
	free(p);
}

const struct etm_perf_info *etm_perf_info(const struct etm_perf *p)
{
	return p ? &p->info : NULL;
}

int etm_perf_build_id(const struct etm_perf *p, size_t i, const char **name,
		      const uint8_t **id, size_t *idlen)
{
	if (!p || i >= p->nbid)
		return -etme_eos;
	*name = p->bid[i].name;
	*id = p->bid[i].id;
	*idlen = p->bid[i].len;
	return 0;
}
