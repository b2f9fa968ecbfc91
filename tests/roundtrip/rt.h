/* tests/roundtrip/rt.h - round-trip property test machinery: random option
 * combinations, generate + encode + decode one case, compare the decoded
 * instruction flow with the generated execution. */
#ifndef ETM_TESTS_RT_H
#define ETM_TESTS_RT_H

#include <stdint.h>
#include <stdio.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

/* One item of an instruction-flow sequence (expected or decoded). */
struct rt_rec {
	uint8_t kind; /* 1 insn, 2 exception */
	uint8_t isa;
	uint8_t exec;    /* insn: 1 E / unknown, 0 N */
	uint8_t n_known; /* expected: the protocol reveals E/N */
	uint8_t has_cum; /* decoded: cycles checked at this insn */
	uint16_t exc;
	uint64_t addr;
	uint32_t ctxid;
	uint8_t vmid, has_ctxid, has_vmid;
	uint8_t ns, hyp;
	uint64_t cum; /* cycles since trace on (see rt.c) */
};

struct rt_list {
	struct rt_rec *r;
	size_t n, cap;
};

#define RT_MAX_SRC 3

struct rt_src {
	struct etm_config cfg;
	struct etm_enc_opts eo;
	struct etm_gen_opts go;
	struct etm_gen *gen;
	struct etm_image *img;
	uint8_t *bytes;
	size_t nbytes;
	struct rt_list exp, act;
	uint64_t ts_exp[4096], ts_act[4096];
	size_t nts_exp, nts_act;
	unsigned on_exp, on_act;     /* trace-on count */
	unsigned eret_exp, eret_act; /* exception-return count */
	unsigned trig_exp, trig_act; /* trigger count */
	uint64_t act_cum;
	int bad; /* decoder errors / nomem seen */
	char badmsg[160];
};

struct rt_case {
	uint64_t seed;
	int coresight;
	int chunk_mode;
	int nsrc;
	struct rt_src src[RT_MAX_SRC];
	/* every field of every decoded element, hashed (see rt_ehash()):
	 * the block cache and the ETMv3 walk memo only memoise the image,
	 * so a decode without them gives the same */
	uint64_t ehash;
	int nocache; /* decode again without them, hash only */
};

/* Totals over the cases run (for the summary line). */
struct rt_stats {
	unsigned long long insns, excs, bytes, sources, coresight;
	unsigned long long halts;       /* Debug Halt exceptions (then an
					* I-sync, reason debug exit) */
	unsigned long long isa_changes; /* consecutive instructions of two
					 * ISAs (BLX imm, BX, ...) */
	unsigned long long feat[16];    /* cases per ETM_GEN_* bit */
};

/* Derive every option of case @seed; build, encode, decode and compare.
 * Returns 0 if the round trip is exact, 1 on a mismatch (reported to @out
 * with the seed and a replay command), -1 on a setup error. */
int rt_run_case(uint64_t seed, FILE *out, int verbose, struct rt_stats *st);
/* One-line description of a case's options. */
void rt_describe(const struct rt_case *c, char *buf, size_t n);

#endif
