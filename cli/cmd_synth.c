/* cli/cmd_synth.c - `etmtrace synth`: generate a random program and execution
 * from a seed, encode it as ETMv3 or PTM trace, and write a snapshot
 * directory that `etmtrace decode` reads back (plus the expected list). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/encode.h>
#include <etmtrace/etmtrace.h>

#include "cmds.h"
#include "etm1.h"
#include "opt.h"
#include "synth_itm.h"
#include "perfconv.h"
#include "synth_expect.h"
#include "synth_data.h"
#include "synth_files.h"

static const char synth_help[] =
	"usage: etmtrace synth DIR [options]\n"
	"\n"
	"Write a snapshot directory holding a random program (memory dumps), the\n"
	"ETMv3 / PTM trace of a random execution of it, and the registers that\n"
	"describe the trace; `etmtrace decode DIR` reads it back.\n"
	"\n"
	"  --seed N               random seed (default 1); same seed, same output\n"
	"  --force                replace a snapshot already in DIR (refused\n"
	"                         without it)\n"
	"  --protocol etmv3|ptm|etmv1  trace protocol (default ptm)\n"
	"  --port 4|8|16          ETMv1 TRACEPKT width (default 8)\n"
	"  --etm-version 3.3|3.4|3.5  ETMv3 architecture version (default 3.5);\n"
	"                         ETMv1: 1.0-1.3 (default 1.3)\n"
	"  --cycle-accurate       cycle-accurate trace (ETMCR[12])\n"
	"  --ctxid-bytes 0|1|2|4  Context ID size (ETMCR[15:14])\n"
	"  --vmid                 VMID tracing (ETMCR[30])\n"
	"  --timestamps 48|64     timestamps of that size (ETMCR[28], ETMCCER[29])\n"
	"  --ts-gray              Gray-coded timestamps (ETMCCER[28] = 0)\n"
	"  --ret-stack            PTM return stack (ETMCR[29])\n"
	"  --branch-broadcast     branch broadcasting (ETMCR[8])\n"
	"  --alt-branch           ETMv3.4+ alternative branch encoding (ETMIDR[20])\n"
	"  --format raw|coresight trace buffer format (default raw)\n"
	"  --sources N            trace sources, one core each (coresight; 1-8)\n"
	"  --insns N              instructions per source (default 2000)\n"
	"  --funcs N              functions per program (default 8)\n"
	"  --features LIST        arm,thumb,exc,b2b,cancel,ctx,vmid,gaps,cycles,ts,\n"
	"                         long,isb or all (default arm,thumb,exc,isb plus\n"
	"                         what the configuration enables)\n"
	"  --atoms greedy|single|random  packing of atoms / encoding choices\n"
	"  --full-addr            always send 5-byte addresses\n"
	"  --isync-period N       periodic I-sync every N bytes (default 0: none)\n"
	"  --async-period N       A-sync every N bytes (default 0: at start only)\n"
	"  --expect FILE          write the expected canonical instruction list\n"
	"                         ('ADDRESS A|T[ N]', GAP at each trace start);\n"
	"                         with several sources FILE.0xID per source;\n"
	"                         with --itm also FILE.itm, its listing lines\n"
	"  --expect-ctx FILE      the first source's list with 'CTX ID' lines at\n"
	"                         each Context ID change (the generator's)\n"
	"  --itm                  add an ITM/DWT source (ITM_0, trace ID 0x01):\n"
	"                         PC samples, exception entries, stimulus text,\n"
	"                         timestamps, watchpoints of the execution\n"
	"                         (coresight, one source)\n"
	"  --perf-data            also write DIR/perf.data with the same trace\n"
	"                         (etmtrace convert; its --perf-version,\n"
	"                         --per-thread, --raw, --big-endian apply)\n"

	"  --data-trace addr|value|both  ETMv3 or ETMv1 data trace (ETMCR[3:2]):\n"
	"                         the program gets loads and stores of every\n"
	"                         class (ETMv1: data packets, counted)\n"
	"  --data-only            ETMv3 data-only mode (ETMCR[20]; needs\n"
	"                         --data-trace): no instruction trace\n"
	"  --expect-data FILE     write the data transfers the trace gives, one a\n"
	"                         line: 'INSN_ADDR R|W DATA_ADDR|- VALUE|- SIZE'\n"
	"                         in hex, '-' where the trace does not say (as\n"
	"                         `decode --format data` prints them)\n";

struct synth {
	const char *dir, *expect, *expect_data, *expect_ctx;
	int dtrace, donly; /* ETMCR[3:2], [20] */
	uint64_t seed;
	enum etm_protocol proto;
	int minor, ca, cid, vmid, ts, gray, rs, bcast, alt, coresight;
	int nsrc, atoms, full, force, port, e1minor, itm;
	uint32_t insns, funcs, isync, async, feat;
	int feat_set;
	int perf; /* --perf-data: DIR/perf.data too */
	struct perfconv pc;
};

