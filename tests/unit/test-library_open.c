/* tests/unit/test-library_open.c - etm_capture_open()
 * gives a decoder wired with every source, configuration and image: the
 * built-in sample (examples/sample) decodes to the 34 instructions of its hand
 * derivation (examples/sample/README.txt) through etm_capture_next(), which
 * ends each buffer with etm_decoder_finish(); the bare trace file plus the
 * images decodes to the same 34 with the configuration inferred; bad
 * arguments and IDs are errors with a reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

static char sample[512];

static uint64_t count_insns(struct etm_capture *cap, int *rc)
{
	struct etm_item it;
	uint64_t n = 0;

	while ((*rc = etm_capture_next(cap, &it, sizeof(it))) == 0)
		if (it.kind == etm_item_elem && it.elem.kind == etmk_range)
			n += it.elem.ninsn;
	return n;
}

static void open_snapshot(void)
{
	struct etm_capture *cap = NULL;
	const struct etm_capture_source *s;
	char err[256];
	int rc;

	ET_EQ(etm_capture_open(&cap, sample, NULL, err, sizeof(err)), 0);
	ET_CHECK(cap);
	if (!cap)
		return;
	ET_EQ(etm_capture_nbuffers(cap), 1);
	ET_EQ(etm_capture_nsources(cap), 1);
	s = etm_capture_source(cap, 0);
	ET_EQ(s->id, 0x13);
	ET_EQ(s->cfg.protocol, etm_proto_ptm);
	ET_CHECK(s->skip == NULL);
	ET_EQ(s->how, ETM_HOW_SNAPSHOT);
	ET_CHECK(s->img && etm_image_count(s->img) == 2);
	ET_CHECK(etm_capture_buffer(cap, 0)->dec != NULL);
	ET_CHECK(etm_capture_note(cap, 0) == NULL);
	ET_EQ(count_insns(cap, &rc), 34);
	ET_EQ(rc, -etme_eos);
	etm_capture_free(cap);
}

static void open_trace_file(void)
{
	struct etm_open_file img[2];
	struct etm_open_opts o = { .size = sizeof(o) };
	struct etm_capture *cap = NULL;
	char trace[600], vec[600], code[600], err[256];
	int rc;

	snprintf(trace, sizeof(trace), "%s/trace.bin", sample);
	snprintf(vec, sizeof(vec), "%s/vectors.bin", sample);
	snprintf(code, sizeof(code), "%s/code.bin", sample);
	img[0] = (struct etm_open_file){ vec, 0 };
	img[1] = (struct etm_open_file){ code, 0x8000 };
	o.images = img;
	o.nimages = 2;
	ET_EQ(etm_capture_open(&cap, trace, &o, err, sizeof(err)), 0);
	if (!cap)
		return;
	ET_EQ(etm_capture_buffer(cap, 0)->format, etm_fmt_coresight);
	ET_EQ(etm_capture_buffer(cap, 0)->detected, 1);
	ET_EQ(etm_capture_source(cap, 0)->id, 0x13);
	ET_EQ(etm_capture_source(cap, 0)->cfg.protocol, etm_proto_ptm);
	ET_CHECK(etm_capture_source(cap, 0)->how & ETM_HOW_INFERRED);
	ET_CHECK(etm_capture_note(cap, 0) != NULL);
	ET_EQ(count_insns(cap, &rc), 34);
	etm_capture_free(cap);
	/* explicit options win: the protocol given is kept */
	o.protocol = etm_proto_etmv3;
	ET_EQ(etm_capture_open(&cap, trace, &o, err, sizeof(err)), 0);
	if (cap)
		ET_EQ(etm_capture_source(cap, 0)->cfg.protocol, etm_proto_etmv3);
	etm_capture_free(cap);
}

static void open_errors(void)
{
	struct etm_open_opts o = { .size = sizeof(o) };
	struct etm_capture *cap = NULL;
	unsigned id = 0x44;
	char err[256];

	ET_EQ(etm_capture_open(&cap, "/nonexistent/x", NULL, err, sizeof(err)), -etme_io);
	ET_CHECK(cap == NULL && strstr(err, "/nonexistent/x"));
	o.ids = &id;
	o.nids = 1;
	ET_EQ(etm_capture_open(&cap, sample, &o, err, sizeof(err)), -etme_bad_config);
	ET_CHECK(strstr(err, "no trace source with ID 0x44 (sources: 0x13)") != NULL);
	ET_EQ(etm_capture_open(NULL, sample, NULL, err, sizeof(err)), -etme_invalid);
	o.nids = 0;
	o.size = sizeof(o) + 8; /* a newer caller's options */
	ET_EQ(etm_capture_open(&cap, sample, &o, err, sizeof(err)), -etme_invalid);
	etm_capture_free(NULL);
	ET_EQ(etm_capture_nbuffers(NULL), 0);
	ET_CHECK(etm_capture_buffer(NULL, 0) == NULL);
}

int main(void)
{
	const char *src = getenv("ETM_SRCDIR");

	snprintf(sample, sizeof(sample), "%s/examples/sample", src ? src : ".");
	ETEST(open_snapshot);
	ETEST(open_trace_file);
	ETEST(open_errors);
	return etest_end();
}
