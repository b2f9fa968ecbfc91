/* tests/unit/test-profile_lines.c - callgrind call records with a line
 * table: the callee's first line and the call site's line differ, so the
 * order of the two positions is checked. The callgrind format (valgrind's
 * docs, cl-format.html "Associations"):
 *
 *   calls=(Call Count) (Target position)
 *   (Source position) (Inclusive cost of call)
 *
 * preceded by cfn= (and cfi=/cfl= for the callee's file); with
 * "positions: line" a position is a line number: the target position is
 * the callee's (first) line, the source position the line of the call.
 *
 * The program is assembled here (etest_arm_elf(): arm-none-eabi-as and -ld
 * at 0x8000; exit 77 without them) with hand-written .loc lines (the words
 * are what arm-none-eabi-as assembles for the mnemonics shown, checked with
 * objdump), and the execution is hand-made elements, so every count below
 * is counted by hand.
 * callgrind_annotate (valgrind 3.19) then reads the file with the source
 * next to it (--inclusive=yes --auto=yes): its function totals, and per
 * source line the line's own count with the calls made there (it reads a
 * call's cost line as the call site, so swapped positions move the call
 * to the callee's first line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/profile.h>
#include <etmtrace/symbols.h>

#include "etest.h"

/* main 0x8000 (lines 20-24), mid 0x8020 (10-13), leaf 0x8040 (3-5). */
static const struct {
	uint32_t addr, word;
	unsigned line;
	const char *text;
} prog[] = {
	{ 0x8000, 0xe92d4010, 20, "push {r4, lr}" },
	{ 0x8004, 0xeb000005, 21, "bl mid (0x8020)" },
	{ 0x8008, 0xeb00000c, 22, "bl leaf (0x8040)" },
	{ 0x800c, 0xe3a00000, 23, "mov r0, #0" },
	{ 0x8010, 0xe8bd8010, 24, "pop {r4, pc}" },
	{ 0x8020, 0xe92d4010, 10, "push {r4, lr}" },
	{ 0x8024, 0xeb000005, 11, "bl leaf (0x8040)" },
	{ 0x8028, 0xe2800001, 12, "add r0, r0, #1" },
	{ 0x802c, 0xe8bd8010, 13, "pop {r4, pc}" },
	{ 0x8040, 0xe2800002, 3, "add r0, r0, #2" },
	{ 0x8044, 0xe2800003, 4, "add r0, r0, #3" },
	{ 0x8048, 0xe12fff1e, 5, "bx lr" },
};
#define NPROG (sizeof(prog) / sizeof(prog[0]))

static const struct {
	const char *name;
	uint32_t start, end;
} funcs[] = { { "main", 0x8000, 0x8014 },
	      { "mid", 0x8020, 0x8030 },
	      { "leaf", 0x8040, 0x804c } };

/* The program as assembler text (functions at their addresses by .org). */
static void prog_asm(char *buf, size_t len, const char *src)
{
	size_t i, f = 0, k;

	k = (size_t)snprintf(buf, len, "\t.arm\n\t.file 1 \"%s\"\n\t.text\n", src);
	for (i = 0; i < NPROG && k < len; i++) {
		if (f < 3 && prog[i].addr == funcs[f].start)
			k += (size_t)snprintf(buf + k, len - k,
					      "\t.org 0x%x\n\t.global %s\n"
					      "\t.type %s, %%function\n%s:\n",
					      funcs[f].start - 0x8000, funcs[f].name,
					      funcs[f].name, funcs[f].name);
		k += (size_t)snprintf(buf + k, len - k,
				      "\t.loc 1 %u 0\n\t.inst 0x%08x @ %s\n",
				      prog[i].line, prog[i].word, prog[i].text);
		if (f < 3 && prog[i].addr + 4 == funcs[f].end) {
			k += (size_t)snprintf(buf + k, len - k, "\t.size %s, .-%s\n",
					      funcs[f].name, funcs[f].name);
			f++;
		}
	}
}

/* A32 range of @n instructions from @start; @link: the last is a BL. */
static struct etm_elem rng(uint64_t start, uint32_t n, int link)
{
	struct etm_elem e;

