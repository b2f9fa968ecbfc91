/* tests/unit/test-ptm_pkt.c - PTM (PFT) packet parser: every packet type from
 * hand-written bytes (derivations beside each test), chunking, errors, fuzz. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#define PKT_BASE 100 /* the input starts at offset 100 */

#include "etest.h"
#include "packet/pktdec.h"
#include "pkttest.h"

#define PFT11 0x411CF312u   /* ETMIDR: PFTv1.1 */
#define CA 0x1000u          /* ETMCR[12] cycle accurate */
#define TS64BIN 0x30000000u /* ETMCCER[29] 64-bit, [28] binary */

#define cfgp(etmcr, ccer) pkt_cfg(etm_proto_ptm, etmcr, PFT11, ccer, 0x13)

static void isync_examples(void)
{
	/* ptm.md §4: 08 83 8d 01 c0 01: 0xC0018D83 -> 0xC0018D82 Thumb,
	 * periodic: no cycle count even in CA mode. 08 df 8d 01 c0 21 cc 03:
	 * 0xC0018DDE Thumb, trace on, CC = 3 + 3 * 16 = 51. */
	static const uint8_t t[] = { 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x01,
				     0x08, 0xdf, 0x8d, 0x01, 0xc0, 0x21, 0xcc,
				     0x03 };
	/* [COV] 08 58 05 00 80 61: 0x80000558 ARM, debug exit; non-CA, so
	 * no cycle count. */
	static const uint8_t u[] = { 0x08, 0x58, 0x05, 0x00, 0x80, 0x61, 0x0c };
	struct etm_config c = cfgp(CA, 0);
	char s[96];

	ET_EQ(after_async(&c, t, sizeof(t)), 2);
	ET_EQ(pk[0].type, etmp_isync);
	ET_EQ(pk[0].offset, 106);
	ET_EQ(pk[0].size, 6);
	ET_EQ(pk[0].addr, 0xc0018d82);
	ET_EQ(pk[0].isa, etmi_t32);
	ET_EQ(pk[0].has_cc, 0);
	etm_pkt_describe(&pk[0], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "Addr=0xc0018d82 T32 periodic S") == 0);
	ET_EQ(pk[1].size, 8);
	ET_EQ(pk[1].addr, 0xc0018dde);
	ET_EQ(pk[1].reason, etm_isync_trace_on);
	ET_EQ(pk[1].cycle_count, 51);
	c = cfgp(0x20000400, 0);
	ET_EQ(after_async(&c, u, sizeof(u)), 2);
	ET_EQ(pk[0].size, 6);
	ET_EQ(pk[0].addr, 0x80000558);
	ET_EQ(pk[0].isa, etmi_a32);
	ET_EQ(pk[0].reason, etm_isync_debug_exit);
	ET_EQ(pk[1].type, etmp_trigger);
}

static void isync_ctxid_and_state(void)
{
	/* §4: cycle count, then Context ID (ETMCR[15:14] = 11: 4 bytes).
	 * Info 0x2f = trace on, NS, AltISA, Hyp; T = 1 -> ThumbEE. */
	static const uint8_t t[] = { 0x08, 0xdf, 0x8d, 0x01, 0xc0, 0x2f, 0xcc,
				     0x03, 0x78, 0x56, 0x34, 0x12 };
	/* non-CA, 2-byte Context ID: 08 58 05 00 80 61 34 12 */
	static const uint8_t u[] = { 0x08, 0x58, 0x05, 0x00, 0x80, 0x61, 0x34,
				     0x12 };
	struct etm_config c = cfgp(CA | 0xc000, 0);

	ET_EQ(after_async(&c, t, sizeof(t)), 1);
	ET_EQ(pk[0].size, 12);
	ET_EQ(pk[0].cycle_count, 51);
	ET_EQ(pk[0].ctxid, 0x12345678);
	ET_EQ(pk[0].has_ctxid, 1);
	ET_EQ(pk[0].isa, etmi_tee);
	ET_EQ(pk[0].ns, 1);
	ET_EQ(pk[0].hyp, 1);
	c = cfgp(0x8000, 0);
	ET_EQ(after_async(&c, u, sizeof(u)), 1);
	ET_EQ(pk[0].size, 8);
	ET_EQ(pk[0].ctxid, 0x1234);
}

