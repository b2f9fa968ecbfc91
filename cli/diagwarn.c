/* cli/diagwarn.c - the verdict on a decode (decode, profile, coverage,
 * fdo): configuration-mismatch warnings (library etm_diag_*, gathered by
 * probe/diagset.c), one stderr line per source whose trace does not fit
 * its configuration or image, naming the likely cause; and the exit
 * status rule with its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/core.h>
#include <etmtrace/detect.h>
#include <etmtrace/diag.h>
#include <etmtrace/error.h>
#include <etmtrace/open.h>

#include "diagwarn.h"

/* Bytes of the trace file the probe decodes with configuration variants. */
#define DIAGWARN_PROBE (256u << 10)

/* Error elements of trace ID @cfg's in decoding @n bytes of @fmt input
 * with @cfg, as `decode` counts them; UINT64_MAX if it cannot decode. */
static uint64_t diagwarn_errors(enum etm_input_format fmt,
				const struct etm_config *cfg,
				const struct etm_image *img, const uint8_t *buf,
				size_t n)
{
	struct etm_decoder *dec = etm_decoder_alloc(fmt, etm_dec_elements);
	struct etm_item *it = malloc(sizeof(*it));
	uint64_t errs = 0;
	int rc = dec && it ? etm_decoder_add_source(dec, cfg, img) : -etme_nomem;

	if (!rc)
		rc = etm_decoder_push(dec, buf, n);
	while (!rc) {
		rc = etm_decoder_next(dec, it, sizeof(*it));
		if (rc == -etme_again)
			rc = etm_decoder_finish(dec);
		else if (!rc && it->kind == etm_item_elem &&
			 it->elem.kind == etmk_error &&
			 it->elem.id == etm_cfg_trace_id(cfg))
			errs++;
	}
	free(it);
	etm_decoder_free(dec);
	return rc == -etme_eos ? errs : UINT64_MAX;
}

/* The options that give @b where @a differs: " (give --protocol ptm
 * --etmcr 0x00001000)". */
static void diagwarn_options(const struct etm_config *a,
			     const struct etm_config *b, char *buf, size_t n)
{
	size_t k = 0;

#define OPT(cond, ...)                                                      \
	do {                                                                \
		if ((cond) && k < n)                                        \
			k += (size_t)snprintf(buf + k, n - k, __VA_ARGS__); \
	} while (0)
	buf[0] = 0;
	OPT(1, " (give");
	OPT(a->protocol != b->protocol, " --protocol %s",
	    etm_protocol_name(b->protocol));
	OPT(a->etmcr != b->etmcr, " --etmcr 0x%08x", b->etmcr);
	OPT(a->etmccer != b->etmccer, " --etmccer 0x%08x", b->etmccer);
	OPT(a->etmidr != b->etmidr, " --etmidr 0x%08x", b->etmidr);
	OPT(1, ")");
#undef OPT
}

/* What the probe must keep: the protocol and ETMIDR where the core of
 * the first --elf with build attributes has one protocol only (as the
 * inference does, load/infer.c). */
static unsigned diagwarn_keep(const struct opts *o)
{
	const unsigned both = ETM_CORE_ETMV3 | ETM_CORE_PTM;
	struct etm_core_trace t;
	struct etm_arm_attrs a;
	int i;

	for (i = 0; i < o->nelfs; i++) {
		if (etm_elf_arm_attrs(o->elfs[i].path, &a, NULL, 0) < 0 || !a.found)
			continue;
		etm_core_trace_from_attrs(&a, &t);
		return t.protocols && (t.protocols & both) != both ?
			       ETM_PROBE_KEEP_PROTOCOL | ETM_PROBE_KEEP_ETMIDR :
			       0;
	}
	return 0;
}

/* "; it fits the trace with: ... (give --etmcr ...)" for source @src
 * when the probe's better-fitting variant also decodes the probed bytes
 * with fewer errors (or the input format the bytes have when raw was
 * chosen), or "". */
static void diagwarn_probe(const struct session_src *src, int jobs,
			   unsigned keep, char *buf, size_t n)
{
	uint8_t *data = malloc(DIAGWARN_PROBE);
	struct etm_config best;
	char diff[160], why[160], opts[120];
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
	else if (len && etm_diag_probe_jobs(src->fmt, &src->cfg, src->img, data, len, keep, jobs > 1 ? (unsigned)jobs : 1, &best) == 1 &&
		 etm_diag_config_diff(&src->cfg, &best, diff, sizeof(diff)) > 0 &&
		 diagwarn_errors(src->fmt, &best, src->img, data, len) <
			 diagwarn_errors(src->fmt, &src->cfg, src->img, data, len)) {
		diagwarn_options(&src->cfg, &best, opts, sizeof(opts));
		snprintf(buf, n, "; it fits the trace with: %s%s", diff, opts);
	}
	free(data);
}

int diagwarn_report(const struct etm_diagset *w, const struct session *s)
{
	char msg[400], better[320];
	int i, printed = 0;

	for (i = 0; i < s->nsrc; i++) {
		const struct session_src *src = &s->src[i];
		struct etm_diag *d = etm_diagset_get(w, src->id);

		if (!d || etm_diag_warning(d, msg, sizeof(msg)) <= 0)
			continue;
		diagwarn_probe(src, s->jobs, diagwarn_keep(s->o), better, sizeof(better));
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

void diagtally_elems(struct diagtally *t, struct etm_diagset *dw,
		     const struct etm_elem *els, size_t n)
{
	size_t i;

	etm_diagset_elems(dw, els, n);
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
int diagwarn_verdict(const struct etm_diagset *dw, const struct session *s,
		     const struct diagtally *t, const char *what)
{
	struct etm_diag_counts d;
	int i, image = 0, flow = 0, warned = diagwarn_report(dw, s);

	etm_diagset_sum(dw, &d);
	for (i = 0; i < s->nsrc; i++) {
		image |= s->src[i].img && etm_image_count(s->src[i].img);
		flow |= s->src[i].cfg.protocol != etm_proto_itm;
	}
	if (!flow && s->nsrc && !t->insns) { /* ITM/DWT alone: no instructions */
		if (!t->errors && !warned)
			return 0;
		fprintf(stderr, "etmtrace: the %s is incomplete: %llu errors\n",
			what, t->errors);
		return 1;
	}
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
