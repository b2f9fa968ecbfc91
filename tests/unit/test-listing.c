/* tests/unit/test-listing.c - the public listing (etmtrace/listing.h): a
 * hand-written program and hand-made elements listed through the write
 * callback, with and without the disassembler and symbol hooks, against
 * lines written out by hand from the documented line format (README,
 * doc/design.md: "  ADDRESS  ISA  OPCODE   disassembly" padded to 36, E/N
 * of the last instruction, "  func+0xoff"; direct branch targets as
 * " <func+0xoff>"; runs of identical errors on one line). */
#include <stdio.h>
#include <string.h>

#include <etmtrace/caprun.h>
#include <etmtrace/error.h>
#include <etmtrace/listing.h>

#include "etest.h"

/* A32 at 0x8000: mov r0,#0; add r0,r0,#1; cmp r0,#2; bne 0x8004. */
static const uint8_t prog[] = {
	0x00, 0x00, 0xa0, 0xe3, 0x01, 0x00, 0x80, 0xe2,
	0x02, 0x00, 0x50, 0xe3, 0xfc, 0xff, 0xff, 0x1a
};
static const uint32_t ops[] = { 0xe3a00000, 0xe2800001, 0xe3500002,
				0x1afffffc };

static char got[8192];
static size_t ngot;
static int fail_write;

static int collect(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	if (fail_write)
		return -etme_io;
	if (ngot + n < sizeof(got)) {
		memcpy(got + ngot, s, n);
		ngot += n;
		got[ngot] = 0;
	}
	return 0;
}

/* The fake disassembler: "insn@ADDR". */
static void fake_dis(void *ctx, const struct etm_image *img,
		     enum etm_space space, const struct etm_insn *in, char *buf,
		     size_t n)
{
	(void)ctx;
	(void)img;
	(void)space;
	snprintf(buf, n, "insn@%llx", (unsigned long long)in->addr);
}

/* The fake symbol table: "main" covers [0x8000, 0x8010). */
static int fake_func(const void *ctx, uint64_t addr, const char **name,
		     uint64_t *start, uint64_t *end)
{
	(void)ctx;
	if (addr < 0x8000 || addr >= 0x8010)
		return -1;
	*name = "main";
	*start = 0x8000;
	*end = 0x8010;
	return 0;
}

static struct etm_image *img;
static struct etm_config cfg;
static struct etm_listing_source src[2];

static struct etm_listing *open_listing(enum etm_listing_format f, int hooks,
					size_t nsrc)
{
	struct etm_listing_opts o = { .size = sizeof(o) };
	struct etm_listing *l = NULL;

	o.format = f;
	o.src = src;
	o.nsrc = nsrc;
	o.write = collect;
	if (hooks) {
		o.dis.insn = fake_dis;
		o.sym.func = fake_func;
	}
	ngot = 0;
	got[0] = 0;
	if (etm_listing_alloc(&l, &o) < 0)
		l = NULL;
	return l;
}

static const struct etm_elem loop = { .kind = etmk_range, .id = 0x10, .isa = etmi_a32, .start = 0x8000, .end = 0x8010, .ninsn = 4, .last_addr = 0x800c, .last_atom = 1, .last_exec = 1 };

static int setup(void)
{
	img = etm_image_alloc();
	if (!img || etm_image_add_buffer(img, etm_space_any, 0x8000, prog,
					 sizeof(prog)) < 0)
		return -1;
	etm_config_init(&cfg);
	src[0] = (struct etm_listing_source){ 0x10, &cfg, img };
	src[1] = (struct etm_listing_source){ 0x11, &cfg, img };
	return 0;
}

/* Lines of the loop range as the format says: @dis gives the text of
 * instruction i, @sym the "  func+0xoff" column. */
static void expect_loop(char *out, size_t n, const char *prefix, int hooks)
{
	static const char *const cls[] = { "(other)", "(other)", "(other)",
					   "(branch)" };
	size_t k = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char dis[64], sym[32] = "";
		unsigned a = 0x8000 + 4 * (unsigned)i;

		if (hooks) {
			snprintf(dis, sizeof(dis), "insn@%x%s", a,
				 i == 3 ? " <main+0x4>" : "");
			snprintf(sym, sizeof(sym), "  main+0x%x", a - 0x8000);
		} else {
			snprintf(dis, sizeof(dis), "%s", cls[i]);
		}
		/* the disassembly column is 44 wide; no trailing spaces */
		if (i < 3 && !hooks)
			k += (size_t)snprintf(out + k, n - k, "%s  %08x  A32  %08x   %s\n",
					      prefix, a, ops[i], dis);
		else
			k += (size_t)snprintf(out + k, n - k, "%s  %08x  A32  %08x   %-44s%s%s\n",
					      prefix, a, ops[i], dis, i == 3 ? " E" : "  ",
					      sym);
	}
}

