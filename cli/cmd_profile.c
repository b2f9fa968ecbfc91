/* cli/cmd_profile.c - `etmtrace profile`: call stacks and per-function
 * counts of the decoded trace, as a flat table, callgrind.out, collapsed
 * stacks or a Perfetto (Chrome trace-event) timeline. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/profile.h>

#include "cmds.h"
#include "diagwarn.h"
#include "par_run.h"
#include "prof_sampled.h"
#include "run_totals.h"
#include "session.h"
#include "symload.h"
#include "winrun.h"

static const char profile_help[] =
	"usage: etmtrace profile <snapshot-dir | trace-file> [options]\n"
	"\n"
	"Rebuild call stacks from the trace and report where the instructions\n"
	"(and cycles) went, per function and per call path.\n"
	"\n"
	"  --format flat|callgrind|folded|perfetto\n"
	"                        flat: self and inclusive counts per function\n"
	"                        (default); callgrind: callgrind.out for\n"
	"                        callgrind_annotate / KCacheGrind; folded:\n"
	"                        'a;b;c N' stacks for flamegraph.pl; perfetto:\n"
	"                        Chrome trace-event JSON for ui.perfetto.dev\n"
	"  --elf FILE[@BIAS]     program image and symbols (repeatable)\n"
	"  --symbols FILE        functions from an 'nm -S' style file (repeatable)\n"
	"  --clock HZ            core clock: cycles to time (perfetto)\n"
	"  --id ID, --image FILE@ADDR, --jobs N, --no-cache, --protocol,\n"
	"  --input-format, --etmcr, --etmccer, --etmidr, --m-profile, --pieces,\n"
	"  --start, --stop, --last, --at: as decode (a window: the profile of\n"
	"  its instructions)\n"
	"  --run-stats           with --jobs N: the parallel run's figures on\n"
	"                        stderr, as decode's (the calling thread's\n"
	"                        share: the ordered apply, the serial part)\n"
	"A capture with ITM/DWT trace only (no ETM/PTM) gives a sampled flat\n"
	"profile of the DWT's periodic PC samples by function, as orbtop does.\n"
	"Exit status, warnings: as decode (1: the profile is incomplete).\n";

static int write_fd(void *ctx, const char *buf, size_t n)
{
	const char *p = buf;
	int fd = *(const int *)ctx;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The profile being built, and what the verdict needs (diagwarn.h);
 * @errors: the profile's error count after the last batch. */
struct prof_run {
	struct etm_profile *p;
	struct etm_diagset *dw;
	struct diagtally t;
	uint64_t errors;
};

/* The tally's walk of the batch is skipped where the verdict cannot
 * change by it: the profile counts the error elements
 * (etm_prof_stats.errors), and once instructions were seen their number
 * is not read (only whether there are any: diagwarn_verdict()). Saves
 * ~8 Ir per element. */
static int prof_batch(void *ctx, const struct etm_elem *els, size_t n)
{
	struct prof_run *pr = ctx;
	struct etm_prof_stats st;
	int r;

	etm_diagset_elems(pr->dw, els, n);
	r = etm_profile_elems(pr->p, els, n);
	etm_profile_stats(pr->p, &st);
	if (r < 0 || st.errors != pr->errors || !pr->t.insns)
		diagtally_count(&pr->t, els, n);
	else
		pr->t.elems += n;
	pr->errors = st.errors;
	return r;
}

static int prof_item(void *ctx, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? prof_batch(ctx, &it->elem, 1) : 0;
}

static enum etm_prof_format prof_format(const char *f)
{
	if (!f || !strcmp(f, "flat"))
		return etm_prof_flat;
	if (!strcmp(f, "callgrind"))
		return etm_prof_callgrind;
	if (!strcmp(f, "folded"))
		return etm_prof_folded;
	return etm_prof_invalid; /* perfetto: the timeline */
}

/* session on_images: a perf.data piece of another process. */
static void profile_images(void *ctx, const struct session *s)
{
	int i;

	for (i = 0; i < s->nsrc; i++)
		etm_profile_add_source(ctx, (uint8_t)s->src[i].id, s->src[i].img,
				       etm_cfg_m_profile(&s->src[i].cfg));
}

