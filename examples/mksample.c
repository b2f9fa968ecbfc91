/* examples/mksample.c - writes the built-in sample snapshot (examples/sample):
 * a small A32 + T32 program (a loop calling a Thumb function, an SVC and its
 * handler's exception return), one execution of it, and the PTM trace our
 * encoder produces for that execution, in a CoreSight-formatted buffer.
 * Usage: mksample OUTDIR */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/encode.h>
#include <etmtrace/error.h>
#include <etmtrace/snapwrite.h>

#define TRACE_ID 0x13

/* Vectors and SVC handler (A32) at 0x0. */
static const uint32_t vectors[] = {
	0xeafffffe, /* 0x000 b .             (reset: unused) */
	0xeafffffe, /* 0x004 b .             (undef: unused) */
	0xea00003c, /* 0x008 b 0x100         SVC vector; (0x100-0x10)/4 = 0x3c */
};
static const uint32_t handler[] = {
	0xe92d4001, /* 0x100 push {r0, lr} */
	0xe2811001, /* 0x104 add  r1, r1, #1 */
	0xe8bd4001, /* 0x108 pop  {r0, lr} */
	0xe1b0f00e, /* 0x10c movs pc, lr     exception return */
};
/* main (A32) at 0x8000. */
static const uint32_t mainf[] = {
	0xe3a00000, /* 0x8000 mov  r0, #0 */
	0xe3a04003, /* 0x8004 mov  r4, #3 */
	0xfa00003c, /* 0x8008 blx  0x8100    (0x8100-0x8010)/4 = 0x3c, H=0 */
	0xe2544001, /* 0x800c subs r4, r4, #1 */
	0x1afffffc, /* 0x8010 bne  0x8008    (0x8008-0x8018)/4 = -4 */
	0xef000000, /* 0x8014 svc  #0 */
	0xeafffffe, /* 0x8018 b    .         (stop) */
};
/* count (T32) at 0x8100. */
static const uint16_t countf[] = {
	0x3001, /* 0x8100 adds r0, #1 */
	0x2802, /* 0x8102 cmp  r0, #2 */
	0xd001, /* 0x8104 beq  0x810a    0x8104 + 4 + 1*2 */
	0x2100, /* 0x8106 movs r1, #0 */
	0x4770, /* 0x8108 bx   lr */
	0x2101, /* 0x810a movs r1, #1 */
	0x4770, /* 0x810c bx   lr */
};

struct prog {
	uint8_t vec[0x110];
	uint8_t code[0x110];
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void build(struct prog *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < sizeof(vectors) / 4; i++)
		put32(p->vec + 4 * i, vectors[i]);
	for (i = 0; i < sizeof(handler) / 4; i++)
		put32(p->vec + 0x100 + 4 * i, handler[i]);
	for (i = 0; i < sizeof(mainf) / 4; i++)
		put32(p->code + 4 * i, mainf[i]);
	for (i = 0; i < sizeof(countf) / 2; i++) {
		p->code[0x100 + 2 * i] = (uint8_t)countf[i];
		p->code[0x101 + 2 * i] = (uint8_t)(countf[i] >> 8);
	}
}

struct run {
	struct etm_ev ev[128];
	int n;
	uint32_t cyc;
};

static struct etm_ev *ev_add(struct run *r, enum etm_ev_kind k)
{
	struct etm_ev *e = &r->ev[r->n++];

	memset(e, 0, sizeof(*e));
	e->kind = k;
	return e;
}

/* One executed instruction; cycles vary a little to make the listing show
 * cycle-accurate counts. */
static void insn(struct run *r, uint64_t addr, enum etm_isa isa, int exec,
		 uint64_t target, enum etm_isa tisa)
{
	struct etm_ev *e = ev_add(r, etmev_insn);

	e->addr = addr;
	e->isa = isa;
	e->exec = (uint8_t)exec;
	e->target = target;
	e->target_isa = tisa;
	e->cycles = 1 + (r->cyc++ % 3);
}

/* The execution: main calls count() three times (r0 = 1, 2, 3: beq taken
 * only when r0 == 2), then SVC; the handler returns to 0x8018, which loops
 * on itself twice before trace ends. */