static void atoms_plain(void)
{
	/* §5.1: oldest atom in the highest atom bit. 0x84 -> E.
	 * 0xD0 = b11010000: 5 atoms, bits 5..1 = 0 1 0 0 0 -> E N E E E.
	 * 0xD2 -> E N E E N; 0xE2 -> N E E E N; 0x9C = b10011100: 3 atoms,
	 * bits 3..1 = 1 1 0 -> N N E. Bit i of atom_bits = atom i is N.
	 * 0x80 has no atom-count bit: reserved. */
	static const uint8_t t[] = { 0x84, 0xd0, 0xd2, 0xe2, 0x9c, 0x80 };
	struct etm_config c = cfgp(0x20000400, 0);
	char s[64];

	ET_EQ(after_async(&c, t, sizeof(t)), 6);
	ET_EQ(pk[0].type, etmp_atom);
	ET_EQ(pk[0].atom_count, 1);
	ET_EQ(pk[0].atom_bits, 0);
	ET_EQ(pk[1].atom_count, 5);
	ET_EQ(pk[1].atom_bits, 0x02);
	etm_pkt_describe(&pk[1], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "E N E E E") == 0);
	ET_EQ(pk[2].atom_bits, 0x12);
	ET_EQ(pk[3].atom_bits, 0x11);
	etm_pkt_json_fields(&pk[3], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "\"atoms\":\"NEEEN\"") == 0);
	ET_EQ(pk[4].atom_count, 3);
	ET_EQ(pk[4].atom_bits, 0x03);
	ET_EQ(pk[5].type, etmp_error);
	ET_EQ(pk[5].err, etme_bad_opc);
	ET_CHECK(strcmp(etm_pkt_type_name(pk[0].type, etm_proto_ptm),
			"ATOM") == 0);
}

static void atoms_cycle_accurate(void)
{
	/* §5.2: e8 20: F = 0 (E), count 0xA + 0x20 << 4 = 522.
	 * de 01: N, 7 + 16 = 23. bc: E, 15. 84: E, 1.
	 * c0 ff ff ff 7f: count[3:0] = 0, then 4 x 7 bits all set ->
	 * 0xFFFFFFF0 (the 5th byte ends the field). */
	static const uint8_t t[] = { 0xe8, 0x20, 0xde, 0x01, 0xbc, 0x84,
				     0xc0, 0xff, 0xff, 0xff, 0x7f, 0x0c };
	struct etm_config c = cfgp(CA, 0);
	char s[64];

	ET_EQ(after_async(&c, t, sizeof(t)), 6);
	ET_EQ(pk[0].size, 2);
	ET_EQ(pk[0].atom_count, 1);
	ET_EQ(pk[0].atom_bits, 0);
	ET_EQ(pk[0].cycle_count, 522);
	etm_pkt_describe(&pk[0], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "E cc=522") == 0);
	ET_EQ(pk[1].atom_bits, 1);
	ET_EQ(pk[1].cycle_count, 23);
	ET_EQ(pk[2].cycle_count, 15);
	ET_EQ(pk[3].cycle_count, 1);
	ET_EQ(pk[4].size, 5);
	ET_EQ(pk[4].cycle_count, 0xfffffff0u);
	ET_EQ(pk[5].type, etmp_trigger);
}

