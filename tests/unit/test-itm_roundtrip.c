/* tests/unit/test-itm_roundtrip.c - ITM/DWT round trip, in process: 10,000
 * seeded random sequences of ITM/DWT events (every element kind, field
 * range and payload size) are encoded (etm_itm_enc_put(), with syncs
 * between) and decoded through the pipeline in random pieces; the
 * elements must be the events, at the offsets the protocol gives. Where
 * one event is two packets (a global timestamp whose bits 26 and up and
 * whose low bits both change: GTS2, then GTS1, ARMv7-M ARM D4.2.5) the
 * model expects the two elements the protocol carries. */
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "etest.h"

#define NCASES 10000
#define MAXEV 48

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned pick_size(uint64_t *s)
{
	static const unsigned sz[3] = { 1, 2, 4 };

	return sz[rnd(s) % 3];
}

static uint32_t mask_size(uint32_t v, unsigned size)
{
	return size == 4 ? v : v & ((1u << (8 * size)) - 1);
}

/* A random data trace event of comparator c. */
static void rnd_cmp(uint64_t *s, struct etm_elem *e)
{
	e->itm_chan = (uint16_t)(rnd(s) % 4);
	switch (rnd(s) % 4) {
	case 0:
		e->itm_flags = ETM_ITM_CMP_PC;
		e->addr = (uint32_t)rnd(s);
		e->itm_size = 4;
		break;
	case 1:
		e->itm_flags = ETM_ITM_CMP_ADDR;
		e->itm_size = rnd(s) & 1 ? 2 : 4;
		e->addr = mask_size((uint32_t)rnd(s), e->itm_size);
		break;
	case 2:
		e->itm_flags = ETM_ITM_CMP_VALUE;
		e->itm_size = (uint8_t)pick_size(s);
		e->itm_value = mask_size((uint32_t)rnd(s), e->itm_size);
		e->itm_fn = rnd(s) & 1;
		break;
	default:
		e->itm_flags = ETM_ITM_CMP_MATCH;
		e->itm_value = (uint32_t)(rnd(s) & 0xff);
		e->itm_size = 1;
		break;
	}
}

/* A random event into @ev; the elements a decoder gives for it into
 * @want (1 or 2; their offsets relative to the event's first byte). */
static int rnd_event(uint64_t *s, uint64_t *gts, struct etm_elem *ev,
		     struct etm_elem *want, uint64_t *rel)
{
	uint64_t v, lo, hi, olo = *gts & 0x3ffffff, ohi = *gts >> 26;
	int n = 1;

	memset(ev, 0, sizeof(*ev));
	switch (rnd(s) % 9) {
	case 0:
	case 1:
		ev->kind = etmk_itm_sw;
		ev->itm_chan = (uint16_t)(rnd(s) & 1 ? rnd(s) % 4 :
						       rnd(s) % 256);
		ev->itm_size = (uint8_t)pick_size(s);
		ev->itm_value = mask_size((uint32_t)rnd(s), ev->itm_size);
		break;
	case 2:
		ev->kind = etmk_itm_ts;
		ev->itm_tc = (uint8_t)(rnd(s) & 1 ? 0 : rnd(s) % 4);
		ev->timestamp = rnd(s) & 1 ? 1 + rnd(s) % 6 :
					     rnd(s) % (1u << 28);
		break;
	case 3:
		ev->kind = etmk_itm_ts;
		ev->itm_flags = ETM_ITM_GLOBAL;
		lo = rnd(s) % 3 == 0 ? olo : rnd(s) & 0x3ffffff;
		hi = rnd(s) % 3 == 0 ? ohi : rnd(s) % ((uint64_t)1 << 38);
		ev->timestamp = v = hi << 26 | lo;
		ev->itm_tc = (uint8_t)(rnd(s) % 4 == 0 ? rnd(s) % 4 : 0);
		*gts = v;
		if (hi != ohi) { /* GTS2 first: TS[47:26] (4) or TS[63:26] (6) */
			want[0] = *ev;
			want[0].timestamp = hi << 26 | olo;
			want[0].itm_tc = 0;
			rel[0] = 0;
			if (lo == olo && !ev->itm_tc)
				return 1;
			want[1] = *ev;
			rel[1] = hi >> 22 ? 7 : 5;
			return 2;
		}
		break;
	case 4:
		ev->kind = etmk_itm_overflow;
		break;
	case 5:
		ev->kind = etmk_dwt_pc;
		if (rnd(s) % 8 == 0)
			ev->itm_flags = ETM_ITM_SLEEPING;
		else
			ev->addr = (uint32_t)rnd(s);
		break;
	case 6:
		ev->kind = etmk_dwt_exc;
		ev->exc_num = (uint16_t)(rnd(s) % 512);
		ev->itm_fn = (uint8_t)(1 + rnd(s) % 3);
		break;
	case 7:
		ev->kind = etmk_dwt_cmp;
		rnd_cmp(s, ev);
		break;
	default:
		ev->kind = etmk_dwt_counter;
		ev->itm_value = (uint32_t)(rnd(s) % 64);
		break;
	}
	want[0] = *ev;
	rel[0] = 0;
	return n;
}

