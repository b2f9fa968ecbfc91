/* flow/flow_etm3_int.h - the ETMv3 flow decoder's state and the parts of
 * it shared by its files: flow_etm3.c (packets, walks, the general fast
 * path) and flow_etm3_plain.c (the plain fast loop and the walk memo). */
#ifndef ETM_FLOW_FLOW_ETM3_INT_H
#define ETM_FLOW_FLOW_ETM3_INT_H

#include <stdint.h>

#include "flow/flow_int.h"

struct etm_wm_entry;
struct e3_caentry;

/* Elements that may follow the pending range while its last instruction can
 * still be cancelled (timestamps, context, exception return, ...). */
#define E3_HELD_MAX 16

/* wait_branch: the address is unknown after a taken indirect branch
 * (E3_WAIT_BRANCH), or the walked target of an ISA-changing direct branch
 * (BLX imm) waits for the address packet the trace gives for it
 * (E3_WAIT_ISA; addr and isa hold the walked target). */
#define E3_WAIT_BRANCH 1
#define E3_WAIT_ISA 2

/* ETMv3 data trace (flow_etm3_data.c): the data instruction the next data
 * packet belongs to, and the out-of-order transfers waiting for values. */
struct e3_data {
	int on;       /* ETMCR[3:2] != 0 */
	int have;     /* a data instruction (or the stacking) is current */
	int insn;     /* iaddr/isa name it (not the stacking) */
	int stacking; /* ARMv7-M exception entry stacking (0x7E) */
	uint64_t iaddr;
	enum etm_isa isa;
	struct etm_ldst ls;
	uint32_t k;    /* its transfers seen so far */
	int have_base; /* base: the address of its transfer 0 */
	uint64_t base;
	uint8_t ooo_used; /* bit t: ooo[t] waits for its value */
	struct etm_elem ooo[4];
	/* the data token (etm_e3_drain_data()): etm_pkt_tok_data() sets its
	 * data fields, the rest stays zero from the reset */
	struct etm_packet tok;
	/* scans of ranges memoised (the cache on; allocated at first use,
	 * kept across resets, E3_SMEMO entries) */
	struct e3_smemo *smemo;
};

#define E3_SMEMO 1024

/* Entries (two-way sets) of the cycle-accurate walk memo: a walk is kept
 * per start and E/N pattern, so it holds more walks than the plain loop's
 * (TC2 0x10: ~640 walks a pass thrashed 1,024 entries). */
#define E3_CAMEMO_LOG2 12

/* The classes of instructions that ended ranges inside a block
 * (etm_e3_classify_last()), direct-mapped by address: E3_CMEMO entries,
 * with the block cache only (an image memo like it), cleared when the
 * image changes. */
#define E3_CMEMO_LOG2 8
struct e3_cmemo {
	uint64_t addr;
	uint8_t tag;  /* 0: empty; else e3_cmemo_tag() */
	uint8_t size; /* and last_size: the key */
	uint8_t ok;   /* the opcode was read and decoded: cls and link */
	uint8_t cls;
	uint8_t link;
};

/* Where a walk starts in the queue (etm_e3_data_mark()). */
struct e3_dmark {
	unsigned q0;      /* queue index of the pending range / new elements */
	int pend_on;      /* a pending range was there */
	uint64_t old_end; /* its end and count then */
	uint32_t old_n;
};

struct etm3_flow {
	struct etm_flow *f;
	int ca;        /* cycle-accurate: W atoms are counted */
	int data_only; /* ETMCR[20]: no instruction trace */
	int m_profile;
	int sec_ext; /* Security Extensions: else NS and Hyp are ignored */

	/* synchronisation */
	int synced; /* an I-sync gave address and state */
	int ever_synced;
	int addr_valid;  /* addr is the next instruction */
	int wait_branch; /* E3_WAIT_*: an address packet is due */
	int halted;      /* after a Debug Halt exception: not synced
				 * until an I-sync or a full branch address */
	int halt_gap;    /* the halt gap was reported */
	uint64_t addr;
	enum etm_isa isa;

	/* context state */
	uint8_t ns, hyp;
	enum etm_space space; /* of ns (see e3_set_ns()) */
	uint8_t has_ctxid, has_vmid;
	uint32_t ctxid;
	uint8_t vmid;