static void branch_cycle_accurate(void)
{
	/* §6.4: I-sync 08 af 8d 01 c0 21 fc 03 -> 0xC0018DAE Thumb, CC
	 * 0xF + 3 * 16 = 63. a3 0b 68 17: A[6:1] = 0x11, last byte 0x0B
	 * A[12:7] = 0x0B -> low 13 bits 0x5A2 -> 0xC00185A2; CC 378.
	 * bb b6 bd 01 04: low 27 bits 0x2F5B3A -> 0xC02F5B3A, CC 1. */
	static const uint8_t t[] = { 0x08, 0xaf, 0x8d, 0x01, 0xc0, 0x21, 0xfc,
				     0x03, 0xa3, 0x0b, 0x68, 0x17, 0xbb, 0xb6,
				     0xbd, 0x01, 0x04 };
	struct etm_config c = cfgp(CA, 0);
	char s[64];

	ET_EQ(after_async(&c, t, sizeof(t)), 3);
	ET_EQ(pk[0].addr, 0xc0018dae);
	ET_EQ(pk[0].cycle_count, 63);
	ET_EQ(pk[1].type, etmp_branch);
	ET_EQ(pk[1].size, 4);
	ET_EQ(pk[1].addr, 0xc00185a2);
	ET_EQ(pk[1].addr_bits, 13);
	ET_EQ(pk[1].cycle_count, 378);
	etm_pkt_describe(&pk[1], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "Addr=0xc00185a2 cc=378") == 0);
	etm_pkt_json_fields(&pk[1], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "\"addr\":\"0xc00185a2\",\"isa\":\"T32\","
			   "\"addr_bits\":13,\"cycles\":378") == 0);
	ET_EQ(pk[2].size, 5);
	ET_EQ(pk[2].addr, 0xc02f5b3a);
	ET_EQ(pk[2].cycle_count, 1);
}

static void branch_plain_and_exception(void)
{
	/* [COV] after I-sync 0x80000504 ARM: 2f -> A[7:2] = 0x17 ->
	 * 0x8000055C. 81 80 80 80 48 02: 5th byte 0x48 = E, ARM, A[31:29] = 0
	 * -> 0; exception byte 02: exception 1 (debug halt), Secure. */
	static const uint8_t t[] = { 0x08, 0x04, 0x05, 0x00, 0x80, 0x61, 0x2f,
				     0x81, 0x80, 0x80, 0x80, 0x48, 0x02 };
	struct etm_config c = cfgp(0x20000400, 0);
	char s[96];

	ET_EQ(after_async(&c, t, sizeof(t)), 3);
	ET_EQ(pk[1].size, 1);
	ET_EQ(pk[1].addr, 0x8000055c);
	ET_EQ(pk[1].addr_bits, 8);
	ET_EQ(pk[1].has_exc, 0);
	ET_EQ(pk[2].size, 6);
	ET_EQ(pk[2].addr, 0);
	ET_EQ(pk[2].isa, etmi_a32);
	ET_EQ(pk[2].has_exc, 1);
	ET_EQ(pk[2].exc_num, 1);
	etm_pkt_describe(&pk[2], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "Addr=0x00000000 A32 exc=DebugHalt(1) S") == 0);
}

static void branch_exception_forms(void)
{
	/* Short address with exception (OpenCSD reading, §6.2): base
	 * 0x80001234 Thumb; a5 4a 1d -> 0x80000524, IRQ (14), NS.
	 * 81 80 80 80 48 83 21: byte 0 0x83 C=1 exc[3:0] = 1 NS; byte 1
	 * 0x21: Hyp, exc[8:4] = 1 -> 17; 7 bytes.
	 * 81 80 80 80 58 40: Thumb 0x80000000, AltISA -> ThumbEE.
	 * 81 80 80 80 40: 5th byte names no instruction set: error. */
	static const uint8_t t[] = { 0x08, 0x35, 0x12, 0x00, 0x80, 0x21,
				     0xa5, 0x4a, 0x1d,
				     0x81, 0x80, 0x80, 0x80, 0x48, 0x83, 0x21,
				     0x81, 0x80, 0x80, 0x80, 0x58, 0x40,
				     0x81, 0x80, 0x80, 0x80, 0x40 };
	struct etm_config c = cfgp(0, 0);

	ET_EQ(after_async(&c, t, sizeof(t)), 5);
	ET_EQ(pk[1].size, 3);
	ET_EQ(pk[1].addr, 0x80000524);
	ET_EQ(pk[1].exc_num, 14);
	ET_EQ(pk[1].ns, 1);
	ET_EQ(pk[1].isa, etmi_t32);
	ET_EQ(pk[2].size, 7);
	ET_EQ(pk[2].exc_num, 17);
	ET_EQ(pk[2].hyp, 1);
	ET_EQ(pk[2].ns, 1);
	ET_EQ(pk[3].size, 6);
	ET_EQ(pk[3].addr, 0x80000000);
	ET_EQ(pk[3].isa, etmi_tee);
	ET_EQ(pk[4].type, etmp_error);
	ET_EQ(pk[4].err, etme_bad_packet);
	ET_EQ(pk[4].size, 5);
}

