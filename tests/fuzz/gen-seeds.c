/* tests/fuzz/gen-seeds.c - writes the seed corpora of the fuzz targets:
 * encoder output for random walks over the fixed image in many
 * configurations, formatted frames, and hand-made ini and ELF files.
 * Usage: fuzz-gen-seeds CORPUS_DIR (the per-target directories must exist). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/encode.h>
#include <etmtrace/error.h>
#include <etmtrace/insn.h>

#include "fuzz.h"
#include "fuzz-image.h"

static const char *out_dir;

struct seedcfg {
	enum etm_protocol proto;
	uint32_t etmcr, etmccer, etmidr, encflags;
	unsigned ninsn;
};

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

static void write_seed(const char *target, const char *name,
		       const uint8_t *a, size_t na, const uint8_t *b,
		       size_t nb)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", out_dir, target, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fwrite(a, 1, na, f);
	if (nb)
		fwrite(b, 1, nb, f);
	fclose(f);
}

/* ---- random walk over the fixed image -------------------------------- */

struct walk {
	struct etm_enc *enc;
	const struct etm_image *img;
	uint64_t pc;
	enum etm_isa isa;
	uint64_t ret[8], xret[4];
	enum etm_isa reti[8], xreti[4];
	int nret, nxret, same, bad;
};

static void put(struct walk *w, const struct etm_ev *ev)
{
	if (etm_enc_put(w->enc, ev) < 0)
		w->bad++;
}

static void trace_on(struct walk *w, uint64_t pc, enum etm_isa isa,
		     unsigned reason)
{
	struct etm_ev ev = { .kind = etmev_trace_on, .reason = (uint8_t)reason, .cycles = 1 + rnd(100), .ns = 1 };

	put(w, &ev);
	w->pc = pc;
	w->isa = isa;
	w->nret = w->nxret = 0;
}

static void exception(struct walk *w, unsigned num, uint64_t vec,
		      uint64_t ret, enum etm_isa risa)
{
	struct etm_ev ev = { .kind = etmev_exception, .addr = vec, .isa = etmi_a32, .exc_num = (uint16_t)num, .ns = 1 };

	if (w->nxret < 4) {
		w->xret[w->nxret] = ret;
		w->xreti[w->nxret++] = risa;
	}
	put(w, &ev);
	w->pc = vec;
	w->isa = etmi_a32;
}

/* Indirect branch target: a return if one is known, else an entry. */
static void indirect(struct walk *w, const struct etm_insn *in,
		     struct etm_ev *ev)
{
	static const uint64_t ent[] = { 0x8000, 0x8058, 0x9001, 0x902f };
	uint64_t t;

	if (in->exc_return && w->nxret) {
		ev->target = w->xret[--w->nxret];
		ev->target_isa = w->xreti[w->nxret];
		return;
	}
	if (in->is_return && w->nret) {
		ev->target = w->ret[--w->nret];
		ev->target_isa = w->reti[w->nret];
		return;
	}
	t = ent[rnd(4)];
	ev->target = t & ~1ull;
	ev->target_isa = t & 1 ? etmi_t32 : etmi_a32;
}

static void side_events(struct walk *w, const struct seedcfg *sc)
{
	struct etm_ev ev = { 0 };
	unsigned r = rnd(400);

	if (r < 8) {
		ev.kind = etmev_context;
		ev.ctxid = rnd(1u << 30);
		ev.vmid = (uint8_t)rnd(256);
	} else if (r < 16 && (sc->etmcr & (1u << 28))) {
		ev.kind = etmev_timestamp;
		ev.timestamp = rnd(1u << 30) * 4096ull;
	} else if (r < 18) {
		ev.kind = etmev_trigger;
	} else if (r < 21) {
		ev.kind = etmev_trace_off;
		put(w, &ev);
		trace_on(w, w->pc, w->isa, 1);
		return;
	} else if (r < 23) {
		ev.kind = etmev_overflow;
		ev.cycles = 1000;
	} else {
		return;
	}
	put(w, &ev);
}

