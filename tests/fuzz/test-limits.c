/* tests/fuzz/test-limits.c - resource bounds on adversarial input: endless
 * unsynchronised bytes, endless atoms over a self-loop, long straight runs,
 * deep exception nesting, return-stack overflow, huge snapshot and ELF
 * files. Each stays linear in time and flat in memory (doc/robustness.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <etmtrace/decoder.h>
#include <etmtrace/encode.h>
#include <etmtrace/error.h>
#include <etmtrace/snapshot.h>

#include "etest.h"
#include "linear.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long max_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static struct etm_config mkcfg(enum etm_protocol p, uint32_t etmcr)
{
	struct etm_config c;

	etm_config_init(&c);
	c.protocol = p;
	c.etmcr = etmcr;
	c.etmidr = p == etm_proto_ptm ? 0x411CF312 : 0x410CF250;
	c.traceid = 0x10;
	return c;
}

/* Result of decoding a buffer through the whole pipeline. */
struct dec_res {
	uint64_t ninsn, nelem, nerr, nexc, npkt, pkt_bytes;
	double secs;
};

/* Decode @n bytes in 64 KiB chunks; elements are counted, not kept. */
static struct dec_res decode(const struct etm_config *cfg,
			     const struct etm_image *img, const uint8_t *buf,
			     size_t n, int packets)
{
	struct etm_decoder *d = etm_decoder_alloc(etm_fmt_raw, packets ?
								       etm_dec_packets :
								       etm_dec_elements);
	struct dec_res r;
	struct etm_item it;
	size_t pos = 0, c;
	int fin = 0, rc;
	double t0 = now();

	memset(&r, 0, sizeof(r));
	if (!d || etm_decoder_add_source(d, cfg, img) < 0)
		return r;
	for (;;) {
		rc = etm_decoder_next(d, &it, sizeof(it));
		if (rc == 0) {
			if (it.kind != etm_item_elem) {
				r.npkt++;
				r.pkt_bytes += it.pkt.size;
				continue;
			}
			r.nelem++;
			r.ninsn += it.elem.kind == etmk_range ?
					   it.elem.ninsn :
					   0;
			r.nerr += it.elem.kind == etmk_error;
			r.nexc += it.elem.kind == etmk_exception;
			continue;
		}
		if (rc != -etme_again)
			break;
		if (pos < n) {
			c = n - pos < 65536 ? n - pos : 65536;
			etm_decoder_push(d, buf + pos, c);
			pos += c;
		} else if (!fin) {
			etm_decoder_finish(d);
			fin = 1;
		}
	}
	etm_decoder_free(d);
	r.secs = now() - t0;
	return r;
}

/* Decoding of a buffer at two sizes (linear.h): @lens[scale] bytes of @buf
 * (packets or elements). */
struct lin_dec {
	const struct etm_config *cfg;
	const struct etm_image *img;
	const uint8_t *buf[5];
	size_t lens[5];
	int packets;
};

static void lin_decode(void *vctx, unsigned scale, unsigned reps)
{
	const struct lin_dec *l = vctx;
	unsigned r;

	for (r = 0; r < reps; r++)
		decode(l->cfg, l->img, l->buf[scale], l->lens[scale], l->packets);
}

/* 1. Endless unsynchronised bytes: every byte is reported in notsync
 * packets, few of them, in linear time. */
