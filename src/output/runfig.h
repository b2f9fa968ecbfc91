/* output/runfig.h - the parallel runner's figures (etmtrace/runstats.h)
 * summed over a decode's buffers, and their text (the CLI's `decode
 * --stats` / --run-stats). Library-internal. */
#ifndef ETM_OUTPUT_RUNFIG_H
#define ETM_OUTPUT_RUNFIG_H

#include <stdio.h>

#include <etmtrace/runstats.h>

#define RUNFIG_THREADS 256 /* the most threads counted (CLI: --jobs) */

/* Sums of the runs of one command. */
struct runfig {
	struct etm_run_stats sum;
	struct etm_run_thread thread[RUNFIG_THREADS];
	int runs; /* parallel runs summed */
};

/* Point @st's per-thread array at scratch for one run. */
void runfig_prepare(struct etm_run_stats *st,
		    struct etm_run_thread *scratch, unsigned cap);

/* Add one run's figures. */
void runfig_add(struct runfig *f, const struct etm_run_stats *st);

/* Print the sums to @out (nothing if no run used worker threads), with
 * the process's CPU time so far for the whole command's serial share. */
void runfig_print(FILE *out, const struct runfig *f);

#endif
