/* tests/unit/test-line_fields.c - the listing's column rules (doc/listing.md),
 * against strings written out by hand:
 *  - line_annot_target(): " <name+0xoff>" of a direct branch's target; a name
 *    that would make the text wider than the column is cut to fit and ends
 *    in "..", at least LINE_ANNOT_MIN_NAME (8) characters kept;
 *  - line_fields_parse(): names in order, repeats, and the errors (unknown or
 *    empty name, too many) naming the accepted fields;
 *  - line_fields_line(): each field padded to its width but the last, two
 *    spaces between, no trailing blanks, E/N on the last instruction only,
 *    ts and ctx from the events before. */
#include <stdio.h>
#include <string.h>

#include <etmtrace/error.h>

#include "etest.h"
#include "etest_wbuf.h"
#include "listing/line_annot.h"
#include "listing/line_fields.h"

static struct wbuf w; /* large: static */
static char got[4096];

static const char *text(void)
{
	return etest_wbuf_text(&w, got, sizeof(got));
}

/* One function: a 24-character name over [0x8000, 0x8100). */
static int one_func(const void *ctx, uint64_t addr, const char **name,
		    uint64_t *start, uint64_t *end)
{
	(void)ctx;
	if (addr < 0x8000 || addr >= 0x8100)
		return -1;
	*name = "abcdefghijklmnopqrstuvwx";
	*start = 0x8000;
	*end = 0x8100;
	return 0;
}

static struct line_annot *open_syms(void)
{
	struct line_annot_opts o = { .sym = { .func = one_func } };
	struct line_annot *d = NULL;

	return line_annot_open(&o, &d) == 0 ? d : NULL;
}

static void target_cut_to_width(void)
{
	struct line_annot *d = open_syms();
	struct etm_insn in = { .cls = etmc_br_direct, .target = 0x8012 };
	char b[160];

	ET_CHECK(d != NULL);
	/* wide enough: "bl 8012 <abcdefghijklmnopqrstuvwx+0x12>" (38) */
	strcpy(b, "bl 8012");
	line_annot_target(d, &in, b, sizeof(b), 44);
	ET_CHECK(!strcmp(b, "bl 8012 <abcdefghijklmnopqrstuvwx+0x12>"));
	/* 30: 7 + 2 + name + ".." + 5 + 1 -> 13 characters of the name */
	strcpy(b, "bl 8012");
	line_annot_target(d, &in, b, sizeof(b), 30);
	ET_CHECK(!strcmp(b, "bl 8012 <abcdefghijklm..+0x12>"));
	ET_EQ(strlen(b), 30);
	/* narrower than 8 characters of name allow: 8 kept, wider */
	strcpy(b, "bl 8012");
	line_annot_target(d, &in, b, sizeof(b), 16);
	ET_CHECK(!strcmp(b, "bl 8012 <abcdefgh..+0x12>"));
	/* the function's start: no offset; 0: never cut */
	in.target = 0x8000;
	strcpy(b, "b 8000");
	line_annot_target(d, &in, b, sizeof(b), 20);
	ET_CHECK(!strcmp(b, "b 8000 <abcdefghi..>"));
	strcpy(b, "b 8000");
	line_annot_target(d, &in, b, sizeof(b), 0);
	ET_CHECK(!strcmp(b, "b 8000 <abcdefghijklmnopqrstuvwx>"));
	/* not a direct branch, or no symbol there: nothing added */
	in.cls = etmc_br_indirect;
	strcpy(b, "bx lr");
	line_annot_target(d, &in, b, sizeof(b), 44);
	ET_CHECK(!strcmp(b, "bx lr"));
	in.cls = etmc_br_direct;
	in.target = 0x9000;
	strcpy(b, "b 9000");
	line_annot_target(d, &in, b, sizeof(b), 44);
	ET_CHECK(!strcmp(b, "b 9000"));
	line_annot_close(d);
}