static int walk_step(struct walk *w, const struct seedcfg *sc)
{
	struct etm_ev ev = { .kind = etmev_insn, .ns = 1 };
	struct etm_insn in;
	uint8_t b[4];
	size_t n = etm_image_read(w->img, etm_space_any, w->pc, b, 4);
	uint64_t next;

	if (etm_insn_decode(&in, w->isa, w->pc, b, n) < 0 ||
	    in.cls == etmc_undefined)
		return -1;
	if (rnd(80) == 0 && w->nxret < 2) {
		exception(w, 14, 0x18, w->pc, w->isa);
		return 0;
	}
	ev.addr = w->pc;
	ev.isa = w->isa;
	ev.exec = (uint8_t)(in.cond ? rnd(2) : 1);
	ev.cycles = 1 + rnd(4);
	next = w->pc + in.size;
	if (ev.exec && in.cls == etmc_br_direct) {
		next = in.target;
		w->isa = in.target_isa;
	} else if (ev.exec && in.cls == etmc_br_indirect) {
		indirect(w, &in, &ev);
		next = ev.target;
		w->isa = ev.target_isa;
	}
	if (ev.exec && in.link && w->nret < 8) {
		w->ret[w->nret] = w->pc + in.size;
		w->reti[w->nret++] = ev.isa;
	}
	put(w, &ev);
	w->same = next == w->pc ? w->same + 1 : 0;
	w->pc = next;
	if (ev.exec && in.cls == etmc_exc_gen) {
		exception(w, ev.isa == etmi_a32 && (in.opcode & 0x0f000000) == 0x0f000000 ? 10 : 9, ev.isa == etmi_a32 ? 0x8 : 0x4,
			  next, ev.isa);
		return 0;
	}
	if (ev.exec && in.cls != etmc_other)
		side_events(w, sc);
	return w->same > 6 ? -1 : 0;
}

/* Encode a walk of sc->ninsn instructions; returns the byte count. */
static size_t encode(const struct seedcfg *sc, uint32_t traceid,
		     uint64_t seed, uint8_t *out, size_t cap)
{
	struct etm_image *img = fz_image();
	struct etm_enc_opts o;
	struct walk w;
	const uint8_t *d;
	size_t n;
	unsigned k;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	etm_config_init(&o.cfg);
	o.cfg.protocol = sc->proto;
	o.cfg.etmcr = sc->etmcr;
	o.cfg.etmccer = sc->etmccer;
	o.cfg.etmidr = sc->etmidr;
	o.cfg.traceid = traceid;
	o.flags = sc->encflags;
	o.seed = seed;
	o.isync_period = 300;
	o.async_period = 900;
	memset(&w, 0, sizeof(w));
	w.img = img;
	w.enc = etm_enc_alloc(&o, sizeof(o), img);
	if (!w.enc) {
		fprintf(stderr, "encoder rejected config\n");
		exit(1);
	}
	rng ^= seed * 0x9E3779B97F4A7C15ull;
	trace_on(&w, 0x8000, etmi_a32, 1);
	for (k = 0; k < sc->ninsn; k++)
		if (walk_step(&w, sc) < 0) {
			struct etm_ev off = { .kind = etmev_trace_off };

			put(&w, &off);
			trace_on(&w, rnd(2) ? 0x8000 : 0x9000,
				 w.pc >= 0x9000 ? etmi_t32 : etmi_a32, 1);
			w.pc = w.isa == etmi_t32 ? 0x9000 : 0x8000;
		}
	etm_enc_finish(w.enc);
	d = etm_enc_data(w.enc, &n);
	if (n > cap)
		n = cap;
	memcpy(out, d, n);
	if (w.bad)
		fprintf(stderr, "seed %llu: %d events rejected\n",
			(unsigned long long)seed, w.bad);
	etm_enc_free(w.enc);
	etm_image_free(img);
	return n;
}

static size_t cfg_header(uint8_t *h, const struct seedcfg *sc,
			 uint32_t traceid)
{
	uint32_t r[3] = { sc->etmcr, sc->etmccer, sc->etmidr };
	unsigned i;

	for (i = 0; i < 12; i++)
		h[i] = (uint8_t)(r[i / 4] >> (8 * (i % 4)));
	h[12] = 0;
	h[13] = (uint8_t)(traceid - 1);
	return FZ_CFG_BYTES;
}

#define V35 0x410CF250u    /* ETMv3.5 */
#define V35ALT 0x411CF250u /* ETMv3.5, alternative branch encoding */
#define V33 0x410CF230u    /* ETMv3.3 */
#define PFT11 0x411CF312u  /* PFT 1.1 */

