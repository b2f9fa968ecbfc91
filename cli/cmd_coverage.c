/* cli/cmd_coverage.c - `etmtrace coverage` and `etmtrace fdo`: decode
 * one or more captures of one program into a coverage object (merged with
 * saved ones), then write lcov, an annotated listing, address ranges,
 * per-instruction counts, the saved form, or an AutoFDO / llvm-profgen
 * profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "covcmd.h"
#include "diagwarn.h"
#include "dis.h"
#include "session.h"
#include "symload.h"
#include "winrun.h"

static const char coverage_help[] =
	"usage: etmtrace coverage <snapshot-dir | trace-file>... [options]\n"
	"       etmtrace fdo      <snapshot-dir | trace-file>... [options]\n"
	"\n"
	"Accumulate the executed instructions of one or more captures of the\n"
	"same program (decoded one after the other, or merged from --merge\n"
	"files) and report coverage, or write a profile for AutoFDO/LLVM.\n"
	"\n"
	"coverage --format lcov|text|ranges|insns|save   (default ranges)\n"
	"    lcov: lcov tracefile, lines and branches from DWARF (--elf/--symbols);\n"
	"    text: annotated listing ('#####' never executed, one-way branches);\n"
	"    ranges: executed / never-executed ranges per function or region;\n"
	"    insns: 'ADDRESS EXEC FAIL UNKNOWN' per executed instruction;\n"
	"    save: the serialised coverage (input of --merge)\n"
	"fdo --format autofdo|profgen   (default autofdo)\n"
	"    autofdo: create_llvm_prof --profiler=text input (addresses relative\n"
	"    to --base, default the first loadable segment of --elf);\n"
	"    profgen: llvm-profgen --unsymbolized-profile input (absolute\n"
	"    addresses as for --use-offset=0, or relative to --base)\n"
	"\n"
	"  --merge FILE          add coverage saved with --format save (repeatable)\n"
	"  --symbols FILE        functions and lines from this ELF or nm -S file\n"
	"                        (default: the --elf files)\n"
	"  --base ADDR           subtract ADDR from profile addresses\n"
	"  --test-name NAME      lcov TN: record\n"
	"  --source-map OLD=NEW, --source-dir DIR\n"
	"                        lcov SF: the local source files (as decode\n"
	"                        --source finds them; repeatable)\n"
	"  --id, --image, --elf, --jobs, --no-cache, --protocol, --input-format,\n"
	"  --etmcr, --etmccer, --etmidr, --m-profile, --pieces, --start, --stop,\n"
	"  --last, --at: as for decode (a window: each input's coverage of it)\n"
	"Exit status, warnings: as decode, for each trace input (1: the coverage\n"
	"or profile is incomplete).\n";

/* Options of this command only, taken out of argv before opt_parse(). */
struct covopts {
	const char *format;
	const char *merge[OPT_MAX_FILES];
	int nmerge;
	const char *symbols;
	const char *test_name;
	uint64_t base;
	int have_base;
	const char *inputs[OPT_MAX_FILES];
	int ninputs;
};

static int is_value_opt(const char *a)
{
	static const char *const v[] = { "--id", "--protocol", "--input-format",
					 "--etmcr", "--etmccer", "--etmidr", "--image", "--elf", "--jobs",
					 "--chunk", "--pieces", "--realign", "--start", "--stop", "--last", "--at",
					 "--source-map", "--source-dir", "--symfs", "--buildid-dir",
					 "--vmlinux" };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(a, v[i]))
			return 1;
	return 0;
}

static int own_opt(struct covopts *c, const char *name, const char *v)
{
	if (!strcmp(name, "--format"))
		c->format = v;
	else if (!strcmp(name, "--merge") && c->nmerge < OPT_MAX_FILES)
		c->merge[c->nmerge++] = v;
	else if (!strcmp(name, "--symbols"))
		c->symbols = v;
	else if (!strcmp(name, "--test-name"))
		c->test_name = v;
	else if (!strcmp(name, "--base") &&
		 opt_uint("coverage", "base", v, 0, 0, 0xffffffffu, &c->base) == 0)
		c->have_base = 1;
	else
		return -1;
	return 0;
}

/* Split argv: own options into @c, positionals into c->inputs, the rest
 * (options shared with decode) into @rest. Returns the count of @rest, -1
 * on a bad own option, -2 for --help. */
