/* tests/unit/test-enc_refuse.c - the encoder refuses an execution its
 * classifier cannot explain (etm_enc_put() -> -etme_mismatch), so that a
 * classifier error shared by encoder and decoder cannot cancel out. */
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/error.h>

#include "etest.h"

/* A32 at 0x1000 (hand-assembled, ARM DDI 0406C A8.8.102 MOV, A8.8.18 B):
 * 0x1000 MOV r0,r0 (E1A00000); 0x1004 BEQ 0x2000 (0A0003FD: imm24 0x3FD,
 * 0x1004 + 8 + 0x3FD * 4 = 0x2000); 0x1008 MOV r0,r0; 0x2000 MOV r0,r0. */
static struct etm_image *image(void)
{
	static const uint8_t lo[12] = { 0x00, 0x00, 0xa0, 0xe1, 0xfd, 0x03,
					0x00, 0x0a, 0x00, 0x00, 0xa0, 0xe1 };
	static const uint8_t hi[4] = { 0x00, 0x00, 0xa0, 0xe1 };
	struct etm_image *img = etm_image_alloc();

	if (img && (etm_image_add_buffer(img, etm_space_any, 0x1000, lo, 12) ||
		    etm_image_add_buffer(img, etm_space_any, 0x2000, hi, 4))) {
		etm_image_free(img);
		img = NULL;
	}
	return img;
}

/* Put trace-on, then instructions at @addr[0..n) with @exec; returns the
 * result of the last put. */
static int run(enum etm_protocol p, const uint64_t *addr, const uint8_t *exec,
	       int n)
{
	struct etm_image *img = image();
	struct etm_enc_opts o = { .size = sizeof(o) };
	struct etm_ev ev = { .kind = etmev_trace_on, .reason = 1 };
	struct etm_enc *e;
	int i, r;

	etm_config_init(&o.cfg);
	o.cfg.protocol = p;
	o.cfg.etmidr = p == etm_proto_ptm ? 0x411CF312u : 0x410CF250u;
	o.cfg.traceid = 0x10;
	e = etm_enc_alloc(&o, sizeof(o), img);
	r = e ? etm_enc_put(e, &ev) : -etme_nomem;
	for (i = 0; i < n && r == 0; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = etmev_insn;
		ev.addr = addr[i];
		ev.isa = etmi_a32;
		ev.exec = exec[i];
		r = etm_enc_put(e, &ev);
	}
	etm_enc_free(e);
	etm_image_free(img);
	return r;
}

static void refuse(void)
{
	static const uint64_t jump[] = { 0x1000, 0x2000 }; /* MOV, then? */
	static const uint64_t taken[] = { 0x1004, 0x2000 };
	static const uint64_t wrong[] = { 0x1004, 0x1008 };
	static const uint8_t e1[] = { 1, 1 }, e0[] = { 0, 1 };
	int p;

	for (p = 0; p < 2; p++) {
		enum etm_protocol pr = p ? etm_proto_ptm : etm_proto_etmv3;

		/* a non-branch followed by a jump */
		ET_EQ(run(pr, jump, e1, 2), -etme_mismatch);
		/* BEQ passed: to its target only */
		ET_EQ(run(pr, taken, e1, 2), 0);
		ET_EQ(run(pr, wrong, e1, 2), -etme_mismatch);
		/* BEQ failed: falls through only */
		ET_EQ(run(pr, wrong, e0, 2), 0);
		ET_EQ(run(pr, taken, e0, 2), -etme_mismatch);
	}
}

int main(void)
{
	ETEST(refuse);
	return etest_end();
}
