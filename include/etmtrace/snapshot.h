/* etmtrace/snapshot.h - reader for CoreSight snapshot directories
 * (snapshot.ini, device .ini files, trace.ini): trace sources with their
 * configuration registers, trace buffers, and core memory dumps. */
#ifndef ETM_ETMTRACE_SNAPSHOT_H
#define ETM_ETMTRACE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/image.h>
#include <etmtrace/source.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A memory dump of a core ([dump] section). */
struct etm_snap_dump {
	char *path;      /**< full path of the dump file */
	uint64_t addr;   /**< load address */
	uint64_t length; /**< bytes (0 = whole file from offset) */
	uint64_t offset; /**< offset in the file */
	enum etm_space space;
};

/** A trace source (ETM/PTM device) and what it is attached to. */
struct etm_snap_source {
	char *name;                  /**< device name, e.g. "ETM_0" */
	char *core;                  /**< core name, e.g. "cpu_0" (may be NULL) */
	char *core_type;             /**< core type string from the core device, e.g. "Cortex-A15" */
	char *buffer;                /**< trace buffer name it writes into (may be NULL) */
	char *type;                  /**< device type string, e.g. "ETM3.5", "PTM1.1" */
	struct etm_config cfg;       /**< protocol + registers */
	struct etm_snap_dump *dumps; /**< the core's memory */
	size_t ndumps;
};

/** A trace buffer from trace.ini. */
struct etm_snap_buffer {
	char *name;
	char **files; /**< one or more data files, full paths */
	size_t nfiles;
	enum etm_input_format format;
};

struct etm_snapshot {
	char *dir;
	struct etm_snap_source *sources;
	size_t nsources;
	struct etm_snap_buffer *buffers;
	size_t nbuffers;
	/** Trace sources of protocols not decoded (ETMv4, ITM, STM, ...):
	 * protocol etm_proto_unknown, trace ID in cfg.traceid when the device
	 * file gives it (ETMTRACEIDR, TRCTRACEIDR, ITMTCR/STMTCSR[22:16]). */
	struct etm_snap_source *others;
	size_t nothers;
};

/** Read the snapshot directory @dir. On success *@snap is set (free with
 * etm_snapshot_free()). On failure a one-line message naming the file and
 * line is written to @errbuf.
 * Returns 0, -etme_io (missing/unreadable file), -etme_parse (malformed ini
 * or register value), -etme_nomem. */
int etm_snapshot_load(struct etm_snapshot **snap, const char *dir,
		      char *errbuf, size_t errlen);
/** etm_snapshot_load() flag: follow file references that leave the
 * snapshot directory (absolute paths, "..", symbolic links pointing out).
 * Without it they are refused with -etme_parse, so that a snapshot from a
 * stranger cannot pull other files in as memory or trace. */
#define ETM_SNAP_ALLOW_OUTSIDE 1u

/** etm_snapshot_load() with ETM_SNAP_* @flags. Files the snapshot refers to
 * must be regular files (-etme_io otherwise: a FIFO would block, a device
 * may never end). etm_snapshot_load() is this with @flags 0. */
int etm_snapshot_load_ex(struct etm_snapshot **snap, const char *dir,
			 unsigned flags, char *errbuf, size_t errlen);
/** Free; NULL is a no-op. */
void etm_snapshot_free(struct etm_snapshot *snap);

/** Find the source with trace ID @id; NULL if none. */
const struct etm_snap_source *etm_snapshot_find(const struct etm_snapshot *snap,
						unsigned id);

/** Add the memory dumps of @src's core to @img. A dump whose file is an
 * ELF file adds that file's executable segments at their own addresses
 * (etm_image_add_elf(), its address, offset and length unused).
 * Returns 0, or an error from etm_image_add_file() with @errbuf filled. */
int etm_snapshot_add_memory(const struct etm_snap_source *src,
			    struct etm_image *img, char *errbuf, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
