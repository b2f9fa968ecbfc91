/* examples/profile.c - the library's profile consumer in a few lines: decode
 * a snapshot's trace and print where the instructions went, as collapsed
 * call stacks ("main;count 15"), with functions from a symbol file (`nm -S`
 * format) or an ELF file.
 * Usage: profile SNAPSHOT-DIR SYMBOLS-FILE|ELF-FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>
#include <etmtrace/profile.h>
#include <etmtrace/symbols.h>

static int to_stdout(void *ctx, const char *buf, size_t n)
{
	(void)ctx;
	return fwrite(buf, 1, n, stdout) == n ? 0 : -1;
}

/* Push the whole trace buffer of @b through @d into @p. */
static int run(struct etm_decoder *d, const struct etm_snap_buffer *b,
	       struct etm_profile *p)
{
	static uint8_t buf[1 << 16];
	const struct etm_elem *els;
	FILE *f = fopen(b->files[0], "rb");
	size_t n = 1;
	int r = 0;

	if (!f)
		return -1;
	while (r >= 0 && n) {
		n = fread(buf, 1, sizeof(buf), f);
		if (n)
			etm_decoder_push(d, buf, n);
		else
			etm_decoder_finish(d);
		while ((r = etm_decoder_next_elems(d, &els, 256)) > 0)
			if (etm_profile_elems(p, els, (size_t)r) < 0)
				r = -1;
		if (r == -etme_again || r == -etme_eos)
			r = 0;
	}
	fclose(f);
	return r < 0 ? r : etm_profile_finish(p);
}

int main(int argc, char **argv)
{
	struct etm_snapshot *snap = NULL;
	struct etm_symbols *sy = etm_symbols_alloc();
	struct etm_image *img = etm_image_alloc();
	struct etm_decoder *d = NULL;
	struct etm_profile *p = NULL;
	char err[256] = "";
	size_t i;
	int r = 1;

	if (argc != 3) {
		fprintf(stderr, "usage: profile SNAPSHOT-DIR SYMBOLS-FILE|ELF-FILE\n");
		return 2;
	}
	if (etm_snapshot_load(&snap, argv[1], err, sizeof(err)) < 0 || !snap->nbuffers ||
	    (etm_symbols_add_elf(sy, argv[2], 0, NULL, 0) < 0 &&
	     etm_symbols_add_file(sy, argv[2], err, sizeof(err)) < 0))
		goto out;
	d = etm_decoder_alloc(snap->buffers[0].format, etm_dec_elements);
	p = etm_profile_alloc(sy);
	for (i = 0; d && p && i < snap->nsources; i++) {
		const struct etm_snap_source *s = &snap->sources[i];

		if (s->cfg.protocol == etm_proto_unknown)
			continue;
		etm_snapshot_add_memory(s, img, err, sizeof(err));
		etm_decoder_add_source(d, &s->cfg, img);
		etm_profile_add_source(p, (uint8_t)etm_cfg_trace_id(&s->cfg), img,
				       etm_cfg_m_profile(&s->cfg));
	}
	if (d && p && run(d, &snap->buffers[0], p) == 0 &&
	    etm_profile_write(p, etm_prof_folded, NULL, to_stdout, NULL) == 0)
		r = 0;
out:
	if (r && err[0])
		fprintf(stderr, "profile: %s\n", err);
	etm_profile_free(p);
	etm_decoder_free(d);
	etm_image_free(img);
	etm_symbols_free(sy);
	etm_snapshot_free(snap);
	return r;
}