static const char *const feat_names[] = { "arm", "thumb", "exc", "b2b",
					  "cancel", "ctx", "vmid", "gaps", "cycles", "ts", "long", "isb" };

static int synth_features(struct synth *o, const char *v)
{
	char buf[256], *tok, *save = NULL;
	unsigned i;

	snprintf(buf, sizeof(buf), "%s", v);
	o->feat = 0;
	o->feat_set = 1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			o->feat |= ETM_GEN_ALL;
			continue;
		}
		for (i = 0; i < sizeof(feat_names) / sizeof(feat_names[0]); i++)
			if (!strcmp(tok, feat_names[i]))
				break;
		if (i == sizeof(feat_names) / sizeof(feat_names[0]))
			return -1;
		o->feat |= 1u << i;
	}
	return 0;
}

/* Numeric options: --@name in [min, max] (strict, cli/opt.c); returns 0,
 * 1 if @name is not one, -2 after printing an error. */
static int synth_num(struct synth *o, const char *name, const char *v)
{
	static const struct {
		const char *n;
		uint64_t min, max;
	} nums[] = {
		{ "seed", 0, UINT64_MAX },
		{ "ctxid-bytes", 0, 4 },
		{ "timestamps", 48, 64 },
		{ "sources", 1, 8 },
		{ "insns", 1, 10000000 },
		{ "funcs", 1, 64 },
		{ "isync-period", 0, 0xffffffffu },
		{ "async-period", 0, 0xffffffffu },
		{ "port", 4, 16 },
	};
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (!strcmp(name, nums[i].n))
			break;
	if (i == sizeof(nums) / sizeof(nums[0]))
		return 1;
	if (opt_uint("synth", name, v, 0, nums[i].min, nums[i].max, &n) < 0)
		return -2;
	if ((i == 1 && n == 3) || (i == 2 && n != 48 && n != 64) ||
	    (i == 8 && n != 4 && n != 8 && n != 16)) {
		fprintf(stderr, "etmtrace synth: bad value for --%s: '%s' (expected %s)\n",
			name, v, i == 1 ? "0, 1, 2 or 4" : i == 2 ? "48 or 64" :
								    "4, 8 or 16");
		return -2;
	}
	switch (i) {
	case 0: o->seed = n; break;
	case 1: o->cid = (int)n; break;
	case 2: o->ts = (int)n; break;
	case 3: o->nsrc = (int)n; break;
	case 4: o->insns = (uint32_t)n; break;
	case 5: o->funcs = (uint32_t)n; break;
	case 6: o->isync = (uint32_t)n; break;
	case 7: o->async = (uint32_t)n; break;
	default: o->port = (int)n; break;
	}
	return 0;
}

