/* etmtrace/runstats.h - figures of a parallel decode: where the CPU time
 * went (calling thread, workers, waiting), how much input was decoded
 * twice, and how the input was cut. For scaling studies (Amdahl's law:
 * the calling thread's serial work and the redundant decode are what
 * limit the speed-up on many cores). */
#ifndef ETMTRACE_RUNSTATS_H
#define ETMTRACE_RUNSTATS_H

#include <stdint.h>

#include <etmtrace/decoder.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One worker thread of a run. Times in seconds. */
struct etm_run_thread {
	double cpu;       /**< CPU time of the thread */
	double wait;      /**< wall time blocked: full output queue, a
			       * successor's checkpoint, no chunk to take */
	double idle_end;  /**< wall time from its exit to the run's end */
	uint64_t decoded; /**< input bytes it pushed to its decoder */
	uint64_t chunks;  /**< chunks it decoded */
};

/** Figures of one run. Times in seconds (CPU time where named so). */
struct etm_run_stats {
	unsigned threads;        /**< worker threads (0: all on the calling
			       * thread: one job, small or TPIU input) */
	double wall;             /**< the run, start to end */
	double caller_cpu;       /**< CPU time of the calling thread in the run:
			       * ordered delivery (ops->emit), bookkeeping
			       * (with no workers: the whole decode) */
	double caller_wait;      /**< wall time the calling thread waited for
			       * the next piece of output */
	double worker_cpu;       /**< CPU time of all workers */
	double worker_wait;      /**< wall time workers were blocked (sum) */
	double worker_idle_end;  /**< wall time workers had exited before the
				 * run ended (sum: load imbalance) */
	double plan;             /**< CPU time spent finding cut points, under
			       * the run's lock (serial; part of worker_cpu) */
	uint64_t bytes;          /**< input size */
	uint64_t decoded;        /**< input bytes pushed to decoders by all
			       * threads; decoded - bytes is redundant work */
	uint64_t head_redundant; /**< of that, chunk starts decoded both by
				  * the chunk's worker and by its
				  * predecessor's up to where they
				  * converged */
	uint64_t converge_max;   /**< the farthest into a chunk that its
				* predecessor's decoder went before the two
				* converged (chunk heads follow it) */
	uint64_t chunks;         /**< chunks cut */
	uint64_t chunks_void;    /**< chunks whose own decode was thrown away
			       * (no convergence: the predecessor's decoder
			       * went through them) */
	uint64_t chunks_claimed; /**< chunks no worker had started when the
				  * predecessor reached them (decoded once) */
	uint64_t emit_live;      /**< bytes of the pieces emitted by worker
				  * threads (etm_run_ops.live; a live
				  * piece's bytes are what its consumer
				  * wrote out) */
	uint64_t emit_caller;    /**< bytes of the pieces emitted by the
				  * calling thread */
	/** Optional caller array of @threads_cap entries: filled for the
	 * first min(threads, threads_cap) workers. */
	struct etm_run_thread *thread;
	unsigned threads_cap;
};

/** etm_decoder_run_ops() that also fills *@st (if not NULL) with the run's
 * figures (its thread and threads_cap fields are the caller's). */
int etm_decoder_run_ops_stats(struct etm_decoder *d, etm_read_fn rd,
			      void *rctx, uint64_t size, unsigned jobs,
			      const struct etm_run_ops *ops, void *ctx,
			      struct etm_run_stats *st);

#ifdef __cplusplus
}
#endif
#endif
