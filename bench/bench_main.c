/* bench/bench_main.c - etm_bench: runs each case with etmtrace and with
 * OpenCSD, alternating, every run in its own child process (peak RSS), and
 * prints MiB/s, instructions/s, RSS and the etmtrace/OpenCSD ratio. */
#define _DEFAULT_SOURCE 1 /* wait4() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define MAX_CASES 32

struct opts {
	const char *tc2;     /* TC2 snapshot directory */
	const char *workdir; /* where generated inputs go */
	unsigned tc2_copies; /* TC2 buffer replications */
	uint64_t synth_mib;  /* synthetic trace size */
	uint64_t peer_mib;   /* OpenCSD on the first MiB of synthetic */
	int runs;            /* alternated runs per decoder */
	int jobs;            /* extra etmtrace --jobs run (0 = none) */
	int run_items;       /* --jobs runs through etm_decoder_run() */
	int together;        /* also --jobs one-job decodes at once */
	const char *only;    /* run cases whose name contains this */
	int no_peer;
	int no_synth;
	int generate; /* only write the inputs */
};

/* Start one decoder in a child process; its result comes through *@fd.
 * Returns the child's pid, or -1. */
static pid_t start_child(const struct bench_case *c, int peer, int *fd)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		struct bench_result cr;

		close(pfd[0]);
		memset(&cr, 0, sizeof(cr));
		if (peer)
			bench_ocsd_run(c, &cr);
		else
			bench_etm_run(c, &cr);
		if (write(pfd[1], &cr, sizeof(cr)) != (ssize_t)sizeof(cr))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	*fd = pfd[0];
	return pid;
}

/* The result of child @pid (started by start_child()); its peak RSS and
 * CPU time come from wait4(). */
static int finish_child(pid_t pid, int fd, struct bench_result *r)
{
	struct rusage ru;
	int st;

	memset(r, 0, sizeof(*r));
	if (pid < 0) {
		snprintf(r->msg, sizeof(r->msg), "fork failed");
		return -1;
	}
	if (read(fd, r, sizeof(*r)) != (ssize_t)sizeof(*r)) {
		memset(r, 0, sizeof(*r));
		snprintf(r->msg, sizeof(r->msg), "child failed");
	}
	close(fd);
	while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	r->maxrss_kb = ru.ru_maxrss;
	r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return r->ok ? 0 : -1;
}

/* Run one decoder in a child process. */
static int run_child(const struct bench_case *c, int peer,
		     struct bench_result *r)
{
	int fd = -1;
	pid_t pid = start_child(c, peer, &fd);

	return finish_child(pid, fd, r);
}

/* The control for --jobs N (--together): N one-job decodes of the case
 * at once, each in its own process (no runner, nothing shared): what
 * keeping N cores busy at once costs each decode on this machine (shared
 * caches, memory, clock, the host). Their mean CPU time to *@cpu. Returns
 * 0, or -1 if one failed. */
static int run_together(const struct bench_case *c, int n, double *cpu)
{
	pid_t *pid = calloc((size_t)n, sizeof(*pid));
	int *fd = calloc((size_t)n, sizeof(*fd));
	struct bench_result r;
	int i, bad = !pid || !fd;

	*cpu = 0;
	for (i = 0; !bad && i < n; i++)
		pid[i] = start_child(c, 0, &fd[i]);
	for (i = 0; pid && fd && i < n; i++) {
		bad |= finish_child(pid[i], fd[i], &r) < 0;
		*cpu += r.cpu / n;
	}
	free(pid);
	free(fd);
	return bad ? -1 : 0;
}

/* Best (shortest) of @runs alternated runs of etmtrace and the peer. */
struct best {
	struct bench_result r;
	int have;
	double min_cpu; /* least CPU time of the runs (child process) */
};

static void keep_best(struct best *b, const struct bench_result *r)
{
	long rss = b->have && b->r.maxrss_kb > r->maxrss_kb ? b->r.maxrss_kb :
							      r->maxrss_kb;

	if (!r->ok)
		return;
	if (!b->have || r->cpu < b->min_cpu)
		b->min_cpu = r->cpu;
	if (!b->have || r->secs < b->r.secs)
		b->r = *r;
	b->r.maxrss_kb = rss;
	b->have = 1;
}

static double mibps(const struct bench_result *r)
{
	return r->secs > 0 ? (double)r->bytes / (1024.0 * 1024.0) / r->secs : 0;
}

static double mips(const struct bench_result *r)
{
	return r->secs > 0 ? (double)r->insns / r->secs / 1e6 : 0;
}

