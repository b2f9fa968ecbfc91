/* bench/bench.h - benchmark harness shared definitions: a case (trace file,
 * configuration, program image, mode) and the counts/timings of one run. */
#ifndef ETM_BENCH_BENCH_H
#define ETM_BENCH_BENCH_H

#include <stdint.h>

#include <etmtrace/etmtrace.h>

#define BENCH_MAX_MEM 8

/* A program image region read from a file. */
struct bench_mem {
	uint64_t addr;
	const char *path;
	uint64_t offset, length;
};

struct bench_case {
	const char *name;
	const char *trace;         /* trace file */
	enum etm_input_format fmt; /* raw or coresight */
	struct etm_config cfg;
	struct bench_mem mem[BENCH_MAX_MEM];
	int nmem;
	int full;       /* 0: packet parsing only, 1: full decode */
	uint64_t limit; /* decode only the first bytes (0 = all) */
	int jobs;       /* etmtrace: worker threads (0/1 = one) */
	int run_items;  /* --jobs through etm_decoder_run() (items
				       * to the calling thread), not _run_ops() */
};

/* Totals of one run (filled in a child process). */
struct bench_result {
	int ok;           /* 0: the decoder could not run */
	double secs;      /* decode time, input reading included */
	uint64_t bytes;   /* input bytes decoded */
	uint64_t packets; /* packets (packet mode) */
	uint64_t insns;   /* instructions in executed ranges */
	uint64_t elems;   /* elements of any kind */
	uint64_t errors;  /* error / no-sync elements */
	long maxrss_kb;   /* peak RSS of the child process */
	double cpu;       /* CPU time of the child process */
	/* --jobs N (etm_decoder_run_ops_stats()): */
	double caller_cpu;            /* the calling thread's CPU time, setup
				       * included: the serial work */
	double worker_wait, idle_end; /* workers blocked, idle at the end */
	uint64_t decoded;             /* input bytes decoded by all threads */
	uint64_t chunks, chunks_void;
	char msg[128];
};

/* Read size for both decoders: input is streamed, never loaded whole.
 * 128 KiB, as the CLI reads (CAP_CHUNK, src/load/capread.h): read()
 * writes the chunk through this core's L2 (1 MiB here) and the decoder
 * reads it back; a 1 MiB chunk is evicted before it is read, so every
 * input line went through the shared L3 three times more
 * (doc/measurements/2026-12-07-read-footprint.md). */
#define BENCH_CHUNK (1u << 17)

/* etmtrace through its public API. Returns 0 or -1 (msg set). */
int bench_etm_run(const struct bench_case *c, struct bench_result *r);
/* OpenCSD through its C API; -1 with msg when it is not available. */
int bench_ocsd_run(const struct bench_case *c, struct bench_result *r);
/* 1 when the OpenCSD peer was built in, its version string in @ver. */
int bench_ocsd_available(char *ver, unsigned n);

/* Synthetic programs. */
enum bench_prog {
	bench_prog_loop,   /* tight conditional loops */
	bench_prog_branch, /* calls, returns, indirect branches,
				       * A32 <-> T32 interworking */
};

/* Write a synthetic trace of at least @bytes bytes (raw, one source) for
 * @proto running program @prog to @trace_path, and the program bytes to
 * @prog_path; fill @c (trace, fmt, cfg, mem). Returns 0 or -1 with a
 * message on stderr. */
int bench_synth(struct bench_case *c, enum etm_protocol proto,
		enum bench_prog prog, uint64_t bytes, const char *trace_path,
		const char *prog_path);

/* Write a synthetic ITM/DWT stream (raw SWO, trace ID 1) of at least
 * @bytes bytes to @path (kept if it is there already); fill @c (trace,
 * fmt, cfg). Returns 0 or -1 with a message on stderr. */
int bench_itm_synth(struct bench_case *c, uint64_t bytes, const char *path);

#endif
