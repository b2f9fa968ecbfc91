/* tests/cov/mkcovtrace.c - test helper: generate an execution of a
 * compiled program (etm_gen_alloc_image over its ELF image), encode it with
 * our ETMv3 or PTM encoder as a raw trace file, and write the execution
 * itself (one line per instruction: ADDRESS A|T EXEC) so that coverage
 * results can be checked against the generator, not against our decoder.
 *
 * usage: mkcovtrace ELF ENTRY etmv3|ptm SEED NINSN OUT.bin OUT.ev|-
 * (OUT.ev "-": no execution file, e.g. for a benchmark trace) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>
#include <etmtrace/encode.h>

static int encode(const struct etm_ev *ev, size_t nev, enum etm_protocol p,
		  const struct etm_image *img, FILE *out)
{
	struct etm_enc_opts eo;
	struct etm_enc *e;
	const uint8_t *data;
	size_t i, n;
	int err = 0;

	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	etm_config_init(&eo.cfg);
	eo.cfg.protocol = p;
	eo.cfg.traceid = 0x10;
	/* the CLI's defaults for a raw trace file: ETMv3.5, PFT 1.1 */
	eo.cfg.etmidr = p == etm_proto_ptm ? 0x411CF311u : 0x410CF250u;
	e = etm_enc_alloc(&eo, sizeof(eo), img);
	if (!e)
		return -1;
	for (i = 0; i < nev && !err; i++)
		err = etm_enc_put(e, &ev[i]);
	if (!err)
		err = etm_enc_finish(e);
	data = etm_enc_data(e, &n);
	if (!err && fwrite(data, 1, n, out) != n)
		err = -1;
	etm_enc_free(e);
	return err;
}

int main(int argc, char **argv)
{
	struct etm_gen_img_opts go = { .size = sizeof(go) };
	struct etm_image *img = etm_image_alloc();
	struct etm_gen *g;
	const struct etm_ev *ev;
	char err[256] = "";
	size_t nev, i;
	FILE *tf, *ef;
	int r;

	if (argc != 8 || !img) {
		fprintf(stderr, "usage: mkcovtrace ELF ENTRY etmv3|ptm SEED NINSN OUT.bin OUT.ev\n");
		return 2;
	}
	if (etm_image_add_elf(img, argv[1], 0, err, sizeof(err)) < 0) {
		fprintf(stderr, "mkcovtrace: %s: %s\n", argv[1], err);
		return 2;
	}
	go.entry = strtoull(argv[2], NULL, 0);
	go.isa = go.entry & 1 ? etmi_t32 : etmi_a32;
	go.proto = !strcmp(argv[3], "ptm") ? etm_proto_ptm : etm_proto_etmv3;
	go.seed = strtoull(argv[4], NULL, 0);
	go.ninsn = (uint32_t)strtoul(argv[5], NULL, 0);
	g = etm_gen_alloc_image(&go, sizeof(go), img);
	if (!g || etm_gen_error(g)) {
		fprintf(stderr, "mkcovtrace: generator: %s\n",
			g ? etm_errstr(etm_gen_error(g)) : "no memory");
		return 1;
	}
	ev = etm_gen_events(g, &nev);
	tf = fopen(argv[6], "wb");
	ef = strcmp(argv[7], "-") ? fopen(argv[7], "w") : NULL;
	if (!tf || (!ef && strcmp(argv[7], "-")))
		return 2;
	r = encode(ev, nev, go.proto, img, tf);
	for (i = 0; ef && i < nev; i++)
		if (ev[i].kind == etmev_insn)
			fprintf(ef, "%08llx %c %d\n", (unsigned long long)ev[i].addr,
				ev[i].isa == etmi_a32 ? 'A' : 'T', ev[i].exec);
	fclose(tf);
	if (ef)
		fclose(ef);
	etm_gen_free(g);
	etm_image_free(img);
	if (r)
		fprintf(stderr, "mkcovtrace: encoder: %s\n", etm_errstr(r));
	return r ? 1 : 0;
}
