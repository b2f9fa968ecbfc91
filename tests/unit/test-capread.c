/* tests/unit/test-capread.c - the capture reader's chunk buffer
 * (load/capread.h): it starts ETM_PAGE_SKEW bytes into a page whatever
 * address malloc() gives (the kernel's copy from the page-aligned file
 * pages must not write a few bytes behind what it reads in the low 12
 * address bits), for the default chunk (128 KiB: malloc() maps it, at a
 * page start plus its header) and odd ones, and hands out the file's
 * bytes unchanged, from the start and from an offset. Input: a file of
 * known bytes written here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"
#include "common/pagebuf.h"
#include "load/capread.h"

#define FILE_BYTES (300u * 1024u + 77u)

static char path[64];

static uint8_t byte_at(uint64_t i)
{
	return (uint8_t)(i * 131u + (i >> 9));
}

static int write_file(void)
{
	FILE *f;
	uint64_t i;

	snprintf(path, sizeof(path), "/tmp/etm-capread-%ld.bin", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return -1;
	for (i = 0; i < FILE_BYTES; i++)
		fputc(byte_at(i), f);
	return fclose(f);
}

/* Read the file from @skip with chunk @chunk (0: the default): each
 * chunk's buffer ETM_PAGE_SKEW into its page, every byte as written. */
static void read_all(size_t chunk, uint64_t skip)
{
	struct etm_capture_buffer b = { .path = path, .skip = skip };
	struct etm_capture_run_opts ro = { .chunk = chunk };
	struct cap_reader r;
	const uint8_t *p;
	uint64_t pos = skip;
	size_t n, i;

	ET_EQ(cap_reader_open(&r, &b, 1, &ro), 0);
	ET_EQ((uintptr_t)r.buf % ETM_PAGE, ETM_PAGE_SKEW);
	for (;;) {
		ET_EQ(cap_reader_next(&r, &p, &n), 0);
		if (!n)
			break;
		ET_CHECK(n <= r.chunk);
		ET_CHECK(p == r.buf);
		for (i = 0; i < n; i++)
			if (p[i] != byte_at(pos + i))
				break;
		ET_EQ(i, n);
		pos += n;
	}
	ET_EQ(pos, FILE_BYTES);
	cap_reader_close(&r);
	ET_CHECK(r.buf == NULL);
}

static void default_chunk(void)
{
	read_all(0, 0);
}

static void odd_chunks(void)
{
	read_all(4099, 0);
	read_all(CAP_CHUNK + 1, 0);
	read_all(7, FILE_BYTES - 3000);
	read_all(ETM_PAGE, 5);
}

static void from_offset(void)
{
	read_all(0, 12345);
}

int main(void)
{
	if (write_file() < 0) {
		fprintf(stderr, "test-capread: cannot write %s\n", path);
		return 1;
	}
	ETEST(default_chunk);
	ETEST(odd_chunks);
	ETEST(from_offset);
	unlink(path);
	return etest_end();
}