static int profile_setup(struct session *s, struct etm_profile *p,
			 const char *format)
{
	etm_ctx_image_fn img_fn;
	void *img_arg;
	static int out_fd = STDOUT_FILENO;
	int i;

	if (format && !strcmp(format, "calls") &&
	    etm_profile_set_calls(p, write_fd, &out_fd) < 0)
		return -1;

	for (i = 0; i < s->nsrc; i++)
		if (etm_profile_add_source(p, (uint8_t)s->src[i].id, s->src[i].img,
					   etm_cfg_m_profile(&s->src[i].cfg)) < 0)
			return -1;
	s->on_images = profile_images; /* each process's own image */
	s->on_images_ctx = p;
	if (etm_capture_ctx_images(s->cap, &img_fn, &img_arg))
		etm_profile_set_ctx_images(p, img_fn, img_arg);
	if (format && !strcmp(format, "callgrind"))
		etm_profile_set_lines(p, 1);
	if (format && !strcmp(format, "perfetto"))
		return etm_profile_set_timeline(p, write_fd, &out_fd,
						symload_ts_hz(s), s->o->clock_hz);
	return 0;
}

/* The run's figures of --run-stats: of the run, and summed. */
struct prof_rstats {
	struct etm_run_stats rs;
	struct etm_run_thread th[RUN_TOTALS_THREADS];
	struct run_totals rf;
};

/* par_profile_run() (-1: not read so), with --run-stats its figures on
 * stderr. */
static int profile_par(struct session *s, struct etm_profile *p,
		       struct prof_run *pr)
{
	struct prof_rstats *f = s->o->run_stats ? calloc(1, sizeof(*f)) : NULL;
	int r;

	if (f)
		run_totals_prepare(&f->rs, f->th, RUN_TOTALS_THREADS);
	r = par_profile_run(s, p, pr->dw, &pr->t, f ? &f->rs : NULL);
	if (f && !r) {
		run_totals_add(&f->rf, &f->rs);
		run_totals_print(stderr, &f->rf);
	}
	free(f);
	return r;
}

static int profile_run(struct session *s, struct opts *o, struct etm_symbols *sy)
{
	struct etm_profile *p = etm_profile_alloc(sy);
	struct prof_run pr = { .p = p };
	int out_fd = STDOUT_FILENO, r;
	struct winrun wr;

	if (!p || profile_setup(s, p, o->format) < 0 ||
	    !(pr.dw = etm_diagset_alloc(session_osrc(s), s->nsrc))) {
		fprintf(stderr, "etmtrace profile: out of memory\n");
		etm_profile_free(p);
		return 2;
	}
	s->jobs = o->jobs ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	s->dw = pr.dw;
	r = winrun_open(&wr, s, o, prof_batch, &pr);
	s->elems = wr.w ? winrun_elems : prof_batch;
	if (!r) /* the lookups on the workers, the stacks here */
		r = s->jobs > 1 && !o->chunk && !s->mem && !s->skip && !wr.w &&
				    !session_live(s) ?
			    profile_par(s, p, &pr) :
			    -1;
	if (r < 0)
		r = wr.w ? session_run(s, winrun_item, &wr) :
			   session_run(s, prof_item, &pr);
	if (!r)
		r = winrun_finish(&wr);
	winrun_close(&wr);
	if (!r && etm_profile_finish(p) < 0)
		r = 2;
	if (!r && prof_format(o->format) != etm_prof_invalid &&
	    etm_profile_write(p, prof_format(o->format), o->input, write_fd,
			      &out_fd) < 0)
		r = 2;
	if (!r)
		r = diagwarn_verdict(pr.dw, s, &pr.t,
				     o->format && !strcmp(o->format, "calls") ? "call trace" : "profile");
	etm_diagset_free(pr.dw);
	s->dw = NULL;
	etm_profile_free(p);
	return r;
}

int profile_calls(struct session *s, struct opts *o, struct etm_symbols *sy)
{
	return profile_run(s, o, sy);
}

int cmd_profile(int argc, char **argv)
{
	struct opts o = { .cmd = "profile" };
	struct etm_symbols *sy = NULL;
	struct session s;
	int r;

	r = opt_parse(&o, argc, argv,
		      "id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,"
		      "image,elf,symbols,clock,no-cache,jobs,chunk,pieces,realign,start,stop,last,at,"
		      "symfs,buildid-dir,vmlinux,ctx-images,run-stats");
	if (r) {
		if (r > 0)
			fputs(profile_help, stdout);
		return r > 0 ? 0 : 2;
	}
	if (o.format && prof_format(o.format) == etm_prof_invalid &&
	    strcmp(o.format, "perfetto")) {
		fprintf(stderr, "etmtrace profile: --format flat|callgrind|folded|perfetto\n");
		return 2;
	}
	r = session_open(&s, &o, etm_dec_elements, 1);
	if (!r)
		r = symload_open(&s, &sy);
	if (!r && prof_sampled_only(&s)) /* ITM/DWT alone: its PC samples */
		r = prof_sampled_run(&s, &o, sy);
	else if (!r)
		r = profile_run(&s, &o, sy);
	etm_symbols_free(sy);
	session_close(&s);
	return r;
}
