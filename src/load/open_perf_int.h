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
};

struct pf_task { /* COMM, FORK: thread to process (and its name) */
	uint32_t pid, tid;
	char comm[16];
};

struct pf_aux { /* AUX (or ITRACE_START: @start) with its sample id */
	int start, has_cpu, has_tid;
	uint32_t cpu, pid, tid;
	uint64_t off, size, flags;
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
};

void pf_free(struct pf *pf);
/* The process whose trace @t holds (PF_NO_PID: not known), and its
 * thread into *@tid (PF_NO_PID: not known). */
uint32_t pf_pid(const struct pf *pf, const struct pf_atr *t, uint32_t *tid);
/* The sources of buffer @bi, holding trace of @t written on CPU @cpu
 * (load/open_perf_src.c). */
int pf_sources(struct cap_ctx *c, struct pf *pf, const struct pf_atr *t,
	       size_t bi, uint32_t cpu);
/* The image of process @pid (made once; load/open_perf_src.c). */
int pf_image(struct cap_ctx *c, struct pf *pf, uint32_t pid,
	     const struct etm_image **out);
/* The images of every process that has a mapping, selected by the Context
 * ID when the trace has one (load/open_perf_ctx.c). */
int pf_ctx_images(struct cap_ctx *c, struct pf *pf);
/* No AUX trace: the CPUs listed, with a placeholder buffer. */
int pf_unsupported(struct cap_ctx *c, struct pf *pf);

#endif