static void text_plain_and_hooked(void)
{
	struct etm_listing *l;
	char want[2048];
	int hooks;

	for (hooks = 0; hooks < 2; hooks++) {
		l = open_listing(etm_listing_text, hooks, 1);
		ET_CHECK(l != NULL);
		ET_EQ(etm_listing_elems(l, &loop, 1), 0);
		ET_EQ(etm_listing_flush(l), 0);
		expect_loop(want, sizeof(want), "", hooks);
		ET_CHECK(!strcmp(got, want));
		ET_EQ(etm_listing_insns(l), 4);
		etm_listing_free(l);
	}
}

/* Several sources: every line carries its trace ID; a run of identical
 * errors is one line, printed when the run ends. */
static void text_multi_and_runs(void)
{
	struct etm_listing *l = open_listing(etm_listing_text, 0, 2);
	struct etm_elem err = { .kind = etmk_error, .id = 0x11, .offset = 42, .err = etme_bad_packet };
	struct etm_item it = { .kind = etm_item_elem };
	char want[2048];
	int i;

	ET_CHECK(l != NULL);
	for (i = 0; i < 3; i++, err.offset += 5) {
		it.elem = err;
		ET_EQ(etm_listing_item(l, &it), 0);
	}
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(etm_listing_flush(l), 0);
	i = snprintf(want, sizeof(want), "[0x11] -- error at offsets 42-52: malformed packet (3 times)\n");
	expect_loop(want + i, sizeof(want) - (size_t)i, "[0x10] ", 0);
	ET_CHECK(!strcmp(got, want));
	etm_listing_free(l);
}

static void canon_and_jsonl(void)
{
	struct etm_listing *l = open_listing(etm_listing_canon, 1, 1);
	struct etm_elem gap = { .kind = etmk_nosync, .id = 0x10 };

	ET_CHECK(l != NULL);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(etm_listing_elems(l, &gap, 1), 0);
	ET_EQ(etm_listing_flush(l), 0);
	ET_CHECK(!strcmp(got, "00008000 A\n00008004 A\n00008008 A\n0000800C A\nGAP\n"));
	etm_listing_free(l);
	/* JSON lines: the symbol of the range's start joins its object */
	l = open_listing(etm_listing_jsonl, 1, 1);
	ET_CHECK(l != NULL);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(etm_listing_flush(l), 0);
	ET_CHECK(got[0] == '{' && strstr(got, ",\"sym\":\"main\",\"off\":0}\n") &&
		 strchr(got, '\n') == got + ngot - 1);
	etm_listing_free(l);
}

static void write_errors_and_bad_options(void)
{
	struct etm_listing_opts o = { .size = sizeof(o) };
	struct etm_listing *l = open_listing(etm_listing_text, 0, 1);

	ET_CHECK(l != NULL);
	fail_write = 1;
	ET_EQ(etm_listing_elems(l, &loop, 1), 0); /* held, not yet written */
	ET_EQ(etm_listing_flush(l), -etme_io);
	ET_EQ(etm_listing_elems(l, &loop, 1), -etme_io);
	fail_write = 0;
	etm_listing_free(l);
	ET_EQ(etm_listing_alloc(&l, &o), -etme_invalid); /* no write */
	ET_CHECK(l == NULL);
	o.write = collect;
	o.nsrc = 1; /* and no sources */
	ET_EQ(etm_listing_alloc(&l, &o), -etme_invalid);
}

/* Counts only: nothing written, every element counted (the --stats
 * figures): the loop's 4 instructions, one error, one data transfer. */
static void counts_only(void)
{
	struct etm_listing *l = open_listing(etm_listing_count, 0, 1);
	struct etm_elem more[2] = { { .kind = etmk_error, .id = 0x10, .err = etme_bad_packet },
				    { .kind = etmk_data, .id = 0x10 } };
	struct etm_listing_counts n;

	ET_CHECK(l != NULL);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(etm_listing_elems(l, more, 2), 0);
	ET_EQ(etm_listing_flush(l), 0);
	ET_EQ(ngot, 0);
	etm_listing_counts(l, &n);
	ET_EQ(n.insns, 4);
	ET_EQ(n.errors, 1);
	ET_EQ(n.elems[etmk_range], 1);
	ET_EQ(n.elems[etmk_error], 1);
	ET_EQ(n.elems[etmk_data], 1);
	ET_EQ(n.elems[etmk_nosync], 0);
	etm_listing_free(l);
}

/* The options of the decode listing: --fields (an unknown name refused
 * with its reason), --data-only (the range is counted, not listed). */
static void fields_and_data_filter(void)
{
	struct etm_listing_opts o = { .size = sizeof(o), .src = src, .nsrc = 1, .write = collect };
	struct etm_listing *l = NULL;
	struct etm_listing_counts n;
	char why[128] = "";

	o.fields = "addr,bogus";
	o.err = why;
	o.errlen = sizeof(why);
	ET_EQ(etm_listing_alloc(&l, &o), -etme_invalid);
	ET_CHECK(l == NULL && !strncmp(why, "unknown field 'bogus' (fields: ", 31));
	o.fields = NULL;
	o.data_only = 1;
	ngot = 0;
	ET_EQ(etm_listing_alloc(&l, &o), 0);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(etm_listing_flush(l), 0);
	ET_EQ(ngot, 0);
	etm_listing_counts(l, &n);
	ET_EQ(n.insns, 4);
	etm_listing_free(l);
}

