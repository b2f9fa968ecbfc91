/* cli/synth_itm.c - `etmtrace synth --itm`: the ITM/DWT events a Cortex-M
 * program traced over SWO would add to the generated execution, encoded
 * with the library's ITM encoder, placed in the trace buffer after the
 * ETM bytes of the event they describe, and the listing lines they must
 * decode to (the generator's ground truth). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "synth_itm.h"

struct itm_gen {
	struct synth_itm *it;
	struct etm_itm_enc *enc;
	size_t cap, ecap;
	uint64_t rng, gts;
	int err;
};

static uint64_t itm_rnd(struct itm_gen *g)
{
	g->rng = g->rng * 6364136223846793005ull + 1442695040888963407ull;
	return g->rng >> 33;
}

static void itm_line(struct itm_gen *g, const char *line)
{
	struct synth_itm *it = g->it;
	size_t n = strlen(line);
	char *p;

	if (it->nexpect + n + 2 > g->ecap) {
		g->ecap = (g->ecap + n + 2) * 2;
		p = realloc(it->expect, g->ecap);
		if (!p) {
			g->err = 1;
			return;
		}
		it->expect = p;
	}
	memcpy(it->expect + it->nexpect, line, n);
	it->nexpect += n;
	it->expect[it->nexpect++] = '\n';
	it->expect[it->nexpect] = 0;
}

/* Element @el encoded after ETM byte @at; @line its listing line. */
static void itm_put(struct itm_gen *g, const struct etm_elem *el, size_t at,
		    const char *line)
{
	struct synth_itm *it = g->it;
	int r;

	if (it->n + ETM_ITM_ENC_MAX > g->cap) {
		size_t cap = (g->cap + ETM_ITM_ENC_MAX) * 2;
		uint8_t *b = realloc(it->bytes, cap);
		size_t *a = realloc(it->at, cap * sizeof(*a));
		size_t *c = a ? realloc(it->cut, (cap + 1) * sizeof(*c)) : NULL;

		if (b)
			it->bytes = b;
		if (a)
			it->at = a;
		if (c)
			it->cut = c;
		if (!b || !a || !c) {
			g->err = 1;
			return;
		}
		g->cap = cap;
	}
	r = etm_itm_enc_put(g->enc, el, it->bytes + it->n, ETM_ITM_ENC_MAX);
	if (r <= 0) {
		g->err = 1;
		return;
	}
	it->at[it->ngrp] = at;
	it->cut[it->ngrp++] = it->n;
	it->n += (size_t)r;
	it->cut[it->ngrp] = it->n;
	itm_line(g, line);
}

/* A line of text on stimulus port 0: 4-byte writes, the rest 1-byte. */
static void itm_text(struct itm_gen *g, size_t at, unsigned long long k)
{
	struct etm_elem el;
	char text[32], line[64];
	size_t i, len;
	unsigned j;

	len = (size_t)snprintf(text, sizeof(text), "step %llu\n", k);
	for (i = 0; i < len; i += el.itm_size) {
		memset(&el, 0, sizeof(el));
		el.kind = etmk_itm_sw;
		el.itm_size = len - i >= 4 ? 4 : 1;
		memcpy(&el.itm_value, text + i, el.itm_size);
		snprintf(line, sizeof(line), "-- itm ch0: \"");
		for (j = 0; j < el.itm_size; j++)
			snprintf(line + strlen(line), 8, "%s",
				 text[i + j] == '\n' ? "\\n" :
						       (char[2]){ text[i + j], 0 });
		strcat(line, "\"");
		itm_put(g, &el, at, line);
		g->it->count.sw++;
	}
}

static void itm_pc(struct itm_gen *g, size_t at, uint64_t pc)
{
	struct etm_elem el;
	char line[64];

	memset(&el, 0, sizeof(el));
	el.kind = etmk_dwt_pc;
	el.addr = pc;
	snprintf(line, sizeof(line), "-- dwt pc sample 0x%08llx",
		 (unsigned long long)pc);
	itm_put(g, &el, at, line);
	g->it->count.pc++;
}

static void itm_exc(struct itm_gen *g, size_t at, unsigned num)
{
	struct etm_elem el;
	char line[64], name[32];

	memset(&el, 0, sizeof(el));
	el.kind = etmk_dwt_exc;
	el.exc_num = (uint16_t)(num & 0x1ff);
	el.itm_fn = 1;
	etm_itm_exc_name(el.exc_num, name, sizeof(name));
	snprintf(line, sizeof(line), "-- dwt exception enter %s", name);
	itm_put(g, &el, at, line);
	g->it->count.exc++;
}