static void t_unsync(void)
{
	size_t n = 8u << 20, k;
	uint8_t *buf = malloc(n);
	int p;

	ET_CHECK(buf);
	for (k = 0; k < n; k++)
		buf[k] = (uint8_t)(0x55 ^ (k & 0x22)); /* never an A-sync */
	for (p = 0; p < 2; p++) {
		struct etm_config c = mkcfg(p ? etm_proto_ptm :
						etm_proto_etmv3,
					    0);
		struct lin_dec l = { &c, NULL, { 0, buf, 0, 0, buf }, { 0, n / 4, 0, 0, n }, 1 };
		struct dec_res b = decode(&c, NULL, buf, n, 1);

		ET_EQ(b.pkt_bytes, n);
		/* one notsync packet per ETM_PKT_MAX_RAW bytes skipped */
		ET_CHECK(b.npkt <= n / ETM_PKT_MAX_RAW + 256);
		ET_CHECK(lin_check(p ? "unsync PTM" : "unsync ETMv3",
				   lin_decode, &l));
		b = decode(&c, NULL, buf, n, 0);
		ET_CHECK(b.nelem <= 4);
	}
	free(buf);
}

/* Image: 0x1000 B . (self-loop), 0x1004 BL 0x1004, 0x1008 BX lr,
 * 0x100c SVC #0; 0x2000.. 64 KiB of MOV r0,r0 (no waypoint). */
static struct etm_image *limits_image(void)
{
	static const uint8_t code[16] = {
		0xfe, 0xff, 0xff, 0xea, 0xfe, 0xff, 0xff, 0xeb,
		0x1e, 0xff, 0x2f, 0xe1, 0x00, 0x00, 0x00, 0xef
	};
	struct etm_image *img = etm_image_alloc();
	uint8_t *nops = malloc(65536);
	size_t i;

	for (i = 0; nops && i < 65536; i += 4) {
		nops[i] = 0x00;
		nops[i + 1] = 0x00;
		nops[i + 2] = 0xa0;
		nops[i + 3] = 0xe1;
	}
	if (img && nops) {
		etm_image_add_buffer(img, etm_space_any, 0x1000, code, 16);
		etm_image_add_buffer(img, etm_space_any, 0x2000, nops, 65536);
	}
	free(nops);
	return img;
}

/* Encode the events built by @fill (insn events at @addr, ...). */
static uint8_t *encode(const struct etm_config *cfg,
		       const struct etm_image *img,
		       const struct etm_ev *ev, size_t nev, size_t *n)
{
	struct etm_enc_opts o;
	struct etm_enc *e;
	const uint8_t *d;
	uint8_t *out = NULL;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.cfg = *cfg;
	e = etm_enc_alloc(&o, sizeof(o), img);
	if (!e)
		return NULL;
	for (i = 0; i < nev; i++)
		if (etm_enc_put(e, &ev[i]) < 0)
			break;
	if (i == nev && etm_enc_finish(e) == 0) {
		d = etm_enc_data(e, n);
		out = malloc(*n);
		if (out)
			memcpy(out, d, *n);
	}
	etm_enc_free(e);
	return out;
}

static struct etm_ev ev_insn(uint64_t addr, uint64_t target)
{
	struct etm_ev ev = { .kind = etmev_insn, .addr = addr, .isa = etmi_a32, .exec = 1, .target = target, .target_isa = etmi_a32 };

	return ev;
}

/* 2. Endless atoms over a self-loop: one instruction per atom, memory flat,
 * time linear. Hand count: N executions of B . = N instructions. */
static void t_selfloop(void)
{
	struct etm_image *img = limits_image();
	size_t nev = 400001, i, n1, n2;
	struct etm_ev *ev = calloc(nev, sizeof(*ev));
	int p;

	ET_CHECK(img && ev);
	ev[0].kind = etmev_trace_on;
	ev[0].reason = etm_isync_trace_on;
	for (i = 1; i < nev; i++)
		ev[i] = ev_insn(0x1000, 0);
	for (p = 0; p < 2; p++) {
		struct etm_config c = mkcfg(p ? etm_proto_ptm :
						etm_proto_etmv3,
					    0);
		uint8_t *a = encode(&c, img, ev, nev / 4 + 1, &n1);
		uint8_t *b = encode(&c, img, ev, nev, &n2);
		struct dec_res ra, rb;
		long rss;

		ET_CHECK(a && b);
		ra = decode(&c, img, a, n1, 0);
		rss = max_rss_kb();
		rb = decode(&c, img, b, n2, 0);
		ET_EQ(ra.ninsn, nev / 4);
		ET_EQ(rb.ninsn, nev - 1);
		ET_EQ(rb.nerr, 0);
		/* decoding 4x more atoms needs no more memory */
		ET_CHECK(max_rss_kb() - rss < 16 * 1024);
		{
			struct lin_dec l = { &c, img, { 0, a, 0, 0, b }, { 0, n1, 0, 0, n2 }, 0 };

			ET_CHECK(lin_check(p ? "self-loop PTM" :
					       "self-loop ETMv3",
					   lin_decode, &l));
		}
		free(a);
		free(b);
	}
	free(ev);
	etm_image_free(img);
}

