/* flow/walk_memo.h - memo of ETMv3 atom-packet walks: for a one-byte P-header
 * walked from an address (ISA, memory space), the range elements the walk
 * made and where it left the decoder. Like the block cache it memoises the
 * program image only (bounded, two-way set-associative, owned by one flow
 * decoder); the elements also carry the context of the range template they
 * were built from, whose generation is part of the key. */
#ifndef ETM_FLOW_WALK_MEMO_H
#define ETM_FLOW_WALK_MEMO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <etmtrace/flow.h>

/* Entries (two-way sets) and most ranges one walk may make to be kept. */
#define ETM_WALK_MEMO_LOG2 10
#define ETM_WALK_MEMO_RANGES 5

struct etm_wm_entry {
	/* key: etm_wm_key() of the walk's start (0: the entry is empty) */
	uint64_t key;
	/* result: nr range elements (offset not set; the last stays
	 * pending; with merge, the first is the pending range the walk went
	 * on in, d_ninsn instructions longer), then the state */
	uint8_t nr;
	uint8_t merge;
	uint8_t prev_pending; /* prev_addr: the pending range's last (then
			      * prev_addr is the hit's scratch) */
	uint32_t d_ninsn;
	uint32_t end_st; /* ISA, addr_valid, wait_branch, pend_open (the
			  * plain loop's packed state, flow_etm3_plain.c) */
	uint64_t end_addr;
	uint64_t prev_addr; /* second-to-last instruction of the last */
	struct etm_elem el[ETM_WALK_MEMO_RANGES];
};

/* The memo: its entries, then the template generation its keys count
 * from (the memo's pointer is that of its first entry). */
struct etm_wm_tab {
	struct etm_wm_entry e[1u << ETM_WALK_MEMO_LOG2];
	uint32_t tbase;
};

/* Generations one memo tells apart (16 key bits): past them it is
 * emptied and counts from the new one. */
#define ETM_WALK_MEMO_GENS 0x10000u

/* The key's context part: template generation @dgen (less the memo's
 * tbase, below ETM_WALK_MEMO_GENS) and memory space @space (0-2), the
 * space's bits inverted: never 0, so no key is 0 (an empty entry's), even
 * one the plain loop looks up for a byte before it knows it is a
 * P-header (flow_etm3_plain.c). */
static inline uint64_t etm_wm_ctx(uint32_t dgen, unsigned space)
{
	return (uint64_t)dgen << 48 | (uint64_t)((space & 3) ^ 3) << 46;
}

/* The key of a walk, in one word: the start address @addr (32 bits: the
 * caller keeps no walk from a wider one), the header byte @hdr, 6 bits of
 * the walk's state @st6 (ISA and flags, among them whether the walk goes
 * on in the pending range; the caller's) and the context part @ctx
 * (etm_wm_ctx()). Distinct walks have distinct keys; a key with a flag of
 * @st6 set is never 0. */
static inline uint64_t etm_wm_key(uint32_t addr, uint8_t hdr, uint32_t st6,
				  uint64_t ctx)
{
	return (uint64_t)((st6 & 0x3f) << 8 | hdr) << 32 | addr | ctx;
}

/* The set of the walk of key @key: two entries (two ways, the newest
 * first). */
static inline struct etm_wm_entry *etm_wm_slot(struct etm_wm_entry *tab,
					       uint64_t key)
{
	return &tab[((key * 0x9E3779B97F4A7C15ull) >> (65 - ETM_WALK_MEMO_LOG2))
		    << 1];
}

/* The set index (its first entry) of a walk from @addr with @hdr in a
 * table of 2^@log2 entries of two ways (the cycle-accurate memo's,
 * flow_etm3_camemo.c; the same hash as etm_wm_slot()). */
static inline size_t etm_wm_set(uint64_t addr, uint8_t hdr, unsigned log2)
{
	uint64_t h = addr ^ ((uint64_t)hdr << 40);

	return (size_t)((h * 0x9E3779B97F4A7C15ull) >> (65 - log2)) << 1;
}

/* etm_wm_extend() copies last_addr, last_size and last_cls (with the
 * padding between them) as one block of bytes, and last_link with
 * last_exec as another: fewer loads and stores than one per field. */
#define ETM_WM_LAST_HEAD \
	(offsetof(struct etm_elem, last_link) - offsetof(struct etm_elem, last_addr))
_Static_assert(offsetof(struct etm_elem, last_size) == offsetof(struct etm_elem, last_addr) + 8 &&
		       offsetof(struct etm_elem, last_cls) > offsetof(struct etm_elem, last_size) &&
		       offsetof(struct etm_elem, last_cls) + sizeof(enum etm_insn_class) ==
			       offsetof(struct etm_elem, last_link) &&
		       ETM_WM_LAST_HEAD == 16 &&
		       offsetof(struct etm_elem, last_exec) == offsetof(struct etm_elem, last_link) + 1,
	       "last_addr to last_cls end where last_link starts; last_exec follows it");

/* Applying a memoised walk @m that goes on in the pending range @pe: @pe
 * takes @m's instructions in it and its first range @r's end and last
 * instruction (last_addr to last_exec and last_mark; last_atom is 1 in
 * both, has_cycles the template's). */
static inline void etm_wm_extend(struct etm_elem *pe,
				 const struct etm_wm_entry *m,
				 const struct etm_elem *r)
{
	pe->ninsn += m->d_ninsn;
	pe->end = r->end;
	memcpy(&pe->last_addr, &r->last_addr, ETM_WM_LAST_HEAD);
	memcpy(&pe->last_link, &r->last_link, 2);
	pe->last_mark = r->last_mark;
}

#endif