	uint64_t carry; /* W atoms not yet given to an instruction */
	uint64_t off;   /* offset of the packet being processed */

	/* The range being built. Its last instruction is the most recently
	 * traced one and may still be cancelled by the next branch packet,
	 * so it and everything after it is held back. */
	int pend_on;
	int pend_open;         /* the range may be extended */
	uint64_t prev_addr;    /* second-to-last instruction (ninsn >= 2) */
	uint32_t last_w;       /* cycles attributed to the last instruction */
	struct etm_elem *pend; /* in the flow queue, after the queued ones */
	struct etm_elem rtmpl; /* a new range: zero but kind, id, has_cycles
				 * and the context */
	struct etm_elem held[E3_HELD_MAX];
	unsigned nheld;

	struct etm_block tmp;
	/* The block the last atoms ended inside: the next atoms usually go
	 * on from its instruction cb_i (at cb_next), with no lookup. Valid
	 * until the next block lookup. */
	const struct etm_block *cb;
	uint32_t cb_i;
	uint64_t cb_next;

	/* walks of single P-headers (etm_e3_plain()), kept across resets; NULL
	 * until the first one (with the cache on) or without memory */
	struct etm_wm_entry *memo;
	uint32_t tgen; /* generation of rtmpl (a memo key) */
	/* the same for cycle-accurate runs (flow_etm3_camemo.c,
	 * 2^E3_CAMEMO_LOG2 entries) */
	struct e3_caentry *camemo;

	struct e3_data d; /* data trace (off: untouched) */

	struct e3_cmemo cmemo[1u << E3_CMEMO_LOG2];
};

/* Atoms to walk: bit i of @bits is 1 for N. Cycle-accurate: @w[i] cycles
 * of atom i, except atom 0 whose cycles are @w0 (@w NULL: no cycles).
 * Offsets: of each atom's packet in run @r, or e->off (@r NULL). */
struct e3_atoms {
	uint32_t n;
	uint64_t bits;
	/* cycle-accurate: the W atoms of atoms 0..j-1 together in cw[j]
	 * & wmask (struct etm_atom_run's: its packet indices in the top
	 * bits), but of atom 0 w0 (the carry added) */
	const uint16_t *cw;
	uint16_t wmask;
	uint32_t w0;
	struct etm_atom_run *r;
	uint32_t first; /* the atom the walk starts at (those before: done) */
};

/* Copy @el to the output queue. */
static inline int e3_put(struct etm3_flow *e, const struct etm_elem *el)
{
	return etm_flow_emit_copy(e->f, el);
}

/* A zeroed element of @kind for the current packet. */
static inline void e3_init_elem(struct etm3_flow *e, struct etm_elem *el,
				enum etm_elem_kind kind)
{
	etm_zero(el, sizeof(*el));
	el->kind = kind;
	el->offset = e->off;
	el->id = e->f->id;
}

/* Debug Halt (A/R profile exception 1, IHI 0014Q Table 7-12): trace stops
 * until the core leaves Debug state, where it restarts with an I-sync
 * (reason debug exit). Until then nothing is known: packets are skipped,
 * the gap reported once (etm_e3_halt_skip()). */
static inline int etm_e3_is_halt(const struct etm3_flow *e,
				 const struct etm_brc *br)
{
	return br->has_exc && br->exc_num == 1 && !e->m_profile;
}

/* The count @v, saturated to 32 bits. */
static inline uint32_t e3_sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Release the pending range and the elements held behind it. */
int etm_e3_flush_slow(struct etm3_flow *e);

/* etm_e3_flush_slow(); the common case inline: a classified range built in
 * place and nothing held is queued by counting it. */
static inline int e3_flush(struct etm3_flow *e)
{
	struct etm_flow *f = e->f;

	if (e->pend_on && !e->nheld && e->pend->last_cls != etmc_unknown &&
	    e->pend == &f->q[f->qhead + f->qlen]) {
		f->qlen++;
		e->pend_on = 0;
		return 0;
	}
	if (!e->pend_on && !e->nheld)
		return 0;
	return etm_e3_flush_slow(e);
}

/* The next instruction is at @addr in @isa (an address packet). */
static inline void etm_e3_set_addr(struct etm3_flow *e, uint64_t addr,
				   enum etm_isa isa)
{
	e->addr = addr;
	e->isa = isa;
	e->wait_branch = 0;
	e->addr_valid = !e->data_only &&
			(isa == etmi_a32 || isa == etmi_t32 || isa == etmi_tee);
}

