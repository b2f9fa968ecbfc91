/* bench/bench_synth.c - large synthetic traces for the benchmark: two small
 * hand-assembled programs (loop-heavy, branch-heavy) executed by a tiny
 * simulator, encoded with our encoder, one period replicated to size. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/encode.h>

#include "bench.h"

/* One encoded period; the file is this period repeated. */
#define SYNTH_PERIOD (4u << 20)

#define LOOP_A32 0x10000u
#define LOOP_T32 0x11000u
#define BR_MAIN 0x20000u
#define BR_FUNCS 0x21000u
#define BR_LEAF 0x21800u
#define PROG_BASE 0x10000u
#define PROG_SIZE 0x12000u

struct synth {
	struct etm_enc *enc;
	uint8_t *out;
	size_t len;
	uint32_t rng;
	int err;
};

static void put32(uint8_t *m, uint32_t a, uint32_t v)
{
	memcpy(m + (a - PROG_BASE), &v, 4); /* little-endian host */
}

static void put16(uint8_t *m, uint32_t a, uint16_t v)
{
	memcpy(m + (a - PROG_BASE), &v, 2);
}

/* The loop program: an A32 counted loop, a BLX to a T32 counted loop that
 * returns with BX LR, a branch back. */
static void prog_loop(uint8_t *m)
{
	static const uint32_t a32[] = {
		0xe3a00010, /* 10000 MOV r0, #16 */
		0xe2811001, /* 10004 ADD r1, r1, #1 */
		0xe0822001, /* 10008 ADD r2, r2, r1 */
		0xe2500001, /* 1000c SUBS r0, r0, #1 */
		0x1afffffb, /* 10010 BNE 10004 */
		0xfa0003f9, /* 10014 BLX 11000 (to T32) */
		0xeafffff8, /* 10018 B 10000 */
	};
	static const uint16_t t32[] = {
		0x2010, /* 11000 MOVS r0, #16 */
		0x3101, /* 11002 ADDS r1, #1 */
		0x1852, /* 11004 ADDS r2, r2, r1 */
		0x3801, /* 11006 SUBS r0, #1 */
		0xd1fb, /* 11008 BNE 11002 */
		0x4770, /* 1100a BX LR */
	};
	unsigned i;

	for (i = 0; i < sizeof(a32) / 4; i++)
		put32(m, LOOP_A32 + 4 * i, a32[i]);
	for (i = 0; i < sizeof(t32) / 2; i++)
		put16(m, LOOP_T32 + 2 * i, t32[i]);
}

/* The branch program: main calls 8 functions through a literal pool with
 * BLX r3; even ones are A32 (with a BL to a leaf), odd ones T32. */
static void prog_branch(uint8_t *m)
{
	uint32_t k, a, f;

	put32(m, BR_MAIN, 0xe3a04000); /* MOV r4, #0 */
	for (k = 0; k < 8; k++) {
		a = BR_MAIN + 4 + 8 * k;
		put32(m, a, 0xe59f3000 | (0x3c - 4 * k)); /* LDR r3, =fn_k */
		put32(m, a + 4, 0xe12fff33);              /* BLX r3 */
		f = BR_FUNCS + 0x100 * k;
		put32(m, BR_MAIN + 0x48 + 4 * k, f | (k & 1));
		if (k & 1) {
			put16(m, f, 0x3101);     /* ADDS r1, #1 */
			put16(m, f + 2, 0x4291); /* CMP r1, r2 */
			put16(m, f + 4, 0xd000); /* BEQ f+8 */
			put16(m, f + 6, 0xbf00); /* NOP */
			put16(m, f + 8, 0x4770); /* BX LR */
		} else {
			put32(m, f, 0xe2811001);      /* ADD r1, r1, #1 */
			put32(m, f + 4, 0xe1510002);  /* CMP r1, r2 */
			put32(m, f + 8, 0x12822001);  /* ADDNE r2, r2, #1 */
			put32(m, f + 12, 0xeb000000 | /* BL leaf */
						 (((BR_LEAF - (f + 20)) >> 2) & 0xffffff));
			put32(m, f + 16, 0xe12fff1e); /* BX LR */
		}
	}
	put32(m, BR_MAIN + 0x44, 0xeaffffed); /* B main */
	put32(m, BR_LEAF, 0xe2833001);        /* ADD r3, r3, #1 */
	put32(m, BR_LEAF + 4, 0xe12fff1e);    /* BX LR */
}

