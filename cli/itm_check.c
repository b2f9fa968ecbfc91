/* cli/itm_check.c - cross-checks between an ITM/DWT source and the
 * ETM/PTM instruction flow decoded from the same stream: a periodic PC
 * sample must be the address of an instruction executed near that point
 * of the stream (within ITM_CHECK_WINDOW executed ranges before or
 * after: the two sources' FIFOs drain at their own pace), and each DWT
 * exception entry must have an ETM exception element as near, and the
 * other way round. The numbers are not compared: the ETM encodes
 * exceptions its own way (IHI 0014Q Table 7-12; ARMv7-M: the Cortex-M3
 * TRM table), the DWT gives the ARMv7-M exception number. A statistic,
 * and a warning for each disagreement (the first 10 printed). */
#include <stdio.h>
#include <string.h>

#include "itm_check.h"

#define ITM_CHECK_SHOW 10

void itm_check_init(struct itm_check *c)
{
	memset(c, 0, sizeof(*c));
}

/* Whether an instruction of range @el starts at @a (walked over the
 * source's image: inside the range's bounds is not enough, a 32-bit T32
 * instruction's second halfword is no instruction). */
static int on_insn(const struct itm_check *c, const struct etm_elem *el,
		   uint64_t a)
{
	struct etm_walk w;
	struct etm_insn in;

	if (a < el->start || a >= el->end ||
	    etm_walk_init(&w, c->img[el->id & 0x7f], el) < 0)
		return 0;
	while (etm_walk_next(&w, &in) == 0)
		if (in.addr == a)
			return 1;
	return 0;
}

static int in_recent(const struct itm_check *c, uint64_t a)
{
	unsigned i, n = c->nr < ITM_CHECK_WINDOW ? c->nr : ITM_CHECK_WINDOW;

	for (i = 0; i < n; i++)
		if (on_insn(c, &c->r[i], a))
			return 1;
	return 0;
}

static void warn_sample(struct itm_check *c, const struct itm_pend *p)
{
	c->missed++;
	if (c->warned++ < ITM_CHECK_SHOW)
		fprintf(stderr, "etmtrace itm: warning: PC sample 0x%08llx "
				"(offset %llu): no instruction executed there "
				"within %d ranges of the instruction flow\n",
			(unsigned long long)p->addr,
			(unsigned long long)p->offset, ITM_CHECK_WINDOW);
}

/* An executed range: waiting samples in it are found; a sample that has
 * waited a window long is missed. */
static void range(struct itm_check *c, const struct etm_elem *el)
{
	unsigned i, k = 0;

	c->r[c->ri] = *el;
	c->ri = (c->ri + 1) % ITM_CHECK_WINDOW;
	c->nr++;
	for (i = 0; i < c->npend; i++) {
		struct itm_pend *p = &c->pend[i];

		if (on_insn(c, el, p->addr))
			c->on_insn++;
		else if (--p->left == 0)
			warn_sample(c, p);
		else
			c->pend[k++] = *p;
	}
	c->npend = k;
	if (c->etm_wait && ++c->etm_age > ITM_CHECK_WINDOW) {
		c->exc_unmatched += c->etm_wait;
		if (c->warned++ < ITM_CHECK_SHOW)
			fprintf(stderr, "etmtrace itm: warning: %u ETM "
					"exception(s) at offset %llu with no DWT "
					"exception entry near\n",
				c->etm_wait, (unsigned long long)el->offset);
		c->etm_wait = 0;
	}
	if (c->dwt_wait && ++c->dwt_age > ITM_CHECK_WINDOW) {
		c->exc_unmatched += c->dwt_wait;
		if (c->warned++ < ITM_CHECK_SHOW)
			fprintf(stderr, "etmtrace itm: warning: %u DWT "
					"exception entr%s before offset %llu with "
					"no ETM exception near\n",
				c->dwt_wait, c->dwt_wait == 1 ? "y" : "ies",
				(unsigned long long)el->offset);
		c->dwt_wait = 0;
	}
}

static void sample(struct itm_check *c, const struct etm_elem *el)
{
	struct itm_pend p = { el->addr, el->offset, ITM_CHECK_WINDOW };

	c->samples++;
	if (el->itm_flags & ETM_ITM_SLEEPING) {
		c->sleeping++;
		return;
	}
	if (in_recent(c, el->addr)) {
		c->on_insn++;
		return;
	}
	if (c->npend == ITM_CHECK_PENDING)
		warn_sample(c, &p); /* too many waiting: judged now */
	else
		c->pend[c->npend++] = p;
}

/* An exception of one source: matched with a waiting one of the other. */
static void exception(struct itm_check *c, int dwt)
{
	unsigned *other = dwt ? &c->etm_wait : &c->dwt_wait;

	if (dwt)
		c->dwt_exc++;
	else
		c->etm_exc++;
	if (*other) {
		(*other)--;
		c->exc_matched++;
		return;
	}
	if (dwt) {
		c->dwt_age = c->dwt_wait++ ? c->dwt_age : 0;
	} else {
		c->etm_age = c->etm_wait++ ? c->etm_age : 0;
	}
}

void itm_check_elem(struct itm_check *c, const struct etm_elem *el)
{
	switch (el->kind) {
	case etmk_range: range(c, el); break;
	case etmk_dwt_pc: sample(c, el); break;
	case etmk_exception: exception(c, 0); break;
	case etmk_dwt_exc:
		if (el->itm_fn == 1)
			exception(c, 1);
		break;
	default: break;
	}
}

int itm_check_end(struct itm_check *c)
{
	unsigned i;

	for (i = 0; i < c->npend; i++)
		warn_sample(c, &c->pend[i]);
	c->npend = 0;
	c->exc_unmatched += c->etm_wait + c->dwt_wait;
	c->etm_wait = c->dwt_wait = 0;
	if (c->warned > ITM_CHECK_SHOW)
		fprintf(stderr, "etmtrace itm: ... %llu warnings in all\n",
			c->warned);
	fprintf(stderr, "etmtrace itm: cross-check: %llu of %llu PC samples "
			"on executed instructions (%llu sleeping, %llu not); "
			"%llu DWT exception entries, %llu ETM exceptions, %llu "
			"matched, %llu unmatched\n",
		c->on_insn, c->samples - c->sleeping, c->sleeping, c->missed,
		c->dwt_exc, c->etm_exc, c->exc_matched, c->exc_unmatched);
	return c->missed || c->exc_unmatched ? 1 : 0;
}