/* Now and then: a local or global timestamp, a watchpoint's data value,
 * the one overflow. */
static void itm_misc(struct itm_gen *g, size_t at, unsigned long long k)
{
	struct etm_elem el;
	char line[80];

	memset(&el, 0, sizeof(el));
	if (k == 8) {
		el.kind = etmk_itm_overflow;
		snprintf(line, sizeof(line),
			 "-- itm overflow: packets were lost here");
		g->it->count.overflow++;
	} else if (k % 5 == 4) {
		el.kind = etmk_itm_ts;
		el.itm_flags = ETM_ITM_GLOBAL;
		g->gts += 1000 + itm_rnd(g) % 100000;
		el.timestamp = g->gts & 0x3ffffff; /* one GTS1, no GTS2 */
		snprintf(line, sizeof(line), "-- itm global timestamp %llu",
			 (unsigned long long)el.timestamp);
	} else if (k % 3 == 1) {
		el.kind = etmk_dwt_cmp;
		el.itm_chan = (uint16_t)(k % 4);
		el.itm_flags = ETM_ITM_CMP_VALUE;
		el.itm_fn = 1;
		el.itm_size = 4;
		el.itm_value = (uint32_t)itm_rnd(g);
		snprintf(line, sizeof(line),
			 "-- dwt comparator %u write value 0x%08x (4 bytes)",
			 el.itm_chan, el.itm_value);
		g->it->count.cmp++;
	} else {
		el.kind = etmk_itm_ts;
		el.timestamp = 1 + itm_rnd(g) % 5000;
		snprintf(line, sizeof(line), "-- itm local timestamp +%llu",
			 (unsigned long long)el.timestamp);
	}
	g->it->count.ts += el.kind == etmk_itm_ts;
	itm_put(g, &el, at, line);
}

int synth_itm_build(const struct etm_ev *ev, size_t nev, const size_t *evpos,
		    uint64_t seed, struct synth_itm *it)
{
	struct itm_gen g = { it, etm_itm_enc_alloc(), 0, 0, seed ^ 0x17d, 0, 0 };
	unsigned long long insns = 0, lines = 0;
	unsigned next_pc = 20, next_txt = 100;
	size_t i;
	int on = 0;

	memset(it, 0, sizeof(*it));
	if (!g.enc)
		return -1;
	for (i = 0; i < nev && !g.err; i++) {
		if (ev[i].kind == etmev_trace_on)
			on = 1;
		else if (ev[i].kind == etmev_trace_off ||
			 ev[i].kind == etmev_overflow)
			on = 0;
		if (!on)
			continue;
		if (ev[i].kind == etmev_exception)
			itm_exc(&g, evpos[i], ev[i].exc_num);
		if (ev[i].kind != etmev_insn)
			continue;
		insns++;
		if (--next_pc == 0) {
			itm_pc(&g, evpos[i], ev[i].addr);
			next_pc = 20 + (unsigned)(itm_rnd(&g) % 60);
		}
		if (--next_txt == 0) {
			itm_text(&g, evpos[i], lines);
			itm_misc(&g, evpos[i], lines++);
			next_txt = 100 + (unsigned)(itm_rnd(&g) % 200);
		}
	}
	etm_itm_enc_free(g.enc);
	if (g.err) {
		synth_itm_free(it);
		return -1;
	}
	return 0;
}

void synth_itm_free(struct synth_itm *it)
{
	free(it->bytes);
	free(it->at);
	free(it->cut);
	free(it->expect);
	memset(it, 0, sizeof(*it));
}

int synth_itm_device(char *buf, size_t n)
{
	return snprintf(buf, n,
			"[device]\nname=%s\nclass=trace_source\ntype=ITM\n\n"
			"[regs]\nITMTCR(0x3A0)=0x%08x\n",
			SYNTH_ITM_DEV, (unsigned)SYNTH_ITM_ID << 16 | 1);
}

int synth_itm_frames(struct etm_fenc *f, unsigned etm_id, const uint8_t *etm,
		     size_t n, const struct synth_itm *it)
{
	size_t pos = 0, k, at;
	int err = 0;

	for (k = 0; k < it->ngrp && !err; k++) {
		at = it->at[k] < n ? it->at[k] : n;
		if (at > pos)
			err = etm_fenc_put(f, etm_id, etm + pos, at - pos);
		pos = at > pos ? at : pos;
		if (!err)
			err = etm_fenc_put(f, SYNTH_ITM_ID,
					   it->bytes + it->cut[k],
					   it->cut[k + 1] - it->cut[k]);
	}
	if (!err && pos < n)
		err = etm_fenc_put(f, etm_id, etm + pos, n - pos);
	return err;
}
