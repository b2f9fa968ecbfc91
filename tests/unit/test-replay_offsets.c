/* tests/unit/test-replay_offsets.c - a decoder replaying a recording of
 * the deformatter's output (decoder/dfmt_replay.h, the configuration
 * probe's variants) reads the per-byte offset tables the recording made
 * once for all its decoders: its items are those of a decoder given the
 * bytes with the realignment off (the contract in dfmt_replay.h), and
 * every packet's offset is the input byte its first byte came from.
 * Input: TC2's CoreSight capture (five trace IDs) eight times in a row,
 * 256 KiB as the probe reads, so source 0x10's bytes fill several of the
 * deformatter's 64 KiB stages (each stage's table is made after the one
 * before, whose slack it overwrites). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "decoder/dfmt_replay.h"
#include "etest.h"

#define COPIES 8

struct seen {
	int kind;        /* etm_item_kind */
	int type;        /* packet type or element kind */
	uint64_t offset; /* the packet's or element's */
	int first;       /* the packet's first byte (-2: none) */
};

/* Every item of @d (one source, @cfg, packets and elements) into *@v,
 * *@nv of them. */
static void items(struct etm_decoder *d, const struct etm_config *cfg,
		  const struct etm_image *img, const uint8_t *buf, size_t n,
		  struct seen **v, size_t *nv)
{
	struct etm_item *it = malloc(sizeof(*it));
	size_t k = 0, cap = 0;
	int rc;

	*v = NULL;
	*nv = 0;
	ET_CHECK(it != NULL);
	ET_EQ(etm_decoder_add_source(d, cfg, img), 0);
	etm_decoder_set_packets(d, 1);
	etm_decoder_set_realign(d, etm_realign_off);
	rc = buf ? etm_decoder_push(d, buf, n) : 0;
	while (!rc) {
		rc = etm_decoder_next(d, it, sizeof(*it));
		if (rc == -etme_again) {
			rc = etm_decoder_finish(d);
			continue;
		}
		if (rc)
			break;
		if (k == cap) {
			cap = cap ? 2 * cap : 4096;
			*v = realloc(*v, cap * sizeof(**v));
			ET_CHECK(*v != NULL);
		}
		(*v)[k].kind = it->kind;
		if (it->kind == etm_item_elem) {
			(*v)[k].type = it->elem.kind;
			(*v)[k].offset = it->elem.offset;
			(*v)[k].first = -2;
		} else {
			(*v)[k].type = it->pkt.type;
			(*v)[k].offset = it->pkt.offset;
			(*v)[k].first = it->pkt.raw_len ? it->pkt.raw[0] : -2;
		}
		k++;
	}
	*nv = k;
	free(it);
	ET_EQ(rc, -etme_eos);
}

/* The data byte at input offset @o of CoreSight frames @buf (coresight-
 * formatter.md section 3): an odd byte as it is, an even one with bit 0
 * from the frame's auxiliary byte (bit k for byte 2k); -1 if @o is an ID
 * change or the auxiliary byte. */
static int frame_byte(const uint8_t *buf, uint64_t o)
{
	const uint8_t *f = buf + (o & ~(uint64_t)15);
	unsigned k = (unsigned)(o & 15);

	if (k == 15 || (!(k & 1) && (f[k] & 1)))
		return -1;
	if (k & 1)
		return f[k];
	return (f[k] & 0xfe) | ((f[15] >> (k / 2)) & 1);
}

static void tc2_replay_offsets(void)
{
	char path[4096], err[256];
	struct etm_snapshot *s;
	struct etm_image *img;
	struct etm_dec_replay *t;
	struct etm_decoder *d;
	const struct etm_config *cfg = NULL;
	struct seen *a, *b;
	uint8_t *buf;
	size_t n1, na, nb, i, pkts = 0;
	FILE *f;

	if (!etest_shared("snapshots/TC2/cstrace.bin", path, sizeof(path))) {
		etest_skip("TC2 snapshot missing");
		return;
	}
	buf = malloc((size_t)COPIES << 15);
	ET_CHECK(buf != NULL);
	f = fopen(path, "rb");
	ET_CHECK(f != NULL);
	n1 = fread(buf, 1, (size_t)1 << 15, f);
	fclose(f);
	ET_EQ(n1, (size_t)1 << 15);
	for (i = 1; i < COPIES; i++)
		memcpy(buf + i * n1, buf, n1);
	*strrchr(path, '/') = 0;
	ET_CHECK(etm_snapshot_load(&s, path, err, sizeof(err)) == 0);
	for (i = 0; i < s->nsources; i++)
		if (s->sources[i].cfg.traceid == 0x10)
			cfg = &s->sources[i].cfg;
	ET_CHECK(cfg != NULL);
	img = etm_image_alloc();
	ET_CHECK(img != NULL);
	for (i = 0; i < s->nsources; i++)
		if (&s->sources[i].cfg == cfg)
			ET_EQ(etm_snapshot_add_memory(&s->sources[i], img, err,
						      sizeof(err)),
			      0);

	d = etm_decoder_alloc(etm_fmt_coresight, etm_dec_elements);
	ET_CHECK(d != NULL);
	items(d, cfg, img, buf, COPIES * n1, &a, &na);
	etm_decoder_free(d);

	t = etm_dec_replay_record(etm_fmt_coresight, 0x10, buf, COPIES * n1);
	ET_CHECK(t != NULL);
	d = etm_dec_replay_decoder(t, etm_dec_elements);
	ET_CHECK(d != NULL);
	items(d, cfg, img, NULL, 0, &b, &nb);
	etm_decoder_free(d);
	etm_dec_replay_free(t);

	ET_EQ(na, nb);
	for (i = 0; i < na && i < nb; i++) {
		ET_EQ(a[i].kind, b[i].kind);
		ET_EQ(a[i].type, b[i].type);
		ET_EQ(a[i].offset, b[i].offset);
		if (b[i].kind != etm_item_elem && b[i].first != -2) {
			/* the packet began with the byte at its offset */
			ET_EQ(frame_byte(buf, b[i].offset), b[i].first);
			pkts++;
		}
	}
	/* TC2's source 0x10 is about 19 KiB of each 32 KiB copy: more than
	 * two 64 KiB stages in all, some 9,000 packets a copy */
	printf("  %zu items, %zu packets, last packet offset %llu\n", nb, pkts,
	       (unsigned long long)(pkts ? b[nb - 1].offset : 0));
	ET_CHECK(pkts > 8000 * COPIES);
	ET_CHECK(b[nb - 1].offset > (uint64_t)(COPIES - 1) * n1);
	free(a);
	free(b);
	etm_image_free(img);
	etm_snapshot_free(s);
	free(buf);
}

int main(void)
{
	ETEST(tc2_replay_offsets);
	return etest_end();
}