/* flow_etm3.c: elements, walks, packets. */
/* Output a non-range element: held behind the pending range if there is
 * one, else queued. */
int etm_e3_out(struct etm3_flow *e, const struct etm_elem *el);
/* Apply NS/Hyp and the context ID of @pkt; a context element if they
 * changed (or @force). */
int etm_e3_state(struct etm3_flow *e, const struct etm_packet *pkt,
		 int force);
/* Branch address packet @br, possibly with exception information; the
 * packet @pkt it came from, or NULL (the fast path: no context ID). */
int etm_e3_branch(struct etm3_flow *e, const struct etm_brc *br,
		  const struct etm_packet *pkt);

/* Whether the next walk goes on in the pending range (e3_append()'s test
 * for its first step, nothing held), from the state's parts: the walk
 * memos keep such walks apart from those that start a new range. */
static inline int e3_merges(int pend_on, int pend_open,
			    const struct etm_elem *pend, uint64_t addr,
			    enum etm_isa isa)
{
	return pend_on && pend_open && pend->end == addr && pend->isa == isa;
}

/* flow_etm3_plain.c: what the two walk memos (the plain loop's and the
 * cycle-accurate one, flow_etm3_camemo.c) share about keeping a walk. */
/* Queue index of the first range a walk makes or extends, or -1 when the
 * walk is not to be kept: a merging walk extends the pending range (built
 * in place), any other starts one after it. */
int etm_e3_memo_base(const struct etm3_flow *e, int merge);
/* After a walk: whether it may be kept, i.e. it made only ranges (no
 * unreadable opcode, no lost branch), at most ETM_WALK_MEMO_RANGES of them,
 * the first at queue index @base (etm_e3_memo_base()), all but the last
 * classified, the last pending. */
int etm_e3_memo_keepable(const struct etm3_flow *e, int base);
/* The walk etm_e3_memo_keepable() accepted into @m under key @key, but
 * for its end state (end_st: each memo's own): its ranges, the last
 * classified, whether it merges (into the pending range of @old_n
 * instructions), its end address and prev_addr. */
void etm_e3_memo_fill(struct etm3_flow *e, struct etm_wm_entry *m,
		      uint64_t key, unsigned base, int merge, uint32_t old_n);

/* Atoms @a of cycle-accurate run @r (n, bits and r set): its W sums, and
 * the carry (W atoms of earlier runs) into atom 0's, which takes the
 * run's tail for the next. */
static inline void etm_e3_ca_atoms(struct etm3_flow *e,
				   const struct etm_atom_run *r,
				   struct e3_atoms *a)
{
	a->cw = r->cw;
	a->wmask = ETM_ATOM_RUN_WMASK;
	a->w0 = e3_sat32((uint64_t)(r->cw[1] & ETM_ATOM_RUN_WMASK) + e->carry);
	e->carry = r->w_tail;
}

/* flow_etm3_camemo.c: cycle-accurate atom run @r (atoms in it) walked
 * through the walk memo, the cache on and nothing held; the same elements
 * as etm_e3_walk() of its atoms (etm_e3_ca_atoms()). */
int etm_e3_camemo_run(struct etm3_flow *e, struct etm_atom_run *r);
/* flow_etm3.c: etm_e3_run() of any run but the memo's. */
int etm_e3_run_walk(struct etm3_flow *e, struct etm_atom_run *r);

/* A run of one-byte P-headers (decoder fast path) walked as one: the
 * same elements as packet by packet, each with its packet's offset. W
 * atoms of earlier packets (the carry) belong to the first atom. The
 * usual case is tested first, before any set-up (cycle-accurate atoms,
 * synchronised, the cache on, nothing held, no data trace): the memo's
 * (etm_e3_camemo_run()); the others etm_e3_run_walk(). */
static inline int etm_e3_run(struct etm3_flow *e, struct etm_atom_run *r)
{
	if (e->ca && r->n && e->synced && !e->data_only && e->f->cache_on &&
	    !e->nheld && !e->d.on)
		return etm_e3_camemo_run(e, r);
	return etm_e3_run_walk(e, r);
}

