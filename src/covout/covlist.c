/* covout/covlist.c - `etmtrace coverage --format text|ranges|insns`: the
 * annotated listing of every function (coverage gaps: never-executed
 * instructions, one-way conditional branches), executed / never-executed
 * address ranges per function or image region (no DWARF needed), and the
 * raw per-instruction counts. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "covout/covout.h"

/* One area to report: a function, or an image region without symbols. */
struct area {
	const char *name;
	uint64_t start, end;
	enum etm_isa isa;
};

static int area_get(const struct covout *o, size_t i, struct area *a)
{
	struct etm_sym f;

	if (o->sym && etm_symbols_count(o->sym)) {
		if (etm_symbols_get(o->sym, i, &f) < 0)
			return -1;
		a->name = f.name;
		a->start = f.start;
		a->end = f.end;
		a->isa = f.thumb ? etmi_t32 : etmi_a32;
		return 0;
	}
	if (etm_image_region(o->img, i, NULL, &a->start, &a->end, &a->name) < 0)
		return -1;
	a->end += a->start;
	a->isa = etmi_a32;
	return 0;
}

static size_t area_count(const struct covout *o)
{
	if (o->sym && etm_symbols_count(o->sym))
		return etm_symbols_count(o->sym);
	return etm_image_count(o->img);
}

/* The condition column of an executed instruction. */
static void cond_note(const struct etm_cov_insn *ci, char *buf, size_t n)
{
	uint64_t pass = ci->exec - ci->fail - ci->unknown;
	int br = ci->cls == etmc_br_direct || ci->cls == etmc_br_indirect;

	buf[0] = 0;
	if (!ci->cond)
		return;
	if (ci->unknown)
		snprintf(buf, n, "  ; cond: %" PRIu64 " untold (PTM), %" PRIu64 " %s, %" PRIu64 " %s", ci->unknown, pass,
			 br ? "taken" : "passed", ci->fail, br ? "not taken" : "failed");
	else if (!ci->fail || !pass)
		snprintf(buf, n, "  ; one-way: %s %s", ci->fail ? "never" : "always",
			 br ? "taken" : "passed");
	else
		snprintf(buf, n, "  ; both: %" PRIu64 " %s, %" PRIu64 " %s", pass,
			 br ? "taken" : "passed", ci->fail, br ? "not taken" : "failed");
}

/* A data word (literal pool) where the ELF's mapping symbols say $d and
 * nothing executed, listed as objdump does: .word, or .short / .byte up
 * to the end of the data. Returns the size, 0 if @a is not data. */
static unsigned list_data(struct covout *o, uint64_t a, int ran)
{
	uint64_t end = 0;
	uint8_t b[4];
	unsigned n;

	if (ran || !o->sym || etm_symbols_mapping(o->sym, a, &end) != 'd')
		return 0;
	n = end - a >= 4 && !(a & 3) ? 4 : end - a >= 2 && !(a & 1) ? 2 :
								      1;
	if (etm_image_read(o->img, etm_space_any, a, b, n) != n)
		return 0;
	if (n == 4)
		cov_printf(o, "%12s  %08" PRIx64 ":  .word 0x%08x\n", "", a,
			   (unsigned)b[0] | (unsigned)b[1] << 8 |
				   (unsigned)b[2] << 16 | (unsigned)b[3] << 24);
	else if (n == 2)
		cov_printf(o, "%12s  %08" PRIx64 ":  .short 0x%04x\n", "", a,
			   (unsigned)b[0] | (unsigned)b[1] << 8);
	else
		cov_printf(o, "%12s  %08" PRIx64 ":  .byte 0x%02x\n", "", a, b[0]);
	return n;
}

/* Width of the disassembly column where a note follows it. */
#define COV_INSN_W 44

/* " <func+0xoff>" of a direct branch's target appended to @dis, as
 * `objdump -d` prints it; with @width, the name is cut (ending in "..",
 * at least 8 characters kept) so that @dis stays within @width characters
 * (the decode listing's rule, doc/listing.md). */
static void target_sym(const struct covout *o, const struct etm_insn *in,
		       char *dis, size_t n, size_t width)
{
	struct etm_sym f;
	size_t k = strlen(dis), name, tail;
	char off[24] = "";

	if (in->cls != etmc_br_direct || !o->sym ||
	    etm_symbols_lookup(o->sym, in->target, &f) < 0 || k >= n)
		return;
	if (in->target != f.start)
		snprintf(off, sizeof(off), "+0x%" PRIx64, in->target - f.start);
	name = strlen(f.name);
	tail = strlen(off) + 3;
	if (width && k + tail + name > width) {
		size_t keep = width > k + tail + 2 ? width - k - tail - 2 : 0;

		keep = keep < 8 ? 8 : keep;
		if (keep < name) {
			snprintf(dis + k, n - k, " <%.*s..%s>", (int)keep, f.name, off);
			return;
		}
	}
	snprintf(dis + k, n - k, " <%s%s>", f.name, off);
}