static int split_args(struct covopts *c, int argc, char **argv, char **rest)
{
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return -2;
		if (!strcmp(a, "--format") || !strcmp(a, "--merge") ||
		    !strcmp(a, "--symbols") || !strcmp(a, "--test-name") ||
		    !strcmp(a, "--base")) {
			if (i + 1 >= argc || own_opt(c, a, argv[i + 1]) < 0) {
				fprintf(stderr, "etmtrace: bad value for %s\n", a);
				return -1;
			}
			i++;
		} else if (a[0] != '-' || !a[1]) {
			if (c->ninputs >= OPT_MAX_FILES)
				return -1;
			c->inputs[c->ninputs++] = a;
		} else {
			rest[n++] = argv[i];
			if (is_value_opt(a) && i + 1 < argc)
				rest[n++] = argv[++i];
		}
	}
	return n;
}

static int cov_elems(void *ctx, const struct etm_elem *els, size_t n)
{
	struct cov_acc *a = ctx;

	diagtally_elems(&a->t, a->dw, els, n);
	if (a->ctx && a->ctx->fn)
		return covctx_elems(a->ctx, a->cov, els, n) < 0 ? -1 : 0;
	return etm_cov_add_elems(a->cov, els, n) < 0 ? -1 : 0;
}

static int cov_item(void *ctx, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? cov_elems(ctx, &it->elem, 1) : 0;
}

/* session on_images: a perf.data piece of another process. */
static void cov_images(void *ctx, const struct session *s)
{
	int i;

	for (i = 0; i < s->nsrc; i++)
		etm_cov_set_source(ctx, s->src[i].id, s->src[i].cfg.protocol,
				   s->src[i].img);
}

/* Decode one input into @cov; the session stays open (its image serves
 * the output) and is closed by the caller. Returns 0, 1 (the verdict:
 * the input's coverage is incomplete, reason printed) or 2. */
static int cov_decode(struct session *s, struct opts *o, struct etm_cov *cov,
		      struct covctx *ctx, int profile)
{
	struct cov_acc a = { .cov = cov, .ctx = ctx };
	struct winrun wr;
	int i, r;

	r = session_open(s, o, etm_dec_elements, 1);
	if (r)
		return r;
	a.dw = etm_diagset_alloc(session_osrc(s), s->nsrc);
	s->dw = a.dw;
	if (!a.dw) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	for (i = 0; i < s->nsrc; i++)
		etm_cov_set_source(cov, s->src[i].id, s->src[i].cfg.protocol,
				   s->src[i].img);
	covctx_open(ctx, s);       /* with Context IDs: each process's coverage */
	s->on_images = cov_images; /* each process's own image */
	s->on_images_ctx = cov;
	s->jobs = o->jobs ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	r = winrun_open(&wr, s, o, cov_elems, &a);
	s->elems = wr.w ? winrun_elems : cov_elems;
	if (!r) /* a window: the decode on the workers, the window here */
		r = s->jobs > 1 && !o->chunk && !s->mem && !s->skip && !wr.w &&
				    !session_live(s) && !ctx->fn ?
			    par_coverage_run(s, &a) :
			    -1;
	if (r < 0)
		r = wr.w ? session_run(s, winrun_item, &wr) :
			   session_run(s, cov_item, &a);
	if (!r)
		r = winrun_finish(&wr);
	winrun_close(&wr);
	if (!r && (etm_cov_end(cov) < 0 || covctx_end(ctx) < 0)) {
		fprintf(stderr, "etmtrace: out of memory\n");
		r = 2;
	}
	for (i = 0; i < s->nsrc; i++)
		etm_cov_set_source(cov, s->src[i].id, s->src[i].cfg.protocol,
				   NULL);
	if (!r)
		r = diagwarn_verdict(a.dw, s, &a.t, profile ? "profile" : "coverage");
	etm_diagset_free(a.dw);
	s->dw = NULL;
	return r;
}

static int cov_merge_file(struct etm_cov *cov, const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, line = 0;
	int r;

	if (!f) {
		perror(path);
		return 2;
	}
	for (;;) {
		if (n == cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 16);

			if (!nb)
				break;
			buf = nb;
		}
		size_t k = fread(buf + n, 1, cap - n, f);

		if (!k)
			break;
		n += k;
	}
	fclose(f);
	r = buf ? etm_cov_load(cov, buf, n, &line) : -etme_nomem;
	free(buf);
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s:%zu: %s\n", path, line, etm_errstr(r));
		return 2;
	}
	return 0;
}

int cov_fwrite(void *ctx, const char *s, size_t n)
{
	return fwrite(s, 1, n, ctx) == n ? 0 : -etme_io;
}

/* Image from --image / --elf alone (no trace input: merged coverage). */
static struct etm_image *cov_user_image(const struct opts *o)
{
	struct etm_image *img = etm_image_alloc();
	char err[256];
	int i;

