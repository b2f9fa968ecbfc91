/* tests/unit/test-stream_open.c - a capture opened from the head of a
 * stream (etm_open_opts.head) decodes what a file open decodes, pushed in
 * random pieces; and after each piece, what the decoder holds back is
 * bounded: every element the whole decode puts at an input offset before
 * the bytes pushed so far less the bound is already out. The bound, by
 * hand (doc/live.md, "What is held back"): a CoreSight frame is split only
 * when whole (16 bytes: its last byte says which bytes are IDs); a packet
 * only when whole (an ETMv3 I-sync with cycle count and Context ID, the
 * longest of am243x, is at most 15 bytes, whose data may span two frames);
 * and the ETMv3 flow keeps the last range until the next packet (its header
 * at most one more frame away) says whether an exception cancelled it. So
 * 3 frames + 15 bytes = 63 bytes behind the input at most; the test asserts
 * 64, with the frame realignment off. With it on (the default) an element
 * also waits until the latest element is ETM_DFMT_REACH (912) bytes past
 * it; the latest element lags the input by the packets that make none (an
 * A-sync, a periodic I-sync, the 0x6F counter's frames), so the test
 * allows 912 + 2 * 64 there. Measured: 36 and 994. Data: the am243x R5F ETB (ETMv3.3, CoreSight frames, ID 0x10 and the
 * 0x6F counter) with its ELF and the snapshot's registers as options.
 * Also: the buffer pushed whole and finished before any read gives the
 * same elements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "decoder/realign.h"
#include "etest.h"

#define HOLD_MAX 64
/* The frame realignment's hold (ETM_DFMT_REACH, include/etmtrace/decoder.h:
 * "some 900 bytes"): 512 + 24 frames + 1 frame. */
#define REALIGN_HOLD (512 + 24 * 16 + 16)

struct ref {
	uint64_t *off; /* the whole decode's element offsets, in order */
	uint32_t *key; /* and kinds with a digest of start/end */
	size_t n, cap;
};

