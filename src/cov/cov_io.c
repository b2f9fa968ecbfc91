/* cov/cov_io.c - text output of a coverage object: the AutoFDO and
 * llvm-profgen profile formats, and the save/load serialisation
 * ("etmtrace-coverage 1", doc/coverage.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "cov/cov_int.h"

/* A line of at most 127 bytes through @fn. */
static int cov_line(etm_write_fn fn, void *ctx, const char *fmt,
		    uint64_t a, uint64_t b, uint64_t n)
{
	char buf[128];
	int k = snprintf(buf, sizeof(buf), fmt, a, b, n);

	return fn(ctx, buf, (size_t)k);
}

static int cov_count(etm_write_fn fn, void *ctx, size_t n)
{
	return cov_line(fn, ctx, "%" PRIu64 "\n", (uint64_t)n, 0, 0);
}

/* Text of @v at @b, hex digits (at least @width) or decimal (@hex 0), as
 * printf's %x / %0Nx / %u would write it; returns the end. */
static char *cov_put(char *b, uint64_t v, int hex, int width)
{
	static const char dig[] = "0123456789abcdef";
	char t[24];
	int n = 0;

	do {
		t[n++] = dig[hex ? v & 15 : v % 10];
		v = hex ? v >> 4 : v / 10;
	} while (v);
	while (n < width)
		t[n++] = '0';
	while (n)
		*b++ = t[--n];
	return b;
}

/* One "@pre@a@mid@b@post@n\n" line: @a and @b hex, @n decimal. */
static int cov_pair_line(etm_write_fn fn, void *ctx, const char *pre,
			 uint64_t a, const char *mid, uint64_t b,
			 const char *post, uint64_t n)
{
	char buf[128], *e = buf;

	while (*pre)
		*e++ = *pre++;
	e = cov_put(e, a, 1, 1);
	while (*mid)
		*e++ = *mid++;
	e = cov_put(e, b, 1, 1);
	while (*post)
		*e++ = *post++;
	e = cov_put(e, n, 0, 1);
	*e++ = '\n';
	return fn(ctx, buf, (size_t)(e - buf));
}

/* How a line of ranges or branches is written (cov_pair_line()). */
struct cov_pair_fmt {
	const char *pre, *mid, *post;
};

/* The ranges or branches, one @f line each with the addresses reduced
 * by @base; preceded by their number if @counted. */
static int cov_write_pairs(const struct etm_cov *c, int branches,
			   uint64_t base, const struct cov_pair_fmt *f,
			   int counted, etm_write_fn fn, void *ctx)
{
	struct etm_cov_pair *p;
	size_t n, i;
	int err;

	err = etm_cov_pairs(c, branches, &p, &n);
	if (err)
		return err;
	if (counted)
		err = cov_count(fn, ctx, n);
	for (i = 0; i < n && !err; i++)
		err = cov_pair_line(fn, ctx, f->pre, p[i].from - base, f->mid,
				    p[i].to - base, f->post, p[i].count);
	free(p);
	return err;
}

static const struct cov_pair_fmt range_fmt = { "", "-", ":" };
static const struct cov_pair_fmt branch_fmt = { "", "->", ":" };
static const struct cov_pair_fmt save_range_fmt = { "r ", " ", " " };
static const struct cov_pair_fmt save_branch_fmt = { "b ", " ", " " };

/* AutoFDO's middle section: the executed count of every instruction. */
static int cov_write_addrs(const struct etm_cov *c, uint64_t base,
			   etm_write_fn fn, void *ctx)
{
	struct etm_cov_totals t;
	struct etm_cov_insn ci;
	uint64_t a = 0;
	int err;

	etm_cov_totals(c, &t);
	err = cov_count(fn, ctx, (size_t)t.addrs);
	while (!err && etm_cov_next_insn(c, a, &ci) == 0) {
		char buf[48], *e = cov_put(buf, ci.addr - base, 1, 1);

		*e++ = ':';
		e = cov_put(e, ci.exec, 0, 1);
		*e++ = '\n';
		err = fn(ctx, buf, (size_t)(e - buf));
		a = ci.addr + 2;
	}
	return err;
}

int etm_cov_write_profile(const struct etm_cov *c, enum etm_fdo_format f,
			  uint64_t base, etm_write_fn fn, void *ctx)
{
	int err;

	if (!c || !fn || (f != etm_fdo_autofdo && f != etm_fdo_profgen))
		return -etme_invalid;
	cov_memo_flush(c);
	err = cov_write_pairs(c, 0, base, &range_fmt, 1, fn, ctx);
	if (!err && f == etm_fdo_autofdo)
		err = cov_write_addrs(c, base, fn, ctx);
	return err ? err : cov_write_pairs(c, 1, base, &branch_fmt, 1, fn, ctx);
}

