/* load/perfdata_meta.c - the cs_etm AUXTRACE_INFO record of a perf.data
 * file: the private header (version, PMU type and CPU count, snapshot
 * mode) and one metadata block per CPU. Version 0 blocks have a fixed
 * length by their magic (ETMv3/PTM: 6 words, ETMv4: 9); versions 1 and 2
 * give the number of parameters after magic, CPU and count. ETMv4 and
 * ETE blocks are stepped over and marked unsupported, never read as
 * ETMv3 (facts: tools/perf/util/cs-etm.h). */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "load/perfdata_int.h"

#define CS_AUXTRACE_TYPE 3u
#define CS_ETMV3_MAGIC 0x3030303030303030ull
#define CS_ETMV4_MAGIC 0x4040404040404040ull
#define CS_ETE_MAGIC 0x5050505050505050ull
#define CS_TRACE_ID_UNUSED (1u << 31)

/* Words of a block: magic, CPU, then (v1+) the parameter count. */
static int meta_block_len(struct etm_perf *p, const uint8_t *w, uint64_t left,
			  uint64_t *len, uint64_t magic)
{
	if (p->info.header_version == 0) {
		*len = magic == CS_ETMV3_MAGIC ? 6 : magic == CS_ETMV4_MAGIC ? 9 :
									       0;
		return *len ? 0 : -1;
	}
	if (left < 3)
		return -1;
	*len = perf_u64(p, w + 16);
	if (*len > left - 3)
		return -1;
	*len += 3;
	return 0;
}

/* The ETMv3/PTM registers of a block of @len words at @w. */
static void meta_etm3(struct etm_perf *p, struct etm_perf_cpu *c,
		      const uint8_t *w, uint64_t len)
{
	const uint8_t *regs = w + (p->info.header_version ? 24 : 16);
	uint32_t idr;

	if (len < (p->info.header_version ? 7u : 6u)) {
		c->unsupported = "ETMv3/PTM metadata with fewer than 4 registers";
		return;
	}
	etm_config_init(&c->cfg);
	c->cfg.etmcr = (uint32_t)perf_u64(p, regs);
	idr = (uint32_t)perf_u64(p, regs + 8);
	c->cfg.etmccer = (uint32_t)perf_u64(p, regs + 16);
	c->cfg.etmidr = (uint32_t)perf_u64(p, regs + 24);
	c->cfg.protocol = (c->cfg.etmidr >> 8 & 0xf) == 3 ? etm_proto_ptm :
							    etm_proto_etmv3;
	if (p->info.header_version >= 2 && idr & CS_TRACE_ID_UNUSED)
		c->id_from_hw = 1;
	else
		c->cfg.traceid = idr & 0x7f;
}

int perf_meta(struct etm_perf *p, const struct etm_perf_rec *r, char *err,
	      size_t errlen)
{
	const uint8_t *b = p->buf;
	uint64_t n = (r->size - 16u) / 8u, i, k, ncpu;
	size_t off = 16;

	p->info.auxtrace_type = perf_u32(p, b + 8);
	if (p->info.auxtrace_type != CS_AUXTRACE_TYPE) {
		p->info_read = 1;
		return 0; /* another kind of AUX trace: nothing to decode */
	}
	if (n < 3)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: cs_etm "
							     "AUXTRACE_INFO of %u bytes has no private header",
				   p->path, (unsigned long long)r->offset, r->size);
	p->info.header_version = perf_u64(p, b + 16);
	ncpu = perf_u64(p, b + 24) & 0xffffffffu;
	p->info.pmu_type = (uint32_t)(perf_u64(p, b + 24) >> 32);
	p->info.snapshot = perf_u64(p, b + 32) != 0;
	if (p->info.header_version > 2)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: cs_etm "
							     "header version %llu (versions 0-2 are known)",
				   p->path, (unsigned long long)r->offset + 16,
				   (unsigned long long)p->info.header_version);
	if (ncpu > (n - 3) / 3 + 1)
		return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: %llu "
							     "CPUs do not fit in an AUXTRACE_INFO of %u bytes",
				   p->path, (unsigned long long)r->offset + 24,
				   (unsigned long long)ncpu, r->size);
	p->info.cpus = calloc(ncpu ? ncpu : 1, sizeof(*p->info.cpus));
	if (!p->info.cpus)
		return -etme_nomem;
	off += 24;
	for (i = 0, k = 3; i < ncpu; i++) {
		struct etm_perf_cpu *c = &p->info.cpus[i];
		uint64_t len, magic;

		if (k + 2 > n)
			return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: "
								     "the metadata of CPU %llu runs past the "
								     "AUXTRACE_INFO record",
					   p->path,
					   (unsigned long long)(r->offset + off),
					   (unsigned long long)i);
		magic = perf_u64(p, b + off);
		if ((magic != CS_ETMV3_MAGIC && magic != CS_ETMV4_MAGIC &&
		     magic != CS_ETE_MAGIC) ||
		    meta_block_len(p, b + off, n - k, &len, magic) < 0 ||
		    len > n - k)
			return etm_err_msg(err, errlen, -etme_parse, "%s: offset %llu: "
								     "CPU metadata block %llu: magic %#llx, "
								     "unknown or its length past the record",
					   p->path, (unsigned long long)(r->offset + off),
					   (unsigned long long)i,
					   (unsigned long long)magic);
		c->magic = magic;
		c->cpu = (uint32_t)perf_u64(p, b + off + 8);
		etm_config_init(&c->cfg);
		if (magic == CS_ETMV3_MAGIC)
			meta_etm3(p, c, b + off, len);
		else
			c->unsupported = magic == CS_ETMV4_MAGIC ?
						 "ETMv4 trace (not decoded by etmtrace)" :
						 "ETE trace (not decoded by etmtrace)";
		p->info.ncpus++;
		off += (size_t)len * 8;
		k += len;
	}
	p->info.have_auxtrace_info = 1;
	p->info_read = 1;
	return 0;
}