/* One listing line; returns the size to step by. */
static unsigned list_insn(struct covout *o, uint64_t a, enum etm_isa isa)
{
	struct etm_cov_insn ci;
	struct etm_insn in;
	char dis[160], note[128];
	int ran = etm_cov_insn_at(o->cov, a, &ci) == 0;
	unsigned data = list_data(o, a, ran);
	int map = !ran && o->sym ? etm_symbols_mapping(o->sym, a, NULL) : 0;

	if (data)
		return data;
	if (ran)
		isa = ci.isa;
	else if (map == 'a' || map == 't') /* $a / $t: the code's ISA */
		isa = map == 't' ? etmi_t32 : etmi_a32;
	if (cov_decode_at(o->img, a, isa, &in) < 0) {
		cov_printf(o, "%12s  %08" PRIx64 ":  (not in the image)\n",
			   ran ? "" : "#####", a);
		return ran ? ci.size : isa == etmi_a32 ? 4 :
							 2;
	}
	if (o->dis.insn)
		o->dis.insn(o->dis.ctx, o->img, etm_space_any, &in, dis, sizeof(dis));
	else
		snprintf(dis, sizeof(dis), "(%s)", etm_insn_class_name(in.cls));
	note[0] = 0;
	if (ran)
		cond_note(&ci, note, sizeof(note));
	target_sym(o, &in, dis, sizeof(dis), note[0] ? COV_INSN_W : 0);
	if (ran && note[0])
		cov_printf(o, "%12" PRIu64 "  %08" PRIx64 ":  %-44s%s\n", ci.exec, a,
			   dis, note);
	else if (ran)
		cov_printf(o, "%12" PRIu64 "  %08" PRIx64 ":  %s\n", ci.exec, a, dis);
	else
		cov_printf(o, "%12s  %08" PRIx64 ":  %s\n", "#####", a, dis);
	return ran ? ci.size : in.size;
}

int cov_write_listing(struct covout *o)
{
	size_t i, n = area_count(o);
	struct etm_cov_insn ci;
	struct area ar;

	for (i = 0; i < n && !o->err; i++) {
		uint64_t a;

		if (area_get(o, i, &ar) < 0)
			continue;
		if (etm_cov_next_insn(o->cov, ar.start, &ci) < 0 ||
		    ci.addr >= ar.end) {
			cov_printf(o, "\n%08" PRIx64 " <%s>: never executed\n",
				   ar.start, ar.name);
			continue;
		}
		cov_printf(o, "\n%08" PRIx64 " <%s>:\n", ar.start, ar.name);
		for (a = ar.start; a < ar.end;)
			a += list_insn(o, a, ar.isa);
	}
	return o->err;
}

/* Pass 1 (@print 0): executed bytes and instructions of the area, the
 * union of its executed instructions; pass 2: the ranges. */
static void ranges_walk(struct covout *o, const struct area *ar, int print,
			uint64_t *bytes, uint64_t *insns)
{
	struct etm_cov_insn ci;
	uint64_t a = ar->start, cur = ar->start, run = 0;
	int in_run = 0;

	*bytes = *insns = 0;
	while (etm_cov_next_insn(o->cov, a, &ci) == 0 && ci.addr < ar->end) {
		if (ci.addr > cur || !in_run) {
			if (in_run && print)
				cov_printf(o, "  + %08" PRIx64 "-%08" PRIx64 "\n", run, cur);
			if (ci.addr > cur && print)
				cov_printf(o, "  - %08" PRIx64 "-%08" PRIx64 "\n", cur,
					   ci.addr);
			run = ci.addr;
			in_run = 1;
		}
		if (ci.addr + ci.size > cur) {
			*bytes += ci.addr + ci.size - (ci.addr > cur ? ci.addr : cur);
			cur = ci.addr + ci.size;
		}
		++*insns;
		a = ci.addr + 2;
	}
	if (in_run && print)
		cov_printf(o, "  + %08" PRIx64 "-%08" PRIx64 "\n", run, cur);
	if (cur < ar->end && print)
		cov_printf(o, "  - %08" PRIx64 "-%08" PRIx64 "\n", cur, ar->end);
}

int cov_write_ranges(struct covout *o)
{
	size_t i, n = area_count(o);
	const char *kind = o->sym && etm_symbols_count(o->sym) ? "function" :
								 "region";
	uint64_t bytes, insns, tb = 0, ts = 0;
	struct etm_cov_totals t;
	struct area ar;

	cov_printf(o, "# %s start-end executed-bytes/size instructions name; "
		      "'+' executed, '-' never executed ranges\n",
		   kind);
	for (i = 0; i < n && !o->err; i++) {
		if (area_get(o, i, &ar) < 0 || ar.end <= ar.start)
			continue;
		ranges_walk(o, &ar, 0, &bytes, &insns);
		cov_printf(o, "%s %08" PRIx64 "-%08" PRIx64 " %" PRIu64 "/%" PRIu64 " %" PRIu64 " %s\n", kind, ar.start, ar.end, bytes,
			   ar.end - ar.start, insns, ar.name);
		tb += bytes;
		ts += ar.end - ar.start;
		if (bytes)
			ranges_walk(o, &ar, 1, &bytes, &insns);
	}
	cov_printf(o, "# total %" PRIu64 "/%" PRIu64 " bytes executed\n", tb, ts);
	etm_cov_totals(o->cov, &t);
	cov_printf(o, "# coverage: %" PRIu64 " instructions executed at %" PRIu64 " addresses; %" PRIu64 " code pages of 4 KiB, %" PRIu64 " ranges, %" PRIu64 " branches\n", t.insns, t.addrs, t.pages,
		   t.ranges, t.branches);
	return o->err;
}

int cov_write_insns(struct covout *o)
{
	struct etm_cov_insn ci;
	uint64_t a = 0;

	while (!o->err && etm_cov_next_insn(o->cov, a, &ci) == 0) {
		cov_printf(o, "%08" PRIx64 " %c %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			   ci.addr, ci.isa == etmi_a32 ? 'A' : 'T', ci.exec, ci.fail,
			   ci.unknown);
		a = ci.addr + 2;
	}
	return o->err;
}
