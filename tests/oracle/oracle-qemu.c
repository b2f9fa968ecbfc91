/* tests/oracle/oracle-qemu.c - an execution oracle that is not ours: the
 * instructions QEMU executed (qemu-arm -singlestep -d exec,nochain, see
 * qlog.h), encoded by our encoder as ETMv3 and PTM trace, decoded by our
 * decoder and walked over the program's ELF image, must give back QEMU's
 * sequence exactly: every address and its state, nothing missing, nothing
 * invented, no decode error.
 * Usage: oracle-qemu PROGRAM.elf [QEMU-LOG]   (log from stdin if omitted) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "qlog.h"

struct seq {
	uint32_t *addr; /* address | 1 for T32 */
	size_t n, cap;
};

static int seq_push(struct seq *s, uint32_t a)
{
	uint32_t *p;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 65536;
		p = realloc(s->addr, s->cap * sizeof(*p));
		if (!p)
			return -1;
		s->addr = p;
	}
	s->addr[s->n++] = a;
	return 0;
}

static const char *const cfg_names[] = { "etmv3", "etmv3-bcast", "ptm",
					 "ptm-retstack" };

static void config(int k, struct etm_config *c)
{
	etm_config_init(c);
	c->traceid = 0x10;
	c->protocol = k < 2 ? etm_proto_etmv3 : etm_proto_ptm;
	c->etmidr = k < 2 ? 0x410CF250u : 0x411CF312u;
	if (k == 1)
		c->etmcr = 1u << 8; /* branch broadcast */
	if (k == 3)
		c->etmcr = 1u << 29; /* PTM return stack */
}

/* Encode @ev; returns the bytes (malloc'd) or NULL with a message. */
static uint8_t *encode(const struct etm_config *c, const struct etm_image *img,
		       const struct etm_ev *ev, size_t nev, size_t *nbytes)
{
	struct etm_enc_opts o = { .size = sizeof(o), .cfg = *c };
	struct etm_enc *e = etm_enc_alloc(&o, sizeof(o), img);
	const uint8_t *d;
	uint8_t *out = NULL;
	size_t i;
	int r = e ? 0 : -etme_nomem;

	for (i = 0; i < nev && !r; i++)
		r = etm_enc_put(e, &ev[i]);
	if (!r)
		r = etm_enc_finish(e);
	if (r < 0) {
		fprintf(stderr, "oracle: encoder refused event %zu (0x%llx): %s\n",
			i ? i - 1 : 0, i ? (unsigned long long)ev[i - 1].addr : 0ull,
			etm_errstr(r));
	} else {
		d = etm_enc_data(e, nbytes);
		out = malloc(*nbytes ? *nbytes : 1);
		if (out)
			memcpy(out, d, *nbytes);
	}
	etm_enc_free(e);
	return out;
}

/* Decode and walk into @got; returns the number of error elements. */
static long decode(const struct etm_config *c, const struct etm_image *img,
		   const uint8_t *buf, size_t n, struct seq *got)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	struct etm_item it;
	struct etm_walk w;
	struct etm_insn in;
	long errors = 0;

	if (!d || etm_decoder_add_source(d, c, img) < 0) {
		etm_decoder_free(d);
		return -1;
	}
	etm_decoder_push(d, buf, n);
	etm_decoder_finish(d);
	while (etm_decoder_next(d, &it, sizeof(it)) == 0) {
		if (!it.is_elem)
			continue;
		if (it.elem.kind == etmk_error || it.elem.kind == etmk_nomem) {
			if (!errors++)
				fprintf(stderr, "oracle: decode error at offset %llu: %s\n",
					(unsigned long long)it.elem.offset,
					etm_errstr(it.elem.err));
			continue;
		}
		if (it.elem.kind != etmk_range || etm_walk_init(&w, img, &it.elem) < 0)
			continue;
		while (etm_walk_next(&w, &in) == 0)
			if (seq_push(got, (uint32_t)in.addr |
						  (in.isa == etmi_t32)) < 0)
				errors++;
	}
	etm_decoder_free(d);
	return errors;
}

/* Compare; returns 0 if identical, else prints the first difference. */
static int compare(const char *name, const struct seq *want,
		   const struct seq *got)
{
	size_t i, n = want->n < got->n ? want->n : got->n;

	for (i = 0; i < n && want->addr[i] == got->addr[i]; i++)
		;
	if (i == n && want->n == got->n)
		return 0;
	fprintf(stderr, "oracle: %s: differs at instruction %zu of %zu "
			"(decoded %zu): QEMU 0x%08x%s, decoded 0x%08x%s\n",
		name, i,
		want->n, got->n, i < want->n ? want->addr[i] & ~1u : 0,
		i < want->n && (want->addr[i] & 1) ? " T32" : "",
		i < got->n ? got->addr[i] & ~1u : 0,
		i < got->n && (got->addr[i] & 1) ? " T32" : "");
	return 1;
}

int main(int argc, char **argv)
{
	struct etm_image *img = etm_image_alloc();
	struct qlog_insn *q = NULL;
	struct etm_ev *ev = NULL;
	struct seq want = { 0 };
	FILE *f = argc > 2 ? fopen(argv[2], "r") : stdin;
	char err[256] = "";
	long nq, nev, i;
	int k, bad = 0;

	if (argc < 2 || !f || !img) {
		fprintf(stderr, "usage: oracle-qemu PROGRAM.elf [QEMU-LOG]\n");
		return 2;
	}
	if (etm_image_add_elf(img, argv[1], 0, err, sizeof(err)) <= 0) {
		fprintf(stderr, "oracle: %s: %s\n", argv[1], err);
		return 2;
	}
	nq = qlog_read(f, &q);
	nev = nq > 0 ? qlog_events(q, (size_t)nq, img, &ev) : -1;
	if (nq <= 0 || nev < 0) {
		fprintf(stderr, "oracle: no instructions in the QEMU log\n");
		return 2;
	}
	for (i = 0; i < nev; i++)
		if (ev[i].kind == etmev_insn &&
		    seq_push(&want, (uint32_t)ev[i].addr |
					    (ev[i].isa == etmi_t32)) < 0)
			return 2;
	for (k = 0; k < 4; k++) {
		struct etm_config c;
		struct seq got = { 0 };
		size_t nb = 0;
		uint8_t *tr;
		long errors;

		config(k, &c);
		tr = encode(&c, img, ev, (size_t)nev, &nb);
		errors = tr ? decode(&c, img, tr, nb, &got) : -1;
		if (!tr || errors || compare(cfg_names[k], &want, &got)) {
			bad = 1;
			printf("%s: %s FAIL\n", argv[1], cfg_names[k]);
		} else {
			printf("%s: %s %zu instructions identical (%zu trace bytes)\n",
			       argv[1], cfg_names[k], got.n, nb);
		}
		free(tr);
		free(got.addr);
	}
	free(want.addr);
	free(ev);
	free(q);
	etm_image_free(img);
	if (f != stdin)
		fclose(f);
	return bad;
}
