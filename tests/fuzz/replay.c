/* tests/fuzz/replay.c - corpus replay driver: runs a fuzz target's
 * LLVMFuzzerTestOneInput over every file of the given corpus directories
 * (or single files) without libFuzzer, so any compiler can run the corpus. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, r;

	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		if (!r)
			break;
		n += r;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of @dir in name order; returns files run or -1. */
static long run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	long done = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char **nn;

		if (de->d_name[0] == '.')
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn)
			break;
		names = nn;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    run_file(path) == 0)
			done++;
		free(names[i]);
	}
	free(names);
	return done;
}

int main(int argc, char **argv)
{
	long total = 0, r;
	int i, failed = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: missing %s\n", argv[i]);
			failed++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			r = run_dir(argv[i]);
			if (r <= 0) {
				fprintf(stderr, "replay: empty corpus %s\n",
					argv[i]);
				failed++;
				continue;
			}
			total += r;
		} else if (run_file(argv[i]) == 0) {
			total++;
		} else {
			failed++;
		}
	}
	printf("replay: %ld inputs run, %d failed\n", total, failed);
	return failed ? 1 : 0;
}