static void waypoint_update(void)
{
	/* §8: after I-sync 0x80000504 ARM, 72 21: one address byte,
	 * A[7:2] = 0x10 -> 0x80000540. It becomes the compression base:
	 * branch 05 (A[7:2] = 2) -> 0x80000508.
	 * 72 81 80 80 80 58 40: 5-byte Thumb address 0x80000000 with bit 6
	 * set, so one more byte whose bit 6 (AltISA) selects ThumbEE. */
	static const uint8_t t[] = { 0x08, 0x04, 0x05, 0x00, 0x80, 0x61,
				     0x72, 0x21, 0x05,
				     0x72, 0x81, 0x80, 0x80, 0x80, 0x58, 0x40,
				     0x0c };
	struct etm_config c = cfgp(0, 0);
	char s[64];

	ET_EQ(after_async(&c, t, sizeof(t)), 5);
	ET_EQ(pk[1].type, etmp_waypoint);
	ET_EQ(pk[1].size, 2);
	ET_EQ(pk[1].addr, 0x80000540);
	etm_pkt_describe(&pk[1], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "Addr=0x80000540") == 0);
	ET_CHECK(strcmp(etm_pkt_type_name(pk[1].type, etm_proto_ptm),
			"WAYPOINT_UPDATE") == 0);
	ET_EQ(pk[2].type, etmp_branch);
	ET_EQ(pk[2].addr, 0x80000508);
	ET_EQ(pk[3].type, etmp_waypoint);
	ET_EQ(pk[3].size, 7);
	ET_EQ(pk[3].addr, 0x80000000);
	ET_EQ(pk[3].isa, etmi_tee);
	ET_EQ(pk[4].type, etmp_trigger);
}

static void simple_packets(void)
{
	/* trigger 0C, ignore 66, exception return 76, Context ID 6E + 4 bytes
	 * (ETMCR[15:14] = 11), VMID 3C + 1 byte. */
	static const uint8_t t[] = { 0x0c, 0x66, 0x76, 0x6e, 0x78, 0x56, 0x34,
				     0x12, 0x3c, 0x07 };
	struct etm_config c = cfgp(0xc000, 0);
	char s[64];

	ET_EQ(after_async(&c, t, sizeof(t)), 5);
	ET_EQ(pk[0].type, etmp_trigger);
	ET_EQ(pk[1].type, etmp_ignore);
	ET_EQ(pk[2].type, etmp_exc_return);
	ET_EQ(pk[3].type, etmp_ctxid);
	ET_EQ(pk[3].ctxid, 0x12345678);
	ET_EQ(pk[3].size, 5);
	ET_EQ(pk[4].type, etmp_vmid);
	ET_EQ(pk[4].vmid, 7);
	ET_EQ(pk[4].offset, 114);
	etm_pkt_json_fields(&pk[4], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "\"vmid\":7") == 0);
}

static void timestamps(void)
{
	/* §12, TC2: 42 cc 97 c6 ce af 90 80 80 00 00: 9 value bytes =
	 * 0x82F9D18BCC (DS-5 562537008076), then CC 00 = 0 (CA mode).
	 * 42 80 1d 00: bits 13:0 = 0x1D << 7 = 0xE80 -> 0x82F9D18E80, CC 0.
	 * Non-CA, 48-bit binary: 46 81 01 -> 0x81, R = 1, no CC. */
	static const uint8_t t[] = { 0x42, 0xcc, 0x97, 0xc6, 0xce, 0xaf, 0x90,
				     0x80, 0x80, 0x00, 0x00, 0x42, 0x80, 0x1d,
				     0x00 };
	static const uint8_t u[] = { 0x46, 0x81, 0x01, 0x0c };
	struct etm_config c = cfgp(CA | 0x10000000, TS64BIN);

	ET_EQ(after_async(&c, t, sizeof(t)), 2);
	ET_EQ(pk[0].size, 11);
	ET_EQ(pk[0].timestamp, 0x82f9d18bccull);
	ET_EQ(pk[0].has_cc, 1);
	ET_EQ(pk[0].cycle_count, 0);
	ET_EQ(pk[1].size, 4);
	ET_EQ(pk[1].timestamp, 0x82f9d18e80ull);
	c = cfgp(0x10000000, 0x10000000);
	ET_EQ(after_async(&c, u, sizeof(u)), 2);
	ET_EQ(pk[0].size, 3);
	ET_EQ(pk[0].timestamp, 0x81);
	ET_EQ(pk[0].ts_freq_change, 1);
	ET_EQ(pk[0].has_cc, 0);
}