static const struct seedcfg cfgs[] = {
	{ etm_proto_etmv3, 0, 0, V35, 0, 200 },
	{ etm_proto_etmv3, 1u << 12, 0, V35ALT, 0, 200 },
	{ etm_proto_etmv3, 3u << 14, 0, V35ALT, ETM_ENC_RANDOM, 200 },
	{ etm_proto_etmv3, 1u << 8, 0, V33, ETM_ENC_FULL_ADDR, 150 },
	{ etm_proto_etmv3, (1u << 28) | (1u << 30) | (1u << 14), 1u << 28,
	  V35ALT, ETM_ENC_ATOM_SINGLE, 150 },
	{ etm_proto_etmv3, (1u << 12) | (2u << 14), 0, V35,
	  ETM_ENC_RANDOM | ETM_ENC_PKT_ISA, 400 },
	{ etm_proto_ptm, 0, 0, PFT11, 0, 200 },
	{ etm_proto_ptm, 1u << 12, 0, PFT11, ETM_ENC_RANDOM, 200 },
	{ etm_proto_ptm, (1u << 29) | (3u << 14), 1u << 24, PFT11, 0, 200 },
	{ etm_proto_ptm, 1u << 8, 0, PFT11, ETM_ENC_FULL_ADDR, 150 },
	{ etm_proto_ptm, (1u << 28) | (1u << 30), (1u << 28) | (1u << 29),
	  PFT11, ETM_ENC_ATOM_SINGLE | ETM_ENC_RANDOM, 150 },
	{ etm_proto_ptm, (1u << 12) | (1u << 29) | (1u << 14), 0, PFT11,
	  ETM_ENC_RANDOM | ETM_ENC_PKT_ISA, 400 },
};
#define NCFGS (sizeof(cfgs) / sizeof(cfgs[0]))

static uint8_t trace[1 << 16];

/* Packet and flow seeds, raw and formatted. */
static void trace_seeds(void)
{
	uint8_t hdr[FZ_CFG_BYTES + 2];
	char name[64];
	unsigned i;

	for (i = 0; i < NCFGS; i++) {
		const struct seedcfg *sc = &cfgs[i];
		int ptm = sc->proto == etm_proto_ptm;
		size_t n = encode(sc, 0x10, i + 1, trace, 4000);
		struct etm_fenc *fe;
		const uint8_t *fd;
		size_t fn;

		cfg_header(hdr, sc, 0x10);
		hdr[FZ_CFG_BYTES] = (uint8_t)(i * 37); /* chunk selector */
		snprintf(name, sizeof(name), "enc-%02u", i);
		write_seed(ptm ? "ptm_pkt" : "etm3_pkt", name, hdr,
			   FZ_CFG_BYTES + 1, trace, n);
		hdr[FZ_CFG_BYTES] = 0; /* flow options */
		hdr[FZ_CFG_BYTES + 1] = (uint8_t)(i * 37);
		write_seed(ptm ? "flow_ptm" : "flow_etm3", name, hdr,
			   FZ_CFG_BYTES + 2, trace, n);
		/* the same trace in CoreSight frames, mixed with a second
		 * source and packets delivered too */
		fe = etm_fenc_alloc(i & 1 ? ETM_FENC_RANDOM : 0, i);
		etm_fenc_put(fe, 0x10, trace, n / 2);
		etm_fenc_put(fe, 0x22, trace, 40);
		etm_fenc_put(fe, 0x10, trace + n / 2, n - n / 2);
		etm_fenc_finish(fe);
		fd = etm_fenc_data(fe, &fn);
		hdr[FZ_CFG_BYTES] = FZF_FORMATTED | FZF_PACKETS;
		snprintf(name, sizeof(name), "frm-%02u", i);
		write_seed(ptm ? "flow_ptm" : "flow_etm3", name, hdr,
			   FZ_CFG_BYTES + 2, fd, fn);
		/* dfmt: frame-aligned, or TPIU form behind an FSYNC */
		hdr[0] = (uint8_t)(i & 1);
		hdr[1] = (uint8_t)(i * 13);
		if (i & 1) {
			hdr[2] = hdr[3] = hdr[4] = 0xff;
			hdr[5] = 0x7f;
		}
		write_seed("dfmt", name, hdr, i & 1 ? 6 : 2, fd, fn);
		etm_fenc_free(fe);
	}
}