/* Options with a value; returns 0, -1 for a bad value, -2 if reported. */
static int synth_value(struct synth *o, const char *name, const char *v)
{
	int k;

	if (!strcmp(name, "protocol")) {
		if (strcmp(v, "ptm") && strcmp(v, "etmv3") && strcmp(v, "etmv1"))
			return -1;
		o->proto = !strcmp(v, "etmv1") ? etm_proto_etmv1 :
			   strcmp(v, "ptm")    ? etm_proto_etmv3 :
						 etm_proto_ptm;
		return 0;
	}
	if (!strcmp(name, "etm-version") && v[0] == '1') {
		if (strcmp(v, "1.0") && strcmp(v, "1.1") && strcmp(v, "1.2") &&
		    strcmp(v, "1.3"))
			return -1;
		o->e1minor = v[2] - '0' + 1;
		return 0;
	}
	if (!strcmp(name, "etm-version")) {
		if (strcmp(v, "3.3") && strcmp(v, "3.4") && strcmp(v, "3.5"))
			return -1;
		o->minor = v[2] - '0';
		return 0;
	}
	if (!strcmp(name, "format")) {
		if (strcmp(v, "raw") && strcmp(v, "coresight"))
			return -1;
		o->coresight = !strcmp(v, "coresight");
		return 0;
	}
	if (!strcmp(name, "atoms")) {
		o->atoms = !strcmp(v, "single") ? 1 : !strcmp(v, "random") ? 2 :
					      !strcmp(v, "greedy")         ? 0 :
									     -1;
		return o->atoms < 0 ? -1 : 0;
	}
	if (!strcmp(name, "features"))
		return synth_features(o, v);
	if (!strcmp(name, "expect")) {
		o->expect = v;
		return 0;
	}
	if (!strcmp(name, "expect-ctx")) {
		o->expect_ctx = v;
		return 0;
	}
	if (!strcmp(name, "expect-data")) {
		o->expect_data = v;
		return 0;
	}
	if (!strcmp(name, "data-trace")) {
		o->dtrace = !strcmp(v, "addr") ? 2 : !strcmp(v, "value") ? 1 :
					     !strcmp(v, "both")          ? 3 :
									   -1;
		return o->dtrace < 0 ? -1 : 0;
	}
	k = synth_num(o, name, v);
	return k == 1 ? -1 : k;
}

static int synth_flag(struct synth *o, const char *name)
{
	static const struct {
		const char *n;
		size_t off;
	} fl[] = {
		{ "cycle-accurate", offsetof(struct synth, ca) },
		{ "vmid", offsetof(struct synth, vmid) },
		{ "ts-gray", offsetof(struct synth, gray) },
		{ "ret-stack", offsetof(struct synth, rs) },
		{ "branch-broadcast", offsetof(struct synth, bcast) },
		{ "alt-branch", offsetof(struct synth, alt) },
		{ "full-addr", offsetof(struct synth, full) },
		{ "itm", offsetof(struct synth, itm) },
		{ "force", offsetof(struct synth, force) },
		{ "data-only", offsetof(struct synth, donly) },
	};
	size_t i;

	for (i = 0; i < sizeof(fl) / sizeof(fl[0]); i++)
		if (!strcmp(name, fl[i].n)) {
			*(int *)((char *)o + fl[i].off) = 1;
			return 1;
		}
	return 0;
}

/* Returns 0, 1 for --help, or -1 after printing an error. */
static int synth_parse(struct synth *o, int argc, char **argv)
{
	int i, k;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq;
		char name[64];

		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return 1;
		k = perfconv_opt(&o->pc, argc, argv, &i);
		if (k < 0)
			return -1;
		if (k) { /* a perf.data option asks for the file */
			o->perf = 1;
			continue;
		}
		if (!strcmp(a, "--perf-data")) {
			o->perf = 1;
			continue;
		}
		if (strncmp(a, "--", 2)) {
			if (o->dir) {
				fprintf(stderr, "etmtrace synth: more than one directory ('%s')\n", a);
				return -1;
			}
			o->dir = a;
			continue;
		}
		eq = strchr(a, '=');
		snprintf(name, sizeof(name), "%.*s",
			 (int)(eq ? eq - a - 2 : (long)strlen(a) - 2), a + 2);
		if (!eq && synth_flag(o, name))
			continue;
		if (!eq && i + 1 >= argc) {
			fprintf(stderr, "etmtrace synth: unknown option or missing value: '%s'\n", a);
			return -1;
		}
		k = synth_value(o, name, eq ? eq + 1 : argv[++i]);
		if (k == -2)
			return -1;
		if (k) {
			fprintf(stderr, "etmtrace synth: bad option '%s' (value '%s')\n",
				a, eq ? eq + 1 : argv[i]);
			return -1;
		}
	}
	if (!o->dir) {
		fprintf(stderr, "etmtrace synth: no output directory given\n");
		return -1;
	}
	return 0;
}

