/* listing/line_cache.c - caches of formatted listing text (see line_cache.h): lines,
 * 16384 of 128 bytes (2 MiB) in 4-way sets per
 * formatting thread; TC2's kernel working set (5477 distinct addresses on
 * 0x13) stays in. Whole ranges: 2048 texts of up to 2 KiB, direct-mapped,
 * allocated when first used, their text in an arena of at most 4 MiB
 * (listing/text_arena.h) that staged output may point into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listing/line_cache.h"

/* One cached line in 128 bytes (two cache lines). */
struct lc_line {
	uint8_t hlen, slen, tlen, doff;
	char text[124];
};

#define LC_WAYS 4
#define LC_SETS 4096

/* Tags apart from the lines: a lookup reads one cache line of tags. */
struct lc_tag {
	uint64_t addr;
	uint8_t isa, space, valid;
};

/* A range's whole text, in the arena: the body, the last line as written
 * when cached (E/N: en), then that line's head and sym apart. */
#define LC_RANGES 2048
#define LC_RANGE_TEXT 2048

struct lc_rslot {
	uint64_t start;
	uint32_t ninsn;
	uint8_t isa, space, valid;
	char en[2];
	uint16_t len, lhlen, lslen, ltlen, total;
	struct text_arena_loc at;
	const char *text;
};
struct line_cache {
	struct lc_tag tag[LC_SETS][LC_WAYS];
	uint8_t next[LC_SETS]; /* way to replace next (round robin) */
	struct lc_line line[LC_SETS][LC_WAYS];
	struct lc_rslot *range;   /* LC_RANGES, allocated on first use */
	struct text_arena *arena; /* their text */
};

static void lc_format(struct lc_fresh *l, const struct etm_disasm_hook *dis,
		      struct line_annot *sym, const struct etm_image *img,
		      enum etm_space space, const struct etm_insn *in)
{
	char d[160];
	size_t k;
	int n;

	if (in->size == 4 && in->isa != etmi_a32)
		n = snprintf(l->text, 64, "  %08llx  %s  %04x %04x  ",
			     (unsigned long long)in->addr, etm_isa_name(in->isa),
			     in->opcode >> 16, in->opcode & 0xffff);
	else if (in->size == 4)
		n = snprintf(l->text, 64, "  %08llx  %s  %08x   ",
			     (unsigned long long)in->addr, etm_isa_name(in->isa),
			     in->opcode);
	else
		n = snprintf(l->text, 64, "  %08llx  %s  %04x       ",
			     (unsigned long long)in->addr, etm_isa_name(in->isa),
			     in->opcode);
	if (dis && dis->insn)
		dis->insn(dis->ctx, img, space, in, d, sizeof(d));
	else
		snprintf(d, sizeof(d), "(%s)", etm_insn_class_name(in->cls));
	for (k = strlen(d); k && d[k - 1] == ' ';)
		d[--k] = 0;
	line_annot_target(sym, in, d, sizeof(d), LC_INSN_W);
	n = n < 0 ? 0 : n > 63 ? 63 :
				 n;
	l->doff = n;
	l->tlen = n + (int)strlen(d);
	n += snprintf(l->text + n, 256 - (size_t)n, "%-*s", LC_INSN_W, d);
	l->hlen = n < 255 ? n : 255;
	l->tlen = l->tlen < l->hlen ? l->tlen : l->hlen;
	n = line_annot_symstr(sym, in->addr, l->text + l->hlen, 256);
	l->slen = n < 0 ? 0 : n < 255 ? n :
					255;
}

struct lc_text line_cache_line(struct line_cache **lc, struct lc_fresh *fresh,
			       const struct etm_disasm_hook *dis,
			       struct line_annot *sym, const struct etm_image *img,
			       enum etm_space space, const struct etm_insn *in)
{
	struct lc_tag *tag = NULL;
	struct lc_line *l;
	uint32_t h = 0, w;