/* ---- hand-written vectors -------------------------------------------- */

static void text_seed(const char *target, const char *name, uint8_t mode,
		      const char *text, size_t n)
{
	write_seed(target, name, &mode, 1, (const uint8_t *)text, n);
}

#define TEXT(t, name, mode, s) text_seed(t, name, mode, s, sizeof(s) - 1)

/* Snapshots: snapshot.ini, cpu.ini, etm.ini, trace.ini, buf, mem. */
#define SNAP_PTM                                                         \
	"[snapshot]\nversion=1.0\n[device_list]\ndevice0=cpu.ini\n"      \
	"device1=etm.ini\n[trace]\nmetadata=trace.ini\n"                 \
	"\0"                                                             \
	"[device]\nname=cpu_0\nclass=core\ntype=Cortex-A15\n"            \
	"[regs]\nPC(size:32)=0x8000\n[dump1]\nfile=mem.bin\n"            \
	"address=0x8000\nlength=0x8\noffset=0x0\nspace=NS\n"             \
	"\0"                                                             \
	"[device]\nname=PTM_0\nclass=trace_source\ntype=PFT1.1\n"        \
	"[regs]\nETMCR(id:0x0)=0x00001000\nETMIDR(id:0x79)=0x411CF312\n" \
	"ETMCCER(id:0x7A)=0x1\nETMTRACEIDR(id:0x80)=0x10\n"              \
	"\0"                                                             \
	"[trace_buffers]\nbuffers=buffer0\n[buffer0]\nname=ETB_0\n"      \
	"file=buf.bin\nformat=coresight\n"                               \
	"[core_trace_sources]\ncpu_0=PTM_0\n"                            \
	"[source_buffers]\nPTM_0=ETB_0\n"                                \
	"\0"                                                             \
	"\0\0\0\0\0\0\0\x80\x08\0\x80\0\0\x21"                           \
	"\0"                                                             \
	"\x00\x00\xa0\xe3\xfe\xff\xff\xea"
#define SNAP_ETM3                                                   \
	"[snapshot]\nversion=1.0\n[device_list]\nd0=cpu.ini\n"      \
	"d1=etm.ini\n[trace]\nmetadata=trace.ini\n"                 \
	"\0"                                                        \
	"[device]\nname=cpu_0\nclass=core\ntype=Cortex-M3\n"        \
	"[dump]\nfile=mem.bin\naddress=0x0\n"                       \
	"\0"                                                        \
	"[device]\nname=ETM_0\nclass=trace_source\ntype=ETM3.5\n"   \
	"[regs]\nETMCR=0xC000\nETMIDR=0x410CF250\nETMCCER=0\n"      \
	"ETMTRACEIDR=0x11\n"                                        \
	"\0"                                                        \
	"[trace_buffers]\nbuffers=b0,b1\n[b0]\nname=TPIU\n"         \
	"file=buf.bin, mem.bin\nformat=source_data\n[b1]\nname=x\n" \
	"file=buf.bin\n[core_trace_sources]\ncpu_0=ETM_0\n"         \
	"[source_buffers]\nETM_0=TPIU\n"                            \
	"\0"                                                        \
	"\0"                                                        \
	"\x00\x00\xa0\xe3"

static void ini_seeds(void)
{
	TEXT("ini", "ini-basic", 0,
	     "; comment\n[snapshot]\nversion=1.0\n# other\n"
	     "[regs]\nETMCR(id:0x0) = 0x00001000\nREG_C(id:0x80,size:64)="
	     "0x1234000012340000\n  [ spaced ]  \nk = v = w\n");
	TEXT("ini", "ini-bom", 0, "\xef\xbb\xbf[a]\r\nx=1\r\n[A]\nX=2\n");
	TEXT("ini", "ini-bad", 0, "[unterminated\nkey\n=\n[]\n");
	/* snapshot: snapshot.ini, cpu.ini, etm.ini, trace.ini, buf, mem */
	TEXT("ini", "snap-ptm", 1, SNAP_PTM);
	TEXT("ini", "snap-etm3", 1, SNAP_ETM3);
}

