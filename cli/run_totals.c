/* cli/run_totals.c - the parallel runner's figures of a command: CPU time
 * per thread, the serial share (what the calling thread did, in the run
 * and around it), redundant decode and waiting (run_totals.h). */
#include <sys/resource.h>
#include <time.h>

#include "run_totals.h"

void run_totals_prepare(struct etm_run_stats *st,
			struct etm_run_thread *scratch, unsigned cap)
{
	st->thread = scratch;
	st->threads_cap = cap;
}

void run_totals_add(struct run_totals *f, const struct etm_run_stats *st)
{
	struct etm_run_stats *s = &f->sum;
	unsigned i, n;

	if (!st->threads) {
		f->serial++; /* the runner found no way to cut it */
		return;
	}
	f->runs++;
	if (st->threads > s->threads)
		s->threads = st->threads;
	s->wall += st->wall;
	s->caller_cpu += st->caller_cpu;
	s->caller_wait += st->caller_wait;
	s->worker_cpu += st->worker_cpu;
	s->worker_wait += st->worker_wait;
	s->worker_idle_end += st->worker_idle_end;
	s->plan += st->plan;
	s->bytes += st->bytes;
	s->decoded += st->decoded;
	s->head_redundant += st->head_redundant;
	if (st->converge_max > s->converge_max)
		s->converge_max = st->converge_max;
	s->chunks += st->chunks;
	s->chunks_void += st->chunks_void;
	s->chunks_claimed += st->chunks_claimed;
	s->emit_live += st->emit_live;
	s->emit_caller += st->emit_caller;
	n = st->threads < st->threads_cap ? st->threads : st->threads_cap;
	for (i = 0; i < n && i < RUN_TOTALS_THREADS; i++) {
		f->thread[i].cpu += st->thread[i].cpu;
		f->thread[i].wait += st->thread[i].wait;
		f->thread[i].idle_end += st->thread[i].idle_end;
		f->thread[i].decoded += st->thread[i].decoded;
		f->thread[i].chunks += st->thread[i].chunks;
	}
}

static double process_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double thread_cpu(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		return 0;
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0;
}

void run_totals_print(FILE *out, const struct run_totals *f)
{
	const struct etm_run_stats *s = &f->sum;
	double all = process_cpu(), caller = thread_cpu();
	double other = all - s->worker_cpu - caller;
	unsigned i, n = s->threads < RUN_TOTALS_THREADS ? s->threads : RUN_TOTALS_THREADS;

	if (f->serial)
		fprintf(out, "parallel none    %d buffer(s) on one thread: "
			     "small, TPIU, a circular buffer's pieces, a "
			     "stream, samples converted in memory or no cut "
			     "point (ETMv1: no usable BE/BD)\n",
			f->serial);
	if (!f->runs)
		return;
	fprintf(out, "parallel threads %u, chunks %llu (%llu void, %llu "
		     "claimed), wall %.3f s\n",
		s->threads,
		(unsigned long long)s->chunks,
		(unsigned long long)s->chunks_void,
		(unsigned long long)s->chunks_claimed, s->wall);
	fprintf(out, "parallel cpu     process %.3f s: workers %.3f s, "
		     "calling thread %.3f s (%.3f s in the runs), other threads "
		     "%.3f s\n",
		all, s->worker_cpu, caller, s->caller_cpu,
		other > 0 ? other : 0);
	for (i = 0; i < n; i++)
		fprintf(out, "parallel thread  %u: cpu %.3f s, waited %.3f s, "
			     "idle at the end %.3f s, %llu chunks, %llu bytes\n",
			i,
			f->thread[i].cpu, f->thread[i].wait,
			f->thread[i].idle_end,
			(unsigned long long)f->thread[i].chunks,
			(unsigned long long)f->thread[i].decoded);
	fprintf(out, "parallel serial  %.2f%% of CPU: the calling thread "
		     "%.2f%% (%.2f%% in the runs), planning under the lock %.2f%%\n",
		pct(caller + s->plan, all), pct(caller, all),
		pct(s->caller_cpu, all), pct(s->plan, all));
	fprintf(out, "parallel redundant %.2f%% of input decoded twice "
		     "(chunk heads %.2f%%; converged within %llu bytes)\n",
		pct(s->decoded > s->bytes ? (double)(s->decoded - s->bytes) : 0,
		    (double)s->bytes),
		pct((double)s->head_redundant, (double)s->bytes),
		(unsigned long long)s->converge_max);
	fprintf(out, "parallel deliver %.2f%% of the output by the workers, "
		     "%.2f%% by the calling thread (%.1f MiB)\n",
		pct((double)s->emit_live, (double)(s->emit_live + s->emit_caller)),
		pct((double)s->emit_caller, (double)(s->emit_live + s->emit_caller)),
		(double)(s->emit_live + s->emit_caller) / 1048576.0);
	fprintf(out, "parallel wait    workers %.3f s, idle at the end %.3f s; "
		     "calling thread %.3f s\n",
		s->worker_wait, s->worker_idle_end,
		s->caller_wait);
}
