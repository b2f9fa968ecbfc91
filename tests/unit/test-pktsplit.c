/* tests/unit/test-pktsplit.c - the records of a CoreSight-framed packet-mode
 * decode (etm_decoder_next_packets()) do not depend on where the input is
 * cut, and are the packets of etm_decoder_next(), when a packet turns out
 * to hold an A-sync: the packet is bad (IHI 0014Q, IHI 0035B §4.5.1: the
 * pattern can only be an A-sync), the decoder rewinds to its frame
 * (decoder/realign.c) and the bytes it swallowed are searched again.
 * ETMv3 (ETMCR 0xD000: cycle-accurate, ETMCR[15:14] = 11, a 4-byte
 * Context ID; shared/docs/etmv3.md §4, §7): A-sync; four cycle count
 * packets 0x04 0x04 (count 4); an I-sync header 0x08 (no cycle count
 * field: only 0x70 has one) whose Context ID 00 00 00 00, information
 * byte 0x00 and first address byte 0x80 form an A-sync inside its 10
 * bytes (00 10 00 end its address); an A-sync and one-byte packets.
 * PTM (ETMCR 0xC000: 4-byte Context ID; shared/docs/ptm.md §4): the
 * same bytes with atoms 0x84 for the cycle counts: the I-sync's address
 * 00 00 00 00 and information byte 0x00 then its Context ID 80 00 10 00
 * hold the A-sync. The I-sync begins the second frame, so that a cut
 * between the frames makes it the first packet of a push. */
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "etest.h"

#define MAXR 256

/* A-sync; cycle counts (atoms for PTM); I-sync 08 00 00 00 00 00 80 00 10
 * 00 (holding an A-sync); A-sync 00 00 00 00 00 00 80; one-byte packets.
 * Framed by etm_fenc: frame 0 is the ID byte, stream bytes 0-13 and the
 * flag byte, so the I-sync header (stream byte 14) is at offset 16. */
static const uint8_t stream_etm3[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x04, 0x04, 0x04, 0x04,
	0x04, 0x04, 0x04, 0x04, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x84, 0x84, 0x0c, 0x84, 0x66, 0x84, 0x84, 0x84
};

static const uint8_t stream_ptm[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x84, 0x84, 0x84, 0x84,
	0x84, 0x84, 0x84, 0x84, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x80, 0x84, 0x84, 0x0c, 0x84, 0x66, 0x84, 0x84, 0x84
};

static struct etm_decoder *dec_alloc(enum etm_protocol proto)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_coresight,
						  etm_dec_packets);
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = proto;
	c.etmcr = proto == etm_proto_ptm ? 0xC000 : 0xD000;
	c.etmidr = proto == etm_proto_ptm ? 0x411CF312 : 0x410CF250;
	c.traceid = 0x10;
	if (d && etm_decoder_add_source(d, &c, NULL) < 0) {
		etm_decoder_free(d);
		return NULL;
	}
	return d;
}

/* The records of @in decoded in two pushes, cut at @cut; their count. With
 * @items, from the items of etm_decoder_next(). */
static int decode(enum etm_protocol proto, const uint8_t *in, size_t n,
		  size_t cut, int items, struct etm_pkt_rec *r)
{
	struct etm_decoder *d = dec_alloc(proto);
	size_t parts[2] = { cut, n - cut }, at = 0;
	struct etm_item it;
	int k = 0, i, got;

	if (!d)
		return -1;
	for (i = 0; i < 3; i++) {
		if (i < 2 && etm_decoder_push(d, in + at, parts[i]) < 0)
			return -1;
		if (i < 2)
			at += parts[i];
		else
			etm_decoder_finish(d);
		while (items && k < MAXR &&
		       etm_decoder_next(d, &it, sizeof(it)) == 0) {
			if (it.kind != etm_item_packet)
				continue;
			r[k].type = (uint8_t)it.pkt.type;
			r[k].size = (uint8_t)(it.pkt.size > 255 ? 255 : it.pkt.size);
			r[k++].offset = it.pkt.offset;
		}
		while (!items && k < MAXR &&
		       (got = etm_decoder_next_packets(d, r + k, (size_t)(MAXR - k))) > 0)
			k += got;
	}
	etm_decoder_free(d);
	return k;
}

static void same_recs(const struct etm_pkt_rec *a, int na,
		      const struct etm_pkt_rec *b, int nb)
{
	int i;

	ET_EQ(na, nb);
	for (i = 0; i < na && i < nb; i++) {
		ET_EQ(a[i].type, b[i].type);
		ET_EQ(a[i].size, b[i].size);
		ET_EQ(a[i].offset, b[i].offset);
	}
}

static void cuts(enum etm_protocol proto, const uint8_t *s, size_t ns)
{
	static struct etm_pkt_rec whole[MAXR], part[MAXR];
	struct etm_fenc *f = etm_fenc_alloc(0, 0);
	const uint8_t *fr;
	size_t n, cut;
	int nw, np, i, bad = 0;

	ET_CHECK(f);
	ET_EQ(etm_fenc_put(f, 0x10, s, ns), 0);
	ET_EQ(etm_fenc_finish(f), 0);
	fr = etm_fenc_data(f, &n);
	nw = decode(proto, fr, n, n, 0, whole);
	ET_CHECK(nw > 5 && nw < MAXR);
	/* the I-sync at frame offset 16 is reported bad */
	for (i = 0; i < nw; i++)
		bad += whole[i].type == etmp_error && whole[i].offset == 16;
	ET_EQ(bad, 1);
	np = decode(proto, fr, n, n, 1, part);
	same_recs(part, np, whole, nw);
	for (cut = 16; cut < n; cut += 16) {
		np = decode(proto, fr, n, cut, 0, part);
		same_recs(part, np, whole, nw);
		np = decode(proto, fr, n, cut, 1, part);
		same_recs(part, np, whole, nw);
	}
	etm_fenc_free(f);
}

static void t_cuts_etm3(void)
{
	cuts(etm_proto_etmv3, stream_etm3, sizeof(stream_etm3));
}

static void t_cuts_ptm(void)
{
	cuts(etm_proto_ptm, stream_ptm, sizeof(stream_ptm));
}

int main(void)
{
	ETEST(t_cuts_etm3);
	ETEST(t_cuts_ptm);
	return etest_end();
}