static uint32_t rnd(struct synth *s)
{
	s->rng = s->rng * 1103515245u + 12345u;
	return s->rng >> 16;
}

static void collect(struct synth *s)
{
	const uint8_t *d;
	size_t n;

	d = etm_enc_data(s->enc, &n);
	if (s->len + n > SYNTH_PERIOD + (1u << 16))
		n = SYNTH_PERIOD + (1u << 16) - s->len;
	memcpy(s->out + s->len, d, n);
	s->len += n;
	etm_enc_consume(s->enc, n);
}

/* One instruction; @tgt/@tisa only for indirect branches. */
static void ins(struct synth *s, uint32_t a, enum etm_isa isa, int exec,
		uint32_t tgt, enum etm_isa tisa)
{
	struct etm_ev ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = etmev_insn;
	ev.addr = a;
	ev.isa = isa;
	ev.exec = (uint8_t)exec;
	ev.target = tgt;
	ev.target_isa = tisa;
	ev.cycles = 1;
	if (!s->err && etm_enc_put(s->enc, &ev) < 0)
		s->err = 1;
}

static void run_loop(struct synth *s)
{
	int i;

	ins(s, 0x10000, etmi_a32, 1, 0, 0);
	for (i = 0; i < 16; i++) {
		ins(s, 0x10004, etmi_a32, 1, 0, 0);
		ins(s, 0x10008, etmi_a32, 1, 0, 0);
		ins(s, 0x1000c, etmi_a32, 1, 0, 0);
		ins(s, 0x10010, etmi_a32, i < 15, 0, 0);
	}
	ins(s, 0x10014, etmi_a32, 1, 0, 0);
	ins(s, 0x11000, etmi_t32, 1, 0, 0);
	for (i = 0; i < 16; i++) {
		ins(s, 0x11002, etmi_t32, 1, 0, 0);
		ins(s, 0x11004, etmi_t32, 1, 0, 0);
		ins(s, 0x11006, etmi_t32, 1, 0, 0);
		ins(s, 0x11008, etmi_t32, i < 15, 0, 0);
	}
	ins(s, 0x1100a, etmi_t32, 1, 0x10018, etmi_a32);
	ins(s, 0x10018, etmi_a32, 1, 0, 0);
}

static void run_branch(struct synth *s)
{
	uint32_t k, a, f, back;

	ins(s, BR_MAIN, etmi_a32, 1, 0, 0);
	for (k = 0; k < 8; k++) {
		a = BR_MAIN + 4 + 8 * k;
		f = BR_FUNCS + 0x100 * k;
		back = a + 8;
		ins(s, a, etmi_a32, 1, 0, 0);
		ins(s, a + 4, etmi_a32, 1, f, k & 1 ? etmi_t32 : etmi_a32);
		if (k & 1) {
			int eq = (rnd(s) & 3) == 0;

			ins(s, f, etmi_t32, 1, 0, 0);
			ins(s, f + 2, etmi_t32, 1, 0, 0);
			ins(s, f + 4, etmi_t32, eq, 0, 0);
			if (!eq)
				ins(s, f + 6, etmi_t32, 1, 0, 0);
			ins(s, f + 8, etmi_t32, 1, back, etmi_a32);
		} else {
			ins(s, f, etmi_a32, 1, 0, 0);
			ins(s, f + 4, etmi_a32, 1, 0, 0);
			ins(s, f + 8, etmi_a32, (rnd(s) & 3) != 0, 0, 0);
			ins(s, f + 12, etmi_a32, 1, 0, 0);
			ins(s, BR_LEAF, etmi_a32, 1, 0, 0);
			ins(s, BR_LEAF + 4, etmi_a32, 1, f + 16, etmi_a32);
			ins(s, f + 16, etmi_a32, 1, back, etmi_a32);
		}
	}
	ins(s, BR_MAIN + 0x44, etmi_a32, 1, 0, 0);
}

