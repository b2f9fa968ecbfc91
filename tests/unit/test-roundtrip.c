/* tests/unit/test-roundtrip.c - the encoder on hand-derived byte vectors,
 * the frame encoder against the deformatter, and the round-trip property:
 * decode(encode(execution)) == execution over thousands of seeded cases.
 * ETM_RT_SEED=N replays one case verbosely; ETM_RT_CASES / ETM_RT_BASE set
 * the number of cases and the first seed; ETM_RT_DUMP=DIR saves the trace
 * and the program of the first source.
 * Short branch addresses keep the ISA the trace last stated (I-sync,
 * 5-byte address): the encoder sends a 5-byte address whenever the ISA
 * differs from it, and ETMv3 an address packet on every ISA change (BLX
 * <imm>); after a Debug Halt, trace restarts with a debug-exit I-sync.
 * The generator makes both (t_roundtrip counts them). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "encode/enc_int.h"
#include "etest.h"
#include "../roundtrip/rt.h"
#include "../roundtrip/rt.c"

#if defined(__SANITIZE_ADDRESS__)
#define RT_DEFAULT_CASES 5000
#else
#define RT_DEFAULT_CASES 10000
#endif

/* A32 program used by the hand-derived vectors:
 * 0x8000 mov r0,#0; 0x8004 add r0,r0,#1; 0x8008 cmp r0,#2;
 * 0x800c bne 0x8004; 0x8010 bx lr. */
static const uint32_t prog[] = { 0xe3a00000, 0xe2800001, 0xe3500002,
				 0x1afffffc, 0xe12fff1e };

static struct etm_image *prog_image(void)
{
	struct etm_image *img = etm_image_alloc();
	uint8_t b[sizeof(prog)];
	size_t i;

	for (i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(prog[i / 4] >> (8 * (i % 4)));
	if (img)
		etm_image_add_buffer(img, etm_space_any, 0x8000, b, sizeof(b));
	return img;
}

/* Loop twice (bne taken, then not taken), then bx lr to 0x9000. */
static size_t prog_run(struct etm_enc *e)
{
	static const uint32_t pcs[] = { 0x8000, 0x8004, 0x8008, 0x800c, 0x8004,
					0x8008, 0x800c, 0x8010 };
	struct etm_ev ev;
	size_t i, n;

	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_trace_on;
	ev.reason = etm_isync_trace_on;
	etm_enc_put(e, &ev);
	for (i = 0; i < 8; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = etmev_insn;
		ev.addr = pcs[i];
		ev.isa = etmi_a32;
		ev.exec = i != 6;
		ev.cycles = 1;
		if (i == 7) {
			ev.target = 0x9000;
			ev.target_isa = etmi_a32;
		}
		if (etm_enc_put(e, &ev))
			return 0;
	}
	etm_enc_finish(e);
	etm_enc_data(e, &n);
	return n;
}

static struct etm_enc *prog_enc(enum etm_protocol p, uint32_t etmidr,
				const struct etm_image *img)
{
	struct etm_enc_opts o;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	etm_config_init(&o.cfg);
	o.cfg.protocol = p;
	o.cfg.etmidr = etmidr;
	o.cfg.traceid = 0x10;
	return etm_enc_alloc(&o, sizeof(o), img);
}

/*
 * PTM (shared/docs/ptm.md): A-sync 00x5 80; I-sync 08, address 0x00008000 LE with
 * T=0, info 0x21 (reason 01 trace enabled << 5, bit 0 set); the waypoints
 * are the bne twice (E then N) and bx lr. The atoms are pending when the
 * branch packet for bx lr flushes them: 2 atoms b1000 1ab0 with a = E (0),
 * b = N (1) -> 0x8a. Branch to 0x9000 from base 0x8000: bit 12 differs;
 * ARM 1 byte carries A[7:2] (too few), 2 bytes (alternative encoding)
 * A[13:2]: v = 0x9000 >> 2 = 0x2400, byte 0 = C | (v & 0x3f) << 1 | 1 =
 * 0x81, byte 1 = (v >> 6) & 0x3f = 0x10 (E = 0).
 */
static void t_ptm_vector(void)
{
	static const uint8_t want[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x00, 0x80,
					0x00, 0x00, 0x21, 0x8a, 0x81, 0x10 };
	struct etm_image *img = prog_image();
	struct etm_enc *e = prog_enc(etm_proto_ptm, 0x411cf312, img);
	const uint8_t *p;
	size_t n;

	ET_CHECK(e != NULL);
	ET_EQ(prog_run(e), sizeof(want));
	p = etm_enc_data(e, &n);
	ET_CHECK(memcmp(p, want, n) == 0);
	etm_enc_free(e);
	etm_image_free(img);
}

/* The program of tests/vectors/etm3-blx_imm-a32_t32-bx_lr-5byte_arm.etv:
 * 0x8000 blx 0x8010; 0x8004 mov r0, r0 (A32); 0x8010 movs r0, #1; 0x8012
 * bx lr (T32). */
static struct etm_image *blx_image(void)
{
	static const uint8_t a32[] = { 0x02, 0x00, 0x00, 0xfa,
				       0x00, 0x00, 0xa0, 0xe1 };
	static const uint8_t t32[] = { 0x01, 0x20, 0x70, 0x47 };
	struct etm_image *img = etm_image_alloc();

