/* cli/diagwarn.c - the verdict on a decode (decode, profile, coverage,
 * fdo): configuration-mismatch warnings (library etm_diag_*, gathered by
 * output/diagset.c), one stderr line per source whose trace does not fit
 * its configuration or image, naming the likely cause; and the exit
 * status rule with its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/diag.h>
#include <etmtrace/open.h>

#include "diagwarn.h"

/* Bytes of the trace file the probe decodes with configuration variants. */
#define DIAGWARN_PROBE (256u << 10)

/* "; it fits the trace with: ..." for source @src (or the input format
 * the bytes have when raw was chosen), or "". */
static void diagwarn_probe(const struct session_src *src, int jobs,
			   char *buf, size_t n)
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
	else if (len && etm_diag_probe_jobs(src->fmt, &src->cfg, src->img, data, len, 0, jobs > 1 ? (unsigned)jobs : 1, &best) == 1 &&
		 etm_diag_config_diff(&src->cfg, &best, diff, sizeof(diff)) > 0)
		snprintf(buf, n, "; it fits the trace with: %s", diff);
	free(data);
}

int diagwarn_report(const struct diagset *w, const struct session *s)
{
	char msg[400], better[200];
	int i, printed = 0;

	for (i = 0; i < s->nsrc; i++) {
		const struct session_src *src = &s->src[i];
		struct etm_diag *d = diagset_get(w, src->id);

		if (!d || etm_diag_warning(d, msg, sizeof(msg)) <= 0)
			continue;
		diagwarn_probe(src, s->jobs, better, sizeof(better));
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

void diagtally_elems(struct diagtally *t, struct diagset *dw,
		     const struct etm_elem *els, size_t n)
{
	size_t i;

	diagset_elems(dw, els, n);
	t->elems += n;
	for (i = 0; i < n; i++) {
		if (els[i].kind == etmk_range)
			t->insns += els[i].ninsn;
		else if (els[i].kind == etmk_error)
			t->errors++;
	}
}

void diagtally_add(struct diagtally *to, const struct diagtally *from)
{
	to->insns += from->insns;
	to->errors += from->errors;
	to->elems += from->elems;
}

/* No instructions: the reason, from what was seen instead. */
static void verdict_none(const struct session *s, const struct diagtally *t,
			 const struct etm_diag_counts *d)
{
	fprintf(stderr, "etmtrace: no instructions decoded from %llu "
			"bytes of trace%s\n",
		(unsigned long long)s->input_bytes,
		!s->input_bytes ? " (empty)" : !t->elems ? ": no synchronisation found (not ETMv3/PTM trace, or "
							   "another input format?)" :
				       t->errors         ? ": the trace does not parse with this configuration" :
				       d->nomem          ? ": the traced addresses are not in the image "
							   "(give --elf or --image)" :
							   "");
}

/* A loss of sync alone (e.g. after a debug halt, until the next I-sync)
 * is not an error; a packet cut by the end of the buffer is a note
 * (etmk_buffer_end), not an error element. */
int diagwarn_verdict(const struct diagset *dw, const struct session *s,
		     const struct diagtally *t, const char *what)
{
	struct etm_diag_counts d;
	int i, image = 0, warned = diagwarn_report(dw, s);

	diagset_sum(dw, &d);
	for (i = 0; i < s->nsrc; i++)
		image |= s->src[i].img && etm_image_count(s->src[i].img);
	if (!t->insns && !image && s->input_bytes) {
		fprintf(stderr, "etmtrace: no instructions decoded: no program "
				"image (give --elf or --image)\n");
		return 1;
	}
	if (!t->insns) {
		verdict_none(s, t, &d);
		return 1;
	}
	if (t->errors || warned) {
		fprintf(stderr, "etmtrace: the %s is incomplete: %llu "
				"errors, %llu losses of sync%s\n",
			what, t->errors, (unsigned long long)d.sync_lost,
			warned ? ", trace that contradicts the image or configuration" : "");
		return 1;
	}
	return 0;
}
