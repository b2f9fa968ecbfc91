/* cli/cmd_convert.c - `etmtrace convert SNAPSHOT --perf-data OUT`: the
 * trace and memory of a snapshot as a perf.data file with cs_etm AUX trace
 * (cli/perfconv.c), for perf or for etmtrace to read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "perfconv.h"

static const char convert_help[] =
	"usage: etmtrace convert SNAPSHOT --perf-data OUT [options]\n"
	"\n"
	"Write the ETMv3/PTM trace of a snapshot directory as a Linux perf.data\n"
	"file with cs_etm AUX trace: one CPU per trace source, each a process\n"
	"(pid 1000 + CPU) whose memory dumps become the ELF file cpuN.elf beside\n"
	"OUT, mapped by MMAP2 records. `etmtrace decode OUT` reads it back, and\n"
	"`perf script` reads it too.\n"
	"\n"
	"  --perf-data FILE       the perf.data file to write\n"
	"  --map-pids LIST        the processes that map each CPU's image instead\n"
	"                         of 1000 + CPU (comma-separated pids, at most 8:\n"
	"                         a trace with Context IDs switches to them)\n"
	"  --perf-version 0|1|2   cs_etm metadata header version (default 1; 2:\n"
	"                         trace IDs in AUX_OUTPUT_HW_ID records)\n"
	"  --per-thread           AUX trace per thread, not per CPU\n"
	"  --raw                  AUX trace unformatted (no 16-byte frames)\n"
	"  --big-endian           write the file big-endian\n"
	"  --cpu-wide             every source's trace as CPU 0's, a buffer\n"
	"                         each (process 1000 + k), switch records\n"
	"                         between them (perf record -a --switch-events;\n"
	"                         frames, header version 0 or 1)\n"
	"  --id ID                only the source of this trace ID (hex)\n";

/* --map-pids LIST: comma-separated pids. */
static int perfconv_pids(struct perfconv *pc, const char *v)
{
	char *end;

	for (pc->npids = 0; *v && pc->npids < PERFCONV_MAX_PIDS; v = end + (*end == ',')) {
		unsigned long x = strtoul(v, &end, 0);

		if (end == v || (*end && *end != ',') || x > 0xffffffffu)
			break;
		pc->pids[pc->npids++] = (unsigned)x;
	}
	if (!*v)
		return 1;
	fprintf(stderr, "etmtrace: bad value for --map-pids (at most %d "
			"comma-separated pids)\n",
		PERFCONV_MAX_PIDS);
	return -1;
}

/* The perf.data options shared with synth: 1 if @a (and maybe the next
 * argument) is one, 0 if not, -1 for a bad value. */
int perfconv_opt(struct perfconv *pc, int argc, char **argv, int *i)
{
	const char *a = argv[*i];

	if (!strcmp(a, "--per-thread"))
		pc->per_thread = 1;
	else if (!strcmp(a, "--raw"))
		pc->raw = 1;
	else if (!strcmp(a, "--big-endian"))
		pc->big_endian = 1;
	else if (!strcmp(a, "--cpu-wide"))
		pc->cpu_wide = 1;
	else if (!strcmp(a, "--perf-version") && *i + 1 < argc) {
		a = argv[++*i];
		if (strlen(a) != 1 || a[0] < '0' || a[0] > '2') {
			fprintf(stderr, "etmtrace: bad value for --perf-version: "
					"'%s' (0, 1 or 2)\n",
				a);
			return -1;
		}
		pc->version = (unsigned)(a[0] - '0');
	} else if (!strcmp(a, "--map-pids") && *i + 1 < argc) {
		return perfconv_pids(pc, argv[++*i]);
	} else
		return 0;
	return 1;
}

int cmd_convert(int argc, char **argv)
{
	struct perfconv pc = { .version = 1 };
	int i, k;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(convert_help, stdout);
			return 0;
		}
		k = perfconv_opt(&pc, argc, argv, &i);
		if (k < 0)
			return 2;
		if (k)
			continue;
		if (!strcmp(argv[i], "--perf-data") && i + 1 < argc)
			pc.out = argv[++i];
		else if (!strcmp(argv[i], "--id") && i + 1 < argc)
			pc.id = (unsigned)strtoul(argv[++i], NULL, 16);
		else if (argv[i][0] != '-' && !pc.snapshot)
			pc.snapshot = argv[i];
		else {
			fprintf(stderr, "etmtrace convert: unexpected argument "
					"'%s' (see --help)\n",
				argv[i]);
			return 2;
		}
	}
	if (!pc.snapshot || !pc.out) {
		fprintf(stderr, "etmtrace convert: give a snapshot directory and "
				"--perf-data OUT (see --help)\n");
		return 2;
	}
	return perfconv_run(&pc);
}
