/* encode/gen_image.c - an execution generated over a given program image
 * (e.g. a compiled test program): walks the image from an entry point,
 * classifying each instruction, choosing the outcome of every conditional
 * instruction at random (seeded) and following calls and returns with a
 * call stack. The events are what a core could have executed on some
 * input, so coverage and profiles derived from the trace can be checked
 * against the generator's own choices. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "encode/gen_int.h"

#define GI_STACK 256

struct gi_ret {
	uint64_t addr;
	enum etm_isa isa;
};

struct gi {
	struct etm_gen *g;
	const struct etm_image *img;
	uint64_t pc;
	enum etm_isa isa;
	struct gi_ret cs[GI_STACK];
	unsigned ncs;
	uint8_t itstate; /* T32 ITSTATE (ARM ARM A2.5.2); 0: none */
	int it_pass;     /* the IT block's first condition passed */
	int it_first;    /* firstcond<0> */
	uint32_t left;
};

/* Outcome of the condition of @in: IT-block members share one random
 * outcome (inverted for the else-slots), other conditional instructions
 * (and CBZ/CBNZ) get their own; backward conditional branches are taken
 * three times in four, so loops run a few times. */
static uint8_t gi_outcome(struct gi *w, const struct etm_insn *in)
{
	struct etm_rng *r = &w->g->rng;

	if (w->itstate & 0xf) {
		/* this instruction's condition is ITSTATE<7:4>: the first
		 * condition when its bit 0 equals firstcond<0>, else its
		 * inverse; then ITSTATE advances */
		int then = (w->itstate >> 4 & 1) == w->it_first;
		uint8_t pass = (uint8_t)(then ? w->it_pass : !w->it_pass);

		if (!(w->itstate & 7))
			w->itstate = 0;
		else
			w->itstate = (uint8_t)((w->itstate & 0xe0) |
					       ((w->itstate << 1) & 0x1f));
		return pass;
	}
	if (!in->cond)
		return 1;
	if (in->cls == etmc_br_direct && in->target <= in->addr)
		return (uint8_t)etm_rng_chance(r, 3, 4);
	return (uint8_t)etm_rng_chance(r, 1, 2);
}

/* Where a passed instruction @in goes; 0 and *@next set, or an error for
 * what the walker cannot follow (indirect jumps other than returns,
 * exception-generating instructions). */
static int gi_follow(struct gi *w, const struct etm_insn *in,
		     struct etm_ev *ev, uint64_t *next, enum etm_isa *nisa)
{
	switch (in->cls) {
	case etmc_br_direct:
		if (in->link) {
			if (w->ncs == GI_STACK)
				return -etme_overflow;
			w->cs[w->ncs].addr = in->addr + in->size;
			w->cs[w->ncs++].isa = w->isa;
		}
		*next = in->target;
		*nisa = in->target_isa;
		return 0;
	case etmc_br_indirect:
		if (!in->is_return || in->link || !w->ncs)
			return -etme_bad_insn;
		w->ncs--;
		*next = ev->target = w->cs[w->ncs].addr;
		*nisa = ev->target_isa = w->cs[w->ncs].isa;
		return 0;
	case etmc_exc_gen:
	case etmc_undefined:
	case etmc_unknown:
		return -etme_bad_insn;
	default:
		return 0;
	}
}

static int gi_step(struct gi *w, int *wp)
{
	struct etm_ev ev;
	struct etm_insn in;
	uint8_t b[4];
	size_t n = etm_image_read(w->img, etm_space_any, w->pc, b, 4);
	uint64_t next;
	enum etm_isa nisa = w->isa;
	int err;

	if (!n || etm_insn_decode(&in, w->isa, w->pc, b, n) < 0)
		return -etme_nomap;
	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_insn;
	ev.addr = w->pc;
	ev.isa = w->isa;
	ev.cycles = 1;
	ev.exec = gi_outcome(w, &in);
	next = w->pc + in.size;
	if (ev.exec) {
		err = gi_follow(w, &in, &ev, &next, &nisa);
		if (err)
			return err;
	}
	if (in.it) {
		w->itstate = (uint8_t)in.opcode;
		w->it_first = in.opcode >> 4 & 1;
		w->it_pass = etm_rng_chance(&w->g->rng, 1, 2);
	}
	*wp = in.cls == etmc_br_direct || in.cls == etmc_br_indirect;
	w->pc = next;
	w->isa = nisa;
	return gen_ev_push(w->g, &ev);
}

struct etm_gen *etm_gen_alloc_image(const struct etm_gen_img_opts *o,
				    size_t size, const struct etm_image *img)
{
	struct etm_gen_img_opts op;
	struct etm_gen *g;
	struct gi *w;
	struct etm_ev on;
	int err, wp = 0;

	if (!o || !img || size < sizeof(size_t))
		return NULL;
	memset(&op, 0, sizeof(op));
	memcpy(&op, o, size < sizeof(op) ? size : sizeof(op));
	if (op.isa != etmi_a32 && op.isa != etmi_t32)
		return NULL;
	g = calloc(1, sizeof(*g));
	w = calloc(1, sizeof(*w));
	if (!g || !w) {
		free(w);
		etm_gen_free(g);
		return NULL;
	}
	g->rng.s = op.seed;
	g->o.proto = op.proto;
	w->g = g;
	w->img = img;
	w->pc = op.entry & ~(uint64_t)1;
	w->isa = op.isa;
	memset(&on, 0, sizeof(on));
	on.kind = etmev_trace_on;
	on.reason = etm_isync_trace_on;
	err = gen_ev_push(g, &on);
	for (w->left = op.ninsn ? op.ninsn : 2000; !err && (w->left || !wp);
	     w->left -= w->left > 0)
		err = gi_step(w, &wp);
	g->err = err;
	free(w);
	return g;
}

int etm_gen_error(const struct etm_gen *g)
{
	return g ? g->err : -etme_invalid;
}
