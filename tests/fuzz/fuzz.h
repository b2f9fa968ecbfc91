/* tests/fuzz/fuzz.h - helpers shared by the libFuzzer targets and the
 * corpus replay driver: input cursor, chunk schedule, invariant checks. */
#ifndef ETM_TESTS_FUZZ_H
#define ETM_TESTS_FUZZ_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <etmtrace/config.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant is a finding: report it and abort so that libFuzzer
 * (or the replay driver under ASan) records the input. */
#define FZ_ASSERT(c)                                                     \
	do {                                                             \
		if (!(c)) {                                              \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", \
				__FILE__, __LINE__, #c);                 \
			abort();                                         \
		}                                                        \
	} while (0)

/* stderr to /dev/null (@on) or back, around code that prints its own
 * error messages (the CLI's); invariant failures still reach stderr. */
static inline void fz_quiet(int on)
{
	static int null_fd = -1, saved = -1;

	if (null_fd < 0) {
		null_fd = open("/dev/null", O_WRONLY);
		saved = dup(2);
		FZ_ASSERT(null_fd >= 0 && saved >= 0);
	}
	fflush(stderr);
	dup2(on ? null_fd : saved, 2);
}

/* Cursor over the fuzz input: header fields are taken from the front;
 * missing bytes read as zero. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz_in *in)
{
	uint8_t v = 0;

	if (in->n) {
		v = in->p[0];
		in->p++;
		in->n--;
	}
	return v;
}

static inline uint32_t fz_u32(struct fz_in *in)
{
	uint32_t v = fz_u8(in);

	v |= (uint32_t)fz_u8(in) << 8;
	v |= (uint32_t)fz_u8(in) << 16;
	v |= (uint32_t)fz_u8(in) << 24;
	return v;
}

/* Chunk schedule: the size of the k-th pushed chunk, derived from one
 * selector byte. 0 = everything at once; otherwise a varying 1..64 pattern
 * so packets and frames straddle chunk boundaries at every position. */
static inline size_t fz_chunk(uint8_t sel, unsigned k, size_t left)
{
	unsigned m = sel & 0x3fu ? sel & 0x3fu : 64u;
	size_t c;

	if (!sel)
		return left;
	c = 1 + (size_t)(((sel * (k + 1u) * 2654435761u) >> 7) % m);
	return c < left ? c : left;
}

/* Fuzz config header (14 bytes): protocol-independent raw registers so
 * that every ETMCR / ETMCCER / ETMIDR combination is reachable. */
#define FZ_CFG_BYTES 14
static inline void fz_config(struct fz_in *in, struct etm_config *c,
			     enum etm_protocol proto)
{
	uint8_t fl;

	etm_config_init(c);
	c->protocol = proto;
	c->etmcr = fz_u32(in);
	c->etmccer = fz_u32(in);
	c->etmidr = fz_u32(in);
	fl = fz_u8(in);
	c->flags = fl & 1 ? ETM_CFG_M_PROFILE : 0;
	c->traceid = fz_u8(in) % 0x6f + 1;
}

/* Flow targets: option byte after the configuration. */
#define FZF_FORMATTED 0x01 /* input is CoreSight frames */
#define FZF_PACKETS 0x02   /* also deliver packets */

/* FNV-1a over a value, for comparing two output streams cheaply. */
static inline uint64_t fz_hash(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FZ_HASH_INIT 0xcbf29ce484222325ull

/* Mix one scalar value into a hash. */
static inline uint64_t fz_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

#endif
