/* load/open_perf_who.c - whose trace a piece of a perf.data AUX buffer
 * is, from the sideband alone (doc/perfdata.md, "Processes from the
 * sideband").
 *
 * perf.data records are in the order perf read them; an AUX record says
 * the CPU's trace up to its offset + size was written. A record between
 * two AUX records of a CPU happened while the trace of the second piece
 * was being written: the piece is the process that the first "who runs"
 * record of the CPU after the previous AUX record names (ITRACE_START,
 * SWITCH in, SWITCH_CPU_WIDE: out names the next process, in the one
 * coming in), applied at the buffer boundary; with none, the process
 * still running from before (the last such record, unless a SWITCH out
 * ended it); with none either, the AUX record's own sample id. The
 * perf clock of SWITCH records and the trace's timestamps have no
 * recorded conversion, so a switch inside a piece cannot be placed
 * closer than that boundary. FORK makes a process that inherits its
 * parent's mappings (those before the FORK); an EXIT ends the pid's
 * generation: its mappings are not used after it. */
#include <stdint.h>

#include "load/open_perf_int.h"

/* Whether sideband record @a says which process runs on CPU @cpu. */
static int pf_names(const struct pf_aux *a, uint32_t cpu)
{
	return a->has_cpu && a->cpu == cpu && a->has_tid &&
	       (a->kind == PA_START || a->kind == PA_IN);
}

/* Per-thread mode: the process of thread @tid (the thread itself when
 * no COMM or FORK names it). */
static uint32_t pf_thread_pid(const struct pf *pf, uint32_t tid)
{
	size_t k;

	for (k = 0; k < pf->ntasks; k++)
		if (pf->tasks[k].kind != PT_EXIT && pf->tasks[k].tid == tid)
			return pf->tasks[k].pid;
	return tid;
}

/* No AUX record: the last record before @t that names a process. */
static struct pf_who pf_last_who(const struct pf *pf, const struct pf_atr *t)
{
	struct pf_who w = { PF_NO_PID, PF_NO_PID, SIZE_MAX };
	size_t k;

	for (k = t->seq; k-- > 0;)
		if (pf->aux[k].has_cpu && pf->aux[k].cpu == t->cpu &&
		    pf->aux[k].has_tid && pf->aux[k].kind != PA_OUT) {
			w.pid = pf->aux[k].pid;
			w.tid = pf->aux[k].tid;
			w.ord = pf->aux[k].ord;
			break;
		}
	return w;
}

struct pf_who pf_piece_who(const struct pf *pf, const struct pf_atr *t, size_t k)
{
	struct pf_who w = { PF_NO_PID, PF_NO_PID, SIZE_MAX };
	uint32_t cpu;
	size_t j, i;

	if (t->cpu == ETM_PERF_NO_CPU) {
		w.tid = t->tid;
		w.pid = pf_thread_pid(pf, t->tid);
		w.ord = k < pf->naux ? pf->aux[k].ord : SIZE_MAX;
		return w;
	}
	if (k >= pf->naux)
		return pf_last_who(pf, t);
	cpu = pf->aux[k].has_cpu ? pf->aux[k].cpu : t->cpu;
	for (j = k; j-- > 0;)
		if (pf->aux[j].kind == PA_AUX && pf->aux[j].has_cpu &&
		    pf->aux[j].cpu == cpu)
			break;
	/* j: the previous AUX record of the CPU (SIZE_MAX: none) */
	for (i = j + 1; i < k; i++)
		if (pf_names(&pf->aux[i], cpu))
			break;
	if (i == k && j != SIZE_MAX)
		for (i = j; i-- > 0;)
			if (pf_names(&pf->aux[i], cpu) ||
			    (pf->aux[i].kind == PA_OUT && pf->aux[i].has_cpu &&
			     pf->aux[i].cpu == cpu)) {
				if (pf->aux[i].kind == PA_OUT)
					i = SIZE_MAX;
				break;
			}
	if (i < k && i != SIZE_MAX && pf_names(&pf->aux[i], cpu)) {
		w.pid = pf->aux[i].pid;
		w.tid = pf->aux[i].tid;
		w.ord = pf->aux[i].ord;
	} else if (pf->aux[k].has_tid) {
		w.pid = pf->aux[k].pid;
		w.tid = pf->aux[k].tid;
		w.ord = pf->aux[k].ord;
	}
	return w;
}

size_t pf_gen(const struct pf *pf, uint32_t pid, size_t ord)
{
	size_t k, g = 0;

	for (k = 0; k < pf->ntasks; k++)
		if (pf->tasks[k].kind == PT_EXIT && pf->tasks[k].pid == pid &&
		    pf->tasks[k].ord < ord)
			g++;
	return g;
}

/* The FORK that made process @pid in generation @gen (NULL: none). */
static const struct pf_task *pf_fork_of(const struct pf *pf, uint32_t pid,
					size_t gen)
{
	size_t k;

	for (k = 0; k < pf->ntasks; k++) {
		const struct pf_task *t = &pf->tasks[k];

		if (t->kind == PT_FORK && t->pid == pid && t->ppid != pid &&
		    pf_gen(pf, pid, t->ord) == gen)
			return t;
	}
	return NULL;
}

int pf_lineage(const struct pf *pf, uint32_t pid, size_t gen,
	       struct pf_lineage *l)
{
	size_t before = SIZE_MAX;

	for (l->n = 0; l->n < PF_FORK_DEPTH;) {
		const struct pf_task *f;

		l->p[l->n].pid = pid;
		l->p[l->n].gen = gen;
		l->p[l->n++].before = before;
		f = pf_fork_of(pf, pid, gen);
		if (!f || f->ord >= before)
			break;
		before = f->ord;
		pid = f->ppid;
		gen = pf_gen(pf, pid, before);
	}
	return 0;
}

int pf_map_in(const struct pf *pf, const struct pf_map *m,
	      const struct pf_lineage *l)
{
	size_t k;

	for (k = 0; k < l->n; k++)
		if (m->pid == l->p[k].pid && m->ord < l->p[k].before &&
		    pf_gen(pf, m->pid, m->ord) == l->p[k].gen)
			return 1;
	return 0;
}