static int synth_check(const struct synth *o)
{
	const char *why = NULL;

	if (o->rs && o->proto != etm_proto_ptm)
		why = "--ret-stack needs --protocol ptm";
	else if (o->rs && o->bcast)
		why = "--ret-stack and --branch-broadcast cannot be combined";
	else if (o->alt && (o->proto != etm_proto_etmv3 || o->minor < 4))
		why = "--alt-branch needs ETMv3.4 or later";
	else if (o->nsrc > 1 && !o->coresight)
		why = "--sources > 1 needs --format coresight";
	else if (o->itm && (!o->coresight || o->nsrc > 1 ||
			    o->proto == etm_proto_etmv1))
		why = "--itm needs --format coresight, one ETMv3/PTM source";
	else if (o->proto == etm_proto_etmv1 && (o->coresight || o->vmid ||
						 o->ts || o->rs || o->alt))
		why = "ETMv1 has one source on its own port, no VMID, "
		      "timestamps, return stack or alternative branches";
	else if (o->proto != etm_proto_etmv1 && (o->port || o->e1minor))
		why = "--port and --etm-version 1.x need --protocol etmv1";
	else if (o->dtrace && o->proto == etm_proto_ptm)
		why = "--data-trace needs --protocol etmv3 or etmv1";
	else if ((o->donly || o->expect_data) &&
		 (o->proto != etm_proto_etmv3 || !o->dtrace))
		why = "--data-only and --expect-data need --data-trace, which "
		      "needs --protocol etmv3";
	if (why)
		fprintf(stderr, "etmtrace synth: %s\n", why);
	return why ? -1 : 0;
}

struct synth_src {
	struct etm_config cfg;
	struct etm_gen *gen;
	struct etm_image *img;
	uint8_t *bytes;
	size_t n;
	size_t *evpos; /* --itm: ETM bytes after each event */
	struct synth_itm itm;
};

static void synth_config(const struct synth *o, int k, struct etm_config *c)
{
	static const uint32_t cidsz[5] = { 0, 1, 2, 0, 3 };

	etm_config_init(c);
	c->protocol = o->proto;
	c->traceid = 0x10 + (uint32_t)k;
	c->etmcr = cidsz[o->cid] << 14 | (o->ca ? 1u << 12 : 0) |
		   (o->ts ? 1u << 28 : 0) | (o->vmid ? 1u << 30 : 0) |
		   (o->rs ? 1u << 29 : 0) | (o->bcast ? 1u << 8 : 0) |
		   (uint32_t)o->dtrace << 2 | (o->donly ? 1u << 20 : 0);
	/* ETMCCER: timestamps implemented, size, encoding; PTM: return stack
	 * implemented */
	c->etmccer = 1u << 22 | (o->ts == 64 ? 1u << 29 : 0) |
		     (o->gray ? 0 : 1u << 28) |
		     (o->proto == etm_proto_ptm ? 1u << 23 : 0);
	if (o->proto == etm_proto_etmv1) {
		/* ETMCR[6:4] port size; ETMCCR[30:28] protocol number of the
		 * version (IHI 0014Q Table 1.1: 0, 1, 2, 3) */
		c->etmcr &= ~(1u << 28 | 1u << 30 | 1u << 29);
		c->etmcr |= (o->port == 4 ? 0u : o->port == 16 ? 2u :
								 1u)
			    << 4;
		c->etmccr = (uint32_t)(o->e1minor ? o->e1minor - 1 : 3) << 28;
		c->etmccer = 0;
		return;
	}
	if (o->proto == etm_proto_ptm)
		c->etmidr = 0x411cf312; /* PFT 1.1 */
	else
		c->etmidr = 0x410cf200 | (uint32_t)o->minor << 4 |
			    (o->alt ? 1u << 20 : 0);
}

static uint32_t synth_gen_flags(const struct synth *o)
{
	uint32_t f = o->feat_set ? o->feat :
				   ETM_GEN_ARM | ETM_GEN_THUMB | ETM_GEN_EXC |
					   (o->proto == etm_proto_etmv1 ? 0 : ETM_GEN_ISB);

	if (!o->feat_set) {
		f |= o->cid ? ETM_GEN_CTX : 0;
		f |= o->vmid ? ETM_GEN_VMID : 0;
		f |= o->ca ? ETM_GEN_CYCLES : 0;
		f |= o->ts ? ETM_GEN_TS : 0;
	}
	return f | (o->dtrace ? ETM_GEN_DATA : 0);
}