/* flow_etm3_camemo.c: release the cycle-accurate memo (if any). */
void etm_e3_camemo_free(struct etm3_flow *e);
/* The walks of @k atoms from @addr kept there, going on in the pending
 * range (@merge) or not (for tests). */
unsigned etm_e3_camemo_count(const struct etm3_flow *e, uint64_t addr,
			     int merge, unsigned k);

/* flow_etm3_sync.c: I-sync, gap cycles, bad trace. */
int etm_e3_isync(struct etm3_flow *e, const struct etm_packet *pkt);
int etm_e3_gap_cycles(struct etm3_flow *e, uint32_t cc);
int etm_e3_error(struct etm3_flow *e, const struct etm_packet *pkt);

/* flow_etm3_check.c: what the trace says against what was walked. */
/* Report that the trace disagrees with the image walked at @addr (the
 * pending range released first). */
int etm_e3_mismatch(struct etm3_flow *e, uint64_t addr);
/* Whether branch address packet @br disagrees with the walk. */
int etm_e3_br_disagrees(struct etm3_flow *e, const struct etm_brc *br);
/* A packet that would decode instructions while halted: report the gap
 * once. Returns 0 or an error. */
int etm_e3_halt_skip(struct etm3_flow *e);
/* The same for run @r of the fast path (atoms in it), at the offset of its
 * first packet with atoms, as packet by packet. */
int etm_e3_halt_run(struct etm3_flow *e, struct etm_atom_run *r);
/* Synchronised again after a halt: by I-sync (@br NULL) or by branch
 * address @br, complete on its own (a trace-on element, reason resync). */
int etm_e3_unhalt(struct etm3_flow *e, const struct etm_brc *br);

/* A P-header packet's atoms walked. */
int etm_e3_atoms(struct etm3_flow *e, const struct etm_packet *pkt);
/* Walk atoms @a (e3_walk_in(), out of line). Returns 0 or an error. */
int etm_e3_walk(struct etm3_flow *e, const struct e3_atoms *a);
/* Classify the last instruction of range @el if the walk did not. */
void etm_e3_classify_last(struct etm3_flow *e, struct etm_elem *el);

/* flow_etm3_data.c: data trace. */
/* Before a walk (data trace on): where its instructions will be. */
void etm_e3_data_mark(struct etm3_flow *e, struct e3_dmark *m);
/* After it: the last load/store executed becomes the data instruction. */
void etm_e3_data_scan(struct etm3_flow *e, const struct e3_dmark *m);
/* A data packet (normal, out-of-order, placeholder, value not traced,
 * suppressed, store failed) or the exception entry marker. */
int etm_e3_data(struct etm3_flow *e, const struct etm_packet *pkt);
/* Forget the data instruction; out-of-order transfers never matched are
 * reported (trace gap, end of trace). */
int etm_e3_data_gap(struct etm3_flow *e);
/* An atom packet or I-sync with data trace on: walked (etm_e3_atoms(),
 * etm_e3_isync()) between etm_e3_data_mark() and etm_e3_data_scan(). */
int etm_e3_data_walk(struct etm3_flow *e, const struct etm_packet *pkt);
/* The drain hook with data trace on: P-header runs, branch address and
 * data packets as tokens (flow_etm3_data.c). */
int etm_e3_drain_data(struct etm_flow *f, uint64_t *np);
/* Save the data state (etm_flow_save()). */
void etm_e3_data_save(const struct etm3_flow *e, struct etm_sbuf *s);

/* The fast path (flow_etm3_plain.c, the flow decoder's drain hook):
 * compact tokens pulled from the packet decoder, see flow_int.h. */
int etm_e3_drain(struct etm_flow *f, uint64_t *np);
/* The fast paths' general packet (I-sync, timestamp, context ID, ...):
 * the next packet of @f's packet decoder pulled and put as the general
 * path would (etm_flow_pull()), so that the batch goes on after it.
 * Returns 1 when it was put, 0 when the next packet is an error (left for
 * the decoder, which judges it) or input is needed, or an error of the
 * put. */
int etm_e3_drain_general(struct etm_flow *f, uint64_t *np);

/* The image changed (etm_flow_ctx_switch()): forget the current block and
 * the data-trace scan memo (flow_etm3_data.c). */
void etm_e3_img_changed(struct etm_flow *f);

#endif
