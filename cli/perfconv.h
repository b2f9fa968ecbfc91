/* cli/perfconv.h - a snapshot written as a perf.data file (cli/perfconv.c),
 * for `etmtrace convert` and `etmtrace synth --perf-data`. */
#ifndef ETM_CLI_PERFCONV_H
#define ETM_CLI_PERFCONV_H

#include <stddef.h>

#define PERFCONV_MAX_PIDS 32

struct perfconv {
	const char *snapshot; /* the snapshot directory */
	const char *out;      /* the perf.data file; the ELF files go beside it */
	unsigned version;     /* cs_etm header version 0-2 */
	int per_thread, raw, big_endian;
	/* --cpu-wide: every source's trace as CPU 0's, one buffer each (the
	 * process 1000 + k), SWITCH_CPU_WIDE records between them */
	int cpu_wide;
	unsigned id; /* only the source of this trace ID (0: all) */
	/* --map-pids: the processes that map every CPU's image instead of
	 * 1000 + CPU (a trace with Context IDs names them) */
	unsigned pids[PERFCONV_MAX_PIDS];
	size_t npids;
};

/* Option argv[*i] (--per-thread, --raw, --big-endian, --perf-version N,
 * --map-pids LIST, --cpu-wide):
 * 1 taken (*i moved past its value), 0 not one of them, -1 bad value. */
int perfconv_opt(struct perfconv *pc, int argc, char **argv, int *i);
/* Write it; 0, or 2 after a message on stderr. */
int perfconv_run(const struct perfconv *pc);

#endif
