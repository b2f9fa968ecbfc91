/* cli/covcmd.h - shared state of `etmtrace coverage` and `etmtrace fdo`:
 * the accumulated coverage, the program image and symbols the output
 * formats read, and the formatters (covlcov.c, covlist.c). */
#ifndef ETM_CLI_COVCMD_H
#define ETM_CLI_COVCMD_H

#include <stdio.h>

#include <etmtrace/coverage.h>
#include <etmtrace/etmtrace.h>
#include <etmtrace/symbols.h>

struct covout {
	struct etm_cov *cov;
	const struct etm_image *img;   /* for instructions never executed */
	const struct etm_symbols *sym; /* may be NULL (no symbol file) */
	FILE *f;
	const char *test_name;
	struct disasm *dis; /* --format text */
};

/* lcov tracefile (TN/SF/FN/FNDA/FNF/FNH/BRDA/BRF/BRH/DA/LF/LH) from the
 * DWARF lines of o->sym. Returns 0 or 2 (no line information, no memory). */
int cov_write_lcov(struct covout *o);
/* Annotated listing of every function (or image region without symbols):
 * counts, never-executed instructions, one-way branches. Returns 0 or 2. */
int cov_write_listing(struct covout *o);
/* Executed / never-executed address ranges per function (or per image
 * region without symbols). Returns 0 or 2. */
int cov_write_ranges(struct covout *o);
/* Per-instruction counts: "ADDR EXEC FAIL UNKNOWN" lines. Returns 0. */
int cov_write_insns(struct covout *o);

struct session;
/* Decode the session's trace file on s->jobs threads into @total
 * (covpar.c). Returns 0, 2 on an error (message printed), or -1 if the
 * input is not a regular file (then use session_run()). */
int covpar_run(struct session *s, struct etm_cov *total);

/* Write callback of the library writers: @ctx is a FILE *. */
int cov_fwrite(void *ctx, const char *s, size_t n);

/* The instruction at @addr in @isa read from @img into @in; 0 or -1. */
int cov_decode_at(const struct etm_image *img, uint64_t addr,
		  enum etm_isa isa, struct etm_insn *in);

#endif
