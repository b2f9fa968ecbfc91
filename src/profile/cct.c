/* profile/cct.c - the calling-context tree: nodes keyed (parent, function)
 * in an open-addressing hash table, bounded in size, and the inclusive
 * totals computed from it. */
#include <stdio.h>
#include <stdlib.h>

#include <etmtrace/packet.h>

#include "common/grow.h"
#include "profile/prof_int.h"

static size_t cct_slot(const struct etm_profile *p, uint32_t parent,
		       uint32_t func)
{
	uint64_t k = ((uint64_t)parent << 32 | func) * 0x9E3779B97F4A7C15ull;

	/* bits 32 and up of the product depend on the parent and the
	 * function alike (the bits below it on the function alone: every
	 * node of one function, e.g. the unknown one, would collide) */
	return (size_t)(k >> 32) & (p->caphash - 1);
}

static int cct_rehash(struct etm_profile *p)
{
	size_t cap = p->caphash ? p->caphash * 2 : 4096, i;
	uint32_t *h = calloc(cap, sizeof(*h));

	if (!h)
		return -1;
	free(p->hash);
	p->hash = h;
	p->caphash = cap;
	for (i = 1; i < p->nnodes; i++) {
		size_t j = cct_slot(p, p->nodes[i].parent, p->nodes[i].func);

		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = (uint32_t)i + 1;
	}
	return 0;
}

static uint32_t cct_new(struct etm_profile *p, uint32_t parent, uint32_t func)
{
	struct prof_node *n;

	n = etm_grow(p->nodes, &p->capnodes, p->nnodes + 1, sizeof(*n), 1024);
	if (!n)
		return PROF_NONE;
	p->nodes = n;
	if ((p->nnodes + 1) * 2 > p->caphash && cct_rehash(p) < 0)
		return PROF_NONE;
	n = &p->nodes[p->nnodes];
	n->parent = parent;
	n->func = func;
	n->depth = p->nodes[parent].depth + 1;
	n->self = n->self_cyc = n->calls = n->incl = n->incl_cyc = 0;
	n->call_addr = UINT64_MAX;
	n->memo_func = PROF_NONE;
	return (uint32_t)p->nnodes++;
}

/* The node of @func under @parent in the hash table, or PROF_NONE. */
static inline uint32_t cct_lookup(const struct etm_profile *p, uint32_t parent, uint32_t func)
{
	size_t j = cct_slot(p, parent, func);
	uint32_t i;

	while ((i = p->hash[j]) != 0) {
		const struct prof_node *n = &p->nodes[i - 1];

		if (n->parent == parent && n->func == func)
			return i - 1;
		j = (j + 1) & (p->caphash - 1);
	}
	return PROF_NONE;
}

uint32_t prof_child_find(const struct etm_profile *p, uint32_t parent,
			 uint32_t func)
{
	if (p->nodes[parent].memo_func == func)
		return p->nodes[parent].memo_child;
	return cct_lookup(p, parent, func);
}

uint32_t prof_child(struct etm_profile *p, uint32_t parent, uint32_t func)
{
	size_t j;
	uint32_t i;

	if (p->nodes[parent].memo_func == func) /* the last child asked for */
		return p->nodes[parent].memo_child;
	i = cct_lookup(p, parent, func);
	if (i != PROF_NONE) {
		p->nodes[parent].memo_func = func;
		p->nodes[parent].memo_child = i;
		return i;
	}
	if (p->nnodes >= PROF_MAX_NODES ||
	    p->nodes[parent].depth >= PROF_MAX_DEPTH + 4)
		return parent;
	i = cct_new(p, parent, func);
	if (i == PROF_NONE)
		return parent;
	j = cct_slot(p, parent, func);
	while (p->hash[j])
		j = (j + 1) & (p->caphash - 1);
	p->hash[j] = i + 1;
	p->nodes[parent].memo_func = func;
	p->nodes[parent].memo_child = i;
	return i;
}

const char *prof_func_name(const struct etm_profile *p, uint32_t f)
{
	struct etm_sym y;

	if (f < p->nsym && etm_symbols_get(p->syms, f, &y) == 0)
		return y.name;
	if (f > p->nsym && f < p->nfunc)
		return p->pnames[f - p->nsym];
	return p->pnames[0];
}

void prof_pseudo_names(struct etm_profile *p)
{
	uint32_t i;

	snprintf(p->pnames[0], sizeof(p->pnames[0]), "[unknown]");
	for (i = 0; i < PROF_NEXC; i++)
		snprintf(p->pnames[i + 1], sizeof(p->pnames[0]), "[exception %s]",
			 etm_exc_name(i, p->m_profile));
}

void prof_totals(struct etm_profile *p)
{
	size_t i;

	for (i = 0; i < p->nnodes; i++) {
		p->nodes[i].incl = p->nodes[i].self;
		p->nodes[i].incl_cyc = p->nodes[i].self_cyc;
	}
	for (i = p->nnodes; i-- > 1;) {
		struct prof_node *par = &p->nodes[p->nodes[i].parent];

		par->incl += p->nodes[i].incl;
		par->incl_cyc += p->nodes[i].incl_cyc;
	}
}

int prof_cct_init(struct etm_profile *p)
{
	return cct_rehash(p);
}