/* A live stream's text written after each read: the lines so far, but a
 * run of identical errors stays held until it ends or the buffer does. */
static void write_out_keeps_runs(void)
{
	struct etm_listing *l = open_listing(etm_listing_text, 0, 1);
	struct etm_elem err = { .kind = etmk_error, .id = 0x10, .offset = 42, .err = etme_bad_packet };
	char want[2048];

	ET_CHECK(l != NULL);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(ngot, 0); /* buffered */
	ET_EQ(etm_listing_elems(l, &err, 1), 0);
	err.offset = 47;
	ET_EQ(etm_listing_elems(l, &err, 1), 0);
	ET_EQ(etm_listing_write_out(l), 0);
	expect_loop(want, sizeof(want), "", 0);
	ET_CHECK(!strcmp(got, want));
	ET_EQ(etm_listing_flush(l), 0);
	strcat(want, "-- error at offsets 42-47: malformed packet (2 times)\n");
	ET_CHECK(!strcmp(got, want));
	etm_listing_free(l);
}

/* A perf.data piece of another process: the same source, another image
 * (its first word mov r1,#0, e3a01000), read from then on. */
static void images_switched(void)
{
	struct etm_listing *l = open_listing(etm_listing_text, 0, 1);
	struct etm_image *other = etm_image_alloc();
	struct etm_listing_source s2 = src[0];
	uint8_t prog2[sizeof(prog)];

	ET_CHECK(l != NULL && other != NULL);
	memcpy(prog2, prog, sizeof(prog));
	prog2[1] = 0x10;
	ET_EQ(etm_image_add_buffer(other, etm_space_any, 0x8000, prog2, sizeof(prog2)), 0);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	s2.img = other;
	ET_EQ(etm_listing_set_images(l, &s2, 1), 0);
	ET_EQ(etm_listing_elems(l, &loop, 1), 0);
	ET_EQ(etm_listing_flush(l), 0);
	ET_CHECK(strstr(got, "00008000  A32  e3a00000") != NULL);
	ET_CHECK(strstr(got, "00008000  A32  e3a01000") > strstr(got, "00008000  A32  e3a00000"));
	s2.id = 0x11; /* not its source */
	ET_EQ(etm_listing_set_images(l, &s2, 1), -etme_invalid);
	ET_EQ(etm_listing_set_images(l, src, 2), -etme_invalid);
	etm_listing_free(l);
	etm_image_free(other);
}

/* The capture sink form: its elems() gives the text and counts of
 * etm_listing_elems(), the write callback's error returned by the next
 * batch once it failed (the run stops there); its end() flushes. Canon of
 * the loop: its four A32 addresses, then the gap. */
static void sink_callback(void)
{
	struct etm_listing *l = open_listing(etm_listing_canon, 0, 1);
	struct etm_elem gap = { .kind = etmk_nosync, .id = 0x10 };
	struct etm_listing_counts n;
	struct etm_capture_sink sk;
	void *ctx = NULL;

	ET_CHECK(l != NULL);
	ET_EQ(etm_listing_capture_sink(NULL, &sk, &ctx), -etme_invalid);
	ET_EQ(etm_listing_capture_sink(l, NULL, &ctx), -etme_invalid);
	ET_EQ(etm_listing_capture_sink(l, &sk, NULL), -etme_invalid);
	ET_EQ(etm_listing_capture_sink(l, &sk, &ctx), 0);
	ET_CHECK(sk.item && sk.elems && sk.end && !sk.pushed && !sk.input_end);
	ET_EQ(sk.elems(ctx, &loop, 1), 0);
	ET_EQ(sk.elems(ctx, &gap, 1), 0);
	ET_EQ(sk.end(ctx), 0);
	ET_CHECK(!strcmp(got, "00008000 A\n00008004 A\n00008008 A\n0000800C A\nGAP\n"));
	etm_listing_counts(l, &n);
	ET_EQ(n.insns, 4);
	ET_EQ(n.elems[etmk_range], 1);
	ET_EQ(n.elems[etmk_nosync], 1);
	fail_write = 1;
	ET_EQ(sk.elems(ctx, &loop, 1), 0); /* held, not yet written */
	ET_EQ(etm_listing_write_out(l), -etme_io);
	ET_EQ(sk.elems(ctx, &loop, 1), -etme_io);
	fail_write = 0;
	etm_listing_free(l);
}

int main(void)
{
	if (setup() < 0)
		return 1;
	ETEST(text_plain_and_hooked);
	ETEST(text_multi_and_runs);
	ETEST(canon_and_jsonl);
	ETEST(write_errors_and_bad_options);
	ETEST(counts_only);
	ETEST(fields_and_data_filter);
	ETEST(write_out_keeps_runs);
	ETEST(images_switched);
	ETEST(sink_callback);
	etm_image_free(img);
	return etest_end();
}