/* Session inputs (fuzz-session.c): a mode byte, options, NUL, the four
 * .ini files NUL-terminated, the length byte of the trace, the trace, the
 * memory (fz_snapshot_bin()). */
static void session_seed(const char *name, uint8_t mode, const char *opts,
			 const char *ini, size_t nini, const uint8_t *tr,
			 size_t ntr, const uint8_t *mem, size_t nmem)
{
	static uint8_t buf[16384];
	size_t k = strlen(opts), n = 0;

	if (ntr > 255)
		ntr = 255;
	if (k + 3 + nini + ntr + nmem > sizeof(buf)) {
		fprintf(stderr, "session seed %s too large\n", name);
		exit(1);
	}
	buf[n++] = mode;
	memcpy(buf + n, opts, k + 1);
	n += k + 1;
	memcpy(buf + n, ini, nini);
	n += nini;
	buf[n++] = (uint8_t)ntr;
	memcpy(buf + n, tr, ntr);
	n += ntr;
	memcpy(buf + n, mem, nmem);
	n += nmem;
	write_seed("session", name, buf, n, NULL, 0);
}

/* mem.bin: the fixed image's three regions one after the other */
#define SESSION_MEM (sizeof(fz_img_vec) + sizeof(fz_img_arm) + \
		     sizeof(fz_img_thumb))

static size_t session_mem(uint8_t *mem)
{
	memcpy(mem, fz_img_vec, sizeof(fz_img_vec));
	memcpy(mem + sizeof(fz_img_vec), fz_img_arm, sizeof(fz_img_arm));
	memcpy(mem + sizeof(fz_img_vec) + sizeof(fz_img_arm), fz_img_thumb,
	       sizeof(fz_img_thumb));
	return SESSION_MEM;
}

/* The .ini files of a one-source snapshot of @sc (trace ID 0x10) over
 * mem.bin (session_mem()), trace buffer buf.bin in @format; @snapshot:
 * snapshot.ini's text (NULL: the plain one). Returns the length. */
static size_t session_ini(char *out, size_t cap, const struct seedcfg *sc,
			  const char *format, const char *snapshot)
{
	int ptm = sc->proto == etm_proto_ptm;
	int n;

	n = snprintf(out, cap, "%s%c"
			       "[device]\nname=c0\nclass=core\ntype=Cortex-A15\n"
			       "[dump1]\nfile=mem.bin\naddress=0x%x\nlength=0x%zx\n"
			       "[dump2]\nfile=mem.bin\naddress=0x%x\noffset=0x%zx\n"
			       "length=0x%zx\n[dump3]\nfile=mem.bin\naddress=0x%x\n"
			       "offset=0x%zx\nlength=0x%zx\n%c"
			       "[device]\nname=T0\nclass=trace_source\ntype=%s\n"
			       "[regs]\nETMCR=0x%x\nETMIDR=0x%x\nETMCCER=0x%x\n"
			       "ETMTRACEIDR=0x10\n%c"
			       "[trace_buffers]\nbuffers=b0\n[b0]\nname=B0\n"
			       "file=buf.bin\nformat=%s\n[core_trace_sources]\n"
			       "c0=T0\n[source_buffers]\nT0=B0\n%c",
		     snapshot ? snapshot : "[snapshot]\nversion=1.0\n"
					   "[device_list]\nd0=cpu.ini\nd1=etm.ini\n[trace]\n"
					   "metadata=trace.ini\n",
		     0,
		     FZ_IMG_VEC, sizeof(fz_img_vec), FZ_IMG_ARM,
		     sizeof(fz_img_vec), sizeof(fz_img_arm), FZ_IMG_THUMB,
		     sizeof(fz_img_vec) + sizeof(fz_img_arm),
		     sizeof(fz_img_thumb), 0, ptm ? "PFT1.1" : "ETM3.5",
		     sc->etmcr, sc->etmidr, sc->etmccer, 0, format, 0);
	if (n < 0 || (size_t)n >= cap) {
		fprintf(stderr, "session ini too large\n");
		exit(1);
	}
	return (size_t)n;
}

#define ARGS(name, s) \
	write_seed("cli_opt", name, (const uint8_t *)(s), sizeof(s) - 1, NULL, 0)