static int cov_save_insns(const struct etm_cov *c, etm_write_fn fn,
			  void *ctx)
{
	struct etm_cov_insn ci;
	uint64_t a = 0;
	char buf[128];
	int err = 0;

	while (!err && etm_cov_next_insn(c, a, &ci) == 0) {
		const struct cov_page *p;
		char *e = buf;
		size_t i;

		/* "i ADDR INFO EXEC FAIL UNKNOWN" (hex, %02x, decimal) */
		p = cov_page_find(c, ci.addr, &i);
		*e++ = 'i';
		*e++ = ' ';
		e = cov_put(e, ci.addr, 1, 1);
		*e++ = ' ';
		e = cov_put(e, p->info[(ci.addr - p->base) >> 1], 1, 2);
		*e++ = ' ';
		e = cov_put(e, ci.exec, 0, 1);
		*e++ = ' ';
		e = cov_put(e, ci.fail, 0, 1);
		*e++ = ' ';
		e = cov_put(e, ci.unknown, 0, 1);
		*e++ = '\n';
		err = fn(ctx, buf, (size_t)(e - buf));
		a = ci.addr + 2;
	}
	return err;
}

int etm_cov_save(const struct etm_cov *c, etm_write_fn fn, void *ctx)
{
	static const char head[] = "etmtrace-coverage 1\n";
	int err;

	if (!c || !fn)
		return -etme_invalid;
	cov_memo_flush(c);
	err = fn(ctx, head, sizeof(head) - 1);
	if (!err)
		err = cov_save_insns(c, fn, ctx);
	if (!err)
		err = cov_write_pairs(c, 0, 0, &save_range_fmt, 0, fn, ctx);
	if (!err)
		err = cov_write_pairs(c, 1, 0, &save_branch_fmt, 0, fn, ctx);
	return err ? err : fn(ctx, "end\n", 4);
}

/* Numbers of one "X a b c [d]" line (hex addresses, decimal counts). */
static int cov_parse_line(struct etm_cov *c, const char *l)
{
	uint64_t a, b, n, f, u;
	unsigned info;
	struct cov_page *p;
	unsigned slot;

	if ((l[0] == 'r' || l[0] == 'b') &&
	    sscanf(l + 1, " %" SCNx64 " %" SCNx64 " %" SCNu64, &a, &b, &n) == 3)
		return cov_map_add(l[0] == 'r' ? &c->ranges : &c->branches,
				   a, b, n);
	if (l[0] != 'i' ||
	    sscanf(l + 1, " %" SCNx64 " %x %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &a, &info, &n, &f, &u) != 5 ||
	    (a & 1) || !(info & CI_VALID) || info > 0xff || !n || f + u > n)
		return -etme_parse;
	p = cov_page_get(c, a);
	if (!p || (f && cov_page_fail(p) < 0) || (u && cov_page_unk(p) < 0))
		return -etme_nomem;
	slot = (unsigned)(a - p->base) >> 1;
	cov_page_span(p, slot, slot + 1);
	p->info[slot] = (uint8_t)info;
	p->exec[slot] += n;
	if (f)
		p->fail[slot] += f;
	if (u)
		p->unk[slot] += u;
	return 0;
}

int etm_cov_load(struct etm_cov *c, const char *buf, size_t n, size_t *line)
{
	struct etm_cov *t = etm_cov_alloc();
	size_t pos = 0, ln = 0;
	int err = 0, ended = 0;
	char l[256];

	if (!t || !c || !buf)
		err = t ? -etme_invalid : -etme_nomem;
	while (!err && !ended && pos < n) {
		size_t e = pos;

		while (e < n && buf[e] != '\n')
			e++;
		ln++;
		if (e - pos >= sizeof(l)) {
			err = -etme_parse;
			break;
		}
		memcpy(l, buf + pos, e - pos);
		l[e - pos] = 0;
		pos = e + 1;
		if (ln == 1)
			err = strcmp(l, "etmtrace-coverage 1") ? -etme_parse : 0;
		else if (!strcmp(l, "end"))
			ended = 1;
		else
			err = cov_parse_line(t, l);
	}
	if (!err && !ended)
		err = -etme_parse;
	if (!err)
		err = etm_cov_merge(c, t);
	if (err == -etme_parse && line)
		*line = ln;
	etm_cov_free(t);
	return err;
}