	for (i = 0; img && i < o->nimages; i++)
		if (etm_image_add_file(img, etm_space_any, o->images[i].addr,
				       o->images[i].path, 0, 0) < 0) {
			fprintf(stderr, "etmtrace: %s: cannot read\n", o->images[i].path);
			etm_image_free(img);
			return NULL;
		}
	for (i = 0; img && i < o->nelfs; i++)
		if (etm_image_add_elf(img, o->elfs[i].path, o->elfs[i].addr, err,
				      sizeof(err)) < 0) {
			fprintf(stderr, "etmtrace: %s: %s\n", o->elfs[i].path, err);
			etm_image_free(img);
			return NULL;
		}
	return img;
}

static struct etm_symbols *cov_symbols(const struct covopts *c,
				       const struct opts *o)
{
	struct etm_symbols *sym = etm_symbols_alloc();
	char err[256] = "";
	int i, r = 0;

	if (!sym)
		return NULL;
	if (c->symbols) {
		r = etm_symbols_add_elf(sym, c->symbols, 0, err, sizeof(err));
		if (r == -etme_parse)
			r = etm_symbols_add_file(sym, c->symbols, err, sizeof(err));
	}
	for (i = 0; !c->symbols && r >= 0 && i < o->nelfs; i++)
		r = etm_symbols_add_elf(sym, o->elfs[i].path, o->elfs[i].addr,
					err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "etmtrace: symbols: %s\n", etm_errmsg(r, err));
		etm_symbols_free(sym);
		return NULL;
	}
	return sym;
}

/* Lowest address of the image's regions, aligned down to @align. */
static uint64_t cov_image_base(const struct etm_image *img, uint64_t align)
{
	uint64_t lo = UINT64_MAX, a, n;
	size_t i;

	for (i = 0; img && i < etm_image_count(img); i++)
		if (etm_image_region(img, i, NULL, &a, &n, NULL) == 0 && a < lo)
			lo = a;
	return lo == UINT64_MAX ? 0 : lo & ~(align - 1);
}

/* A report's coverage and what it is made from. */
struct cov_report {
	struct etm_cov *cov;
	struct etm_cov_report_opts ro;
};

/* The lcov report, or the reason there is none. */
static int cov_lcov(struct cov_report *out)
{
	int r = etm_cov_report(out->cov, etm_cov_report_lcov, &out->ro);

	if (r == -etme_invalid)
		fprintf(stderr, "etmtrace: --format lcov needs DWARF line information (--elf or --symbols)\n");
	else if (r == -etme_nomem)
		fprintf(stderr, "etmtrace: out of memory\n");
	return r < 0 ? 2 : 0;
}

static int cov_output(struct cov_report *out, const struct covopts *c, int profile)
{
	const char *f = c->format;
	uint64_t base = c->base;

	if (profile) {
		int pg = f && !strcmp(f, "profgen");

		if (!c->have_base)
			base = pg ? 0 : cov_image_base(out->ro.img, 1);
		return etm_cov_write_profile(out->cov, pg ? etm_fdo_profgen : etm_fdo_autofdo, base, cov_fwrite,
					     out->ro.write_ctx) < 0 ?
			       2 :
			       0;
	}
	if (!f || !strcmp(f, "ranges"))
		return etm_cov_report(out->cov, etm_cov_report_ranges, &out->ro) < 0 ? 2 : 0;
	if (!strcmp(f, "lcov"))
		return cov_lcov(out);
	if (!strcmp(f, "insns"))
		return etm_cov_report(out->cov, etm_cov_report_insns, &out->ro) < 0 ? 2 : 0;
	if (!strcmp(f, "save"))
		return etm_cov_save(out->cov, cov_fwrite, out->ro.write_ctx) < 0 ? 2 : 0;
	if (cli_dis_first(&out->ro.dis))
		return 2;
	return etm_cov_report(out->cov, etm_cov_report_listing, &out->ro) < 0 ? 2 : 0;
}

/* Whether the report @c asks for is made per process (the lcov, save and
 * profile forms describe one program: every process's counts added). */
static int cov_per_process(const struct covopts *c, int profile)
{
	const char *f = c->format;

	return !profile && (!f || !strcmp(f, "ranges") || !strcmp(f, "text") ||
			    !strcmp(f, "insns"));
}

/* The report of each process of a perf.data traced with Context IDs, each
 * from its own memory, after that of the trace before any Context ID. */
static int cov_output_procs(struct cov_report *out, const struct covopts *c,
			    const struct covctx *ctx)
{
	struct etm_cov *all = out->cov;
	const struct etm_image *img = out->ro.img;
	struct etm_cov_totals t;
	size_t k;
	int r = 0;

	etm_cov_totals(all, &t);
	if (t.insns)
		r = cov_output(out, c, 0);
	for (k = 0; !r && k < ctx->n; k++) {
		const struct covctx_proc *p = &ctx->p[k];
		char head[64];
		int n = snprintf(head, sizeof(head), "process %u (Context ID %#x):\n",
				 p->pid, p->pid);

		if (out->ro.write(out->ro.write_ctx, head, (size_t)n) < 0)
			r = 2;
		out->cov = p->cov;
		out->ro.img = p->img;
		r = r ? r : cov_output(out, c, 0);
	}
	out->cov = all;
	out->ro.img = img;
	return r;
}