static int synth_encode(const struct synth *o, struct synth_src *s)
{
	struct etm_enc_opts eo;
	const struct etm_ev *ev;
	struct etm_enc *e;
	const uint8_t *p;
	size_t nev, i;
	int err = 0;

	memset(&eo, 0, sizeof(eo));
	eo.size = sizeof(eo);
	eo.cfg = s->cfg;
	eo.seed = o->seed;
	eo.flags = (o->atoms == 1 ? ETM_ENC_ATOM_SINGLE : 0) |
		   (o->atoms == 2 ? ETM_ENC_RANDOM : 0) |
		   (o->full ? ETM_ENC_FULL_ADDR : 0);
	eo.isync_period = o->isync;
	eo.async_period = o->async;
	e = etm_enc_alloc(&eo, sizeof(eo), s->img);
	if (!e)
		return -etme_bad_config;
	ev = etm_gen_events(s->gen, &nev);
	if (o->itm && !(s->evpos = malloc((nev ? nev : 1) * sizeof(size_t))))
		err = -etme_nomem;
	for (i = 0; i < nev && !err; i++) {
		err = etm_enc_put(e, &ev[i]);
		if (s->evpos)
			etm_enc_data(e, &s->evpos[i]);
	}
	if (!err && o->itm &&
	    synth_itm_build(ev, nev, s->evpos, o->seed, &s->itm) < 0)
		err = -etme_nomem;
	if (!err)
		err = etm_enc_finish(e);
	p = etm_enc_data(e, &s->n);
	if (!err) {
		s->bytes = malloc(s->n ? s->n : 1);
		if (s->bytes)
			memcpy(s->bytes, p, s->n);
		else
			err = -etme_nomem;
	}
	etm_enc_free(e);
	return err;
}

static int synth_build(const struct synth *o, int k, struct synth_src *s)
{
	struct etm_gen_opts go;

	synth_config(o, k, &s->cfg);
	memset(&go, 0, sizeof(go));
	go.size = sizeof(go);
	go.seed = o->seed * 1000003u + (uint64_t)k;
	go.proto = o->proto;
	go.flags = synth_gen_flags(o);
	go.ninsn = o->insns;
	go.nfuncs = o->funcs;
	go.ctxid_bytes = o->cid;
	go.min_cycles = o->proto == etm_proto_etmv3 && o->minor < 3;
	s->gen = etm_gen_alloc(&go, sizeof(go));
	s->img = etm_image_alloc();
	if (!s->gen || !s->img)
		return -etme_nomem;
	if (etm_gen_add_to_image(s->gen, s->img) < 0)
		return -etme_nomem;
	return synth_encode(o, s);
}

/* Memory dumps of one core at most (the generator's program regions). */
#define SYNTH_MAX_DUMPS 16

/* The names and dumps of the snapshot's devices: core K (cpu_K.ini, with
 * the program's memory dumps) and its source K (source_K.ini), then the
 * ITM with --itm. */
struct synth_devs {
	struct etm_snapw_device v[2 * 8 + 1];
	struct etm_snapw_dump d[8][SYNTH_MAX_DUMPS];
	char key[2 * 8][32], file[2 * 8][32], name[2 * 8][32];
	char dump[8][SYNTH_MAX_DUMPS][48], itm[256];
};

static int synth_dev_core(struct synth_devs *t, int k, const struct synth_src *s)
{
	struct etm_snapw_device *v = &t->v[2 * k];
	const uint8_t *b;
	size_t i, n, nd = etm_gen_nregions(s->gen);

	if (nd > SYNTH_MAX_DUMPS)
		return -1;
	for (i = 0; i < nd; i++) {
		etm_gen_region(s->gen, i, &t->d[k][i].addr, &b, &n);
		snprintf(t->dump[k][i], sizeof(t->dump[k][i]), "mem_%d_%zu.bin", k, i);
		t->d[k][i].file = t->dump[k][i];
		t->d[k][i].length = n;
		t->d[k][i].data = b;
	}
	snprintf(t->key[2 * k], sizeof(t->key[0]), "core%d", k);
	snprintf(t->file[2 * k], sizeof(t->file[0]), "cpu_%d.ini", k);
	snprintf(t->name[2 * k], sizeof(t->name[0]), "cpu_%d", k);
	v->key = t->key[2 * k];
	v->file = t->file[2 * k];
	v->name = t->name[2 * k];
	v->is_core = 1;
	v->type = s->cfg.protocol == etm_proto_ptm   ? "Cortex-A15" :
		  s->cfg.protocol == etm_proto_etmv1 ? "ARM926EJ-S" :
						       "Cortex-A7";
	v->regs = 1;
	v->dumps = t->d[k];
	v->ndumps = nd;
	return 0;
}

