/* tests/fuzz/fuzz-perfdata.c - fuzz target for the perf.data reader and
 * its capture: the input is written to a temporary file, read record by
 * record (every record inside the data section, offsets increasing, the
 * walk ending within a bound set by the file's size), then opened as a
 * capture and decoded (its mapped files are named by the input and are
 * not there: images empty), each buffer's items bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>
#include <etmtrace/perfdata.h>

#include "fuzz.h"

static char pd_tmp[64];

static void pd_cleanup(void)
{
	unlink(pd_tmp);
}

static const char *pd_file(const uint8_t *data, size_t size)
{
	FILE *f;
	int fd;

	if (!pd_tmp[0]) {
		snprintf(pd_tmp, sizeof(pd_tmp), "/dev/shm/etmfz-perf.XXXXXX");
		fd = mkstemp(pd_tmp);
		if (fd < 0) {
			snprintf(pd_tmp, sizeof(pd_tmp), "/tmp/etmfz-perf.XXXXXX");
			fd = mkstemp(pd_tmp);
		}
		FZ_ASSERT(fd >= 0);
		close(fd);
		atexit(pd_cleanup);
	}
	f = fopen(pd_tmp, "wb");
	FZ_ASSERT(f);
	FZ_ASSERT(fwrite(data, 1, size, f) == size);
	FZ_ASSERT(fclose(f) == 0);
	return pd_tmp;
}

static void pd_records(const char *path, size_t size)
{
	struct etm_perf *p = NULL;
	struct etm_perf_rec r;
	uint64_t last = 0;
	size_t n = 0;
	char err[256];
	int rc;

	rc = etm_perf_open(&p, path, err, sizeof(err));
	if (rc < 0) {
		FZ_ASSERT(!p && (rc == -etme_parse || rc == -etme_io ||
				 rc == -etme_nomem));
		FZ_ASSERT(strlen(err) < sizeof(err));
		FZ_ASSERT(rc != -etme_parse || strstr(err, "offset"));
		return;
	}
	while ((rc = etm_perf_next(p, &r, err, sizeof(err))) == 0) {
		const struct etm_perf_info *in = etm_perf_info(p);

		FZ_ASSERT(r.offset >= in->data_offset && r.offset >= last);
		FZ_ASSERT(r.offset + r.size <= in->data_offset + in->data_size);
		FZ_ASSERT(r.size >= 8);
		last = r.offset + 8;
		FZ_ASSERT(++n <= size / 8 + 1);
	}
	FZ_ASSERT(rc == -etme_eos || rc == -etme_parse || rc == -etme_io);
	etm_perf_close(p);
}

static void pd_capture(const char *path)
{
	struct etm_open_opts o = { .size = sizeof(o) };
	struct etm_capture *cap = NULL;
	struct etm_item it;
	char err[256];
	size_t n = 0;
	int rc;

	o.flags = ETM_OPEN_LIST;
	rc = etm_capture_open(&cap, path, &o, err, sizeof(err));
	FZ_ASSERT(rc == 0 || (!cap && strlen(err) < sizeof(err)));
	etm_capture_free(cap);
	cap = NULL;
	if (etm_capture_open(&cap, path, NULL, err, sizeof(err)) < 0)
		return;
	while ((rc = etm_capture_next(cap, &it, sizeof(it))) == 0 && n < 100000)
		n++;
	etm_capture_free(cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;

	if (size > (1u << 20))
		return 0;
	path = pd_file(data, size);
	fz_quiet(1);
	pd_records(path, size);
	pd_capture(path);
	fz_quiet(0);
	return 0;
}