	if (!*lc)
		*lc = calloc(1, sizeof(**lc));
	if (*lc) {
		h = (uint32_t)(((in->addr >> 1) * 0x9E3779B1u) >> 20) & (LC_SETS - 1);
		tag = (*lc)->tag[h];
		for (w = 0; w < LC_WAYS; w++) {
			if (tag[w].addr == in->addr && tag[w].valid &&
			    tag[w].isa == in->isa && tag[w].space == space) {
				l = &(*lc)->line[h][w];
				return (struct lc_text){ l->text, l->hlen,
							 l->slen, l->tlen, l->doff };
			}
		}
	}
	lc_format(fresh, dis, sym, img, space, in);
	if (*lc && fresh->hlen + fresh->slen <= (int)sizeof(l->text)) {
		w = (*lc)->next[h]++ % LC_WAYS;
		l = &(*lc)->line[h][w];
		memcpy(l->text, fresh->text, (size_t)(fresh->hlen + fresh->slen));
		l->hlen = (uint8_t)fresh->hlen;
		l->slen = (uint8_t)fresh->slen;
		l->tlen = (uint8_t)fresh->tlen;
		l->doff = (uint8_t)fresh->doff;
		tag[w].addr = in->addr;
		tag[w].isa = (uint8_t)in->isa;
		tag[w].space = (uint8_t)space;
		tag[w].valid = 1;
	}
	return (struct lc_text){ fresh->text, (size_t)fresh->hlen,
				 (size_t)fresh->slen, (size_t)fresh->tlen,
				 (size_t)fresh->doff };
}

static struct lc_rslot *lc_range_slot(struct line_cache *lc,
				      const struct etm_elem *el)
{
	/* the count in the hashed bits: ranges from one address that end at
	 * different branches do not share a slot */
	uint64_t k = ((el->start >> 1) ^ (uint64_t)el->ninsn << 40) *
		     0x9E3779B97F4A7C15ull;

	if (!lc->range) {
		lc->range = calloc(LC_RANGES, sizeof(*lc->range));
		lc->arena = lc->range ? text_arena_new() : NULL;
		if (!lc->arena) {
			free(lc->range);
			lc->range = NULL;
		}
	}
	return lc->range ? &lc->range[(k >> 40) & (LC_RANGES - 1)] : NULL;
}

int line_cache_range_get(struct line_cache *lc, const struct etm_elem *el,
			 enum etm_space space, struct lc_range *out)
{
	struct lc_rslot *b = lc ? lc_range_slot(lc, el) : NULL;

	if (!b || !b->valid || b->start != el->start || b->ninsn != el->ninsn ||
	    b->isa != el->isa || b->space != space ||
	    !text_arena_valid(lc->arena, b->at))
		return 0;
	out->body = b->text;
	out->len = b->len;
	out->total = b->total;
	out->head = b->text + b->total;
	out->hlen = b->lhlen;
	out->tlen = b->ltlen;
	memcpy(out->en, b->en, 2);
	out->sym = out->head + b->lhlen;
	out->slen = b->lslen;
	out->arena = lc->arena;
	out->blk = b->at.blk;
	return 1;
}

void line_cache_range_put(struct line_cache *lc, const struct etm_elem *el,
			  enum etm_space space, const char *body, size_t len,
			  struct lc_text last, const char en[2],
			  const char *lastline, size_t lastlen)
{
	struct lc_rslot *b = lc ? lc_range_slot(lc, el) : NULL;
	size_t n = len + lastlen + last.hlen + last.slen;
	char *t;

	if (!b || len + lastlen > LC_RANGE_TEXT)
		return;
	t = text_arena_alloc(lc->arena, n, &b->at);
	if (!t) { /* every block pinned by staged output: not cached */
		b->valid = 0;
		return;
	}
	memcpy(t, body, len);
	memcpy(t + len, lastline, lastlen);
	memcpy(t + len + lastlen, last.text, last.hlen + last.slen);
	memcpy(b->en, en, 2);
	b->text = t;
	b->len = (uint16_t)len;
	b->total = (uint16_t)(len + lastlen);
	b->lhlen = (uint16_t)last.hlen;
	b->lslen = (uint16_t)last.slen;
	b->ltlen = (uint16_t)last.tlen;
	b->start = el->start;
	b->ninsn = el->ninsn;
	b->isa = (uint8_t)el->isa;
	b->space = (uint8_t)space;
	b->valid = 1;
}

void line_cache_free(struct line_cache *lc)
{
	if (lc) {
		free(lc->range);
		text_arena_release(lc->arena);
	}
	free(lc);
}