	memset(&e, 0, sizeof(e));
	e.kind = etmk_range;
	e.id = 0x10;
	e.start = start;
	e.end = start + 4 * n;
	e.isa = etmi_a32;
	e.ninsn = n;
	e.last_addr = e.end - 4;
	e.last_size = 4;
	e.last_cls = link ? etmc_br_direct : etmc_br_indirect;
	e.last_link = (uint8_t)link;
	e.last_exec = 1;
	e.last_atom = 1;
	return e;
}

/* The expected callgrind file, by hand. Execution (the elements below):
 * main 8000, 8004 (BL mid); mid 8020, 8024 (BL leaf); leaf 8040-8048
 * (BX LR); mid 8028, 802c (POP pc); main 8008 (BL leaf); leaf 8040-8048;
 * main 800c, 8010 (POP pc). Self per line: main 20-24 one each (5); mid
 * 10-13 one each (4); leaf 3, 4, 5 twice each (6); total 15. Calls:
 * main -> mid once from line 21 (mid starts at line 10), inclusive 4 + 3
 * (its leaf) = 7; main -> leaf once from line 22 (leaf starts at 3),
 * inclusive 3; mid -> leaf once from line 11, inclusive 3. Functions in
 * address order, a caller's calls in its callees' order. */
static void expected(char *buf, size_t len, const char *src)
{
	snprintf(buf, len,
		 "# callgrind format\nversion: 1\ncreator: etmtrace\ncmd: t\n"
		 "positions: line\nevents: Instr\n"
		 "\nfl=%s\nfn=main\n20 1\n21 1\n22 1\n23 1\n24 1\n"
		 "cfl=%s\ncfn=mid\ncalls=1 10\n21 7\n"
		 "cfl=%s\ncfn=leaf\ncalls=1 3\n22 3\n"
		 "\nfl=%s\nfn=mid\n10 1\n11 1\n12 1\n13 1\n"
		 "cfl=%s\ncfn=leaf\ncalls=1 3\n11 3\n"
		 "\nfl=%s\nfn=leaf\n3 2\n4 2\n5 2\n"
		 "\ntotals: 15\n",
		 src, src, src, src, src, src);
}

/* One line of callgrind_annotate's report into *@k of @got: in the
 * function list ("COST (PCT)  FILE:FUNC") "FUNC COST"; in the annotated
 * source, a line with a cost ("COST (PCT)  text", the text of line L being
 * "/" "* L *" "/") "L COST", and a call made there ("COST (PCT)  =>
 * FILE:FUNC (Nx)", after its line) "L => FUNC Nx COST". */
static void ann_line(const char *s, int *funcs, unsigned *ln, char *got,
		     size_t len, size_t *k)
{
	unsigned long long c;
	const char *t = strstr(s, ")  "), *q;
	char name[64];
	unsigned n;

	if (strstr(s, "file:function")) {
		*funcs = 1;
		return;
	}
	if (!t || sscanf(s, " %llu", &c) != 1) {
		*funcs = *funcs && s[0] != '\n';
		return;
	}
	t += 3;
	if (*funcs && (q = strrchr(t, ':')) && sscanf(q + 1, "%63s", name) == 1)
		*k += (size_t)snprintf(got + *k, len - *k, "%s %llu\n", name, c);
	else if (sscanf(t, "/* %u */", ln) == 1)
		*k += (size_t)snprintf(got + *k, len - *k, "%u %llu\n", *ln, c);
	else if (!strncmp(t, "=> ", 3) && (q = strrchr(t, ':')) &&
		 sscanf(q + 1, "%63s (%ux)", name, &n) == 2)
		*k += (size_t)snprintf(got + *k, len - *k, "%u => %s %ux %llu\n",
				       *ln, name, n, c);
}

/* callgrind_annotate --inclusive=yes --auto=yes on @out (run from "/":
 * it strips the current directory from fl= names only, not from cfl=)
 * into *@got as ann_line() writes it. */
static int annotate(const char *out, char *got, size_t len)
{
	char cmd[600], line[512];
	size_t k = 0;
	unsigned ln = 0;
	int funcs = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "cd / && callgrind_annotate --inclusive=yes --auto=yes "
		 "--threshold=100 '%s' 2>&1",
		 out);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	got[0] = 0;
	while (fgets(line, sizeof(line), p))
		if (k < len)
			ann_line(line, &funcs, &ln, got, len, &k);
	return pclose(p) == 0 ? 0 : -1;
}