static void synth_dev_source(struct synth_devs *t, int k, const struct synth_src *s)
{
	struct etm_snapw_device *v = &t->v[2 * k + 1];
	int j = 2 * k + 1;

	snprintf(t->key[j], sizeof(t->key[0]), "source%d", k);
	snprintf(t->file[j], sizeof(t->file[0]), "source_%d.ini", k);
	snprintf(t->name[j], sizeof(t->name[0]), "%s_%d",
		 s->cfg.protocol == etm_proto_ptm ? "PTM" : "ETM", k);
	v->key = t->key[j];
	v->file = t->file[j];
	v->name = t->name[j];
	v->cfg = &s->cfg;
	v->core = t->name[2 * k];
}

/* The trace buffer into *@p, *@n: the raw stream, or all sources
 * interleaved in seeded random runs and formatted into CoreSight frames
 * (in @f, allocated here). */
static int synth_buffer(const struct synth *o, const struct synth_src *src,
			struct etm_fenc **fp, const uint8_t **p, size_t *n)
{
	struct etm_fenc *f;
	size_t pos[8] = { 0 };
	struct etm_rng_lite {
		uint64_t s;
	} r = { o->seed ^ 0xabcdefu };
	int k, more = 1, err = 0;

	*p = src[0].bytes;
	*n = src[0].n;
	if (!o->coresight)
		return 0;
	*fp = f = etm_fenc_alloc(o->atoms == 2 ? ETM_FENC_RANDOM : 0, o->seed);
	if (!f)
		return -1;
	if (o->itm) {
		err = synth_itm_frames(f, etm_cfg_trace_id(&src[0].cfg),
				       src[0].bytes, src[0].n, &src[0].itm);
		more = 0;
	}
	while (more && !err) {
		more = 0;
		for (k = 0; k < o->nsrc; k++) {
			size_t len;

			r.s = r.s * 6364136223846793005ull + 1442695040888963407ull;
			len = 1 + (size_t)((r.s >> 33) % 48);
			if (pos[k] + len > src[k].n)
				len = src[k].n - pos[k];
			err |= etm_fenc_put(f, etm_cfg_trace_id(&src[k].cfg),
					    src[k].bytes + pos[k], len);
			pos[k] += len;
			more |= pos[k] < src[k].n;
		}
	}
	if (!err)
		err = etm_fenc_finish(f);
	*p = etm_fenc_data(f, n);
	return err ? -1 : 0;
}

/* The snapshot (etm_snapw_write()); an ETMv1 source's trace.bin is our
 * binary sample file (doc/etmv1.md). */
static int synth_snapshot(const struct synth *o, const struct synth_src *src)
{
	static struct synth_devs t; /* large: static (one synth a process) */
	struct etm_snapw_snapshot ss = { 0 };
	struct etm_fenc *f = NULL;
	char comment[64], err[4200], path[4096];
	const uint8_t *tb = NULL;
	size_t tn = 0;
	int k, r = 0, e1 = src[0].cfg.protocol == etm_proto_etmv1;

	memset(&t, 0, sizeof(t));
	for (k = 0; k < o->nsrc && !r; k++) {
		r = synth_dev_core(&t, k, &src[k]);
		synth_dev_source(&t, k, &src[k]);
	}
	if (o->itm && synth_itm_device(t.itm, sizeof(t.itm)) >= (int)sizeof(t.itm))
		r = -1;
	t.v[2 * o->nsrc] = (struct etm_snapw_device){ .key = "itm", .file = "itm_0.ini", .name = SYNTH_ITM_DEV, .text = t.itm };
	snprintf(comment, sizeof(comment), "etmtrace synth --seed %llu",
		 (unsigned long long)o->seed);
	ss.comment = comment;
	ss.devs = t.v;
	ss.ndevs = 2 * (size_t)o->nsrc + (o->itm ? 1 : 0);
	ss.bufname = "ETB_0";
	ss.trace_file = "trace.bin";
	ss.fmt = o->coresight ? etm_fmt_coresight : etm_fmt_raw;
	if (!r && !e1)
		r = synth_buffer(o, src, &f, &tb, &tn);
	ss.trace = tb;
	ss.trace_len = tn;
	if (!r && (r = etm_snapw_write(o->dir, &ss, err, sizeof(err))) < 0)
		fprintf(stderr, "etmtrace synth: %s\n", etm_errmsg(r, err));
	etm_fenc_free(f);
	snprintf(path, sizeof(path), "%s/trace.bin", o->dir);
	if (!r && e1)
		r = cli_e1_write(path, &src[0].cfg, src[0].bytes, src[0].n);
	return r ? -1 : 0;
}

