/* load/perfdata_int.h - the perf.data reader's object, shared by its
 * files (load/perfdata.c: header and records; load/perfdata_meta.c: the
 * cs_etm AUXTRACE_INFO metadata). */
#ifndef ETM_LOAD_PERFDATA_INT_H
#define ETM_LOAD_PERFDATA_INT_H

#include <stdio.h>

#include <etmtrace/perfdata.h>

#include "common/strbuf.h"

struct perf_bid {
	char *name;
	uint8_t id[20];
	size_t len;
};

struct etm_perf {
	char *path;
	FILE *f;
	uint64_t fsize;
	uint64_t pos; /* next record */
	struct etm_perf_info info;
	int info_read; /* AUXTRACE_INFO parsed */
	struct perf_bid *bid;
	size_t nbid;
	uint8_t buf[65536 + 1]; /* one record, NUL after it */
};

uint16_t perf_u16(const struct etm_perf *p, const uint8_t *b);
uint32_t perf_u32(const struct etm_perf *p, const uint8_t *b);
uint64_t perf_u64(const struct etm_perf *p, const uint8_t *b);
/* Parse the AUXTRACE_INFO record @r (in p->buf) into p->info. */
int perf_meta(struct etm_perf *p, const struct etm_perf_rec *r, char *err,
	      size_t errlen);

#endif
