/* cli/diagwarn.c - `etmtrace decode` configuration-mismatch warnings
 * (library etm_diag_*): one stderr line per source whose trace does not fit
 * its configuration or image, naming the likely cause. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/open.h>

#include "diagwarn.h"

/* Bytes of the trace file the probe decodes with configuration variants. */
#define DIAGWARN_PROBE (256u << 10)

struct diagwarn {
	struct etm_diag *d[128]; /* by trace ID */
	int seg;                 /* segments (diagwarn_open_segment) */
};

static struct diagwarn *open_diag(const struct session *s, int seg)
{
	struct diagwarn *w = calloc(1, sizeof(*w));
	int i;

	for (i = 0; w && i < s->nsrc; i++) {
		unsigned id = s->src[i].id & 0x7f;

		etm_diag_free(w->d[id]);
		w->d[id] = seg ? etm_diag_alloc_segment(&s->src[i].cfg,
							s->src[i].img) :
				 etm_diag_alloc(&s->src[i].cfg, s->src[i].img);
	}
	if (w)
		w->seg = seg;
	return w;
}

struct diagwarn *diagwarn_open(const struct session *s)
{
	return open_diag(s, 0);
}

struct diagwarn *diagwarn_open_segment(const struct session *s)
{
	return open_diag(s, 1);
}

void diagwarn_append(struct diagwarn *w, const struct diagwarn *seg)
{
	int i;

	for (i = 0; w && seg && i < 128; i++)
		if (w->d[i] && seg->d[i])
			etm_diag_append(w->d[i], seg->d[i]);
}

void diagwarn_reset(struct diagwarn *seg)
{
	int i;

	for (i = 0; seg && i < 128; i++)
		etm_diag_reset_segment(seg->d[i]);
}

void diagwarn_item(struct diagwarn *w, const struct etm_item *it)
{
	unsigned id;

	if (!w)
		return;
	id = (it->is_elem ? it->elem.id : it->pkt.id) & 0x7f;
	if (w->d[id])
		etm_diag_item(w->d[id], it);
}

void diagwarn_elem(struct diagwarn *w, const struct etm_elem *el)
{
	if (w && w->d[el->id & 0x7f])
		etm_diag_elem(w->d[el->id & 0x7f], el);
}

/* "; it fits the trace with: ..." for source @src (or the input format
 * the bytes have when raw was chosen), or "". */
static void diagwarn_probe(const struct session_src *src, char *buf, size_t n)
{
	uint8_t *data = malloc(DIAGWARN_PROBE);
	struct etm_config best;
	char diff[160], why[160];
	enum etm_input_format fmt;
	size_t len = 0;
	FILE *f;

	buf[0] = 0;
	f = data && src->path ? fopen(src->path, "rb") : NULL;
	if (f) {
		len = fread(data, 1, DIAGWARN_PROBE, f);
		fclose(f);
	}
	if (len && src->fmt == etm_fmt_raw &&
	    (fmt = etm_detect_format(data, len, why, sizeof(why))) != etm_fmt_raw &&
	    fmt != etm_fmt_unknown) /* framing, not the configuration */
		snprintf(buf, n, "; the bytes are %.80s: give --input-format %s", why,
			 fmt == etm_fmt_coresight ? "coresight" :
			 fmt == etm_fmt_tpiu      ? "tpiu" :
						    "tpiu-nofsync");
	else if (len && etm_diag_probe(src->fmt, &src->cfg, src->img, data, len, &best) == 1 &&
		 etm_diag_config_diff(&src->cfg, &best, diff, sizeof(diff)) > 0)
		snprintf(buf, n, "; it fits the trace with: %s", diff);
	free(data);
}

int diagwarn_report(struct diagwarn *w, const struct session *s)
{
	char msg[400], better[200];
	int i, printed = 0;

	for (i = 0; w && i < s->nsrc; i++) {
		const struct session_src *src = &s->src[i];
		struct etm_diag *d = w->d[src->id & 0x7f];

		if (!d || etm_diag_warning(d, msg, sizeof(msg)) <= 0)
			continue;
		diagwarn_probe(src, better, sizeof(better));
		if (better[0]) /* a configuration problem, not the image */
			fprintf(stderr, "etmtrace: warning: trace ID 0x%02x: "
					"trace does not fit the configuration%s\n",
				src->id, better);
		else
			fprintf(stderr, "etmtrace: warning: trace ID 0x%02x: "
					"%s\n",
				src->id, msg);
		printed++;
	}
	return printed;
}

void diagwarn_close(struct diagwarn *w)
{
	int i;

	for (i = 0; w && i < 128; i++)
		etm_diag_free(w->d[i]);
	free(w);
}

void diagwarn_sum(const struct diagwarn *w, struct etm_diag_counts *sum)
{
	struct etm_diag_counts c;
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; w && i < 128; i++) {
		if (!w->d[i] || etm_diag_counts(w->d[i], &c, sizeof(c)) < 0)
			continue;
		sum->packets += c.packets;
		sum->pkt_errors += c.pkt_errors;
		sum->sync_lost += c.sync_lost;
		sum->insns += c.insns;
		sum->nomem += c.nomem;
		sum->mismatch += c.mismatch + c.n_uncond + c.undef + c.mid_insn;
	}
}