/* One source's expected list into @path (cli/synth_expect.c); with CTX
 * lines when @ctx. */
static int synth_expect_one(const struct synth_src *s, const char *path,
			    int ctx)
{
	char *p = NULL;
	size_t n = 0;
	int err = synth_expect_list(&s->cfg, s->img, s->gen, ctx, &p, &n);

	if (!err)
		err = synth_file(NULL, path, p ? p : "", n);
	free(p);
	return err ? -1 : 0;
}

static int synth_expect(const struct synth *o, const struct synth_src *src)
{
	char path[4096];
	int k;

	for (k = 0; o->expect_data && k < o->nsrc; k++) {
		if (o->nsrc > 1)
			snprintf(path, sizeof(path), "%s.0x%02x", o->expect_data,
				 etm_cfg_trace_id(&src[k].cfg));
		if (synth_expect_data(o->nsrc > 1 ? path : o->expect_data,
				      &src[k].cfg, src[k].gen))
			return -1;
	}
	if (!o->expect)
		return 0;
	snprintf(path, sizeof(path), "%s.itm", o->expect);
	if (o->itm && synth_file(NULL, path, src[0].itm.expect ? src[0].itm.expect : "",
				 src[0].itm.nexpect))
		return -1;
	if (o->expect_ctx && synth_expect_one(&src[0], o->expect_ctx, 1))
		return -1;
	if (o->nsrc == 1)
		return synth_expect_one(&src[0], o->expect, 0);
	for (k = 0; k < o->nsrc; k++) {
		snprintf(path, sizeof(path), "%s.0x%02x", o->expect,
			 etm_cfg_trace_id(&src[k].cfg));
		if (synth_expect_one(&src[k], path, 0))
			return -1;
	}
	return 0;
}

static int synth_write(const struct synth *o, const struct synth_src *src)
{
	char ini[4096];
	struct stat st;

	snprintf(ini, sizeof(ini), "%s/snapshot.ini", o->dir);
	if (!o->force && stat(ini, &st) == 0) {
		fprintf(stderr, "etmtrace synth: %s already holds a snapshot "
				"(snapshot.ini); give --force to replace it\n",
			o->dir);
		return -1;
	}
	if (synth_snapshot(o, src))
		return -1;
	return synth_expect(o, src);
}

int cmd_synth(int argc, char **argv)
{
	struct synth o = { .pc.version = 1, .seed = 1, .proto = etm_proto_ptm, .minor = 5, .nsrc = 1, .insns = 2000, .funcs = 8 };
	struct synth_src src[8];
	int r, k, err = 0;

	r = synth_parse(&o, argc, argv);
	if (r) {
		if (r > 0)
			fputs(synth_help, stdout);
		return r > 0 ? 0 : 2;
	}
	if (synth_check(&o))
		return 2;
	memset(src, 0, sizeof(src));
	for (k = 0; k < o.nsrc && !err; k++)
		err = synth_build(&o, k, &src[k]);
	if (err)
		fprintf(stderr, "etmtrace synth: generating trace failed: %s\n",
			etm_errstr(err));
	else
		err = synth_write(&o, src);
	if (!err && o.perf) {
		static char out[4200];

		snprintf(out, sizeof(out), "%s/perf.data", o.dir);
		o.pc.snapshot = o.dir;
		o.pc.out = out;
		err = perfconv_run(&o.pc) ? -1 : 0;
	}
	for (k = 0; k < o.nsrc; k++) {
		etm_gen_free(src[k].gen);
		etm_image_free(src[k].img);
		free(src[k].bytes);
		free(src[k].evpos);
		synth_itm_free(&src[k].itm);
	}
	return err ? 2 : 0;
}
