/* load/open_perf_int.h - a perf.data file opened as a capture: the
 * sideband kept from its records (load/open_perf.c) and the sources and
 * images made from it (load/open_perf_src.c). */
#ifndef ETM_LOAD_OPEN_PERF_INT_H
#define ETM_LOAD_OPEN_PERF_INT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/perfdata.h>

#include "load/open_int.h"

#define PF_NO_PID 0xffffffffu

struct pf_map { /* an executable mapping */
	uint32_t pid;
	uint64_t addr, len, pgoff;
	char *path;
	uint8_t bid[20];
	size_t bidlen;
	size_t ord; /* its place among the file's records */
};

enum pf_task_kind { PT_COMM,
		    PT_FORK,
		    PT_EXIT };

struct pf_task { /* COMM, FORK: thread to process (and its name); EXIT */
	enum pf_task_kind kind;
	uint32_t pid, tid, ppid; /* ppid: FORK's parent */
	size_t ord;              /* its place among the file's records */
	char comm[16];
};

/* The sideband that orders a CPU's trace: an AUX record, or who runs. */
enum pf_aux_kind {
	PA_AUX,   /* AUX: the CPU's trace up to @off + @size was written */
	PA_START, /* ITRACE_START: @pid starts being traced on the CPU */
	PA_IN,    /* SWITCH in, SWITCH_CPU_WIDE: @pid runs on the CPU now */
	PA_OUT    /* SWITCH out (not CPU-wide): @pid stops; next not known */
};

struct pf_aux { /* with its sample id (pid, tid: the process named) */
	enum pf_aux_kind kind;
	int has_cpu, has_tid;
	uint32_t cpu, pid, tid;
	uint64_t off, size, flags;
	size_t ord; /* its place among the file's records */
};

struct pf_atr { /* AUXTRACE */
	uint32_t cpu, tid;
	uint64_t off, size, data;
	size_t seq; /* AUX/ITRACE_START records before it */
};

struct pf_hw { /* AUX_OUTPUT_HW_ID */
	uint32_t cpu;
	unsigned id;
};

struct pf_img { /* a process's image */
	uint32_t pid;
	size_t gen; /* EXIT records of the pid before its trace */
	const struct etm_image *img;
};

struct pf {
	struct etm_perf *p;
	struct pf_map *maps;
	size_t nmaps;
	struct pf_task *tasks;
	size_t ntasks;
	struct pf_aux *aux;
	size_t naux;
	struct pf_atr *atr;
	size_t natr;
	struct pf_hw *hw;
	size_t nhw;
	struct pf_img *pimg;
	size_t npimg;
	unsigned *ids; /* trace ID of each metadata CPU (0: unknown) */
	size_t nrec;   /* records read */
};

void pf_free(struct pf *pf);
/* Who a piece of trace is of: process, thread (PF_NO_PID: not known),
 * and the place among the file's records where it ran. */
struct pf_who {
	uint32_t pid, tid;
	size_t ord;
};

/* Who the piece of @t that AUX record @k (SIZE_MAX: no AUX record, all
 * of @t) ends holds (load/open_perf_who.c). */
struct pf_who pf_piece_who(const struct pf *pf, const struct pf_atr *t, size_t k);
/* The generation of @pid at record @ord: its EXIT records before it
 * (load/open_perf_who.c). */
size_t pf_gen(const struct pf *pf, uint32_t pid, size_t ord);
/* Parents followed at most this deep (a FORK loop ends there). */
#define PF_FORK_DEPTH 16

/* A process and the parents it inherits mappings from: each a pid in a
 * generation, its mappings before record @before (a child's FORK). */
struct pf_lineage {
	size_t n;
	struct {
		uint32_t pid;
		size_t gen, before;
	} p[PF_FORK_DEPTH];
};

/* Process @pid of generation @gen and the parents that forked it
 * (load/open_perf_who.c). */
int pf_lineage(const struct pf *pf, uint32_t pid, size_t gen,
	       struct pf_lineage *l);
/* Whether mapping @m is one of the lineage's. */
int pf_map_in(const struct pf *pf, const struct pf_map *m,
	      const struct pf_lineage *l);
/* The sources of buffer @bi, holding trace of @w written on CPU @cpu
 * (load/open_perf_src.c). */
int pf_sources(struct cap_ctx *c, struct pf *pf, const struct pf_who *w,
	       size_t bi, uint32_t cpu);
/* The image of process @pid in generation @gen (made once;
 * load/open_perf_src.c). */
int pf_image(struct cap_ctx *c, struct pf *pf, uint32_t pid, size_t gen,
	     const struct etm_image **out);
/* The images of every process that has a mapping, selected by the Context
 * ID when the trace has one (load/open_perf_ctx.c). */
int pf_ctx_images(struct cap_ctx *c, struct pf *pf);
/* Buffer @bi's piece was written between records @start (the AUX record
 * that ends its CPU's or thread's previous piece; 0: none) and @end (its
 * own AUX record): its Context IDs are looked up in the generations in
 * force there. */
int pf_ctx_piece(struct cap_ctx *c, size_t bi, size_t start, size_t end);
/* No AUX trace: the CPUs listed, with a placeholder buffer. */
int pf_unsupported(struct cap_ctx *c, struct pf *pf);

#endif
