/* etmtrace/perfdata.h - Linux perf.data files with CoreSight (cs_etm) AUX
 * trace: a streaming reader of the file header, the cs_etm AUXTRACE_INFO
 * metadata (header versions 0, 1 and 2; ETMv3/PTM per-CPU blocks; ETMv4
 * and ETE blocks recognised, not decoded) and the data section's records
 * one at a time, and a writer of such files (for tests, and to hand trace
 * to perf). The layout is that of the kernel's tools/perf documentation
 * (perf.data-file-format.txt, include/uapi/linux/perf_event.h,
 * tools/perf/util/cs-etm.h); doc/perfdata.md describes what etmtrace does
 * with it. Both byte orders are read. */
#ifndef ETM_ETMTRACE_PERFDATA_H
#define ETM_ETMTRACE_PERFDATA_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record types (perf_event_type and perf's user record types). */
#define ETM_PERF_MMAP 1u
#define ETM_PERF_COMM 3u
#define ETM_PERF_EXIT 4u
#define ETM_PERF_FORK 7u
#define ETM_PERF_MMAP2 10u
#define ETM_PERF_AUX 11u
#define ETM_PERF_ITRACE_START 12u
#define ETM_PERF_SWITCH 14u
#define ETM_PERF_SWITCH_CPU_WIDE 15u
#define ETM_PERF_AUX_OUTPUT_HW_ID 21u
#define ETM_PERF_AUXTRACE_INFO 70u
#define ETM_PERF_AUXTRACE 71u

/* AUX record flags */
#define ETM_PERF_AUX_TRUNCATED 0x01u
#define ETM_PERF_AUX_OVERWRITE 0x02u /**< snapshot mode */
#define ETM_PERF_AUX_PARTIAL 0x04u
#define ETM_PERF_AUX_RAW 0x0100u /**< CoreSight: raw, not 16-byte frames */

/** "no CPU" in an AUXTRACE record (per-thread mode) and sample ids. */
#define ETM_PERF_NO_CPU 0xffffffffu

/** The cs_etm metadata of one CPU (AUXTRACE_INFO). */
struct etm_perf_cpu {
	uint32_t cpu;
	uint64_t magic;        /**< 0x30..30 ETMv3/PTM, 0x40..40 ETMv4, 0x50..50 ETE */
	struct etm_config cfg; /**< ETMv3/PTM: protocol (PTM when ETMIDR[11:8]
				*   is 3), ETMCR, ETMCCER, ETMIDR, trace ID */
	/** Header version 2: the trace ID is not in the metadata (its
	 * ETMTRACEIDR has bit 31 set) but in an AUX_OUTPUT_HW_ID record of
	 * the CPU; until one is read cfg.traceid is 0. */
	int id_from_hw;
	/** NULL for ETMv3/PTM, else why this CPU is not decoded. */
	const char *unsupported;
};

/** What etm_perf_open() found. */
struct etm_perf_info {
	int big_endian;                  /**< the file's byte order */
	uint64_t data_offset, data_size; /**< the data section */
	uint64_t sample_type;            /**< of the first attr */
	int sample_id_all;               /**< records carry a sample id */
	size_t nattrs;
	int have_auxtrace_info;  /**< a cs_etm AUXTRACE_INFO was read */
	uint32_t auxtrace_type;  /**< 3: cs_etm */
	uint64_t header_version; /**< cs_etm private header: 0, 1, 2 */
	uint32_t pmu_type;
	int snapshot;              /**< recorded in snapshot mode */
	struct etm_perf_cpu *cpus; /**< the per-CPU metadata */
	size_t ncpus;
};

/** One record of the data section. Strings point into the reader's
 * buffer: valid until the next call. */
