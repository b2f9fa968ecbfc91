/* covout/covout.h - coverage reports from the accumulated coverage
 * (etmtrace/coverage.h), the program image and, where given, the symbols
 * (libdw: part of libetmtrace_symbols): lcov, an annotated listing,
 * address ranges, per-instruction counts, written through a callback like
 * the cov layer's own reports (etm_write_fn). Library-internal: the
 * CLI's `etmtrace coverage` drives them. */
#ifndef ETM_COVOUT_COVOUT_H
#define ETM_COVOUT_COVOUT_H

#include <etmtrace/coverage.h>
#include <etmtrace/etmtrace.h>
#include <etmtrace/listing.h>
#include <etmtrace/srcpath.h>
#include <etmtrace/symbols.h>

struct covout {
	const struct etm_cov *cov;
	const struct etm_image *img;   /* for instructions never executed */
	const struct etm_symbols *sym; /* may be NULL (no symbol file) */
	etm_write_fn write;            /* the report's text goes here */
	void *write_ctx;
	const char *test_name;
	struct etm_disasm_hook dis; /* listing: insn NULL shows the class */
	int err;                    /* the first negative value of write: nothing more written */
	/* lcov SF: where the source files are (NULL: as DWARF names them) */
	const struct etm_srcpath *srcpath;
};

/* printf-style text of a report through o->write, unless an earlier
 * write failed (o->err; set to the writer's value, or -etme_nomem). */
void cov_printf(struct covout *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* lcov tracefile (TN/SF/FN/FNDA/FNF/FNH/BRDA/BRF/BRH/DA/LF/LH) from the
 * DWARF lines of o->sym. Returns 0, -etme_invalid (no line information),
 * -etme_nomem or the writer's error (o->err). */
int cov_write_lcov(struct covout *o);
/* Annotated listing of every function (or image region without symbols):
 * counts, never-executed instructions, one-way branches. Returns 0 or the
 * writer's error. */
int cov_write_listing(struct covout *o);
/* Executed / never-executed address ranges per function (or per image
 * region without symbols). Returns 0 or the writer's error. */
int cov_write_ranges(struct covout *o);
/* Per-instruction counts: "ADDR EXEC FAIL UNKNOWN" lines. Returns 0 or
 * the writer's error. */
int cov_write_insns(struct covout *o);

/* The instruction at @addr in @isa read from @img into @in; 0 or -1. */
int cov_decode_at(const struct etm_image *img, uint64_t addr,
		  enum etm_isa isa, struct etm_insn *in);

#endif
