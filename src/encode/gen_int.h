/* encode/gen_int.h - internals of the random program/execution generator:
 * the abstract instruction list, functions, and the event buffer. */
#ifndef ETM_ENCODE_GEN_INT_H
#define ETM_ENCODE_GEN_INT_H

#include <stdint.h>

#include <etmtrace/encode.h>

#include "encode/enc_int.h"

/* Abstract operations; each becomes one A32/T32 instruction. */
enum gop {
	go_plain, /* data processing, maybe conditional */
	go_it,    /* T32 IT: the next instruction is conditional */
	go_bcond, /* conditional direct branch to item tgt */
	go_b,     /* unconditional direct branch to item tgt */
	go_bl,    /* BL / BLX imm to function func */
	go_cbz,   /* T32 CBZ/CBNZ forward to item tgt */
	go_jmp,   /* indirect jump (BX reg / LDR pc) to one of tab[] */
	go_callr, /* BLX reg to function func */
	go_ret,   /* return through the call stack */
	go_svc,   /* SVC: exception 10 */
	go_udf,   /* UDF: exception 9 (undefined) */
	go_isb,   /* ISB */
	go_eret,  /* exception return (SUBS pc, lr / MOVS pc, lr) */
};

struct gitem {
	uint64_t addr;
	uint32_t opc; /* A32 word; T32 hw1<<16|hw2 or hw */
	uint8_t size, op, cond, isa, variant;
	uint8_t cc;    /* condition code (14 = always) */
	uint8_t align; /* function entry: 4-byte aligned */
	uint8_t ldst;  /* go_plain with ETM_GEN_DATA: 1 + which load/store
			* (gen_data.c), 0 = data processing */
	int32_t tgt;   /* item index (branches) */
	int16_t func;  /* function index (calls) */
	uint16_t ntab; /* go_jmp: targets tab[itab .. itab+ntab) */
	uint32_t itab;
};

struct gfunc {
	enum etm_isa isa;
	uint32_t first; /* item index of the entry */
};

#define GEN_MAX_FUNCS 64
#define GEN_NVEC 8

struct etm_gen {
	struct etm_gen_opts o;
	struct etm_rng rng;
	struct gitem *it;
	size_t nit, itcap;
	uint32_t *tab;
	size_t ntab, tabcap;
	struct gfunc fn[GEN_MAX_FUNCS];
	unsigned nfn;
	uint32_t handler[16]; /* exception number -> handler entry item */
	uint32_t code_first;  /* first item of the code region */
	int v5;               /* ARMv5TE code only (ETMv1, see gen.c) */
	uint8_t *mem[2];      /* vectors, code */
	size_t memlen[2];
	uint64_t membase[2];
	struct etm_ev *ev;
	size_t nev, evcap;
	int err;
};

/* gen_data.c: loads and stores (ETM_GEN_DATA). */
/* Maybe make plain item @i a load/store (sets ldst). */
void gen_data_item(struct etm_gen *g, int i);
/* The opcode of load/store item @it. */
uint32_t gen_data_enc(const struct gitem *it);
/* Add an etmev_data event after every executed load/store event (and
 * the out-of-order values later). Returns 0 or -etme_nomem. */
int gen_data_events(struct etm_gen *g);

/* gen.c */
int gen_item_at(const struct etm_gen *g, uint64_t addr);
uint64_t gen_vector(const struct etm_gen *g, unsigned exc);
/* gen_walk.c: walk a random path, filling g->ev. Returns 0 or -etme_*. */
/* Append @ev to g->ev. Returns 0 or -etme_nomem. */
int gen_ev_push(struct etm_gen *g, const struct etm_ev *ev);
int gen_walk(struct etm_gen *g);

#endif