/* Short valid CA trace used by the stream tests. */
static const uint8_t trace[] = {
	0x42, 0xa4,                                     /* junk */
	0, 0, 0, 0, 0, 0x80,                            /* A-sync */
	0x08, 0xaf, 0x8d, 0x01, 0xc0, 0x21, 0xfc, 0x03, /* I-sync */
	0x42, 0xcc, 0x97, 0xc6, 0xce, 0xaf, 0x90, 0x80, 0x80, 0x00, 0x00,
	0xe8, 0x20, 0xde, 0x01, 0xbc, /* atoms */
	0xa3, 0x0b, 0x68, 0x17, 0x76, /* branch, eret */
	0xbb, 0xb6, 0xbd, 0x01, 0x04, /* branch */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,
	0x08, 0x83, 0x8d, 0x01, 0xc0, 0x01, /* I-sync */
	0x84, 0x72, 0x21, 0x81, 0x80, 0x80, 0x80, 0x48, 0x02, 0x00,
	0xb4, 0x0c
};

static void stream_chunks_identical(void)
{
	static struct etm_packet a[64];
	static const size_t sizes[] = { 1, 7, 4096 };
	struct etm_config c = cfgp(CA | 0x10000000, TS64BIN);
	int n;

	/* notsync async isync ts 3 atoms br eret br async isync atom wp br
	 * atom trigger */
	n = parse(&c, trace, sizeof(trace), 4096, a, 64);
	ET_EQ(n, 17);
	ET_EQ(a[0].type, etmp_notsync);
	ET_EQ(a[0].offset, 100);
	ET_EQ(a[0].size, 2);
	ET_EQ(a[10].type, etmp_async);
	ET_EQ(a[10].size, 21);
	ET_EQ(a[14].type, etmp_branch);
	ET_EQ(a[14].cycle_count, 0);
	ET_EQ(a[16].type, etmp_trigger);
	ET_CHECK(pkt_same_in_chunks(&c, trace, sizeof(trace), sizes, 3, a, n));
}

static void empty_truncated_misuse(void)
{
	/* A branch cut after 3 of its 5 address bytes is truncated. */
	static const uint8_t t[] = { 0, 0, 0, 0, 0, 0x80, 0x81, 0x80, 0x80 };
	struct etm_config c = cfgp(0, 0);
	struct etm_pkt_decoder *p = etm_pkt_alloc(&c);
	struct etm_packet x;

	ET_CHECK(p != NULL);
	ET_EQ(etm_pkt_push(p, NULL, 0, 0), 0);
	ET_EQ(etm_pkt_next(p, &x, sizeof(x)), -etme_again);
	ET_EQ(etm_pkt_push(p, t, 3, 0), 0);
	ET_EQ(etm_pkt_push(p, t, 3, 0), -etme_busy);
	ET_EQ(etm_pkt_next(NULL, &x, sizeof(x)), -etme_invalid);
	etm_pkt_reset(p);
	ET_EQ(etm_pkt_finish(p), 0);
	ET_EQ(etm_pkt_next(p, &x, sizeof(x)), -etme_eos);
	etm_pkt_free(p);
	c.protocol = etm_proto_etmv1; /* no byte packets */
	ET_CHECK(etm_pkt_alloc(&c) == NULL);
	c.protocol = etm_proto_ptm;
	ET_EQ(parse(&c, t, sizeof(t), 2, pk, MAXP), 2);
	ET_EQ(pk[1].type, etmp_error);
	ET_EQ(pk[1].err, etme_truncated);
	ET_EQ(pk[1].offset, 106);
	ET_EQ(pk[1].size, 3);
}

