/* etmtrace/snapwrite.h - CoreSight snapshots (the form etmtrace/snapshot.h
 * reads): the text of each file (snapshot.ini, core and trace source device
 * files, trace.ini), and etm_snapw_write(), which writes a whole snapshot
 * directory with them. `etmtrace synth` and the built-in sample's
 * generator (examples/mksample.c) write their snapshots with it. */
#ifndef ETM_ETMTRACE_SNAPWRITE_H
#define ETM_ETMTRACE_SNAPWRITE_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/source.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A [dumpN] section of a core device: @length bytes of file @file (a
 * name relative to the snapshot) loaded at @addr. etm_snapw_write()
 * writes the file from @data (@length bytes) when @data is not NULL. */
struct etm_snapw_dump {
	const char *file;
	uint64_t addr;
	uint64_t length;
	const void *data;
};

/* Every function writes its text snprintf-style: at most @n - 1 bytes
 * and a NUL into @buf (@buf may be NULL when @n is 0), and returns the
 * length of the whole text, or -etme_invalid for a missing argument.
 * The text fits when the result is below @n. */

/** snapshot.ini: a comment line "; @comment" (none if NULL), the device
 * list as @keys[i]=@files[i] (i < @ndev), the trace metadata trace.ini. */
int etm_snapw_index(char *buf, size_t n, const char *comment,
		    const char *const *keys, const char *const *files,
		    size_t ndev);

/** A core device file: [device] @name, class core, @type; with @regs a
 * [regs] section giving the reset state (PC=0, CPSR=0x1d3: Supervisor,
 * A32, interrupts masked); the dumps as [dump@first], [dump@first+1]. */
int etm_snapw_core(char *buf, size_t n, const char *name, const char *type,
		   int regs, const struct etm_snapw_dump *dumps, size_t ndumps,
		   unsigned first);

/** A trace source device file for configuration @cfg: [device] @name,
 * class trace_source, @type (NULL: from the configuration: "PFT1.1" for
 * PTM, "ETM3.5" / "ETM3.4" / "ETM3.3" for ETMv3 by ETMIDR's minor
 * version, "ETM1.<minor>" for ETMv1), and the registers the reader takes
 * the configuration from: ETMCR, ETMIDR, ETMCCER, ETMTRACEIDR (ETMv1:
 * ETMCR, ETMCCR). */
int etm_snapw_source(char *buf, size_t n, const char *name, const char *type,
		     const struct etm_config *cfg);

/** trace.ini: one buffer (section buffer0) named @bufname in file @file,
 * of format @fmt (etm_fmt_coresight: "coresight", else "source_data"),
 * holding the trace of @sources[i], each traced from core @cores[i]
 * (i < @nsrc; a NULL @cores[i]: a source of no core, such as an ITM). */
int etm_snapw_trace(char *buf, size_t n, const char *bufname,
		    const char *file, enum etm_input_format fmt,
		    const char *const *sources, const char *const *cores,
		    size_t nsrc);

/** A device of a snapshot etm_snapw_write() writes. */
struct etm_snapw_device {
	const char *key;  /**< its key in snapshot.ini ("core0", "device1") */
	const char *file; /**< its file in the snapshot ("cpu_0.ini") */
	const char *name; /**< [device] name ("cpu_0", "PTM_0") */
	/** A core: etm_snapw_core(@name, @type, @regs, @dumps, @ndumps,
	 * @first), and the dumps' files from their data. A trace source:
	 * etm_snapw_source(@name, @type, @cfg), or @text as it is (a source
	 * the configuration does not describe, such as an ITM). */
	int is_core;
	const char *type;
	int regs;
	const struct etm_snapw_dump *dumps;
	size_t ndumps;
	unsigned first;
	const struct etm_config *cfg;
	const char *text;
	/** A trace source: the name of the core it traces (NULL: none). */
	const char *core;
};

/** A whole snapshot: snapshot.ini (comment line @comment, the devices in
 * the order of @devs), each device's file, and trace.ini: one buffer
 * @bufname in file @trace_file of format @fmt holding the trace of every
 * source of @devs, in their order. */
struct etm_snapw_snapshot {
	const char *comment;
	const struct etm_snapw_device *devs;
	size_t ndevs;
	const char *bufname;
	const char *trace_file;
	enum etm_input_format fmt;
	/** The trace file's bytes (NULL: the caller writes that file). */
	const void *trace;
	size_t trace_len;
};

/** Write snapshot @s into directory @dir (created if it does not exist;
 * files of the same names in it are replaced). Returns 0, -etme_invalid
 * (a missing field), -etme_nomem, or -etme_io with "cannot write PATH:
 * REASON" (or "cannot create DIR: REASON") in @err (@errlen bytes; may be
 * NULL when @errlen is 0). */
int etm_snapw_write(const char *dir, const struct etm_snapw_snapshot *s,
		    char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