/* Snapshots whose trace decodes: the encoder's walks over the fixed image
 * (cfgs[]: ETMv3 and PTM, timestamps, Context IDs, return stack), raw and
 * in CoreSight frames, decoded, verified, as packets, with the cache, and
 * the trace file alone with a manual or inferred configuration. */
static void session_trace_seeds(void)
{
	static const unsigned pick[] = { 0, 1, 4, 5, 6, 8, 10, 11 };
	static char ini[4096];
	static uint8_t tr[255], mem[SESSION_MEM];
	char name[64], opts[128];
	size_t i, nini, ntr, fn;
	const uint8_t *fd;

	session_mem(mem);
	for (i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
		struct seedcfg sc = cfgs[pick[i]];
		int ptm = sc.proto == etm_proto_ptm;
		struct etm_fenc *fe;

		sc.ninsn = 30;
		ntr = encode(&sc, 0x10, 100 + i, tr, sizeof(tr));
		nini = session_ini(ini, sizeof(ini), &sc, "source_data", NULL);
		snprintf(name, sizeof(name), "snap-%02u", pick[i]);
		/* decode; verified; with the cache; packets */
		session_seed(name, (uint8_t)(1 | (i & 1) << 2 | (i & 2) << 2),
			     "", ini, nini, tr, ntr, mem, sizeof(mem));
		snprintf(name, sizeof(name), "snap-pkt-%02u", pick[i]);
		session_seed(name, 0, "--chunk 7", ini, nini, tr, ntr, mem,
			     sizeof(mem));
		/* the trace file alone: the options' configuration, or
		 * only the protocol (the rest inferred) */
		snprintf(name, sizeof(name), "file-%02u", pick[i]);
		snprintf(opts, sizeof(opts), "--protocol %s --etmcr 0x%x "
					     "--etmccer 0x%x --etmidr 0x%x --id 0x10",
			 ptm ? "ptm" : "etmv3", sc.etmcr, sc.etmccer,
			 sc.etmidr);
		session_seed(name, 3, i & 1 ? opts : (ptm ? "--protocol ptm" : ""),
			     ini, nini, tr, ntr, mem, sizeof(mem));
		/* CoreSight frames with a second source */
		fe = etm_fenc_alloc(0, i);
		etm_fenc_put(fe, 0x10, tr, ntr / 2);
		etm_fenc_put(fe, 0x22, tr, 16);
		etm_fenc_put(fe, 0x10, tr + ntr / 2, ntr - ntr / 2);
		etm_fenc_finish(fe);
		fd = etm_fenc_data(fe, &fn);
		nini = session_ini(ini, sizeof(ini), &sc, "coresight", NULL);
		snprintf(name, sizeof(name), "snap-frm-%02u", pick[i]);
		session_seed(name, (uint8_t)(1 | (i & 1) << 3), "", ini, nini,
			     fd, fn, mem, sizeof(mem));
		snprintf(name, sizeof(name), "file-frm-%02u", pick[i]);
		session_seed(name, 2 | (i & 1), "--input-format coresight",
			     ini, nini, fd, fn, mem, sizeof(mem));
		etm_fenc_free(fe);
	}
}

