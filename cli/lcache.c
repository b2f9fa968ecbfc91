/* cli/lcache.c - direct-mapped cache of formatted listing-line parts (see
 * lcache.h): 16384 lines (3.4 MiB) in 4-way sets per formatting thread;
 * TC2's kernel working set (5477 distinct addresses on 0x13) stays in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcache.h"

#define LC_WAYS 4
#define LC_SETS 4096

/* Tags apart from the lines: a lookup reads one cache line of tags. */
struct lc_tag {
	uint64_t addr;
	uint8_t isa, space, valid;
};

struct lcache {
	struct lc_tag tag[LC_SETS][LC_WAYS];
	uint8_t next[LC_SETS];    /* way to replace next (round robin) */
	struct lc_line line[LC_SETS][LC_WAYS];
};

static void lc_format(struct lc_line *l, struct disasm *dis,
		      const struct decsym *sym, const struct etm_image *img,
		      enum etm_space space, const struct etm_insn *in)
{
	char d[128];
	int n;

	if (in->size == 4 && in->isa != etmi_a32)
		n = snprintf(l->head, sizeof(l->head), "  %08llx  %s  %04x %04x  ",
			     (unsigned long long)in->addr, etm_isa_name(in->isa),
			     in->opcode >> 16, in->opcode & 0xffff);
	else if (in->size == 4)
		n = snprintf(l->head, sizeof(l->head), "  %08llx  %s  %08x   ",
			     (unsigned long long)in->addr, etm_isa_name(in->isa),
			     in->opcode);
	else
		n = snprintf(l->head, sizeof(l->head), "  %08llx  %s  %04x       ",
			     (unsigned long long)in->addr, etm_isa_name(in->isa),
			     in->opcode);
	disasm_insn(dis, img, space, in, d, sizeof(d));
	decsym_target(sym, in, d, sizeof(d));
	if (n < 0)
		n = 0;
	n += snprintf(l->head + n, sizeof(l->head) - (size_t)n, "%-36s", d);
	l->hlen = (uint8_t)(n < (int)sizeof(l->head) ? n : (int)sizeof(l->head) - 1);
	n = decsym_symstr(sym, in->addr, l->sym, sizeof(l->sym));
	l->slen = (uint8_t)(n < (int)sizeof(l->sym) ? n : (int)sizeof(l->sym) - 1);
}

const struct lc_line *lcache_line(struct lcache **lc, struct disasm *dis,
				  const struct decsym *sym,
				  const struct etm_image *img,
				  enum etm_space space, const struct etm_insn *in)
{
	static _Thread_local struct lc_line fallback;
	struct lc_tag *tag;
	uint32_t h, w;

	if (!*lc)
		*lc = calloc(1, sizeof(**lc));
	if (!*lc) {
		lc_format(&fallback, dis, sym, img, space, in);
		return &fallback;
	}
	h = (uint32_t)(((in->addr >> 1) * 0x9E3779B1u) >> 20) & (LC_SETS - 1);
	tag = (*lc)->tag[h];
	for (w = 0; w < LC_WAYS; w++)
		if (tag[w].addr == in->addr && tag[w].valid &&
		    tag[w].isa == in->isa && tag[w].space == space)
			return &(*lc)->line[h][w];
	w = (*lc)->next[h]++ % LC_WAYS;
	lc_format(&(*lc)->line[h][w], dis, sym, img, space, in);
	tag[w].addr = in->addr;
	tag[w].isa = (uint8_t)in->isa;
	tag[w].space = (uint8_t)space;
	tag[w].valid = 1;
	return &(*lc)->line[h][w];
}

void lcache_free(struct lcache *lc)
{
	free(lc);
}