static void print_row(const char *who, const struct best *b)
{
	if (!b->have) {
		printf("  %-10s  %s\n", who, b->r.msg[0] ? b->r.msg : "failed");
		return;
	}
	printf("  %-10s %9.1f MiB/s %9.2f Minsn/s %7.3f s %7ld KiB RSS  "
	       "insns %llu pkts %llu elems %llu\n",
	       who, mibps(&b->r),
	       mips(&b->r), b->r.secs, b->r.maxrss_kb,
	       (unsigned long long)b->r.insns,
	       (unsigned long long)b->r.packets,
	       (unsigned long long)b->r.elems);
}

/* The parallel run's figures (etmtrace/runstats.h) and what they predict
 * (doc/performance.md, scaling model): serial share s = the calling
 * thread's CPU / all CPU; overhead o = CPU of --jobs N / CPU of one job
 * - 1, the least of each one's runs (redundant decode, checkpoints,
 * queues; and what two busy cores cost, see --together); on n cores
 * S(n) = 1 / (s + (1 - s) (1 + o) / n), in CPU time (so a loaded
 * machine's wall times do not enter). */
static void print_figures(const struct best *one, const struct best *bpar,
			  int jobs)
{
	static const int cores[] = { 2, 4, 8, 16, 64 };
	const struct bench_result *par = &bpar->r;
	double s = par->cpu > 0 ? par->caller_cpu / par->cpu : 0;
	/* the least CPU time of each one's runs (not of its fastest run:
	 * on a shared machine the fastest is the one least preempted, and
	 * with two threads that is a different run from one's) */
	double o = one->min_cpu > 0 ? bpar->min_cpu / one->min_cpu - 1 : 0;
	unsigned i;

	printf("  figures --jobs %d: serial %.2f%% (%.3f of %.3f s CPU), "
	       "redundant %.2f%% of input, CPU %+.1f%% over one job, workers "
	       "waited %.3f s, idle at the end %.3f s, %llu chunks (%llu "
	       "void)\n",
	       jobs, 100 * s, par->caller_cpu, par->cpu,
	       100.0 * (double)(par->decoded - par->bytes) / (double)par->bytes,
	       100 * o, par->worker_wait, par->idle_end,
	       (unsigned long long)par->chunks,
	       (unsigned long long)par->chunks_void);
	printf("  predicted speed-up (CPU time):");
	for (i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		printf(" %d cores %.1fx%s", cores[i],
		       1 / (s + (1 - s) * (1 + (o > 0 ? o : 0)) / cores[i]),
		       i + 1 < sizeof(cores) / sizeof(cores[0]) ? "," : "\n");
}

/* The --together control's figures: the least mean CPU time @tog of
 * N one-job decodes at once against one alone (@one) and the --jobs N
 * run's (@par, the least of its runs). */
static void print_together(double one, double tog, double par, int jobs)
{
	double z = tog / one - 1, o = par / one - 1;

	printf("  control: %d one-job decodes at once: CPU %+.1f%% each over "
	       "one alone; --jobs %d CPU %+.1f%% over one job, %+.1f%% over "
	       "the control (the runner's own); speed-up at most %.2fx by "
	       "CPU\n",
	       jobs, 100 * z, jobs, 100 * o, 100 * ((1 + o) / (1 + z) - 1),
	       jobs / (1 + (z > 0 ? z : 0)));
}

/* One round of the case's alternated runs: etmtrace, the peer, etmtrace
 * with --jobs, and the --together control (least mean CPU to *@tog). */
static void run_round(struct bench_case *c, const struct opts *o, int peer,
		      struct best *be, struct best *bo, struct best *bj,
		      double *tog)
{
	struct bench_result r;
	double t;

	c->jobs = 1;
	run_child(c, 0, &r);
	if (!r.ok)
		be->r = r;
	keep_best(be, &r);
	if (peer) {
		run_child(c, 1, &r);
		if (!r.ok)
			bo->r = r;
		keep_best(bo, &r);
	}
	if (o->jobs > 1 && c->full) {
		c->jobs = o->jobs;
		c->run_items = o->run_items;
		run_child(c, 0, &r);
		if (!r.ok)
			bj->r = r;
		keep_best(bj, &r);
		c->jobs = 1;
		if (o->together && run_together(c, o->jobs, &t) == 0 &&
		    (*tog == 0 || t < *tog))
			*tog = t;
	}
}

/* Runs one case; returns 1 if it failed (decoders disagree). */
static int run_case(struct bench_case *c, const struct opts *o, int peer)
{
	struct best be = { 0 }, bo = { 0 }, bj = { 0 };
	double tog = 0;
	int i, fail = 0;

	printf("%s (%s, %s)\n", c->name, etm_protocol_name(c->cfg.protocol),
	       c->full ? "full decode" : "packets only");
	fflush(stdout);
	for (i = 0; i < o->runs; i++)
		run_round(c, o, peer, &be, &bo, &bj, &tog);
	print_row("etmtrace", &be);
	if (o->jobs > 1 && c->full)
		print_row("etm -j", &bj);
	if (peer)
		print_row("OpenCSD", &bo);
	if (be.have && bj.have && (bj.r.insns != be.r.insns || bj.r.elems != be.r.elems)) {
		printf("  FAIL: --jobs %d gives different totals\n", o->jobs);
		fail = 1;
	}
	if (be.have && bo.have) {
		uint64_t a = c->full ? be.r.insns : be.r.packets;
		uint64_t b = c->full ? bo.r.insns : bo.r.packets;

		if (a != b && c->full) {
			printf("  FAIL: instruction counts differ (%llu vs %llu)\n",
			       (unsigned long long)a, (unsigned long long)b);
			fail = 1;
		} else {
			printf("  ratio etmtrace/OpenCSD: %.1fx (%s)%s\n",
			       c->full ? mips(&be.r) / mips(&bo.r) :
					 mibps(&be.r) / mibps(&bo.r),
			       c->full ? "instructions/s" : "MiB/s",
			       a != b ? "  [packet counts differ: "
					"different packet granularity]" :
					"");
			/* on a shared machine the wall time of a run
			 * depends on the CPU it got: the least CPU time of
			 * each decoder's child (set-up included) too */
			if (be.min_cpu > 0 && bo.min_cpu > 0)
				printf("  ratio by CPU time: %.1fx\n",
				       bo.min_cpu / be.min_cpu);
		}
	}
	if (be.have && bj.have)
		printf("  speed-up --jobs %d: %.2fx\n", o->jobs,
		       be.r.secs / bj.r.secs);
	if (be.have && bj.have && bj.r.chunks)
		print_figures(&be, &bj, o->jobs);
	if (be.have && bj.have && tog > 0)
		print_together(be.min_cpu, tog, bj.min_cpu, o->jobs);
	fflush(stdout);
	return fail;
}

/* Replicate TC2's buffer @copies times into @path. */
static int replicate(const char *src, const char *path, unsigned copies)
{
	static uint8_t buf[1 << 20];
	struct stat st;
	ssize_t n;
	int in, out;
	unsigned i;

	if (stat(path, &st) == 0 && st.st_size > 0) {
		struct stat ss;

		if (stat(src, &ss) == 0 && st.st_size == ss.st_size * copies)
			return 0;
	}
	in = open(src, O_RDONLY);
	if (in < 0)
		return -1;
	n = read(in, buf, sizeof(buf));
	close(in);
	if (n <= 0)
		return -1;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		return -1;
	for (i = 0; i < copies; i++)
		if (write(out, buf, (size_t)n) != n) {
			close(out);
			return -1;
		}
	close(out);
	return 0;
}

/* TC2 source @id: configuration and core memory from the snapshot. */
static int tc2_case(struct bench_case *c, const struct etm_snapshot *snap,
		    unsigned id, const char *trace, int full, const char *name)
{
	const struct etm_snap_source *s = etm_snapshot_find(snap, id);
	size_t i;

	if (!s)
		return -1;
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->trace = trace;
	c->fmt = etm_fmt_coresight;
	c->cfg = s->cfg;
	c->full = full;
	for (i = 0; i < s->ndumps && c->nmem < BENCH_MAX_MEM; i++) {
		struct bench_mem *m = &c->mem[c->nmem++];
		struct stat st;

		m->addr = s->dumps[i].addr;
		m->path = s->dumps[i].path;
		m->offset = s->dumps[i].offset;
		m->length = s->dumps[i].length;
		if (!m->length && stat(m->path, &st) == 0)
			m->length = (uint64_t)st.st_size - m->offset;
	}
	return 0;
}

static void usage(void)
{
	puts("usage: etm_bench [options]\n"
	     "  --tc2 DIR        TC2 snapshot (default build/testdata/snapshots/TC2)\n"
	     "  --workdir DIR    where generated inputs go (default /tmp/etm_bench)\n"
	     "  --copies N       TC2 buffer replications (default 2048 = 64 MiB)\n"
	     "  --synth-mib N    synthetic trace size (default 256)\n"
	     "  --peer-mib N     OpenCSD decodes the first N MiB of synthetic\n"
	     "                   traces (default 16; etmtrace is timed on the\n"
	     "                   same prefix for the ratio and on all of it)\n"
	     "  --runs N         alternated runs per decoder (default 3)\n"
	     "  --jobs N         also time etmtrace with N threads (counting on\n"
	     "                   the workers: etm_decoder_run_ops)\n"
	     "  --run-items      --jobs through etm_decoder_run() instead (every\n"
	     "                   item copied to the calling thread)\n"
	     "  --together       with --jobs N: also N one-job decodes at\n"
	     "                   once (the control: what N busy cores cost\n"
	     "                   each decode on this machine, without the\n"
	     "                   runner)\n"
	     "  --only STR       cases whose name contains STR\n"
	     "  --no-peer        etmtrace only\n"
	     "  --no-synth       TC2 cases only\n"
	     "  --generate       only write the inputs of the selected cases\n"
	     "                   (TC2 replica, synthetic traces and programs)");
}

static int parse(struct opts *o, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-peer")) {
			o->no_peer = 1;
			continue;
		}
		if (!strcmp(a, "--no-synth")) {
			o->no_synth = 1;
			continue;
		}
		if (!strcmp(a, "--generate")) {
			o->generate = 1;
			continue;
		}
		if (!strcmp(a, "--together")) {
			o->together = 1;
			continue;
		}
		if (!strcmp(a, "--run-items")) {
			o->run_items = 1;
			continue;
		}
		if (!v || strncmp(a, "--", 2)) {
			usage();
			return -1;
		}
		i++;
		if (!strcmp(a, "--tc2"))
			o->tc2 = v;
		else if (!strcmp(a, "--workdir"))
			o->workdir = v;
		else if (!strcmp(a, "--copies"))
			o->tc2_copies = (unsigned)atoi(v);
		else if (!strcmp(a, "--synth-mib"))
			o->synth_mib = (uint64_t)atoll(v);
		else if (!strcmp(a, "--peer-mib"))
			o->peer_mib = (uint64_t)atoll(v);
		else if (!strcmp(a, "--runs"))
			o->runs = atoi(v);
		else if (!strcmp(a, "--jobs"))
			o->jobs = atoi(v);
		else if (!strcmp(a, "--only"))
			o->only = v;

		else {
			usage();
			return -1;
		}
	}
	if (o->runs < 1)
		o->runs = 1;
	return 0;
}