	if (img) {
		etm_image_add_buffer(img, etm_space_any, 0x8000, a32,
				     sizeof(a32));
		etm_image_add_buffer(img, etm_space_any, 0x8010, t32,
				     sizeof(t32));
	}
	return img;
}

static int put_insn(struct etm_enc *e, uint64_t addr, enum etm_isa isa,
		    uint64_t target, enum etm_isa tisa)
{
	struct etm_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_insn;
	ev.addr = addr;
	ev.isa = isa;
	ev.exec = 1;
	ev.cycles = 1;
	ev.target = target;
	ev.target_isa = tisa;
	return etm_enc_put(e, &ev);
}

/* Encode the executions of the two ETMv3 vectors below (@halt: the second)
 * and compare with @want. */
static void enc_vector(int halt, const uint8_t *want, size_t nwant)
{
	struct etm_image *img = halt ? prog_image() : blx_image();
	struct etm_enc *e = prog_enc(etm_proto_etmv3, 0x410cf250, img);
	const uint8_t *p;
	struct etm_ev ev;
	size_t n;

	ET_CHECK(e != NULL);
	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_trace_on;
	ev.reason = etm_isync_trace_on;
	ET_EQ(etm_enc_put(e, &ev), 0);
	if (halt) {
		ET_EQ(put_insn(e, 0x8000, etmi_a32, 0, etmi_a32), 0);
		memset(&ev, 0, sizeof(ev));
		ev.kind = etmev_exception;
		ev.addr = 0x8004;
		ev.isa = etmi_a32;
		ev.exc_num = 1;
		ET_EQ(etm_enc_put(e, &ev), 0);
		ET_EQ(put_insn(e, 0x8004, etmi_a32, 0, etmi_a32), 0);
	} else {
		ET_EQ(put_insn(e, 0x8000, etmi_a32, 0, etmi_a32), 0);
		ET_EQ(put_insn(e, 0x8010, etmi_t32, 0, etmi_t32), 0);
		ET_EQ(put_insn(e, 0x8012, etmi_t32, 0x8004, etmi_a32), 0);
		ET_EQ(put_insn(e, 0x8004, etmi_a32, 0, etmi_a32), 0);
	}
	ET_EQ(etm_enc_finish(e), 0);
	p = etm_enc_data(e, &n);
	ET_EQ(n, nwant);
	ET_CHECK(n == nwant && memcmp(p, want, n) == 0);
	etm_enc_free(e);
	etm_image_free(img);
}

/*
 * The encoder direction of tests/vectors/etm3-blx_imm-a32_t32-bx_lr-
 * 5byte_arm.etv (derivation there): the BLX <imm> that switches to Thumb
 * is followed by a 5-byte address packet with the target and its ISA
 * (91 80 82 80 10), as on every ISA change (IHI 0014 §4.5.2); the encoder
 * used to send only the atom. Same bytes as the vector's trace.
 */
static void t_etm3_blx_vector(void)
{
	static const uint8_t want[] = { 0, 0, 0, 0, 0, 0x80,
					0x08, 0x21, 0x00, 0x80, 0x00, 0x00,
					0x84, 0x91, 0x80, 0x82, 0x80, 0x10,
					0x88, 0x83, 0x80, 0x81, 0x80, 0x08,
					0x84 };

	enc_vector(0, want, sizeof(want));
}

/*
 * The encoder direction of tests/vectors/etm3-debug_halt-restart_isync-
 * lost_isync.etv, p0-p5 (derivation there): mov at 0x8000 (E), a Debug
 * Halt with return address 0x8004 (83 80 81 80 48 02), then, with no
 * trace-on event from the caller, the I-sync the ETM gives when the core
 * leaves Debug state: reason debug exit (info 0x61), 0x8004; then E.
 */
static void t_etm3_halt_vector(void)
{
	static const uint8_t want[] = { 0, 0, 0, 0, 0, 0x80,
					0x08, 0x21, 0x00, 0x80, 0x00, 0x00,
					0x84, 0x83, 0x80, 0x81, 0x80, 0x48, 0x02,
					0x08, 0x61, 0x04, 0x80, 0x00, 0x00,
					0x84 };

	enc_vector(1, want, sizeof(want));
}

/*
 * ETMv3.5, original branch encoding (shared/docs/etmv3.md): I-sync 08, info 0x21,
 * then the address (order: CID, info, address). Atoms, one per instruction:
 * E E E E(bne) E E N(bne) E(bx lr). Before the branch packet: format 1
 * b1NEEEE00 with 6 E + N = 0x80|0x40|6<<2 = 0xd8, then 1 E = 0x84. Branch
 * packet: original 2 bytes carry 6+7 bits + shift 2 = A[14:2] -> 0x81 0x10.
 */
static void t_etm3_vector(void)
{
	static const uint8_t want[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x21, 0x00,
					0x80, 0x00, 0x00, 0xd8, 0x84, 0x81, 0x10 };
	struct etm_image *img = prog_image();
	struct etm_enc *e = prog_enc(etm_proto_etmv3, 0x410cf250, img);
	const uint8_t *p;
	size_t n;

	ET_CHECK(e != NULL);
	ET_EQ(prog_run(e), sizeof(want));
	p = etm_enc_data(e, &n);
	ET_CHECK(memcmp(p, want, n) == 0);
	etm_enc_free(e);
	etm_image_free(img);
}

static void fenc_frame1(const uint8_t *a, size_t na, const uint8_t *b,
			size_t nb, uint8_t *out)
{
	struct etm_fenc *f = etm_fenc_alloc(0, 1);
	const uint8_t *p;
	size_t n = 0;

	etm_fenc_put(f, 0x10, a, na);
	etm_fenc_put(f, 0x20, b, nb);
	etm_fenc_finish(f);
	p = etm_fenc_data(f, &n);
	memset(out, 0xee, 16);
	if (n == 16)
		memcpy(out, p, 16);
	etm_fenc_free(f);
}

/*
 * shared/docs/coresight-formatter.md §3-4. ID 0x10: 11 22 33, ID 0x20: 44.
 * Pair 0: new ID -> ID byte 0x10<<1|1 = 0x21, data 0x11 (aux 0: new ID).
 * Pair 1: two data bytes 0x22 (bit 0 = 0 -> aux bit 1 = 0), 0x33.
 * Pair 2: ID 0x41 + 0x44. Rest: padding ID 0x00 (0x01) + 0x00; byte 14
 * = 0x01; aux 0.
 * Second frame: ID 0x10: 11 23, ID 0x20: 45 66. Pair 1: 0x23's successor
 * is ID 0x20 -> ID byte 0x41 with aux bit 1 = 1 (the data byte 0x23 still
 * belongs to 0x10). Pair 2: 0x45 -> 0x44 + aux bit 2, then 0x66.
 */
static void t_frames(void)
{
	static const uint8_t f1[16] = { 0x21, 0x11, 0x22, 0x33, 0x41, 0x44, 1, 0,
					1, 0, 1, 0, 1, 0, 1, 0 };
	static const uint8_t f2[16] = { 0x21, 0x11, 0x41, 0x23, 0x44, 0x66, 1, 0,
					1, 0, 1, 0, 1, 0, 1, 0x06 };
	static const uint8_t a1[] = { 0x11, 0x22, 0x33 }, b1[] = { 0x44 };
	static const uint8_t a2[] = { 0x11, 0x23 }, b2[] = { 0x45, 0x66 };
	uint8_t got[16];

	fenc_frame1(a1, 3, b1, 1, got);
	ET_CHECK(memcmp(got, f1, 16) == 0);
	fenc_frame1(a2, 2, b2, 2, got);
	ET_CHECK(memcmp(got, f2, 16) == 0);
}

/* Random frames through the project's deformatter give back every byte of
 * every ID in order. */
static void t_frames_random(void)
{
	uint64_t s;

	for (s = 1; s <= 200; s++) {
		struct etm_fenc *f = etm_fenc_alloc(s & 1 ? ETM_FENC_RANDOM : 0, s);
		struct etm_dfmt *d = etm_dfmt_alloc(etm_fmt_coresight, 0);
		uint8_t src[3][300], got[3][400];
		size_t ngot[3] = { 0 }, pos[3] = { 0 }, n, i;
		struct etm_dfmt_item it;
		struct etm_rng r = { s };
		const uint8_t *p;
		int more = 1;

		ET_CHECK(f && d);
		for (i = 0; i < 900; i++)
			src[i / 300][i % 300] = (uint8_t)etm_rng_next(&r);
		while (more) {
			more = 0;
			for (i = 0; i < 3; i++) {
				size_t k = 1 + etm_rng_below(&r, 20);

				if (pos[i] + k > 300)
					k = 300 - pos[i];
				etm_fenc_put(f, (unsigned)(0x10 + i), src[i] + pos[i], k);
				pos[i] += k;
				more |= pos[i] < 300;
			}
		}
		etm_fenc_finish(f);
		p = etm_fenc_data(f, &n);
		ET_EQ(n % 16, 0);
		etm_dfmt_push(d, p, n);
		etm_dfmt_finish(d);
		while (etm_dfmt_next(d, &it, sizeof(it)) == 0) {
			unsigned id = it.run.id - 0x10u;

			if (it.kind != etm_dfmt_data || id > 2 ||
			    ngot[id] + it.run.size > 400)
				continue;
			memcpy(got[id] + ngot[id], it.run.data, it.run.size);
			ngot[id] += it.run.size;
		}
		for (i = 0; i < 3; i++) {
			ET_EQ(ngot[i], 300);
			ET_CHECK(memcmp(got[i], src[i], 300) == 0);
		}
		etm_fenc_free(f);
		etm_dfmt_free(d);
	}
}

/* The generator's instructions are classified as it intended them. */
static void t_gen_classify(void)
{
	uint64_t s;
	char why[300];

	for (s = 1; s <= 100; s++) {
		struct etm_gen_opts o;
		struct etm_gen *g;
		int bad;

		memset(&o, 0, sizeof(o));
		o.size = sizeof(o);
		o.seed = s;
		o.proto = s & 1 ? etm_proto_ptm : etm_proto_etmv3;
		o.flags = ETM_GEN_ALL;
		o.ninsn = 300;
		g = etm_gen_alloc(&o, sizeof(o));
		ET_CHECK(g != NULL);
		bad = etm_gen_check(g, why, sizeof(why));
		if (bad)
			fprintf(stderr, "seed %llu: %s\n", (unsigned long long)s, why);
		ET_EQ(bad, 0);
		etm_gen_free(g);
	}
}

static unsigned long env_ul(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static void t_roundtrip(void)
{
	unsigned long ncases = env_ul("ETM_RT_CASES", RT_DEFAULT_CASES);
	unsigned long base = env_ul("ETM_RT_BASE", 1), i, fails = 0, errs = 0;
	clock_t t0 = clock();
	struct rt_stats st;

	memset(&st, 0, sizeof(st));
	for (i = 0; i < ncases; i++) {
		int r = rt_run_case(base + i, stderr, 0, &st);

		fails += r > 0;
		errs += r < 0;
		if (fails + errs >= 10)
			break;
	}
	printf("round trip: %lu cases (%llu sources, %llu framed), %lu failed, "
	       "%lu setup errors, %.1f s CPU\n",
	       i, st.sources, st.coresight,
	       fails, errs, (double)(clock() - t0) / CLOCKS_PER_SEC);
	printf("  compared %llu instructions, %llu exceptions, %llu trace "
	       "bytes\n",
	       st.insns, st.excs, st.bytes);
	printf("  %llu Debug Halts, %llu ISA changes\n", st.halts,
	       st.isa_changes);
	ET_EQ(fails, 0);
	ET_EQ(errs, 0);
	/* the architecture's rules for both are exercised (a full run) */
	if (ncases >= 1000) {
		ET_CHECK(st.halts > 0);
		ET_CHECK(st.isa_changes > 0);
	}
}

int main(void)
{
	const char *seed = getenv("ETM_RT_SEED");

	if (seed && *seed)
		return rt_run_case(strtoull(seed, NULL, 0), stdout, 1, NULL) ? 1 : 0;
	ETEST(t_ptm_vector);
	ETEST(t_etm3_vector);
	ETEST(t_etm3_blx_vector);
	ETEST(t_etm3_halt_vector);
	ETEST(t_frames);
	ETEST(t_frames_random);
	ETEST(t_gen_classify);
	ETEST(t_roundtrip);
	return etest_end();
}
