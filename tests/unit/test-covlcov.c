/* tests/unit/test-covlcov.c - the lcov report's branch records (BRDA, BRF,
 * BRH) for conditional branches whose outcome the trace told only in part:
 * executed N times, f of them failed (N atom) and u untold (a range cut at
 * the branch, last_atom 0). lcov's tracefile format (geninfo(1), lcov
 * 1.16: "Taken is either '-' if the basic block containing the branch was
 * never executed or a number indicating how often that branch was taken")
 * has no "unknown": a reached branch gets numbers, the told outcomes only
 * (taken = N - f - u, not taken = f); '-' is for a branch never reached
 * (doc/coverage.md).
 *
 * The program is assembled here (etest_arm_elf(): arm-none-eabi-as and
 * -ld, linked at 0x8000; exit 77 without them); its .loc directives give
 * the DWARF line table by hand (the words are what arm-none-eabi-as
 * assembles for the mnemonics shown, checked with objdump). Its image is
 * the same words, and the elements are written by hand, so every count
 * below is counted by hand from the list in t_untold_branches(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/coverage.h>
#include <etmtrace/error.h>
#include <etmtrace/etmtrace.h>
#include <etmtrace/symbols.h>

#include "covout/covout.h"
#include "etest.h"

/* Function f at 0x8000, one .loc line per row. */
static const struct {
	uint32_t word;
	unsigned line;
	const char *text;
} prog[] = {
	{ 0xe3500000, 11, "cmp r0, #0" },     /* 0x8000 */
	{ 0x0a000000, 11, "beq 0x800c" },     /* 0x8004: branch A */
	{ 0xe2800001, 12, "add r0, r0, #1" }, /* 0x8008 */
	{ 0xe3500005, 13, "cmp r0, #5" },     /* 0x800c */
	{ 0xbafffffa, 13, "blt 0x8000" },     /* 0x8010: branch B */
	{ 0xe12fff1e, 14, "bx lr" },          /* 0x8014 */
	{ 0x112fff1e, 15, "bxne lr" },        /* 0x8018: branch C, only untold */
	{ 0x012fff1e, 16, "bxeq lr" },        /* 0x801c: branch D, never reached */
	{ 0xe12fff1e, 17, "bx lr" },          /* 0x8020 */
};
#define NPROG (sizeof(prog) / sizeof(prog[0]))
#define SRC "/etmtrace-test/branches.c"

/* The program as assembler text: each word with its .loc line. */
static void prog_asm(char *buf, size_t len)
{
	size_t i, k;

	k = (size_t)snprintf(buf, len,
			     "\t.arm\n\t.file 1 \"%s\"\n\t.text\n\t.global f\n"
			     "\t.type f, %%function\nf:\n",
			     SRC);
	for (i = 0; i < NPROG && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k,
				      "\t.loc 1 %u 0\n\t.inst 0x%08x @ %s\n",
				      prog[i].line, prog[i].word, prog[i].text);
	if (k < len)
		snprintf(buf + k, len - k, "\t.size f, .-f\n");
}

/* A range of @n A32 instructions from @start; @atom 0: the last one's
 * outcome untold (the range was cut there), else @exec (E 1 / N 0). */
static struct etm_elem rng(uint64_t start, uint32_t n, int exec, int atom)
{
	struct etm_elem e = { .kind = etmk_range,
			      .id = 0x10,
			      .isa = etmi_a32,
			      .start = start,
			      .end = start + 4 * n,
			      .ninsn = n,
			      .last_addr = start + 4 * (n - 1),
			      .last_size = 4,
			      .last_exec = (uint8_t)(atom ? exec : 1),
			      .last_atom = (uint8_t)atom };
	return e;
}

static struct etm_elem trace_on(uint64_t addr)
{
	struct etm_elem e = { .kind = etmk_trace_on,
			      .id = 0x10,
			      .reason = etm_on_enable,
			      .addr = addr,
			      .isa = etmi_a32 };
	return e;
}

/* The execution, by hand (E taken / N not taken / U untold):
 *   beq@8004: E (a), N (c), U U U (f), E (g), N (j)  -> 7: 2 E, 2 N, 3 U
 *   blt@8010: E (b), N (d), N (h), U (k), U (l)      -> 5: 1 E, 2 N, 2 U
 *   bxne@8018: U U (m)                                -> 2: 0 E, 0 N, 2 U
 *   bxeq@801c: never.
 * Lines (the largest count of their instructions): 11 (8000, 8004): 7;
 * 12 (8008: d, k): 2; 13 (800c, 8010): 5; 14 (8014: e, i): 2; 15: 2;
 * 16, 17: 0. */
