/* cli/run_totals.h - the parallel runner's figures (etmtrace/runstats.h)
 * summed over a decode's buffers, and their text (the CLI's `decode
 * --stats` / --run-stats). */
#ifndef ETM_CLI_RUN_TOTALS_H
#define ETM_CLI_RUN_TOTALS_H

#include <stdio.h>

#include <etmtrace/runstats.h>

#define RUN_TOTALS_THREADS 256 /* the most threads counted (CLI: --jobs) */

/* Sums of the runs of one command. */
struct run_totals {
	struct etm_run_stats sum;
	struct etm_run_thread thread[RUN_TOTALS_THREADS];
	int runs;   /* parallel runs summed */
	int serial; /* buffers decoded on one thread although jobs > 1 */
};

/* Point @st's per-thread array at scratch for one run. */
void run_totals_prepare(struct etm_run_stats *st,
			struct etm_run_thread *scratch, unsigned cap);

/* Add one run's figures. */
void run_totals_add(struct run_totals *f, const struct etm_run_stats *st);

/* Print the sums to @out (nothing if no run used worker threads), with
 * the process's CPU time so far for the whole command's serial share, and
 * a line for the buffers decoded on one thread (f->serial). */
void run_totals_print(FILE *out, const struct run_totals *f);

#endif