static void cli_seeds(void)
{
	static char many[8192], ini[4096];
	static uint8_t tr[255], mem[SESSION_MEM];
	struct seedcfg sc = cfgs[6];
	size_t n = 0, nini, ntr;
	int k;

	ARGS("opt-decode", "trace.bin\0--protocol\0etmv3\0--id=0x10\0--id\0"
			   "17\0--image\0a.bin@0x8000\0--elf=b.elf@4096\0--jobs=2\0"
			   "--chunk\0"
			   "64\0--format=canon\0--etmcr\0"
			   "0x1000\0--stats");
	ARGS("opt-bad", "x\0--id\0-1\0--id=010\0--etmcr=0x100000000\0--jobs="
			"99999999999999999999\0--image=a@0xFFFFFFFFF\0--input-format=tpiu");
	ARGS("opt-flags", "--no-cache\0--m-profile\0--verify\0--allow-outside"
			  "\0dir\0--protocol=ptm\0--etmidr=0x411CF312\0--help");
	/* "--" alone: opt_allowed() looked for "" in the list for ever */
	ARGS("regress-empty-name", "x\0--");
	session_mem(mem);
	sc.ninsn = 30;
	ntr = encode(&sc, 0x10, 7, tr, sizeof(tr));
	nini = session_ini(ini, sizeof(ini), &sc, "source_data", NULL);
	session_seed("outside", 1, "--allow-outside", ini, nini, tr, ntr, mem,
		     sizeof(mem));
	session_seed("etmv1", 3, "--protocol etmv1", ini, nini, tr, ntr, mem,
		     sizeof(mem));
	/* 200 device entries naming one ETM file: 200 sources with one
	 * trace ID (overflowed a 128-entry table in cli/session.c) */
	n += (size_t)snprintf(many, sizeof(many), "[device_list]\nd0=cpu.ini\n");
	for (k = 1; k <= 200; k++)
		n += (size_t)snprintf(many + n, sizeof(many) - n,
				      "d%d=etm.ini\n", k);
	snprintf(many + n, sizeof(many) - n, "[trace]\nmetadata=trace.ini\n");
	nini = session_ini(ini, sizeof(ini), &sc, "source_data", many);
	session_seed("regress-200-sources", 1, "", ini, nini, tr, ntr, mem,
		     sizeof(mem));
	session_trace_seeds();
}

/* Minimal ELF files: one executable PT_LOAD holding two A32 instructions;
 * @bits 32 (ARM) or 64 (AArch64). */
static void elf_seed(const char *name, int bits, int bad)
{
	static const uint8_t code[8] = {
		0x00, 0x00, 0xa0, 0xe3, 0xfe, 0xff, 0xff, 0xea
	};
	uint8_t buf[256];
	size_t n;

	memset(buf, 0, sizeof(buf));
	if (bits == 32) {
		Elf32_Ehdr *eh = (Elf32_Ehdr *)buf;
		Elf32_Phdr *ph = (Elf32_Phdr *)(buf + sizeof(*eh));

		memcpy(eh->e_ident, ELFMAG, SELFMAG);
		eh->e_ident[EI_CLASS] = ELFCLASS32;
		eh->e_ident[EI_DATA] = ELFDATA2LSB;
		eh->e_ident[EI_VERSION] = EV_CURRENT;
		eh->e_type = ET_EXEC;
		eh->e_machine = EM_ARM;
		eh->e_version = EV_CURRENT;
		eh->e_phoff = sizeof(*eh);
		eh->e_ehsize = sizeof(*eh);
		eh->e_phentsize = sizeof(*ph);
		eh->e_phnum = 1;
		ph->p_type = PT_LOAD;
		ph->p_flags = PF_R | PF_X;
		ph->p_offset = sizeof(*eh) + sizeof(*ph);
		ph->p_vaddr = ph->p_paddr = 0x8000;
		ph->p_filesz = ph->p_memsz = bad ? 0x1000 : sizeof(code);
		n = ph->p_offset;
	} else {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
		Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(*eh));

		memcpy(eh->e_ident, ELFMAG, SELFMAG);
		eh->e_ident[EI_CLASS] = ELFCLASS64;
		eh->e_ident[EI_DATA] = ELFDATA2LSB;
		eh->e_ident[EI_VERSION] = EV_CURRENT;
		eh->e_type = ET_EXEC;
		eh->e_machine = EM_AARCH64;
		eh->e_version = EV_CURRENT;
		eh->e_phoff = sizeof(*eh);
		eh->e_ehsize = sizeof(*eh);
		eh->e_phentsize = sizeof(*ph);
		eh->e_phnum = bad ? 3 : 1;
		ph->p_type = PT_LOAD;
		ph->p_flags = PF_R | PF_X;
		ph->p_offset = sizeof(*eh) + sizeof(*ph);
		ph->p_vaddr = ph->p_paddr = 0x400000;
		ph->p_filesz = ph->p_memsz = sizeof(code);
		n = ph->p_offset;
	}
	memcpy(buf + n, code, sizeof(code));
	write_seed("elf", name, buf, n + sizeof(code), NULL, 0);
}