static int cov_check_format(const struct covopts *c, int profile)
{
	static const char *const cf[] = { "lcov", "text", "ranges", "insns", "save" };
	static const char *const pf[] = { "autofdo", "profgen" };
	size_t i, n = profile ? 2 : 5;

	if (!c->format)
		return 0;
	for (i = 0; i < n; i++)
		if (!strcmp(c->format, profile ? pf[i] : cf[i]))
			return 0;
	fprintf(stderr, "etmtrace: unknown --format '%s' (see --help)\n", c->format);
	return -1;
}

static int cov_run(struct covopts *c, struct opts *o, int profile)
{
	struct cov_report out = { .ro = { .size = sizeof(out.ro),
					  .write = cov_fwrite,
					  .write_ctx = stdout,
					  .test_name = c->test_name } };
	struct session s = { 0 };
	struct etm_image *uimg = NULL;
	struct etm_symbols *sym = NULL;
	struct etm_srcpath *sp = NULL;
	struct covctx ctx = { 0 };
	int i, r = 0, open = 0, errors = 0;

	r = symload_srcpath(o, &sp);
	out.ro.srcpath = sp;
	out.cov = etm_cov_alloc();
	for (i = 0; out.cov && !r && i < c->ninputs; i++) {
		if (open && covctx_merge(&ctx, out.cov) < 0)
			r = 2; /* an earlier input: its processes added up */
		if (open)
			session_close(&s);
		covctx_close(&ctx);
		if (r)
			break;
		o->input = c->inputs[i];
		r = cov_decode(&s, o, out.cov, &ctx, profile);
		open = 1;
		errors |= r == 1;
		r = r == 1 ? 0 : r;
	}
	for (i = 0; out.cov && !r && i < c->nmerge; i++)
		r = cov_merge_file(out.cov, c->merge[i]);
	if (!r && (o->nelfs || o->nimages || !open))
		out.ro.img = uimg = cov_user_image(o);
	else if (!r)
		out.ro.img = s.src[0].img;
	if (!r && (c->symbols || o->nelfs) && !(out.ro.sym = sym = cov_symbols(c, o)))
		r = 2;
	else if (!r && !sym && open && symload_open(&s, &sym) == 0)
		out.ro.sym = sym; /* ELF files the snapshot names as dumps */
	else if (!r && !sym && open)
		r = 2;
	if (!out.cov)
		r = 2;
	if (!r && ctx.n && !cov_per_process(c, profile) &&
	    covctx_merge(&ctx, out.cov) < 0)
		r = 2;
	if (!r && ctx.n && cov_per_process(c, profile))
		r = cov_output_procs(&out, c, &ctx);
	else if (!r)
		r = cov_output(&out, c, profile);
	fflush(stdout);
	cli_dis_close(&out.ro.dis);
	etm_symbols_free(sym);
	etm_srcpath_free(sp);
	etm_image_free(uimg);
	if (open)
		session_close(&s);
	covctx_close(&ctx);
	etm_cov_free(out.cov);
	return r ? r : errors;
}

static int cov_main(int argc, char **argv, int profile)
{
	struct covopts c = { 0 };
	struct opts o = { .cmd = profile ? "fdo" : "coverage" };
	char **rest = calloc((size_t)argc + 2, sizeof(*rest));
	int n, r;

	if (!rest)
		return 2;
	n = split_args(&c, argc, argv, rest);
	if (n == -2) {
		fputs(coverage_help, stdout);
		free(rest);
		return 0;
	}
	if (n >= 0 && !c.ninputs && !c.nmerge)
		fprintf(stderr, "etmtrace %s: no trace input or --merge file\n", o.cmd);
	if (n < 0 || (!c.ninputs && !c.nmerge) || cov_check_format(&c, profile)) {
		free(rest);
		return 2;
	}
	rest[n++] = (char *)(c.ninputs ? c.inputs[0] : ".");
	r = opt_parse(&o, n, rest,
		      "id,protocol,input-format,etmcr,etmccer,etmidr,m-profile,"
		      "image,elf,no-cache,jobs,chunk,pieces,realign,start,stop,last,at,"
		      "source-map,source-dir,symfs,buildid-dir,vmlinux");
	if (!r)
		r = cov_run(&c, &o, profile);
	else
		r = r > 0 ? 0 : 2;
	free(rest);
	return r;
}

int cmd_coverage(int argc, char **argv)
{
	return cov_main(argc, argv, 0);
}

int cmd_fdo(int argc, char **argv)
{
	return cov_main(argc, argv, 1);
}
