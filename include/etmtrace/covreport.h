/* etmtrace/covreport.h - coverage reports (etmtrace/coverage.h) that need
 * the program image and, where given, the symbols and DWARF lines
 * (etmtrace/symbols.h): in libetmtrace_symbols. The reports of
 * `etmtrace coverage`. */
#ifndef ETM_ETMTRACE_COVREPORT_H
#define ETM_ETMTRACE_COVREPORT_H

#include <stddef.h>

#include <etmtrace/coverage.h>
#include <etmtrace/image.h>
#include <etmtrace/listing.h>
#include <etmtrace/srcpath.h>
#include <etmtrace/symbols.h>
#include <etmtrace/write.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The reports. */
enum etm_cov_report {
	etm_cov_report_ranges,  /**< executed / never-executed address ranges
				 * per function (or image region without
				 * symbols) */
	etm_cov_report_lcov,    /**< lcov tracefile (TN/SF/FN/FNDA/FNF/FNH/
				 * BRDA/BRF/BRH/DA/LF/LH) from DWARF lines */
	etm_cov_report_insns,   /**< "ADDR EXEC FAIL UNKNOWN" per instruction */
	etm_cov_report_listing, /**< annotated listing of every function (or
				 * image region): counts, never-executed
				 * instructions, one-way branches */
};

/** What a report is made from; pointers borrowed for the call. */
struct etm_cov_report_opts {
	size_t size;                       /**< sizeof(struct etm_cov_report_opts) */
	const struct etm_image *img;       /**< for instructions never executed */
	const struct etm_symbols *sym;     /**< may be NULL (no symbol file) */
	const struct etm_srcpath *srcpath; /**< lcov SF: where the source files
					    * are (NULL: as DWARF names them) */
	const char *test_name;             /**< lcov TN (NULL: empty) */
	struct etm_disasm_hook dis;        /**< listing: insn NULL shows the class */
	etm_write_fn write;                /**< the report's text goes here */
	void *write_ctx;
};

/** Write report @kind of coverage @cov as @o says. Returns 0,
 * -etme_invalid (bad arguments, or lcov without line information),
 * -etme_nomem, or the first negative value of the write callback (nothing
 * more is written after it). */
int etm_cov_report(const struct etm_cov *cov, enum etm_cov_report kind,
		   const struct etm_cov_report_opts *o);

#ifdef __cplusplus
}
#endif

#endif
