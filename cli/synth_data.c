/* cli/synth_data.c - `etmtrace synth --expect-data FILE`: the generator's
 * ground truth of the data transfers, one a line, 'INSN_ADDR R|W|?
 * DATA_ADDR|- VALUE|- SIZE' in hex (then ' suppressed' / ' failed'), the
 * lines `etmtrace decode --format data` prints for the trace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_data.h"

static void xfer_line(FILE *f, const struct etm_data_xfer *t)
{
	if (t->has_insn)
		fprintf(f, "%08llx", (unsigned long long)t->insn);
	else
		fputc('-', f);
	fprintf(f, " %c ", t->dir);
	if (t->has_addr)
		fprintf(f, "%08llx", (unsigned long long)t->daddr);
	else
		fputc('-', f);
	if (t->has_value)
		fprintf(f, " %x", t->value);
	else
		fputs(" -", f);
	fprintf(f, " %u%s%s\n", t->size,
		(t->flags & ETM_EVD_SUPPRESSED) ? " suppressed" : "",
		(t->flags & ETM_EVD_FAILED) ? " failed" : "");
}

int synth_expect_data(const char *path, const struct etm_config *cfg,
		      const struct etm_gen *g)
{
	const struct etm_ev *ev;
	struct etm_data_xfer *x;
	size_t nev, n, i;
	FILE *f;
	int ok;

	ev = etm_gen_events(g, &nev);
	n = etm_enc_data_expect(cfg, ev, nev, NULL, 0);
	x = calloc(n + 1, sizeof(*x));
	if (!x) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return -1;
	}
	etm_enc_data_expect(cfg, ev, nev, x, n);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "etmtrace synth: cannot write %s: %s\n", path,
			strerror(errno));
		free(x);
		return -1;
	}
	for (i = 0; i < n; i++)
		xfer_line(f, &x[i]);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	free(x);
	if (!ok)
		fprintf(stderr, "etmtrace synth: error writing %s\n", path);
	return ok ? 0 : -1;
}