static void execute(struct run *r)
{
	struct etm_ev *e;
	int it;

	e = ev_add(r, etmev_trace_on);
	e->reason = 1;
	insn(r, 0x8000, etmi_a32, 1, 0, etmi_unknown);
	e = ev_add(r, etmev_timestamp);
	e->timestamp = 1000;
	insn(r, 0x8004, etmi_a32, 1, 0, etmi_unknown);
	for (it = 1; it <= 3; it++) {
		insn(r, 0x8008, etmi_a32, 1, 0, etmi_unknown);
		insn(r, 0x8100, etmi_t32, 1, 0, etmi_unknown);
		insn(r, 0x8102, etmi_t32, 1, 0, etmi_unknown);
		insn(r, 0x8104, etmi_t32, it == 2, 0, etmi_unknown);
		if (it == 2) {
			insn(r, 0x810a, etmi_t32, 1, 0, etmi_unknown);
			insn(r, 0x810c, etmi_t32, 1, 0x800c, etmi_a32);
		} else {
			insn(r, 0x8106, etmi_t32, 1, 0, etmi_unknown);
			insn(r, 0x8108, etmi_t32, 1, 0x800c, etmi_a32);
		}
		insn(r, 0x800c, etmi_a32, 1, 0, etmi_unknown);
		insn(r, 0x8010, etmi_a32, it != 3, 0, etmi_unknown);
	}
	insn(r, 0x8014, etmi_a32, 1, 0, etmi_unknown);
	e = ev_add(r, etmev_exception);
	e->addr = 0x8;
	e->isa = etmi_a32;
	e->exc_num = 10; /* SVC (../shared/docs/ptm.md §6.2) */
	insn(r, 0x0008, etmi_a32, 1, 0, etmi_unknown);
	insn(r, 0x0100, etmi_a32, 1, 0, etmi_unknown);
	insn(r, 0x0104, etmi_a32, 1, 0, etmi_unknown);
	insn(r, 0x0108, etmi_a32, 1, 0, etmi_unknown);
	insn(r, 0x010c, etmi_a32, 1, 0x8018, etmi_a32);
	insn(r, 0x8018, etmi_a32, 1, 0, etmi_unknown);
	insn(r, 0x8018, etmi_a32, 1, 0, etmi_unknown);
}

/* The sample's trace source: PTM, cycle-accurate with timestamps. */
static void sample_cfg(struct etm_config *c)
{
	etm_config_init(c);
	c->protocol = etm_proto_ptm;
	c->etmcr = 0x10001000;   /* cycle-accurate, timestamps */
	c->etmidr = 0x411CF312;  /* PFT 1.1 */
	c->etmccer = 0x34C01AC2; /* 64-bit binary timestamps */
	c->traceid = TRACE_ID;
}

/* The snapshot (etm_snapw_write()): snapshot.ini, cpu_0.ini with the two
 * dumps vectors.bin and code.bin, ptm_0.ini, trace.ini and @trace. */
static int write_snapshot(const char *dir, const struct prog *p,
			  const uint8_t *trace, size_t n)
{
	const struct etm_snapw_dump d[] = {
		{ "vectors.bin", 0x0, sizeof(p->vec), p->vec },
		{ "code.bin", 0x8000, sizeof(p->code), p->code },
	};
	struct etm_config c;
	const struct etm_snapw_device devs[] = {
		{ .key = "device0", .file = "cpu_0.ini", .name = "cpu_0", .is_core = 1, .type = "Cortex-A15", .dumps = d, .ndumps = 2, .first = 1 },
		{ .key = "device1", .file = "ptm_0.ini", .name = "PTM_0", .type = "PTM1.1", .cfg = &c, .core = "cpu_0" },
	};
	struct etm_snapw_snapshot s = {
		.comment = "etmtrace built-in sample, written by examples/mksample.c",
		.devs = devs,
		.ndevs = 2,
		.bufname = "ETB_0",
		.trace_file = "trace.bin",
		.fmt = etm_fmt_coresight,
		.trace = trace,
		.trace_len = n,
	};
	char err[4200];
	int r;

	sample_cfg(&c);
	r = etm_snapw_write(dir, &s, err, sizeof(err));
	if (r < 0)
		fprintf(stderr, "mksample: %s\n", etm_errmsg(r, err));
	return r;
}

static int encode(const struct prog *p, const struct run *r, const char *dir)
{
	struct etm_enc_opts o;
	struct etm_image *img = etm_image_alloc();
	struct etm_enc *e = NULL;
	struct etm_fenc *fe = NULL;
	const uint8_t *b;
	size_t n;
	int i, err = -1;

	if (!img || etm_image_add_buffer(img, etm_space_any, 0, p->vec, sizeof(p->vec)) < 0 ||
	    etm_image_add_buffer(img, etm_space_any, 0x8000, p->code,
				 sizeof(p->code)) < 0)
		goto out;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	sample_cfg(&o.cfg);
	e = etm_enc_alloc(&o, sizeof(o), img);
	fe = etm_fenc_alloc(0, 0);
	if (!e || !fe)
		goto out;
	for (i = 0; i < r->n; i++) {
		int rc = etm_enc_put(e, &r->ev[i]);

		if (rc < 0) {
			fprintf(stderr, "mksample: event %d: %s\n", i, etm_errstr(rc));
			goto out;
		}
	}
	if (etm_enc_finish(e) < 0)
		goto out;
	b = etm_enc_data(e, &n);
	if (etm_fenc_put(fe, TRACE_ID, b, n) < 0 || etm_fenc_finish(fe) < 0)
		goto out;
	b = etm_fenc_data(fe, &n);
	err = write_snapshot(dir, p, b, n);
out:
	etm_fenc_free(fe);
	etm_enc_free(e);
	etm_image_free(img);
	return err;
}

int main(int argc, char **argv)
{
	static struct prog p;
	static struct run r;
	const char *dir;

	if (argc != 2) {
		fprintf(stderr, "usage: mksample OUTDIR\n");
		return 2;
	}
	dir = argv[1];
	build(&p);
	execute(&r);
	if (encode(&p, &r, dir))
		return 1;
	return 0;
}