static void synth_cfg(struct etm_config *c, enum etm_protocol proto)
{
	etm_config_init(c);
	c->protocol = proto;
	c->traceid = 0x10;
	if (proto == etm_proto_etmv1) {
		c->etmcr = 0x10;      /* 8-bit port */
		c->etmccr = 3u << 28; /* ETMv1.3 */
	} else if (proto == etm_proto_ptm) {
		c->etmidr = 0x411CF312; /* PTM 1.1, as TC2 */
		c->etmccer = 0x34C01AC2;
	} else {
		c->etmidr = 0x410CF250; /* ETM 3.5, as TC2 */
		c->etmccer = 0x344008F2;
	}
}

/* Encode one period of @prog into s->out. */
static int encode_period(struct synth *s, const struct etm_config *cfg,
			 const struct etm_image *img, enum bench_prog prog)
{
	struct etm_enc_opts eo;
	struct etm_ev on;

	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = *cfg;
	eo.isync_period = 1024;
	eo.async_period = 4096;
	s->enc = etm_enc_alloc(&eo, sizeof(eo), img);
	if (!s->enc)
		return -1;
	memset(&on, 0, sizeof(on));
	on.kind = etmev_trace_on;
	on.reason = 1; /* trace enabled */
	if (etm_enc_put(s->enc, &on) < 0)
		s->err = 1;
	while (!s->err && s->len < SYNTH_PERIOD) {
		if (prog == bench_prog_loop)
			run_loop(s);
		else
			run_branch(s);
		collect(s);
	}
	if (etm_enc_finish(s->enc) < 0)
		s->err = 1;
	collect(s);
	etm_enc_free(s->enc);
	return s->err ? -1 : 0;
}

static int write_file(const char *path, const uint8_t *p, size_t n,
		      uint64_t total)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	uint64_t done = 0;

	if (fd < 0)
		return -1;
	while (done < total) {
		if (write(fd, p, n) != (ssize_t)n) {
			close(fd);
			return -1;
		}
		done += n;
	}
	return close(fd);
}

int bench_synth(struct bench_case *c, enum etm_protocol proto,
		enum bench_prog prog, uint64_t bytes, const char *trace_path,
		const char *prog_path)
{
	struct synth s = { .rng = 12345 };
	struct etm_image *img = etm_image_alloc();
	uint8_t *mem = calloc(1, PROG_SIZE);
	struct stat st;
	int err = -1;

	memset(c, 0, sizeof(*c));
	synth_cfg(&c->cfg, proto);
	c->trace = trace_path;
	c->fmt = etm_fmt_raw;
	c->nmem = 1;
	c->mem[0].addr = PROG_BASE;
	c->mem[0].path = prog_path;
	c->mem[0].length = PROG_SIZE;
	s.out = malloc(SYNTH_PERIOD + (1u << 16));
	if (!img || !mem || !s.out)
		goto out;
	if (prog == bench_prog_loop)
		prog_loop(mem);
	else
		prog_branch(mem);
	if (stat(trace_path, &st) == 0 && (uint64_t)st.st_size >= bytes &&
	    stat(prog_path, &st) == 0) {
		err = 0; /* already generated (deterministic) */
		goto out;
	}
	if (etm_image_add_buffer(img, etm_space_any, PROG_BASE, mem,
				 PROG_SIZE) < 0 ||
	    encode_period(&s, &c->cfg, img, prog) < 0) {
		fprintf(stderr, "etm_bench: synthetic encoding failed\n");
		goto out;
	}
	if (write_file(prog_path, mem, PROG_SIZE, PROG_SIZE) < 0 ||
	    write_file(trace_path, s.out, s.len, bytes) < 0) {
		fprintf(stderr, "etm_bench: cannot write %s\n", trace_path);
		goto out;
	}
	err = 0;
out:
	free(s.out);
	free(mem);
	etm_image_free(img);
	return err;
}