/* 3. PTM atoms whose walk never meets a waypoint (64 KiB of MOV): each walk
 * stops at the documented bound with an error; time per atom is bounded. */
static void t_long_walk(void)
{
	/* A-sync; I-sync (shared/docs/ptm.md §4): 08, address 0x2000 A32, info
	 * 0x21 = tracing enabled; then four E atoms 0x84 (§5.1) */
	static const uint8_t head[] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
		0x08, 0x00, 0x20, 0x00, 0x00, 0x21
	};
	struct etm_image *img = limits_image();
	struct etm_config c = mkcfg(etm_proto_ptm, 0);
	size_t reps = 2000, n = reps * (sizeof(head) + 4), i;
	uint8_t *buf = malloc(n), *q = buf;
	struct dec_res r;

	ET_CHECK(img && buf);
	for (i = 0; i < reps; i++) {
		memcpy(q, head, sizeof(head));
		q += sizeof(head);
		memset(q, 0x84, 4);
		q += 4;
	}
	r = decode(&c, img, buf, n, 0);
	if (getenv("ETM_LIMITS_VERBOSE"))
		printf("long walk: %llu insn, %llu errors, %llu elements\n",
		       (unsigned long long)r.ninsn,
		       (unsigned long long)r.nerr,
		       (unsigned long long)r.nelem);
	/* every I-sync restarts; each first atom walks PTM_WALK_MAX bytes
	 * (16 KiB = 4096 instructions) plus at most one cached block (the
	 * bound is checked per block), then fails */
	ET_CHECK(r.nerr >= reps);
	ET_CHECK(r.ninsn <= reps * (4096 + 256));
	ET_CHECK(r.secs < 20);
	free(buf);
	etm_image_free(img);
}

/* 4. Deep exception nesting: 100000 exceptions without a return (IRQ taken
 * at the vector again and again) keep memory flat; each one is reported. */
static void t_exc_nesting(void)
{
	struct etm_image *img = limits_image();
	size_t nev = 100002, i, n;
	struct etm_ev *ev = calloc(nev, sizeof(*ev));
	int p;

	ET_CHECK(img && ev);
	ev[0].kind = etmev_trace_on;
	ev[0].reason = etm_isync_trace_on;
	ev[1] = ev_insn(0x1000, 0);
	for (i = 2; i < nev; i++) {
		ev[i].kind = etmev_exception;
		ev[i].addr = 0x1000;
		ev[i].isa = etmi_a32;
		ev[i].exc_num = 14;
	}
	for (p = 0; p < 2; p++) {
		struct etm_config c = mkcfg(p ? etm_proto_ptm :
						etm_proto_etmv3,
					    0);
		uint8_t *b = encode(&c, img, ev, nev, &n);
		long rss = max_rss_kb();
		struct dec_res r;

		ET_CHECK(b);
		r = decode(&c, img, b, n, 0);
		ET_EQ(r.nexc, nev - 2);
		ET_EQ(r.nerr, 0);
		ET_CHECK(max_rss_kb() - rss < 16 * 1024);
		free(b);
	}
	free(ev);
	etm_image_free(img);
}

