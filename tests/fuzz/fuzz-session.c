/* tests/fuzz/fuzz-session.c - fuzz target for the CLI's session set-up
 * (cli/session.c over cli/opt.c, the snapshot loader and the image): the
 * input is a mode byte, options (space-separated, up to a NUL), then the
 * files of a snapshot directory: the four .ini files NUL-terminated, a
 * length byte, the trace buffer buf.bin and the memory mem.bin, both of
 * any bytes (fz_snapshot_bin() in fuzz-snapdir.h).
 * Mode bit 0: decode (images loaded) or packets; bit 1: the trace file
 * with a manual configuration instead of the directory; bit 2: verified
 * output; bit 3: block cache on. Invariants: set-up and run give 0 or 2;
 * after set-up every source has a trace ID 0x01-0x6f distinct within its
 * trace buffer and, when decoding, an image (ETMv1 samples: one source and
 * no capture); every element names one of the sources. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz-snapdir.h"
#include "session.h"

#define MAX_ARGS 32

static const char session_opts[] =
	"id,protocol,input-format,etmcr,etmccer,etmidr,m-profile,no-cache,"
	"chunk,verify,allow-outside";

struct run_ctx {
	const struct session *s;
	unsigned long items;
};

static int on_item(void *vctx, const struct etm_item *it)
{
	struct run_ctx *c = vctx;

	if (it->kind == etm_item_elem && it->elem.id)
		FZ_ASSERT(session_find(c->s, it->elem.id));
	c->items++;
	return 0;
}

static void check_session(const struct session *s, int decode)
{
	int i, k;

	FZ_ASSERT(s->nsrc >= 1 && s->dec && s->trace_path);
	for (i = 0; i < s->nsrc; i++) {
		FZ_ASSERT(s->src[i].id >= 1 && s->src[i].id <= 0x6f);
		/* an ITM/DWT source has no instruction flow, no image */
		FZ_ASSERT(!decode || s->src[i].img ||
			  s->src[i].cfg.protocol == etm_proto_itm);
		for (k = 0; k < i; k++) /* distinct within a buffer */
			FZ_ASSERT(s->src[k].id != s->src[i].id ||
				  s->src[k].buffer != s->src[i].buffer);
	}
	/* ETMv1 samples (load/open_e1.c): through the capture too, the
	 * buffer's records in memory or its file past a header */
	FZ_ASSERT(etm_capture_nbuffers(s->cap) >= 1);
	FZ_ASSERT(!s->mem || s->e1);
}

static void run(char *optstr, const char *dir, unsigned mode)
{
	char path[256], *argv[MAX_ARGS], *tok, *save = NULL;
	struct opts o;
	struct session s;
	struct run_ctx c = { &s, 0 };
	int argc = 0, r;

	snprintf(path, sizeof(path), mode & 2 ? "%s/buf.bin" : "%s", dir);
	argv[argc++] = path;
	for (tok = strtok_r(optstr, " ", &save); tok && argc < MAX_ARGS;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	memset(&o, 0, sizeof(o));
	o.cmd = "fuzz";
	fz_quiet(1);
	r = opt_parse(&o, argc, argv, session_opts);
	fz_quiet(0);
	if (r != 0)
		return;
	if (!(mode & 8))
		o.no_cache = 1; /* a 400 KiB cache per decoder: slow */
	fz_quiet(1);
	r = session_open(&s, &o, mode & 1 ? etm_dec_elements : etm_dec_packets,
			 mode & 1);
	fz_quiet(0);
	FZ_ASSERT(r == 0 || r == 2);
	if (r == 0) {
		check_session(&s, mode & 1);
		if ((mode & 5) == 5)
			FZ_ASSERT(session_verify(&s) == 0);
		fz_quiet(1);
		r = session_run(&s, on_item, &c);
		fz_quiet(0);
		FZ_ASSERT(r == 0 || r == 2);
	}
	session_close(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	unsigned mode = fz_u8(&in);
	const uint8_t *nul = memchr(in.p, 0, in.n);
	size_t olen = nul ? (size_t)(nul - in.p) : in.n;
	char *optstr = malloc(olen + 1);
	const char *dir;

	FZ_ASSERT(optstr);
	memcpy(optstr, in.p, olen);
	optstr[olen] = 0;
	dir = nul ? fz_snapshot_bin(nul + 1, in.n - olen - 1) :
		    fz_snapshot_bin(NULL, 0);
	run(optstr, dir, mode);
	free(optstr);
	return 0;
}