static int selected(const struct opts *o, const char *name)
{
	return !o->only || strstr(name, o->only);
}

static int tc2_cases(const struct opts *o, int peer)
{
	static const struct {
		unsigned id;
		int full;
		const char *name;
	} tc[] = {
		{ 0x13, 0, "tc2-ptm-packets" },
		{ 0x10, 0, "tc2-etm3-packets" },
		{ 0x13, 1, "tc2-ptm-decode" },
		{ 0x10, 1, "tc2-etm3-decode" },
	};
	char err[256], src[1024], big[1024];
	struct etm_snapshot *snap = NULL;
	struct bench_case c;
	int fail = 0;
	unsigned i;

	for (i = 0; i < sizeof(tc) / sizeof(tc[0]) && !selected(o, tc[i].name);
	     i++)
		;
	if (i == sizeof(tc) / sizeof(tc[0]))
		return 0;
	if (etm_snapshot_load(&snap, o->tc2, err, sizeof(err)) < 0) {
		printf("TC2 snapshot: %s (skipped)\n", err);
		return 0;
	}
	snprintf(src, sizeof(src), "%s/cstrace.bin", o->tc2);
	snprintf(big, sizeof(big), "%s/tc2-x%u.bin", o->workdir, o->tc2_copies);
	if (replicate(src, big, o->tc2_copies) < 0) {
		printf("cannot write %s\n", big);
		etm_snapshot_free(snap);
		return 1;
	}
	printf("TC2 buffer x %u = %.1f MiB (%s)\n\n", o->tc2_copies,
	       o->tc2_copies * 32768.0 / 1048576.0, big);
	if (o->generate) {
		etm_snapshot_free(snap);
		return 0;
	}
	for (i = 0; i < sizeof(tc) / sizeof(tc[0]); i++) {
		if (!selected(o, tc[i].name))
			continue;
		if (tc2_case(&c, snap, tc[i].id, big, tc[i].full, tc[i].name) < 0)
			continue;
		fail |= run_case(&c, o, peer);
	}
	etm_snapshot_free(snap);
	return fail;
}

