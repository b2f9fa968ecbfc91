/* cov/cov_int.h - internals of the coverage accumulator: pages of
 * per-halfword counters, per-source straight-line run state, and the hash
 * maps of range and branch counts. */
#ifndef ETM_COV_COV_INT_H
#define ETM_COV_COV_INT_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/coverage.h>

/* A page covers 4 KiB of code: one slot per halfword. */
#define COV_PAGE_SHIFT 12
#define COV_SLOTS (1u << (COV_PAGE_SHIFT - 1))
#define COV_CHUNK_SHIFT 8

/* Slot info byte: what the classifier said about the instruction that
 * starts at the slot (0 = nothing starts here / not yet classified). */
#define CI_VALID 0x01u
#define CI_SIZE4 0x02u
#define CI_T32 0x04u
#define CI_COND 0x08u
#define CI_LINK 0x10u
#define CI_CLS_SHIFT 5 /* enum etm_insn_class in bits 5-7 */

struct cov_page {
	uint64_t base; /* address of the page */
	uint64_t exec[COV_SLOTS];
	uint64_t *fail; /* allocated at the first failed condition */
	uint64_t *unk;  /* ... at the first untold condition */
	uint8_t info[COV_SLOTS];
	/* per 256-byte chunk: bumped when an info byte changes (cov_memo.c) */
	uint32_t gen[1u << (COV_PAGE_SHIFT - COV_CHUNK_SHIFT)];
};

/* Open-addressing map (from, to) -> count; count 0 marks a free entry. */
struct cov_map {
	struct etm_cov_pair *e;
	size_t cap, n;
};

/* Run state of one trace source. */
struct cov_src {
	enum etm_protocol proto; /* 0: not declared */
	const struct etm_image *img;
	int open;  /* a straight-line run is in progress */
	int taken; /* its last instruction is a taken branch */
	uint64_t run_start, last, next;
	/* part objects (etm_cov_set_part()): what the source's first element
	 * was, and where the run it began ended, for etm_cov_append() */
	uint8_t head;      /* COV_HEAD_* */
	uint8_t head_open; /* the head run is still the open run */
	uint8_t head_has_ret;
	uint64_t head_start, head_last, head_ret;
};

enum { COV_HEAD_NONE,
       COV_HEAD_RANGE,
       COV_HEAD_GAP,
       COV_HEAD_EXC };

#define COV_MAX_ID 128

/* Range memo (cov_memo.c): a range counted once, entirely in one page. */
#define COV_MEMO_BITS 14
#define COV_MEMO_N (1u << COV_MEMO_BITS)
struct cov_memo {
	uint64_t start, end;
	struct cov_page *p;      /* NULL: free entry */
	uint64_t n, nfail, nunk; /* pending executions, last-insn outcomes */
	uint32_t ninsn;
	uint32_t gen; /* sum of the gen of its chunks when counted */
	uint8_t chunk0, chunk1, isa, ptm, last_info, queued;
};
struct cov_memos {
	struct cov_memo e[COV_MEMO_N];
	uint32_t dirty[COV_MEMO_N]; /* entries with pending counts */
	size_t ndirty, nmemo;
};

struct etm_cov {
	struct cov_page **pages; /* sorted by base */
	size_t npages, pcap;
	struct cov_page *hot; /* last page used */
	struct cov_map ranges, branches;
	struct cov_src src[COV_MAX_ID];
	int part;               /* etm_cov_set_part() */
	struct cov_memos *memo; /* allocated at first use */
};

/* cov.c */
struct cov_page *cov_page_get(struct etm_cov *c, uint64_t addr);
const struct cov_page *cov_page_find(const struct etm_cov *c, uint64_t addr,
				     size_t *idx);
int cov_page_fail(struct cov_page *p);
int cov_page_unk(struct cov_page *p);
int cov_close_run(struct etm_cov *c, struct cov_src *s);
/* cov_memo.c */
int cov_memo_hit(struct etm_cov *c, const struct etm_elem *el, int ptm,
		 uint8_t *last_info);
int cov_memo_put(struct etm_cov *c, const struct etm_elem *el, int ptm,
		 struct cov_page *p, uint64_t end, uint8_t last_info);
void cov_memo_flush(const struct etm_cov *c);
void cov_memo_drop(struct etm_cov *c);
void cov_memo_reclassify(struct etm_cov *c, struct cov_page *p,
			 uint64_t addr);
/* cov_map.c */
int cov_map_add(struct cov_map *m, uint64_t from, uint64_t to, uint64_t n);
void cov_map_fini(struct cov_map *m);

#endif