static const char expect[] =
	"TN:\nSF:" SRC "\nFN:11,f\nFNDA:7,f\nFNF:1\nFNH:1\n"
	"BRDA:11,0,0,2\nBRDA:11,0,1,2\n"
	"BRDA:13,0,0,1\nBRDA:13,0,1,2\n"
	"BRDA:15,0,0,0\nBRDA:15,0,1,0\n"
	"BRDA:16,0,0,-\nBRDA:16,0,1,-\n"
	"BRF:8\nBRH:4\n"
	"DA:11,7\nDA:12,2\nDA:13,5\nDA:14,2\nDA:15,2\nDA:16,0\nDA:17,0\n"
	"LF:7\nLH:5\nend_of_record\n";

static void t_untold_branches(void)
{
	const struct etm_elem el[] = {
		trace_on(0x8000),
		rng(0x8000, 2, 1, 1), /* a: beq E */
		rng(0x800c, 2, 1, 1), /* b: blt E */
		rng(0x8000, 2, 0, 1), /* c: beq N */
		rng(0x8008, 3, 0, 1), /* d: add, cmp, blt N */
		rng(0x8014, 1, 1, 1), /* e: bx lr */
		trace_on(0x8000),
		rng(0x8000, 2, 1, 0), /* f: beq U (cut) */
		trace_on(0x8000),
		rng(0x8000, 2, 1, 0), /* f */
		trace_on(0x8000),
		rng(0x8000, 2, 1, 0), /* f */
		trace_on(0x8000),
		rng(0x8000, 2, 1, 1), /* g: beq E */
		rng(0x800c, 2, 0, 1), /* h: blt N */
		rng(0x8014, 1, 1, 1), /* i: bx lr */
		trace_on(0x8000),
		rng(0x8000, 2, 0, 1), /* j: beq N */
		rng(0x8008, 3, 1, 0), /* k: add, cmp, blt U */
		trace_on(0x800c),
		rng(0x800c, 2, 1, 0), /* l: cmp, blt U */
		trace_on(0x8018),
		rng(0x8018, 1, 1, 0), /* m: bxne U */
		trace_on(0x8018),
		rng(0x8018, 1, 1, 0), /* m */
	};
	char dir[] = "/tmp/etm-covlcovXXXXXX", elf[300], cmd[400], text[2048];
	struct etm_image *img = etm_image_alloc();
	struct etm_symbols *sy = etm_symbols_alloc();
	static struct etest_sink k;
	uint8_t b[4 * NPROG];
	struct covout o;
	struct etm_cov *cov;
	size_t i;
	int r;

	ET_CHECK(img && sy && mkdtemp(dir));
	snprintf(elf, sizeof(elf), "%s/p.elf", dir);
	prog_asm(text, sizeof(text));
	r = etest_arm_elf(dir, text);
	if (r == 77) {
		etest_skip("arm-none-eabi-as/ld missing");
		goto out;
	}
	ET_EQ(r, 0);
	/* f, and the linker script's global labels (no lines) */
	ET_CHECK(etm_symbols_add_elf(sy, elf, 0, NULL, 0) >= 1);
	ET_EQ(etm_symbols_has_lines(sy), 1);
	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(prog[i / 4].word >> (8 * (i % 4)));
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x8000, b, sizeof(b)), 0);
	memset(&o, 0, sizeof(o));
	cov = etm_cov_alloc();
	ET_CHECK(cov);
	o.cov = cov;
	ET_EQ(etm_cov_set_source(cov, 0x10, etm_proto_etmv3, img), 0);
	ET_EQ(etm_cov_add_elems(cov, el, sizeof(el) / sizeof(el[0])), 0);
	ET_EQ(etm_cov_end(cov), 0);
	o.img = img;
	o.sym = sy;
	o.write = etest_sink_write;
	o.write_ctx = &k;
	ET_EQ(cov_write_lcov(&o), 0);
	if (strcmp(k.buf, expect))
		printf("expected:\n%sgot:\n%s", expect, k.buf);
	ET_CHECK(!strcmp(k.buf, expect));
	etm_cov_free(cov);
out:
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	etm_symbols_free(sy);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t_untold_branches);
	return etest_end();
}
