/* common/sbuf.h - state serialisation buffer: decoder components write the
 * state that decides their future output, field by field, so that two
 * decoders can be compared byte for byte (parallel decode, decoder/). */
#ifndef ETM_COMMON_SBUF_H
#define ETM_COMMON_SBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Fixed capacity: the largest state (ETMv3 flow with a held-back range and
 * E3_HELD_MAX elements, every source of a decoder) is far below it; a
 * buffer that overflows is marked and never compares equal. */
#define ETM_SBUF_CAP 32768

struct etm_sbuf {
	size_t len;
	int over;
	uint8_t b[ETM_SBUF_CAP];
};

static inline void etm_sbuf_reset(struct etm_sbuf *s)
{
	s->len = 0;
	s->over = 0;
}

static inline void etm_sbuf_put(struct etm_sbuf *s, const void *p, size_t n)
{
	if (s->over || n > ETM_SBUF_CAP - s->len) {
		s->over = 1;
		return;
	}
	memcpy(s->b + s->len, p, n);
	s->len += n;
}

static inline void etm_sbuf_u64(struct etm_sbuf *s, uint64_t v)
{
	etm_sbuf_put(s, &v, sizeof(v));
}

static inline void etm_sbuf_u32(struct etm_sbuf *s, uint32_t v)
{
	etm_sbuf_put(s, &v, sizeof(v));
}

static inline void etm_sbuf_u8(struct etm_sbuf *s, unsigned v)
{
	uint8_t b = (uint8_t)v;

	etm_sbuf_put(s, &b, 1);
}

/* 1 if both hold the same complete state. */
static inline int etm_sbuf_eq(const struct etm_sbuf *a,
			      const struct etm_sbuf *b)
{
	return !a->over && !b->over && a->len == b->len &&
	       !memcmp(a->b, b->b, a->len);
}

#endif
