/* cli/diagwarn.c - `etmtrace decode` configuration-mismatch warnings
 * (library etm_diag_*, gathered by output/diagset.c): one stderr line per
 * source whose trace does not fit its configuration or image, naming the
 * likely cause. */
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