/* Edge cases for the byte-stream targets. */
static void edge_seeds(void)
{
	static const uint8_t async[] = { 0, 0, 0, 0, 0, 0x80 };
	static uint8_t buf[FZ_CFG_BYTES + 2 + 64];
	static const char *const t[] = { "etm3_pkt", "ptm_pkt" };
	unsigned i;

	for (i = 0; i < 2; i++) {
		memset(buf, 0, sizeof(buf));
		write_seed(t[i], "empty", buf, 0, NULL, 0);
		memset(buf + FZ_CFG_BYTES + 1, 0xff, 64);
		write_seed(t[i], "ones", buf, sizeof(buf) - 1, NULL, 0);
		write_seed(t[i], "async", buf, FZ_CFG_BYTES + 1, async,
			   sizeof(async));
	}
	memset(buf, 0xff, sizeof(buf));
	buf[0] = 1;
	write_seed("dfmt", "fsyncs", buf, sizeof(buf), NULL, 0);
	memset(buf, 0, sizeof(buf));
	buf[2] = 0x21;  /* ID 0x10 announced, then data */
	buf[17] = 0x01; /* aux: byte 0 is an ID */
	write_seed("dfmt", "idchange", buf, 18, NULL, 0);
}

/* Regression inputs of bugs found (doc/measurements/2026-11-22-fuzz-campaigns.md,
 * "Findings"). */
static void regression_seeds(void)
{
	size_t cap = 200000, n = 0, i;
	char *s = malloc(cap);
	uint8_t *elf = calloc(1, 52 + 200 * 32 + 8192);

	if (!s || !elf)
		exit(1);
	/* dfmt: finish() on a deformatter that never got input (UBSan:
	 * NULL + 0 in the fast path) */
	write_seed("dfmt", "regress-empty", (const uint8_t *)"", 0, NULL, 0);
	/* snapshot: 4200 dump sections took seconds (quadratic lookups);
	 * now refused at the 4096-dump bound */
	n = (size_t)snprintf(s, cap, "[snapshot]\nversion=1.0\n"
				     "[device_list]\nd0=cpu.ini\nd1=etm.ini\n"
				     "[trace]\nmetadata=trace.ini\n%c[device]\n"
				     "name=cpu_0\nclass=core\n",
			     0);
	for (i = 0; i < 4200 && n < cap - 64; i++)
		n += (size_t)snprintf(s + n, cap - n, "[dump%zu]\nfile=m\n"
						      "address=0x%zx\n",
				      i, i * 16);
	n += (size_t)snprintf(s + n, cap - n, "%c[device]\nname=E\n"
					      "class=trace_source\ntype=PFT1.1\n%c"
					      "[trace_buffers]\nbuffers=b\n[b]\nname=B\n"
					      "file=buf.bin\n[core_trace_sources]\n"
					      "cpu_0=E\n",
			      0, 0);
	write_seed("ini", "regress-many-dumps", (const uint8_t *)"\1", 1,
		   (const uint8_t *)s, n);
	/* ELF: 200 executable segments over the whole 14 KiB file copied it
	 * 200 times; now refused once the copies pass the file size */
	memcpy(elf, ELFMAG, SELFMAG);
	elf[EI_CLASS] = ELFCLASS32;
	elf[EI_DATA] = ELFDATA2LSB;
	elf[EI_VERSION] = EV_CURRENT;
	elf[16] = ET_EXEC;
	elf[18] = EM_ARM;
	elf[20] = EV_CURRENT;
	elf[28] = 52;  /* e_phoff */
	elf[40] = 52;  /* e_ehsize */
	elf[42] = 32;  /* e_phentsize */
	elf[44] = 200; /* e_phnum */
	n = 52 + 200 * 32 + 8192;
	for (i = 0; i < 200; i++) {
		uint8_t *ph = elf + 52 + i * 32;
		uint32_t sz = (uint32_t)n;

		ph[0] = PT_LOAD;
		memcpy(ph + 16, &sz, 4);
		memcpy(ph + 20, &sz, 4);
		ph[24] = PF_R | PF_X;
	}
	write_seed("elf", "regress-overlap", elf, n, NULL, 0);
	free(s);
	free(elf);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	out_dir = argv[1];
	trace_seeds();
	ini_seeds();
	cli_seeds();
	elf_seed("elf32", 32, 0);
	elf_seed("elf64", 64, 0);
	elf_seed("elf32-beyond", 32, 1);
	elf_seed("elf64-phnum", 64, 1);
	edge_seeds();
	regression_seeds();
	return 0;
}
