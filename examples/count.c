/* examples/count.c - the README's library example as a complete program:
 * open a capture (snapshot directory, or trace file with --elf-style image
 * given as FILE@ADDR), decode it whole and count the executed instructions
 * per trace ID. Build against an installed libetmtrace:
 *   cc count.c $(pkg-config --cflags --libs etmtrace) -o count */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

int main(int argc, char **argv)
{
	struct etm_open_opts opts = { .size = sizeof(opts) };
	struct etm_open_file image;
	struct etm_capture *cap;
	struct etm_item it;
	unsigned long long insns[128] = { 0 }, errors = 0;
	char err[512];
	const char *note;
	size_t i;
	int r;

	if (argc < 2) {
		fprintf(stderr, "usage: count <snapshot-dir | trace-file> [IMAGE@ADDR]\n");
		return 2;
	}
	if (argc > 2) { /* a raw binary image for a trace file */
		char *at = strrchr(argv[2], '@');

		if (!at)
			return 2;
		*at = 0;
		image.path = argv[2];
		image.addr = strtoull(at + 1, NULL, 0);
		opts.images = &image;
		opts.nimages = 1;
	}
	if (etm_capture_open(&cap, argv[1], &opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "count: %s\n", err);
		return 2;
	}
	for (i = 0; (note = etm_capture_note(cap, i)) != NULL; i++)
		fprintf(stderr, "count: %s\n", note);
	/* Every buffer's items, end of input included (the decoder's last
	 * range is only delivered after etm_decoder_finish(), which
	 * etm_capture_next() calls at the end of each file). */
	while ((r = etm_capture_next(cap, &it, sizeof(it))) == 0) {
		if (!it.is_elem)
			continue;
		if (it.elem.kind == etmk_range)
			insns[it.elem.id & 0x7f] += it.elem.ninsn;
		else if (it.elem.kind == etmk_error)
			errors++;
	}
	if (r != -etme_eos)
		fprintf(stderr, "count: %s\n", etm_errstr(r));
	for (i = 0; i < 128; i++)
		if (insns[i])
			printf("0x%02zx %llu\n", i, insns[i]);
	printf("errors %llu\n", errors);
	etm_capture_free(cap);
	return r == -etme_eos ? 0 : 1;
}