struct etm_perf_rec {
	uint32_t type;
	uint16_t misc, size;
	uint64_t offset; /**< file offset of the record */
	/* the sample id of a non-sample record (sample_id_all) */
	int has_tid, has_cpu;
	uint32_t pid, tid, cpu;
	union {
		struct { /* MMAP, MMAP2 */
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			uint32_t prot; /**< MMAP2; MMAP: 4 (exec) */
			uint8_t build_id[20];
			uint8_t build_id_size; /**< MMAP2 with a build id */
			const char *filename;
		} mmap;
		struct { /* COMM */
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct { /* FORK, EXIT */
			uint32_t pid, ppid, tid, ptid;
		} fork;
		struct { /* AUX */
			uint64_t offset, size, flags;
		} aux;
		struct { /* AUXTRACE: @size bytes of trace follow at file
			  * offset @data */
			uint64_t size, offset, reference, data;
			uint32_t idx, tid, cpu;
		} auxtrace;
		struct { /* ITRACE_START */
			uint32_t pid, tid;
		} itrace;
		struct { /* SWITCH, SWITCH_CPU_WIDE (next/prev: 0 for SWITCH) */
			int out;
			uint32_t pid, tid;
		} sw;
		uint64_t hw_id; /* AUX_OUTPUT_HW_ID */
	} u;
};

struct etm_perf;

/** Open the perf.data file @path: reads the header, the attrs and the
 * AUXTRACE_INFO record (the data section is read up to it), and leaves
 * the reader at the first record. Memory used does not depend on the
 * file's size. On failure a one-line reason naming the file offset is
 * written to @err. Returns 0, -etme_io, -etme_parse (not a perf.data
 * file, malformed), -etme_nomem. */
int etm_perf_open(struct etm_perf **p, const char *path, char *err,
		  size_t errlen);
/** Free; NULL is a no-op. */
void etm_perf_close(struct etm_perf *p);
/** The file's header and metadata. */
const struct etm_perf_info *etm_perf_info(const struct etm_perf *p);
/** The next record of the data section into *@r (AUXTRACE data is not
 * read: its offset is given). Returns 0, -etme_eos after the last,
 * -etme_parse with @err naming the offset (a record past the section's
 * end, a size below 8, an AUXTRACE size past the end), -etme_io. */
int etm_perf_next(struct etm_perf *p, struct etm_perf_rec *r, char *err,
		  size_t errlen);
/** Back to the first record. Returns 0 or -etme_io. */
int etm_perf_rewind(struct etm_perf *p);
/** A build id of the HEADER_BUILD_ID feature section: @i-th, its file
 * name (valid while @p is open), the id and its size. Returns 0, or
 * -etme_eos past the last. */
int etm_perf_build_id(const struct etm_perf *p, size_t i, const char **name,
		      const uint8_t **id, size_t *idlen);

/* ---- writer ---- */

/** A memory mapping (MMAP2 record) of file @path. */
struct etm_perfw_map {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	const char *path;
};

/** A piece of trace: one AUX record and one AUXTRACE record of CPU @cpu
 * (per-CPU mode) or thread @tid (per-thread mode). */
struct etm_perfw_buf {
	uint32_t cpu, pid, tid;
	const uint8_t *data;
	size_t n;
	int raw; /**< not formatted: the AUX record says so */
};

/** What etm_perf_write() writes. */
struct etm_perfw_opts {
	size_t size;       /**< sizeof(struct etm_perfw_opts) */
	unsigned version;  /**< cs_etm header version 0, 1 or 2 */
	int per_thread;    /**< AUXTRACE records name a thread, no CPU */
	int big_endian;    /**< write the file big-endian */
	int snapshot;      /**< snapshot (overwrite) mode flags */
	uint32_t pmu_type; /**< the cs_etm PMU's type (0: 8) */
	const char *comm;  /**< COMM of every process (NULL: "etmsynth") */
	/** CPU-wide recording with switch events (perf record -a
	 * --switch-events): no ITRACE_START; a SWITCH_CPU_WIDE out record
	 * names a buffer's process when its CPU's process changes (the first
	 * buffer of a CPU too), and the AUX records' sample id is the idle
	 * task's (pid 0), so only the switches say whose trace it is. */
	int cpu_wide;
};

/** Write perf.data file @path: header, one cs_etm attr, a COMM record per
 * process, the MMAP2 records @maps, the AUXTRACE_INFO record with the
 * per-CPU metadata of @cfgs (CPU i has configuration @cfgs[i]), and per
 * buffer an ITRACE_START, an AUX_OUTPUT_HW_ID (version 2), the AUX record
 * and the AUXTRACE record with its data. Returns 0, -etme_io,
 * -etme_invalid (with @err filled). */
int etm_perf_write(const char *path, const struct etm_perfw_opts *o,
		   const struct etm_config *cfgs, size_t ncpus,
		   const struct etm_perfw_map *maps, size_t nmaps,
		   const struct etm_perfw_buf *bufs, size_t nbufs, char *err,
		   size_t errlen);

/** A memory region of an ELF file etm_elf_write() makes. */
struct etm_elfw_seg {
	uint64_t addr;
	const uint8_t *data;
	size_t n;
	uint64_t offset; /**< set by etm_elf_write(): its file offset */
};

/** Write a 32-bit little-endian Arm ELF executable @path holding @segs as
 * read-execute PT_LOAD segments, each at a file offset congruent to its
 * address modulo 4096 (set in segs[i].offset). Returns 0 or -etme_io. */
int etm_elf_write(const char *path, struct etm_elfw_seg *segs, size_t nsegs);

#ifdef __cplusplus
}
#endif
#endif