static int same(const struct etm_elem *a, const struct etm_elem *b)
{
	return a->kind == b->kind && a->offset == b->offset && a->id == b->id &&
	       a->itm_value == b->itm_value && a->itm_chan == b->itm_chan &&
	       a->itm_size == b->itm_size && a->itm_fn == b->itm_fn &&
	       a->itm_flags == b->itm_flags && a->itm_tc == b->itm_tc &&
	       a->addr == b->addr && a->exc_num == b->exc_num &&
	       a->timestamp == b->timestamp;
}

static uint8_t buf[MAXEV * (ETM_ITM_ENC_MAX + 6) + 8];
static struct etm_elem want[2 * MAXEV], got[2 * MAXEV + 4];

/* One case: returns 0 if the decode gives the model's elements. */
static int one_case(uint64_t seed, unsigned long long *nelem)
{
	uint64_t s = seed, gts = 0, rel[2] = { 0, 0 };
	struct etm_itm_enc *enc = etm_itm_enc_alloc();
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, etm_dec_elements);
	struct etm_config c;
	struct etm_elem ev;
	struct etm_item it;
	size_t n = 0, nw = 0, ng = 0, i, pos;
	unsigned page = 0, nev = 1 + (unsigned)(rnd(&s) % MAXEV);
	int k, r, ok = 0;

	if (!enc || !d)
		goto out;
	etm_config_init(&c);
	c.protocol = etm_proto_itm;
	c.traceid = 1 + (unsigned)(rnd(&s) % 0x6f);
	if (etm_decoder_add_source(d, &c, NULL) < 0)
		goto out;
	for (i = 0; i < nev; i++) {
		if (rnd(&s) % 16 == 0)
			n += (size_t)etm_itm_enc_sync(enc, buf + n, 6);
		k = rnd_event(&s, &gts, &ev, want + nw, rel);
		pos = n;
		if (ev.kind == etmk_itm_sw && ev.itm_chan / 32 != page) {
			page = ev.itm_chan / 32; /* an extension packet first */
			pos++;
		}
		r = etm_itm_enc_put(enc, &ev, buf + n, ETM_ITM_ENC_MAX);
		if (r <= 0)
			goto out;
		n += (size_t)r;
		while (k--) {
			want[nw].offset = pos + rel[0];
			want[nw].id = (uint8_t)c.traceid;
			nw++;
			rel[0] = rel[1];
		}
	}
	for (pos = 0; pos < n; pos += (size_t)r) {
		r = 1 + (int)(rnd(&s) % 24);
		if (pos + (size_t)r > n)
			r = (int)(n - pos);
		etm_decoder_push(d, buf + pos, (size_t)r);
		while (ng < 2 * MAXEV + 4 && etm_decoder_next(d, &it, sizeof(it)) == 0)
			if (it.kind == etm_item_elem)
				got[ng++] = it.elem;
	}
	etm_decoder_finish(d);
	while (ng < 2 * MAXEV + 4 && etm_decoder_next(d, &it, sizeof(it)) == 0)
		if (it.kind == etm_item_elem)
			got[ng++] = it.elem;
	ok = ng == nw;
	for (i = 0; ok && i < nw; i++)
		ok = same(&got[i], &want[i]);
	*nelem += nw;
out:
	etm_itm_enc_free(enc);
	etm_decoder_free(d);
	return ok ? 0 : -1;
}

static void test_roundtrip(void)
{
	unsigned long long nelem = 0;
	unsigned i, bad = 0;

	for (i = 0; i < NCASES; i++)
		if (one_case(i * 7919ull + 1, &nelem)) {
			if (!bad++)
				printf("first failing case: %u\n", i);
		}
	printf("%u cases, %llu elements, %u differ\n", NCASES, nelem, bad);
	ET_EQ(bad, 0);
}

/* What the encoder refuses: values the protocol cannot carry. */
static void test_refused(void)
{
	struct etm_itm_enc *e = etm_itm_enc_alloc();
	struct etm_elem el;
	uint8_t b[ETM_ITM_ENC_MAX];

	ET_CHECK(e);
	memset(&el, 0, sizeof(el));
	el.kind = etmk_itm_ts;
	el.timestamp = (uint64_t)1 << 28; /* LTS: 28 bits */
	ET_EQ(etm_itm_enc_put(e, &el, b, sizeof(b)), -etme_invalid);
	el.kind = etmk_itm_sw;
	el.itm_chan = 256;
	el.itm_size = 1;
	ET_EQ(etm_itm_enc_put(e, &el, b, sizeof(b)), -etme_invalid);
	el.itm_chan = 0;
	el.itm_size = 3;
	ET_EQ(etm_itm_enc_put(e, &el, b, sizeof(b)), -etme_invalid);
	el.kind = etmk_dwt_exc;
	el.exc_num = 3;
	el.itm_fn = 0;
	ET_EQ(etm_itm_enc_put(e, &el, b, sizeof(b)), -etme_invalid);
	el.itm_fn = 1;
	ET_EQ(etm_itm_enc_put(e, &el, b, 2), -etme_overflow);
	ET_EQ(etm_itm_enc_put(e, &el, b, sizeof(b)), 3);
	/* D4.3.2: 0x0E, exception number 7:0, FN in bits 5:4 */
	ET_EQ(b[0], 0x0e);
	ET_EQ(b[1], 3);
	ET_EQ(b[2], 0x10);
	etm_itm_enc_free(e);
}

int main(void)
{
	etest_run("10,000 random ITM/DWT sequences: encode, decode in pieces",
		  test_roundtrip);
	etest_run("values the protocol cannot carry are refused", test_refused);
	return etest_end();
}
