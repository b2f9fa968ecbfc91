/* cli/synth_expect.c - `etmtrace synth --expect`: the generator's
 * execution as the canonical instruction list a decode must give (its
 * ground truth), and with --expect-ctx the Context ID changes in it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/insn.h>

#include "synth_expect.h"

/* Whether the protocol shows the E/N of the instruction: ETMv3 always,
 * PTM only for waypoints. */
static int synth_shows_n(const struct etm_config *cfg,
			 const struct etm_image *img, const struct etm_ev *ev)
{
	struct etm_insn in;
	uint8_t b[4];
	size_t n;

	if (cfg->protocol != etm_proto_ptm)
		return 1;
	n = etm_image_read(img, etm_space_secure, ev->addr, b, sizeof(b));
	if (etm_insn_decode(&in, ev->isa, ev->addr, b, n) < 0)
		return 0;
	return etm_insn_is_waypoint(&in, cfg);
}

struct tbuf {
	char *p;
	size_t len, cap;
};

static int tbuf_line(struct tbuf *t, const char *line)
{
	size_t n = strlen(line);

	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 65536;
		char *q;

		while (cap < t->len + n + 1)
			cap *= 2;
		q = realloc(t->p, cap);
		if (!q)
			return -1;
		t->p = q;
		t->cap = cap;
	}
	memcpy(t->p + t->len, line, n + 1);
	t->len += n;
	return 0;
}

/* Expected canonical list: every traced instruction (cancelled ones
 * removed), ' N' where the protocol reveals a failed condition, GAP at
 * every trace start; with @ctx, "CTX id" (hex) first and at each context
 * change. */
int synth_expect_list(const struct etm_config *cfg, const struct etm_image *img,
		      const struct etm_gen *g, int ctx, char **out, size_t *len)
{
	struct tbuf t = { NULL, 0, 0 };
	const struct etm_ev *ev;
	size_t nev, i, last = (size_t)-1;
	char line[64];
	int on = 0, err = ctx ? tbuf_line(&t, "CTX 0\n") : 0;

	ev = etm_gen_events(g, &nev);
	for (i = 0; i < nev && !err; i++) {
		const struct etm_ev *e = &ev[i];

		if (e->kind == etmev_trace_on) {
			on = 1;
			err = tbuf_line(&t, "GAP\n");
		} else if (e->kind == etmev_trace_off) {
			on = 0;
		} else if (e->kind == etmev_context && ctx) {
			snprintf(line, sizeof(line), "CTX %x\n", e->ctxid);
			err = tbuf_line(&t, line);
		} else if (e->kind == etmev_exception && on && e->cancel &&
			   last != (size_t)-1) {
			t.len = last; /* the cancelled instruction */
		} else if (e->kind == etmev_insn && on) {
			last = t.len;
			snprintf(line, sizeof(line), "%08llX %c%s\n",
				 (unsigned long long)e->addr,
				 e->isa == etmi_a32 ? 'A' : 'T',
				 !e->exec && synth_shows_n(cfg, img, e) ? " N" : "");
			err = tbuf_line(&t, line);
			continue;
		}
		last = (size_t)-1;
	}
	*out = t.p;
	*len = t.len;
	return err ? -1 : 0;
}
