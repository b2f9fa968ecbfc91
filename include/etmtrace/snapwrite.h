/* etmtrace/snapwrite.h - the text of CoreSight snapshot files (the form
 * etmtrace/snapshot.h reads): snapshot.ini, core and trace source device
 * files, trace.ini. The caller writes the texts (and the dump and trace
 * files) where it wants them; `etmtrace synth` and the built-in sample's
 * generator (examples/mksample.c) write their snapshots with these. */
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
 * name relative to the snapshot) loaded at @addr. */
struct etm_snapw_dump {
	const char *file;
	uint64_t addr;
	uint64_t length;
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
 * (i < @nsrc). */
int etm_snapw_trace(char *buf, size_t n, const char *bufname,
		    const char *file, enum etm_input_format fmt,
		    const char *const *sources, const char *const *cores,
		    size_t nsrc);

#ifdef __cplusplus
}
#endif

#endif