static uint32_t key_of(const struct etm_elem *e)
{
	return (uint32_t)e->kind << 24 ^ (uint32_t)e->start ^ (uint32_t)(e->end << 7) ^
	       e->ninsn;
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = malloc(1 << 20);

	*n = f && b ? fread(b, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return b;
}

static void am_opts(struct etm_open_opts *oo, struct etm_open_file *elf,
		    const char *elfpath)
{
	static const unsigned id10 = 0x10;

	memset(oo, 0, sizeof(*oo));
	oo->size = sizeof(*oo);
	oo->protocol = etm_proto_etmv3;
	oo->regs = ETM_OPEN_ETMCR | ETM_OPEN_ETMIDR;
	oo->etmcr = 0xc40;
	oo->etmidr = 0x4104f230;
	oo->ids = &id10;
	oo->nids = 1;
	oo->flags = ETM_OPEN_NO_PIECES;
	elf->path = elfpath;
	elf->addr = 0;
	oo->elfs = elf;
	oo->nelfs = 1;
}

/* Drain @d; each element checked against @r at *@k. Returns -1 on a
 * mismatch. */
static int drain(struct etm_decoder *d, const struct ref *r, size_t *k,
		 int collect, struct ref *out)
{
	const struct etm_elem *els;
	int n, i;

	while ((n = etm_decoder_next_elems(d, &els, 256)) > 0)
		for (i = 0; i < n; i++, (*k)++) {
			if (collect) {
				if (out->n == out->cap) {
					out->cap = out->cap ? 2 * out->cap : 4096;
					out->off = realloc(out->off, out->cap * 8);
					out->key = realloc(out->key, out->cap * 4);
				}
				out->off[out->n] = els[i].offset;
				out->key[out->n++] = key_of(&els[i]);
			} else if (*k >= r->n || r->off[*k] != els[i].offset ||
				   r->key[*k] != key_of(&els[i])) {
				return -1;
			}
		}
	return n == -etme_again || n == -etme_eos ? 0 : -1;
}

/* Open the stream from the first 2 KiB of @data, push all @n bytes in
 * pieces of 1-97 bytes (realignment @realign), each element checked
 * against @ref; returns how far behind the input the first element not
 * yet out ever was (bytes), or UINT64_MAX on a failure. */
static uint64_t stream_lag(const uint8_t *data, size_t n, const char *elf,
			   const struct ref *ref, int realign)
{
	struct etm_open_opts oo;
	struct etm_open_file ef;
	struct etm_capture *cap;
	struct etm_decoder *d;
	struct etm_item it;
	uint64_t worst = 0, bad = UINT64_MAX;
	size_t pos, k = 0, piece;
	unsigned seed = 12345;
	char err[600];

	am_opts(&oo, &ef, elf);
	oo.head = data;
	oo.nhead = 2048;
	if (etm_capture_open(&cap, "stream", &oo, err, sizeof(err)) < 0)
		return bad;
	d = etm_capture_buffer(cap, 0)->dec;
	if (etm_capture_nbuffers(cap) != 1 ||
	    etm_capture_buffer(cap, 0)->format != etm_fmt_coresight ||
	    etm_capture_next(cap, &it, sizeof(it)) != -etme_invalid)
		goto out;
	etm_decoder_set_realign(d, (enum etm_realign)realign);
	for (pos = 0; pos < n; pos += piece) {
		seed = seed * 1103515245u + 12345u;
		piece = 1 + (seed >> 16) % 97;
		if (piece > n - pos)
			piece = n - pos;
		if (etm_decoder_push(d, data + pos, piece) ||
		    drain(d, ref, &k, 0, NULL))
			goto out;
		/* the first element not out yet: how far behind the input */
		if (k < ref->n && ref->off[k] < pos + piece &&
		    pos + piece - ref->off[k] > worst)
			worst = pos + piece - ref->off[k];
	}
	if (!etm_decoder_finish(d) && !drain(d, ref, &k, 0, NULL) && k == ref->n)
		bad = worst;
out:
	etm_capture_free(cap);
	return bad;
}

static void am243x_stream(void)
{
	char tp[4096], ep[4096], err[600];
	const char *trace = etest_shared("snapshots/am243x-freertos-1/etb.bin", tp, sizeof(tp));
	const char *elf = etest_shared("snapshots/am243x-freertos-1/freertos.out", ep, sizeof(ep));
	struct etm_open_opts oo;
	struct etm_open_file ef;
	struct etm_capture *cap;
	struct etm_decoder *d;
	struct ref ref = { 0 };
	uint64_t lag_on, lag_off, lag_basic;
	size_t n, k = 0;
	uint8_t *data;

	if (!trace || !elf) {
		etest_skip("am243x-freertos-1 missing");
		return;
	}
	data = slurp(trace, &n);
	ET_CHECK(n == 65536);
	/* the file open, whole */
	am_opts(&oo, &ef, elf);
	ET_EQ(etm_capture_open(&cap, trace, &oo, err, sizeof(err)), 0);
	d = etm_capture_buffer(cap, 0)->dec;
	ET_EQ(etm_decoder_push(d, data, n), 0);
	ET_EQ(drain(d, NULL, &k, 1, &ref), 0);
	ET_EQ(etm_decoder_finish(d), 0);
	ET_EQ(drain(d, NULL, &k, 1, &ref), 0);
	etm_capture_free(cap);
	ET_CHECK(ref.n > 10000);
	/* pushed whole and finished at once, nothing read between: the same
	 * elements (this looped for ever in the deformatter's realignment,
	 * which waited for a hold that the unread input never filled) */
	am_opts(&oo, &ef, elf);
	ET_EQ(etm_capture_open(&cap, trace, &oo, err, sizeof(err)), 0);
	d = etm_capture_buffer(cap, 0)->dec;
	ET_EQ(etm_decoder_push(d, data, n), 0);
	ET_EQ(etm_decoder_finish(d), 0);
	k = 0;
	ET_EQ(drain(d, &ref, &k, 0, NULL), 0);
	ET_EQ(k, ref.n);
	etm_capture_free(cap);
	/* the stream, the same elements; the hold with the realignment off
	 * (the flow's and the frames' own), and on (+ ETM_DFMT_REACH, 912) */
	lag_off = stream_lag(data, n, elf, &ref, 0);
	lag_on = stream_lag(data, n, elf, &ref, etm_realign_precise);
	lag_basic = stream_lag(data, n, elf, &ref, etm_realign_basic);
	printf("  am243x: %zu elements; pushed in pieces of 1-97 bytes, the "
	       "first element not yet out was at most %llu bytes behind the "
	       "input (%llu with the frame realignment's hold, %llu with the "
	       "realignment basic)\n",
	       ref.n, (unsigned long long)lag_off, (unsigned long long)lag_on,
	       (unsigned long long)lag_basic);
	ET_CHECK(lag_off <= HOLD_MAX);
	ET_CHECK(lag_on <= REALIGN_HOLD + 2 * HOLD_MAX);
	/* basic holds nothing back where no damage is suspected */
	ET_CHECK(lag_basic <= HOLD_MAX);
	free(ref.off);
	free(ref.key);
	free(data);
}

/* What a stream cannot be: empty, or ETMv1 samples. */
static void stream_refusals(void)
{
	static const uint8_t b[16];
	struct etm_open_opts oo;
	struct etm_capture *cap;
	char err[600];

	memset(&oo, 0, sizeof(oo));
	oo.size = sizeof(oo);
	oo.head = b;
	oo.nhead = 0;
	ET_EQ(etm_capture_open(&cap, "s", &oo, err, sizeof(err)), -etme_io);
	ET_CHECK(strstr(err, "empty trace stream") != NULL);
	oo.nhead = sizeof(b);
	oo.protocol = etm_proto_etmv1;
	ET_EQ(etm_capture_open(&cap, "s", &oo, err, sizeof(err)), -etme_invalid);
	ET_CHECK(strstr(err, "not from a stream") != NULL);
}

/* The realignment's switch takes its three modes, on any decoder, and
 * nothing else. */
static void realign_modes(void)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_coresight,
						  etm_dec_elements);

	ET_CHECK(d != NULL);
	ET_EQ(etm_decoder_set_realign(d, etm_realign_off), 0);
	ET_EQ(etm_decoder_set_realign(d, etm_realign_basic), 0);
	ET_EQ(etm_decoder_set_realign(d, etm_realign_precise), 0);
	ET_EQ(etm_decoder_set_realign(d, (enum etm_realign)3), -etme_invalid);
	ET_EQ(etm_decoder_set_realign(NULL, etm_realign_off), -etme_invalid);
	etm_decoder_free(d);
}

int main(void)
{
	ETEST(am243x_stream);
	ETEST(stream_refusals);
	ETEST(realign_modes);
	return etest_end();
}