/* By hand from the execution above: inclusive function totals main 15
 * (everything), mid 7 (4 + its leaf 3), leaf 6; per line the own count,
 * each call listed under its call line with the call's inclusive cost:
 * line 11 -> leaf 3, line 21 -> mid 7, line 22 -> leaf 3. */
static const char ann_expect[] =
	"main 15\nmid 7\nleaf 6\n"
	"3 2\n4 2\n5 2\n10 1\n11 1\n11 => leaf 1x 3\n12 1\n13 1\n"
	"20 1\n21 1\n21 => mid 1x 7\n22 1\n22 => leaf 1x 3\n23 1\n24 1\n";

static void t_call_lines(void)
{
	const struct etm_elem el[] = {
		rng(0x8000, 2, 1), /* main: BL mid at 0x8004 */
		rng(0x8020, 2, 1), /* mid: BL leaf at 0x8024 */
		rng(0x8040, 3, 0), /* leaf: BX LR */
		rng(0x8028, 2, 0), /* mid: POP {r4, pc} */
		rng(0x8008, 1, 1), /* main: BL leaf at 0x8008 */
		rng(0x8040, 3, 0), /* leaf: BX LR */
		rng(0x800c, 2, 0), /* main: POP {r4, pc} */
	};
	char dir[] = "/tmp/etm-proflinesXXXXXX", src[300], path[300];
	char cmd[400], text[4096], want[4096], ann[1024];
	struct etm_symbols *sy = etm_symbols_alloc();
	struct etm_image *img = etm_image_alloc();
	struct etm_profile *p = NULL;
	static uint8_t mem[0x50];
	static struct etest_sink k;
	size_t i;
	FILE *f;
	int r, exact;

	ET_CHECK(sy && img && mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/prog.c", dir);
	prog_asm(text, sizeof(text), src);
	r = etest_arm_elf(dir, text);
	if (r == 77) {
		etest_skip("arm-none-eabi-as/ld missing");
		goto out;
	}
	ET_EQ(r, 0);
	snprintf(path, sizeof(path), "%s/p.elf", dir);
	ET_CHECK(etm_symbols_add_elf(sy, path, 0, NULL, 0) >= 3);
	for (i = 0; i < NPROG; i++)
		for (r = 0; r < 4; r++)
			mem[prog[i].addr - 0x8000 + (uint32_t)r] =
				(uint8_t)(prog[i].word >> (8 * r));
	ET_EQ(etm_image_add_buffer(img, etm_space_any, 0x8000, mem, sizeof(mem)), 0);
	p = etm_profile_alloc(sy);
	ET_CHECK(p);
	ET_EQ(etm_profile_add_source(p, 0x10, img, 0), 0);
	etm_profile_set_lines(p, 1);
	ET_EQ(etm_profile_elems(p, el, sizeof(el) / sizeof(el[0])), 0);
	ET_EQ(etm_profile_finish(p), 0);
	ET_EQ(etm_profile_write(p, etm_prof_callgrind, "t", etest_sink_write, &k), 0);
	expected(want, sizeof(want), src);
	exact = !strcmp(k.buf, want);
	if (!exact)
		printf("expected:\n%sgot:\n%s", want, k.buf);

	/* the source callgrind_annotate shows: line N reads "/" "* N *" "/" */
	f = fopen(src, "w");
	ET_CHECK(f);
	for (i = 1; i <= 24; i++)
		fprintf(f, "/* %zu */\n", i);
	ET_CHECK(fclose(f) == 0);
	snprintf(path, sizeof(path), "%s/callgrind.out", dir);
	f = fopen(path, "w");
	ET_CHECK(f);
	ET_EQ(fwrite(k.buf, 1, k.len, f), k.len);
	ET_CHECK(fclose(f) == 0);
	if (system("command -v callgrind_annotate >/dev/null")) {
		etest_skip("callgrind_annotate missing");
		goto out;
	}
	ET_EQ(annotate(path, ann, sizeof(ann)), 0);
	if (strcmp(ann, ann_expect))
		printf("callgrind_annotate:\n%s", ann);
	ET_CHECK(!strcmp(ann, ann_expect));
	ET_CHECK(exact); /* after callgrind_annotate's view of it */
out:
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	etm_profile_free(p);
	etm_symbols_free(sy);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t_call_lines);
	return etest_end();
}