static int synth_cases(const struct opts *o, int peer)
{
	static const struct {
		enum etm_protocol p;
		enum bench_prog g;
		const char *name;
	} sc[] = {
		{ etm_proto_ptm, bench_prog_loop, "synth-ptm-loop" },
		{ etm_proto_ptm, bench_prog_branch, "synth-ptm-branch" },
		{ etm_proto_etmv3, bench_prog_loop, "synth-etm3-loop" },
		{ etm_proto_etmv3, bench_prog_branch, "synth-etm3-branch" },
		/* ETMv1: no peer decodes it; compare with the ETMv3 cases of
		 * the same programs (instructions/s) */
		{ etm_proto_etmv1, bench_prog_loop, "synth-etm1-loop" },
		{ etm_proto_etmv1, bench_prog_branch, "synth-etm1-branch" },
	};
	char tp[1024], pp[1024], name[128];
	struct bench_case c;
	struct opts po = *o;
	int fail = 0;
	unsigned i;

	for (i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		if (!selected(o, sc[i].name))
			continue;
		/* ".v2": written by the encoder that gives an address packet
		 * on every ISA change (BLX imm); an older input, without
		 * them, is not reused (the decoder reports it as mismatches) */
		snprintf(tp, sizeof(tp), "%s/%s.v2.bin", o->workdir,
			 sc[i].name);
		snprintf(pp, sizeof(pp), "%s/%s.v2.prog", o->workdir,
			 sc[i].name);
		if (bench_synth(&c, sc[i].p, sc[i].g, o->synth_mib << 20, tp,
				pp) < 0) {
			fail = 1;
			continue;
		}
		if (o->generate) {
			printf("%s %s\n", tp, pp);
			continue;
		}
		c.full = 1;
		if (peer && sc[i].p != etm_proto_etmv1 && o->peer_mib &&
		    o->peer_mib < o->synth_mib) {
			/* the ratio on a prefix both decoders can finish */
			snprintf(name, sizeof(name), "%s (first %llu MiB)",
				 sc[i].name, (unsigned long long)o->peer_mib);
			c.name = name;
			c.limit = o->peer_mib << 20;
			fail |= run_case(&c, o, peer);
			c.limit = 0;
			po.runs = 1;
			c.name = sc[i].name;
			fail |= run_case(&c, &po, 0);
		} else {
			c.name = sc[i].name;
			fail |= run_case(&c, o, peer && sc[i].p != etm_proto_etmv1);
		}
	}
	return fail;
}