static void reserved_header_resync(void)
{
	/* 0x02 is reserved in PFT: error, notsync up to the next A-sync. */
	static const uint8_t t[] = { 0x84, 0x02, 0x84, 0, 0, 0, 0, 0, 0x80,
				     0x0c };
	struct etm_config c = cfgp(0, 0);
	char s[64];

	ET_EQ(after_async(&c, t, sizeof(t)), 5);
	ET_EQ(pk[1].type, etmp_error);
	ET_EQ(pk[1].err, etme_bad_opc);
	ET_EQ(pk[1].offset, 107);
	etm_pkt_json_fields(&pk[1], etm_proto_ptm, s, sizeof(s));
	ET_CHECK(strcmp(s, "\"err\":\"bad_opc\",\"size\":1") == 0);
	ET_EQ(pk[2].type, etmp_notsync);
	ET_EQ(pk[2].size, 1);
	ET_EQ(pk[3].type, etmp_async);
	ET_EQ(pk[4].type, etmp_trigger);
}

/* etm_pkt_next_ok() (the flow decoders' fast paths) leaves an error packet
 * where it is: asked again it says so again, and etm_pkt_next() then gives
 * it; the packets come out as etm_pkt_next() alone gives them, whole
 * chunks (packets decoded in place) or one byte at a time (through the
 * queue), and for the packet cut by the end of the input (the queue). */
static int next_ok_all(const struct etm_config *c, const uint8_t *b,
		       size_t n, size_t chunk, struct etm_packet *out,
		       int *nerr)
{
	struct etm_pkt_decoder *p = etm_pkt_alloc(c);
	size_t off = 0;
	int k = 0, r, fin = 0;

	if (!p)
		return -1;
	for (;;) {
		if (!fin && off < n) {
			size_t m = n - off < chunk ? n - off : chunk;

			etm_pkt_push(p, b + off, m, PKT_BASE + off);
			off += m;
		} else if (!fin) {
			etm_pkt_finish(p);
			fin = 1;
		}
		while (k < MAXP && (r = etm_pkt_next_ok(p, &out[k])) >= 0) {
			if (r == 0) {
				k++;
				continue;
			}
			(*nerr)++;
			if (etm_pkt_next_ok(p, &out[k]) != 1 ||
			    etm_pkt_next(p, &out[k], sizeof(out[k])) != 0 ||
			    out[k].type != etmp_error)
				return -1;
			k++;
		}
		if (r == -etme_eos)
			break;
		if (r != -etme_again || fin)
			return -1;
	}
	etm_pkt_free(p);
	return k;
}

static void next_ok_leaves_errors(void)
{
	/* 100 A-sync, 106 atom, 107 0x02 reserved (error, bad_opc), 108
	 * notsync, 109 A-sync, 115 trigger, 116 I-sync header with 2 of its
	 * 6 bytes when the input ends (error, truncated): 7 packets */
	static const uint8_t t[] = { 0, 0, 0, 0, 0, 0x80, 0x84, 0x02,
				     0x84, 0, 0, 0, 0, 0, 0x80, 0x0c,
				     0x08, 0x11 };
	static struct etm_packet ref[MAXP], got[MAXP];
	struct etm_config c = cfgp(0, 0);
	size_t chunk;
	int nref, n, nerr, i;

	nref = parse(&c, t, sizeof(t), sizeof(t), ref, MAXP);
	ET_EQ(nref, 7);
	ET_EQ(ref[2].type, etmp_error);
	ET_EQ(ref[2].offset, 107);
	ET_EQ(ref[3].type, etmp_notsync);
	ET_EQ(ref[3].offset, 108);
	ET_EQ(ref[6].type, etmp_error);
	ET_EQ(ref[6].err, etme_truncated);
	ET_EQ(ref[6].offset, 116);
	for (chunk = 1; chunk <= sizeof(t); chunk += sizeof(t) - 1) {
		nerr = 0;
		n = next_ok_all(&c, t, sizeof(t), chunk, got, &nerr);
		ET_EQ(n, nref);
		ET_EQ(nerr, 2);
		for (i = 0; i < n; i++) {
			ET_EQ(got[i].type, ref[i].type);
			ET_EQ(got[i].offset, ref[i].offset);
			ET_EQ(got[i].size, ref[i].size);
			ET_EQ(got[i].err, ref[i].err);
		}
	}
}

