/* tests/unit/test-symbols.c - symbol and line lookup: a hand-written symbol
 * file, and the am243x FreeRTOS ELF against readelf (every function entry)
 * and addr2line (entries and a sample of addresses, inlined frames too). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>
#include <etmtrace/symbols.h>

#include "etest.h"

#define ELF_REL "snapshots/am243x-freertos-1/freertos.out"

/* Hand-derived: mapping symbols and data are skipped, bit 0 is cleared,
 * an unsized function runs to the next one, a sized one ends at its size,
 * the last unsized one covers 4 KiB. */
static void symfile_rules(void)
{
	static const char text[] =
		"# comment\n"
		"00008000 00000010 T main\n"
		"00008000 t $a\n"
		"00008011 00000008 t thumb_fn\n"
		"00008020 T unsized_a\n"
		"00008040 d $d.1\n"
		"00008040 00000004 D table\n"
		"00008080 t tail\n"
		"00008100 10 fn3\n"
		/* as `nm -S` prints them: a nameless symbol (with and without a
		 * size) and undefined ones, which have no address: skipped */
		"00008200 t \n"
		"00008200 00000004 t \n"
		"         U undef_fn\n"
		"         w weak_ref\n";
	char path[] = "/tmp/etm-symXXXXXX";
	struct etm_symbols *s = etm_symbols_alloc();
	struct etm_sym y;
	int fd = mkstemp(path);

	ET_CHECK(fd >= 0 && s);
	ET_EQ(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	ET_EQ(etm_symbols_add_file(s, path, NULL, 0), 5);
	unlink(path);
	ET_EQ(etm_symbols_count(s), 5);
	ET_EQ(etm_symbols_lookup(s, 0x800f, &y), 0);
	ET_CHECK(!strcmp(y.name, "main"));
	ET_EQ(etm_symbols_lookup(s, 0x8010, &y), 0);
	ET_CHECK(!strcmp(y.name, "thumb_fn"));
	ET_EQ(y.start, 0x8010);
	ET_EQ(y.thumb, 1);
	ET_EQ(etm_symbols_find(s, 0x8018), -1);      /* after thumb_fn's size */
	ET_EQ(etm_symbols_lookup(s, 0x807e, &y), 0); /* unsized: up to tail */
	ET_CHECK(!strcmp(y.name, "unsized_a"));
	ET_EQ(y.end, 0x8080);
	ET_EQ(etm_symbols_lookup(s, 0x80ff, &y), 0);
	ET_CHECK(!strcmp(y.name, "tail"));
	ET_EQ(etm_symbols_lookup(s, 0x810f, &y), 0);
	ET_CHECK(!strcmp(y.name, "fn3"));
	ET_EQ(etm_symbols_find(s, 0x8110), -1);
	ET_EQ(etm_symbols_find(s, 0x7fff), -1);
	etm_symbols_free(s);
}

static void symfile_bad(void)
{
	char path[] = "/tmp/etm-symXXXXXX";
	struct etm_symbols *s = etm_symbols_alloc();
	char err[128];
	int fd = mkstemp(path);

	ET_CHECK(fd >= 0 && s);
	ET_EQ(write(fd, "8000 T ok\nzz T bad\n", 19), 19);
	close(fd);
	/* a size past the top of the address space ends there */
	ET_EQ(etm_symbols_add(s, 0xfffffffffffff000ull, 0x2000, "top"), 0);
	ET_EQ(etm_symbols_find(s, 0xfffffffffffffffeull), 0);
	ET_EQ(etm_symbols_add_file(s, path, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, ":2:") != NULL);
	unlink(path);
	ET_EQ(etm_symbols_add_file(s, "/nonexistent/x", err, sizeof(err)), -etme_io);
	ET_EQ(etm_symbols_add_elf(s, "/dev/null", 0, err, sizeof(err)), -etme_parse);
	etm_symbols_free(s);
}

/* etm_symbols_find_span: hand-derived spans of two sized functions, the
 * gaps around them and an empty table; and over every address near them,
 * the same index as etm_symbols_find with the address inside its span,
 * and the span's ends answering the same. */
static void find_span(void)
{
	struct etm_symbols *s = etm_symbols_alloc();
	uint64_t lo, hi, a;

	ET_CHECK(s != NULL);
	ET_EQ(etm_symbols_find_span(s, 0x1000, &lo, &hi), -1); /* empty */
	ET_EQ(lo, 0);
	ET_EQ(hi, UINT64_MAX);
	ET_EQ(etm_symbols_find_span(NULL, 0x1000, &lo, &hi), -1);
	ET_EQ(hi, UINT64_MAX);
	ET_EQ(etm_symbols_add(s, 0x1000, 0x10, "a"), 0);
	ET_EQ(etm_symbols_add(s, 0x1020, 0x20, "b"), 0);
	ET_EQ(etm_symbols_find_span(s, 0x1008, &lo, &hi), 0);
	ET_EQ(lo, 0x1000);
	ET_EQ(hi, 0x100f);
	ET_EQ(etm_symbols_find_span(s, 0x1018, &lo, &hi), -1); /* between */
	ET_EQ(lo, 0x1010);
	ET_EQ(hi, 0x101f);
	ET_EQ(etm_symbols_find_span(s, 0x800, &lo, &hi), -1); /* below */
	ET_EQ(lo, 0);
	ET_EQ(hi, 0xfff);
	ET_EQ(etm_symbols_find_span(s, 0x103f, &lo, &hi), 1);
	ET_EQ(lo, 0x1020);
	ET_EQ(hi, 0x103f);
	ET_EQ(etm_symbols_find_span(s, 0x1040, &lo, &hi), -1); /* above */
	ET_EQ(lo, 0x1040);
	ET_EQ(hi, UINT64_MAX);
	for (a = 0xff0; a < 0x1050; a++) {
		long f = etm_symbols_find_span(s, a, &lo, &hi);

		ET_EQ(f, etm_symbols_find(s, a));
		ET_CHECK(lo <= a && a <= hi);
		ET_EQ(etm_symbols_find(s, lo), f);
		ET_EQ(etm_symbols_find(s, hi), f);
	}
	etm_symbols_free(s);
}

/* etm_image_is_elf: the ELF magic, nothing else. */
static void is_elf(void)
{
	char elf[512];

	ET_EQ(etm_image_is_elf("/dev/null"), 0);
	ET_EQ(etm_image_is_elf("/nonexistent/x"), 0);
	ET_EQ(etm_image_is_elf(NULL), 0);
	if (etest_shared(ELF_REL, elf, sizeof(elf)))
		ET_EQ(etm_image_is_elf(elf), 1);
}

/* readelf -SW: whether section @ndx is executable. */
static int section_exec(const char *elf, unsigned ndx)
{
	static char flags[256][8];
	static int loaded;
	char cmd[600], line[512];
	FILE *p;

	if (!loaded) {
		snprintf(cmd, sizeof(cmd), "readelf -SW %s", elf);
		p = popen(cmd, "r");
		while (p && fgets(line, sizeof(line), p)) {
			unsigned n;
			char *b = strchr(line, '[');

			if (!b || sscanf(b + 1, "%u]", &n) != 1 || n >= 256)
				continue;
			/* flags: the column after ES (7th field after the name) */
			char *f[12];
			int k = 0;
			for (char *t = strtok(strchr(b, ']') + 1, " \n"); t && k < 12;
			     t = strtok(NULL, " \n"))
				f[k++] = t;
			if (k >= 7)
				snprintf(flags[n], sizeof(flags[n]), "%s", f[6]);
		}
		if (p)
			pclose(p);
		loaded = 1;
	}
	return ndx < 256 && strchr(flags[ndx], 'X') != NULL;
}

/* Every function in readelf -sW (FUNC, or global/weak NOTYPE in an
 * executable section; not $a/$t/$d) is found at its address, under its
 * name or another of the same address; sized ones end at their size
 * unless the next function starts earlier. */
static void elf_entries_vs_readelf(void)
{
	char elf[512], cmd[700], line[512];
	struct etm_symbols *s = etm_symbols_alloc();
	unsigned checked = 0;
	FILE *p;

	if (!etest_shared(ELF_REL, elf, sizeof(elf))) {
		printf("skip: %s not found\n", ELF_REL);
		etm_symbols_free(s);
		return;
	}
	ET_CHECK(etm_symbols_add_elf(s, elf, 0, NULL, 0) > 0);
	snprintf(cmd, sizeof(cmd), "readelf -sW %s", elf);
	p = popen(cmd, "r");
	ET_CHECK(p);
	while (fgets(line, sizeof(line), p)) {
		char num[16], type[16], bind[16], vis[16], ndx[16], name[256] = "";
		unsigned long long val, size;
		struct etm_sym y;

		if (sscanf(line, "%15s %llx %llu %15s %15s %15s %15s %255s", num, &val,
			   &size, type, bind, vis, ndx, name) != 8 ||
		    !strcmp(ndx, "UND") || !strcmp(ndx, "ABS") || name[0] == 0)
			continue;
		if (name[0] == '$' && strchr("atdx", name[1]) &&
		    (name[2] == 0 || name[2] == '.'))
			continue;
		if (strcmp(type, "FUNC") && !(!strcmp(type, "NOTYPE") &&
					      strcmp(bind, "LOCAL") && section_exec(elf, (unsigned)atoi(ndx))))
			continue;
		val &= ~1ull;
		if (etm_symbols_lookup(s, val, &y) != 0 || y.start != val) {
			fprintf(stderr, "%s at 0x%llx: not found\n", name, val);
			etest_cur.failed_checks++;
			continue;
		}
		if (size && y.sized && y.end != val + size &&
		    etm_symbols_find(s, y.end) < 0) {
			fprintf(stderr, "%s: end 0x%llx, size says 0x%llx\n", name,
				(unsigned long long)y.end, val + size);
			etest_cur.failed_checks++;
		}
		checked++;
	}
	pclose(p);
	printf("  %u readelf functions checked\n", checked);
	ET_CHECK(checked > 600);
	etm_symbols_free(s);
}

/* One addr2line -a -f -i group: "0xADDR", then FUNC / FILE:LINE pairs. */
struct a2l_group {
	unsigned long long addr;
	int n;
	char func[8][512], file[8][512];
	unsigned line[8];
};

static int a2l_read(FILE *p, char *pending, struct a2l_group *g)
{
	char fn[512], pos[512];

	if (!pending[0] && !fgets(pending, 512, p))
		return 0;
	g->addr = strtoull(pending, NULL, 16);
	g->n = 0;
	pending[0] = 0;
	while (fgets(fn, sizeof(fn), p)) {
		char *c;

		if (!strncmp(fn, "0x", 2)) {
			strcpy(pending, fn);
			break;
		}
		if (!fgets(pos, sizeof(pos), p))
			break;
		if (g->n == 8)
			continue;
		fn[strcspn(fn, "\n")] = 0;
		pos[strcspn(pos, "\n")] = 0;
		c = strrchr(pos, ':');
		g->line[g->n] = c && c[1] != '?' ? (unsigned)atoi(c + 1) : 0;
		if (c)
			*c = 0;
		for (char *q = pos; *q; q++)
			if (*q == '\\')
				*q = '/';
		snprintf(g->func[g->n], sizeof(g->func[0]), "%s", fn);
		snprintf(g->file[g->n], sizeof(g->file[0]), "%s", pos);
		g->n++;
	}
	return 1;
}

/* addr2line's path ends with ours (it joins the Windows comp_dir). */
static int same_file(const char *a2l, const char *ours)
{
	size_t la = strlen(a2l), lo = strlen(ours);
	char norm[512];

	snprintf(norm, sizeof(norm), "%s", ours);
	for (char *q = norm; *q; q++)
		if (*q == '\\')
			*q = '/';
	return la >= lo && !strcmp(a2l + la - lo, norm);
}

static int check_group(const struct etm_symbols *s, const struct a2l_group *g)
{
	struct etm_line l;
	struct etm_inline in[8];
	int n, k, r = etm_symbols_line(s, g->addr, &l);

	if (!g->n)
		return 0;
	if (g->line[0] == 0) /* addr2line knows nothing: not compared */
		return 1;
	if (r != 0 || l.line != g->line[0] || !same_file(g->file[0], l.file))
		return -1;
	n = etm_symbols_inlined(s, g->addr, in, 8);
	if (n != g->n - 1)
		return -1;
	for (k = 0; k < n && k < 8; k++)
		if (strcmp(in[k].name, g->func[k]) || in[k].call_line != g->line[k + 1] ||
		    !in[k].call_file || !same_file(g->file[k + 1], in[k].call_file))
			return -1;
	return 0;
}

/* Line and inlined frames of every function entry and every 6th halfword
 * of each function, as addr2line -i reports them. */
static void elf_lines_vs_addr2line(void)
{
	char elf[512], list[] = "/tmp/etm-a2lXXXXXX", cmd[1200], pending[512] = "";
	struct etm_symbols *s = etm_symbols_alloc();
	struct a2l_group g;
	unsigned checked = 0, bad = 0, inl = 0, unknown = 0;
	FILE *f, *p;
	size_t i;
	int fd, r;

	if (!etest_shared(ELF_REL, elf, sizeof(elf))) {
		printf("skip: %s not found\n", ELF_REL);
		etm_symbols_free(s);
		return;
	}
	ET_CHECK(etm_symbols_add_elf(s, elf, 0, NULL, 0) > 0);
	ET_CHECK(etm_symbols_has_lines(s));
	fd = mkstemp(list);
	ET_CHECK(fd >= 0 && (f = fdopen(fd, "w")));
	for (i = 0; i < etm_symbols_count(s); i++) {
		struct etm_sym y;
		uint64_t a;

		etm_symbols_get(s, i, &y);
		for (a = y.start; a < y.end; a += a == y.start ? 2 : 12)
			fprintf(f, "0x%llx\n", (unsigned long long)a);
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "addr2line -a -f -i -e %s < %s", elf, list);
	p = popen(cmd, "r");
	ET_CHECK(p);
	while (a2l_read(p, pending, &g)) {
		checked++;
		inl += g.n > 1;
		r = check_group(s, &g);
		unknown += r > 0;
		if (r < 0 && bad++ < 10)
			fprintf(stderr, "0x%llx: addr2line %s:%u (%d frames) differs\n",
				g.addr, g.file[0], g.line[0], g.n);
	}
	pclose(p);
	unlink(list);
	/* addr2line (binutils 2.40) finds no line in the assembler CUs of
	 * the TI runtime (strcmp32.S, aeabi_memset.S) whose rows readelf
	 * --debug-dump=decodedline does list: those are not compared */
	printf("  %u addresses vs addr2line (%u in inlined code, %u unknown to "
	       "addr2line), %u differ\n",
	       checked, inl, unknown, bad);
	ET_CHECK(checked - unknown > 8000 && inl > 10);
	ET_EQ(bad, 0);
	etm_symbols_free(s);
}

int main(void)
{
	ETEST(symfile_rules);
	ETEST(symfile_bad);
	ETEST(find_span);
	ETEST(is_elf);
	ETEST(elf_entries_vs_readelf);
	ETEST(elf_lines_vs_addr2line);
	return etest_end();
}