/* 5. Return-stack overflow (PTM, ETMCR[29]): 50000 nested BLs then 50000
 * returns. The stack keeps its depth; returns it cannot predict come with
 * branch address packets. Hand count: 100000 instructions, no error. */
static void t_retstack(void)
{
	struct etm_image *img = limits_image();
	size_t nbl = 50000, nev = 2 * nbl + 1, i, n;
	struct etm_ev *ev = calloc(nev, sizeof(*ev));
	struct etm_config c = mkcfg(etm_proto_ptm, 1u << 29);
	struct dec_res r;
	uint8_t *b;
	long rss;

	ET_CHECK(img && ev);
	ev[0].kind = etmev_trace_on;
	ev[0].reason = etm_isync_trace_on;
	for (i = 1; i <= nbl; i++)
		ev[i] = ev_insn(0x1004, 0); /* BL to itself */
	for (; i < nev; i++)
		ev[i] = ev_insn(0x1008, 0x1008); /* BX lr: return */
	ev[nbl + 1] = ev_insn(0x1004, 0);
	ev[nbl + 1].exec = 0; /* leave the loop */
	b = encode(&c, img, ev, nev, &n);
	ET_CHECK(b);
	rss = max_rss_kb();
	r = decode(&c, img, b, n, 0);
	ET_EQ(r.ninsn, nev - 1);
	ET_EQ(r.nerr, 0);
	ET_CHECK(max_rss_kb() - rss < 16 * 1024);
	free(b);
	free(ev);
	etm_image_free(img);
}

static int write_file(const char *dir, const char *name, const char *text,
		      size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	fwrite(text, 1, n, f);
	return fclose(f);
}

/* Write a snapshot whose core file has @ndumps [dump] sections and whose
 * device list names the core file @nlist times. */
static int big_snapshot(const char *dir, unsigned ndumps, unsigned nlist)
{
	size_t cap = 128 + (size_t)ndumps * 48 + (size_t)nlist * 24, n;
	char *s = malloc(cap);
	unsigned i;
	int rc;

	if (!s)
		return -1;
	static const char etm[] = "[device]\nname=ETM\nclass=trace_source\n"
				  "type=PFT1.1\n[regs]\nETMTRACEIDR=0x10\n";
	static const char trace[] = "[trace_buffers]\nbuffers=b\n[b]\n"
				    "name=B\nfile=t.bin\n"
				    "[core_trace_sources]\ncpu=ETM\n";

	if (!s)
		return -1;
	if (write_file(dir, "etm.ini", etm, sizeof(etm) - 1) ||
	    write_file(dir, "trace.ini", trace, sizeof(trace) - 1)) {
		free(s);
		return -1;
	}
	n = (size_t)snprintf(s, cap, "[snapshot]\nversion=1.0\n"
				     "[trace]\nmetadata=trace.ini\n"
				     "[device_list]\ne=etm.ini\n");
	for (i = 0; i < nlist; i++)
		n += (size_t)snprintf(s + n, cap - n, "d%u=cpu.ini\n", i);
	rc = write_file(dir, "snapshot.ini", s, n);
	n = (size_t)snprintf(s, cap, "[device]\nname=cpu\nclass=core\n");
	for (i = 0; i < ndumps; i++)
		n += (size_t)snprintf(s + n, cap - n,
				      "[dump%u]\nfile=m\naddress=0x%x\n", i,
				      i * 16);
	if (!rc)
		rc = write_file(dir, "cpu.ini", s, n);
	free(s);
	return rc;
}

static void rm_snapshot(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/snapshot.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/cpu.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/etm.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/trace.ini", dir);
	unlink(path);
	rmdir(dir);
}

/* 6. Huge snapshot files: too many dumps or devices, or too much text, are
 * refused quickly; a large legal one loads in linear time. (Before the
 * bounds, 20000 dump sections took 20 s: quadratic lookups.) */
