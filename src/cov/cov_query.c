/* cov/cov_query.c - reading the accumulated coverage: instructions in
 * address order, counts of one address, totals. */
#include <etmtrace/error.h>

#include "cov/cov_int.h"

static void cov_fill(const struct cov_page *p, unsigned slot,
		     struct etm_cov_insn *ci)
{
	uint8_t info = p->info[slot];

	ci->addr = p->base + 2u * slot;
	ci->exec = p->exec[slot];
	ci->fail = p->fail ? p->fail[slot] : 0;
	ci->unknown = p->unk ? p->unk[slot] : 0;
	ci->size = info & CI_SIZE4 ? 4 : 2;
	ci->isa = info & CI_T32 ? etmi_t32 : etmi_a32;
	ci->cls = (enum etm_insn_class)(info >> CI_CLS_SHIFT);
	ci->cond = (info & CI_COND) || ci->fail;
	ci->link = (info & CI_LINK) != 0;
}

int etm_cov_next_insn(const struct etm_cov *c, uint64_t addr,
		      struct etm_cov_insn *ci)
{
	size_t i;
	unsigned slot;

	if (!c || !ci)
		return -etme_invalid;
	cov_memo_flush(c);
	addr = (addr + 1) & ~(uint64_t)1;
	cov_page_find(c, addr, &i);
	for (; i < c->npages; i++) {
		const struct cov_page *p = c->pages[i];

		slot = addr > p->base ? (unsigned)(addr - p->base) >> 1 : 0;
		if (slot < p->lo)
			slot = p->lo; /* counts only in the span */
		for (; slot < p->hi; slot++)
			if (p->exec[slot]) {
				cov_fill(p, slot, ci);
				return 0;
			}
	}
	return -etme_eos;
}

int etm_cov_insn_at(const struct etm_cov *c, uint64_t addr,
		    struct etm_cov_insn *ci)
{
	const struct cov_page *p;
	size_t i;
	unsigned slot;

	if (!c || !ci)
		return -etme_invalid;
	cov_memo_flush(c);
	p = cov_page_find(c, addr, &i);
	slot = p ? (unsigned)(addr - p->base) >> 1 : 0;
	if (!p || (addr & 1) || slot < p->lo || slot >= p->hi || !p->exec[slot])
		return -etme_nomap;
	cov_fill(p, slot, ci);
	return 0;
}

void etm_cov_totals(const struct etm_cov *c, struct etm_cov_totals *t)
{
	size_t i;
	unsigned s;

	cov_memo_flush(c);
	t->insns = t->addrs = 0;
	t->pages = c->npages;
	t->ranges = c->ranges.n;
	t->branches = c->branches.n;
	for (i = 0; i < c->npages; i++)
		for (s = c->pages[i]->lo; s < c->pages[i]->hi; s++)
			if (c->pages[i]->exec[s]) {
				t->insns += c->pages[i]->exec[s];
				t->addrs++;
			}
}