/* An A-sync inside what a corrupted header makes a packet (see
 * pktbuf.c read_pkt): with a 4-byte Context ID an I-sync is 10 bytes, so a
 * stray 0x08 before an A-sync swallows it. The packet is dropped from its
 * header and the A-sync found; same result in chunks of 1..7 bytes. */
static void async_inside_packet(void)
{
	/* after A-sync at 100 (parse() starts the input at offset 100): 106 stray 0x08 (I-sync header), 107 0x11, 108 A-sync
	 * (five 0x00, 0x80), 114 trigger 0x0c */
	static const uint8_t t[] = { 0x08, 0x11, 0, 0, 0, 0, 0, 0x80, 0x0c };
	struct etm_config c = cfgp(0xc000, 0);
	struct etm_packet ref[16];
	uint8_t buf[32];
	int n;

	ET_EQ(after_async(&c, t, sizeof(t)), 4);
	ET_EQ(pk[0].type, etmp_error);
	ET_EQ(pk[0].offset, 106);
	ET_EQ(pk[0].size, 1);
	ET_EQ(pk[1].type, etmp_notsync);
	ET_EQ(pk[1].offset, 107);
	ET_EQ(pk[1].size, 1);
	ET_EQ(pk[2].type, etmp_async);
	ET_EQ(pk[2].offset, 108);
	ET_EQ(pk[3].type, etmp_trigger);
	ET_EQ(pk[3].offset, 114);
	memcpy(buf, async6, 6);
	memcpy(buf + 6, t, sizeof(t));
	n = parse(&c, buf, sizeof(t) + 6, 4096, ref, 16);
	ET_EQ(n, 5);
	ET_CHECK(pkt_same_in_chunks(&c, buf, sizeof(t) + 6, pkt_chunks7, 7, ref, n));
}

static void random_bytes(void)
{
	static uint8_t buf[1 << 15];
	static struct etm_packet out[(1 << 15) + 1];
	struct etm_config c;
	unsigned seed = 777, k;
	int n;

	for (k = 0; k < 4; k++) {
		pkt_random_fill(buf, sizeof(buf), &seed, 89);
		c = cfgp(k & 1 ? CA | 0xc000 : 0x4000, k & 2 ? TS64BIN : 0);
		n = parse(&c, buf, sizeof(buf), 1 + k * 11, out,
			  (1 << 15) + 1);
		ET_CHECK(n > 0 && n <= (1 << 15));
		ET_CHECK(covers(out, n, sizeof(buf)));
	}
}

static void every_single_byte_corruption(void)
{
	static const uint8_t tail[] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x80, 0x08, 0x83, 0x8d, 0x01, 0xc0, 0x01, 0xe8, 0x20, 0xde,
		0x01, 0x81, 0x80, 0x80, 0x80, 0x48, 0x02, 0x00, 0x76, 0x0c
	};
	static uint8_t buf[256];
	static struct etm_packet ref[64];
	struct etm_config c = cfgp(CA | 0x10000000, TS64BIN);
	size_t hn = 40, n = hn + sizeof(tail);
	int nr, errors;

	/* head: A-sync ... second branch of the trace above */
	memcpy(buf, trace + 2, hn);
	memcpy(buf + hn, tail, sizeof(tail));
	nr = parse(&c, buf, n, 4096, ref, 64);
	ET_CHECK(nr > 8);
	/* values 0, 3 .. 255 at each head byte, chunks of 5: I-sync, 2
	 * atoms, branch, eret, trigger intact after the last A-sync */
	errors = pkt_corruption_sweep(&c, buf, n, hn, 3, 5, ref, nr, 6);
	ET_CHECK(errors > 100);
}

int main(void)
{
	ETEST(isync_examples);
	ETEST(isync_ctxid_and_state);
	ETEST(atoms_plain);
	ETEST(atoms_cycle_accurate);
	ETEST(branch_cycle_accurate);
	ETEST(branch_plain_and_exception);
	ETEST(branch_exception_forms);
	ETEST(waypoint_update);
	ETEST(simple_packets);
	ETEST(timestamps);
	ETEST(stream_chunks_identical);
	ETEST(empty_truncated_misuse);
	ETEST(reserved_header_resync);
	ETEST(async_inside_packet);
	ETEST(next_ok_leaves_errors);
	ETEST(random_bytes);
	ETEST(every_single_byte_corruption);
	return etest_end();
}