static void parse_lists(void)
{
	struct line_fields_spec sp;
	char why[256];

	ET_EQ(line_fields_parse("addr,insn,sym", &sp, why, sizeof(why)), 0);
	ET_EQ(sp.n, 3);
	ET_CHECK(sp.f[0] == LF_ADDR && sp.f[1] == LF_INSN && sp.f[2] == LF_SYM);
	ET_EQ(line_fields_parse("ctx,addr,addr", &sp, why, sizeof(why)), 0);
	ET_CHECK(sp.n == 3 && sp.f[0] == LF_CTX && sp.f[2] == LF_ADDR);
	ET_EQ(line_fields_sequential(&sp), 1);
	ET_EQ(line_fields_parse("offset,id,addr,isa,opcode,insn,atom,sym,src,cycles",
				&sp, why, sizeof(why)),
	      0);
	ET_EQ(sp.n, 10);
	ET_EQ(line_fields_sequential(&sp), 0);
	ET_EQ(line_fields_parse("addr,pc", &sp, why, sizeof(why)), -1);
	ET_CHECK(!strcmp(why, "unknown field 'pc' (fields: offset,id,addr,isa,"
			      "opcode,insn,atom,sym,src,cycles,ts,ctx)"));
	ET_EQ(line_fields_parse("addr,,sym", &sp, why, sizeof(why)), -1);
	ET_CHECK(strstr(why, "an empty field name") != NULL);
	ET_EQ(line_fields_parse("", &sp, why, sizeof(why)), -1);
	ET_EQ(line_fields_parse("addr,", &sp, why, sizeof(why)), -1);
	ET_EQ(line_fields_parse("address", &sp, why, sizeof(why)), -1);
	{
		char many[33 * 5 + 1] = "";
		int i;

		for (i = 0; i < 33; i++)
			strcat(many, i ? ",addr" : "addr");
		ET_EQ(line_fields_parse(many, &sp, why, sizeof(why)), -1);
		ET_CHECK(!strcmp(why, "more than 32 fields"));
	}
}

static void lines_padded(void)
{
	struct line_fields_spec sp;
	struct line_fields *f;
	char why[128];
	/* "  00008010  A32  1afffffc   bne 8008<pad>" + "  main+0x10" */
	static const char head[] = "  00008010  A32  1afffffc   bne 8008"
				   "                                    "
				   "  main+0x10";
	struct lc_text l = { head, 28 + 44, 11, 28 + 8, 28 };
	struct etm_insn in = { .addr = 0x8010, .size = 4, .isa = etmi_a32, .opcode = 0x1afffffc };
	struct etm_elem el = { .kind = etmk_range, .id = 0x13, .offset = 41, .last_atom = 1, .last_exec = 0, .has_cycles = 1, .cycles = 3 };
	struct etm_elem ts = { .kind = etmk_timestamp, .id = 0x13, .timestamp = 1000 };
	struct etm_elem cx = { .kind = etmk_context, .id = 0x13, .has_ctxid = 1, .ctxid = 0x42 };

	ET_CHECK(wbuf_init_mem(&w, NULL) == 0);
	ET_EQ(line_fields_parse("atom,addr,cycles,sym,insn", &sp, why, sizeof(why)), 0);
	f = line_fields_open(&sp);
	ET_CHECK(f != NULL);
	line_fields_line(f, &w, &el, &in, l, 1, NULL);
	line_fields_line(f, &w, &el, &in, l, 0, NULL); /* not the last: no E/N */
	ET_CHECK(!strcmp(text(), "N  00008010  3       main+0x10                         bne 8008\n"
				 "   00008010          main+0x10                         bne 8008\n"));
	line_fields_close(f);
	/* offset in hex, id, isa, opcode; ts and ctx from the events; an
	 * empty last field leaves no blanks */
	ET_EQ(line_fields_parse("offset,id,isa,opcode,ts,ctx,src", &sp, why, sizeof(why)), 0);
	sp.hex = 1;
	f = line_fields_open(&sp);
	ET_CHECK(f != NULL);
	line_fields_line(f, &w, &el, &in, l, 1, NULL);
	line_fields_event(f, &ts);
	line_fields_event(f, &cx);
	line_fields_line(f, &w, &el, &in, l, 1, NULL);
	ET_CHECK(!strcmp(text(), "0x00000029  0x13  A32  1afffffc\n"
				 "0x00000029  0x13  A32  1afffffc   1000            0x00000042\n"));
	line_fields_close(f);
	wbuf_fini(&w);
}

int main(void)
{
	ETEST(target_cut_to_width);
	ETEST(parse_lists);
	ETEST(lines_padded);
	return etest_end();
}