static void t_snapshot(void)
{
	char dir[] = "/tmp/etm-limits.XXXXXX", err[256];
	struct etm_snapshot *s = NULL;
	double t;

	ET_CHECK(mkdtemp(dir));
	ET_EQ(big_snapshot(dir, 20000, 1), 0);
	t = now();
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, "more than 4096 memory dumps") != NULL);
	if (getenv("ETM_LIMITS_VERBOSE"))
		printf("20000 dumps refused in %.2f s\n", now() - t);
	/* was 20 s optimised, quadratic; now linear: well under 10 s even
	 * with sanitizers on a loaded machine */
	ET_CHECK(now() - t < 10);
	/* 4000 dumps: accepted; 300 devices: refused */
	ET_EQ(big_snapshot(dir, 4000, 1), 0);
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), 0);
	etm_snapshot_free(s);
	ET_EQ(big_snapshot(dir, 1, 300), 0);
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, "more than 256 devices") != NULL);
	/* 200 x a 400 KiB device file = 80 MiB of text: refused once the
	 * 64 MiB total is passed (parsing that much is the linear cost) */
	ET_EQ(big_snapshot(dir, 12000, 200), 0);
	t = now();
	ET_EQ(etm_snapshot_load(&s, dir, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, "exceed") != NULL);
	if (getenv("ETM_LIMITS_VERBOSE"))
		printf("80 MiB of .ini refused in %.2f s\n", now() - t);
	ET_CHECK(now() - t < 60); /* 91 s under ASan before linear growth */
	rm_snapshot(dir);
}

/* 7. An ELF file whose 2000 executable segments all cover the whole file
 * would copy it 2000 times: refused once the copies pass the file size. */
static void t_elf_overlap(void)
{
	static const unsigned char ident[16] = {
		0x7f, 'E', 'L', 'F', 1, 1, 1
	};
	char path[] = "/tmp/etm-limits-elf.XXXXXX", err[256];
	size_t nph = 2000, size = 52 + nph * 32 + 65536, i;
	uint8_t *f = calloc(1, size);
	struct etm_image *img = etm_image_alloc();
	int fd = mkstemp(path);
	double t = now();

	ET_CHECK(f && img && fd >= 0);
	/* Elf32_Ehdr: e_type EXEC, e_machine ARM (40), e_version 1,
	 * e_phoff 52, e_ehsize 52, e_phentsize 32, e_phnum */
	memcpy(f, ident, sizeof(ident));
	f[16] = 2;
	f[18] = 40;
	f[20] = 1;
	f[28] = 52;
	f[40] = 52;
	f[42] = 32;
	f[44] = (uint8_t)nph;
	f[45] = (uint8_t)(nph >> 8);
	for (i = 0; i < nph; i++) {
		uint8_t *ph = f + 52 + i * 32;
		uint32_t sz = (uint32_t)size;

		ph[0] = 1;               /* PT_LOAD */
		memcpy(ph + 16, &sz, 4); /* p_filesz */
		memcpy(ph + 20, &sz, 4); /* p_memsz */
		ph[24] = 5;              /* PF_R | PF_X */
	}
	ET_EQ(write(fd, f, size), (long)size);
	close(fd);
	ET_EQ(etm_image_add_elf(img, path, 0, err, sizeof(err)), -etme_parse);
	ET_CHECK(strstr(err, "overlap") != NULL);
	ET_CHECK(etm_image_count(img) <= 1);
	ET_CHECK(now() - t < 5);
	unlink(path);
	free(f);
	etm_image_free(img);
}

int main(void)
{
	ETEST(t_unsync);
	ETEST(t_selfloop);
	ETEST(t_long_walk);
	ETEST(t_exc_nesting);
	ETEST(t_retstack);
	ETEST(t_snapshot);
	ETEST(t_elf_overlap);
	return etest_end();
}