/* ITM/DWT (no peer is packaged: the ETM cases' MiB/s are the yardstick):
 * packets only, and elements. */
static int itm_cases(const struct opts *o)
{
	static const struct {
		int full;
		const char *name;
	} ic[] = { { 0, "synth-itm-packets" }, { 1, "synth-itm-decode" } };
	char tp[1024];
	struct bench_case c;
	int fail = 0;
	unsigned i;

	for (i = 0; i < sizeof(ic) / sizeof(ic[0]); i++) {
		if (!selected(o, ic[i].name))
			continue;
		snprintf(tp, sizeof(tp), "%s/synth-itm.bin", o->workdir);
		if (bench_itm_synth(&c, o->synth_mib << 20, tp) < 0) {
			fail = 1;
			continue;
		}
		if (o->generate) {
			printf("%s\n", tp);
			continue;
		}
		c.name = ic[i].name;
		c.full = ic[i].full;
		fail |= run_case(&c, o, 0);
	}
	return fail;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.tc2 = "build/testdata/snapshots/TC2", .workdir = "/tmp/etm_bench", .tc2_copies = 2048, .synth_mib = 256, .peer_mib = 16, .runs = 3
	};
	char ver[64];
	int peer, fail = 0;

	if (parse(&o, argc, argv) < 0)
		return 2;
	peer = bench_ocsd_available(ver, sizeof(ver)) && !o.no_peer;
	mkdir(o.workdir, 0755);
	printf("etm_bench: etmtrace %s vs OpenCSD %s%s\n", ETM_BENCH_VERSION, ver,
	       peer ? "" : " (peer skipped)");
	printf("each decoder in its own process, %d alternated run%s, best time; "
	       "input streamed in %u KiB reads\n\n",
	       o.runs, o.runs > 1 ? "s" : "",
	       BENCH_CHUNK >> 10);
	fail |= tc2_cases(&o, peer);
	if (!o.no_synth)
		fail |= synth_cases(&o, peer) | itm_cases(&o);
	printf("\n%s\n", fail       ? "FAILED: see above" :
			 o.generate ? "inputs written" :
				      "all cases agree");
	return fail;
}
