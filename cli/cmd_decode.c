/* cli/cmd_decode.c - `etmtrace decode`: the executed instructions as a
 * readable listing, the canonical list (../shared/tools/canon.py format),
 * JSON lines of elements, or totals only (--stats). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <etmtrace/srcpath.h>

#include "cmds.h"
#include "par_run.h"
#include "diagwarn.h"
#include "dis.h"
#include "perfscript.h"
#include "run_totals.h"
#include "symload.h"
#include "winrun.h"

static const char decode_help[] =
	"usage: etmtrace decode <snapshot-dir | trace-file> [options]\n"
	"\n"
	"Decode trace into the instructions the core executed.\n"
	"\n"
	"  --id ID               only this trace ID, hex (repeatable, across\n"
	"                        buffers; default: all)\n"
	"  --format text|canon|jsonl|calls|perf-script|data\n"
	"                        text: one instruction per line with exceptions,\n"
	"                        gaps, context and timestamps (default);\n"
	"                        canon: 'ADDRESS A|T[ N]' lines and GAP (one ID only);\n"
	"                        jsonl: one JSON object per decoded element;\n"
	"                        calls: one line per call, return, exception,\n"
	"                        exception return, jump into another function,\n"
	"                        indented by call path, with function, caller\n"
	"                        and source line (the stacks of `profile`)\n"
	"                        perf-script: the taken branches as `perf script\n"
	"                        --itrace=b -F ip,addr,flags' prints them\n"
	"                        data: ETMv3 data transfers, 'INSN R|W DATA_ADDR\n"
	"                        VALUE SIZE' in hex, '-' where the trace does not\n"
	"                        say (doc/datatrace.md)\n"
	"  --data-only           ETMv3 data trace: list the data transfers alone\n"
	"  --data-range LO-HI    only the data transfers at addresses LO..HI\n"
	"                        (both included), e.g. 0x40021000-0x400213ff\n"
	"  --stats               decode fully, print only totals and speed\n"
	"                        (with --jobs N: the threads' CPU time, serial\n"
	"                        and redundant shares: the `parallel' lines)\n"
	"  --run-stats           those `parallel' lines on stderr (any format)\n"
	"  --image FILE@ADDR     raw binary image loaded at ADDR (repeatable)\n"
	"  --elf FILE[@BIAS]     executable segments of an ELF file, and its\n"
	"                        symbols and lines: func+0xoff per instruction,\n"
	"                        symbolized branch targets (repeatable)\n"
	"  --vmlinux FILE        perf.data: the kernel's ELF (as --elf)\n"
	"  --symfs DIR           perf.data: its mapped files under DIR\n"
	"  --buildid-dir DIR     perf.data: mapped files by build id in DIR's\n"
	"                        .build-id/ (default ~/.debug)\n"
	"  --symbols FILE        functions from an 'nm -S' style file (repeatable)\n"
	"  --source              the source line (and its text, when the file is\n"
	"                        found) before the instructions that change it\n"
	"  --source-map OLD=NEW  source files under directory OLD (as the\n"
	"                        debug information names them) are under NEW\n"
	"                        here (repeatable; the first OLD that matches\n"
	"                        applies; '/' and '\\' alike; C: ignores case)\n"
	"  --source-dir DIR      look for source files in DIR: by their path,\n"
	"                        then its tails down to the file name (repeatable)\n"
	"  --fields F,F,...      text: instruction lines of these columns, in this\n"
	"                        order (perf script -F style): offset, id (trace\n"
	"                        ID), addr, isa, opcode, insn (disassembly), atom\n"
	"                        (E/N), sym (func+0xoff), src (file:line), cycles,\n"
	"                        ts (last timestamp), ctx (last context ID);\n"
	"                        '-- ' event lines are as without --fields\n"
	"  --offsets [dec|hex]   input offset of the packet behind each line,\n"
	"                        '@1234' (decimal, the default) or '@0x000004d2'\n"
	"  --clock HZ            clock of timestamps and cycles (default: the\n"
	"                        snapshot's trace.ini frequency): times in seconds\n"
	"  --no-cache            disable the decoded-block cache\n"
	"  --jobs N              decode on N threads (default: one per CPU);\n"
	"                        the output is the same for every N\n"
	"  --verify              hold each source's output until its next periodic\n"
	"                        I-sync confirms it; trace that a later check\n"
	"                        rejects is preceded by an 'unverified' error\n"
	"                        (one thread; see doc/robustness.md)\n"
	"  --verify-drop         --verify, and leave the rejected trace out: the\n"
	"                        'unverified' error stays, the elements it puts\n"
	"                        in doubt are dropped (counted on stderr)\n"
	"  --verbose             say which sources are decoded from which buffer\n"
	"A window (doc/window.md; with --stats: the window's totals):\n"
	"  --start B, --stop B   from bound B on / up to (not with) bound B:\n"
	"                        0xADDR the first executed instruction there,\n"
	"                        @OFFSET the first element of that input offset\n"
	"                        or later, ts:VALUE the first timestamp of that\n"
	"                        value or more, #N the instruction of index N\n"
	"                        (0: the first decoded); a range is cut at the\n"
	"                        exact instruction\n"
	"  --last N              only the last N instructions (of the window)\n"
	"  --at end|halt         --last before the end (default), or before each\n"
	"                        Debug Halt and trace stop (and the end)\n"
	"Live input (doc/live.md): tcp://HOST:PORT (OpenOCD's TPIU/SWO output,\n"
	"orbuculum), a FIFO, or `-` (standard input) is decoded as it arrives,\n"
	"the output written after each read; Ctrl-C ends it with the totals.\n"
	"Detection and inference see its first bytes (up to 256 KiB):\n"
	"  --probe-wait MS       wait at most MS ms after the first byte for\n"
	"                        them (default 1000; 0: decode from the first read)\n"
	"Configuration: a snapshot's, or for a trace file found from the bytes -\n"
	"the input format detected, the registers inferred by probing the trace\n"
	"against the image (printed); options always win, on a snapshot too:\n"
	"  --protocol etmv3|ptm|etmv1  trace protocol\n"
	"  --input-format FMT    raw: one source's bytes; coresight: 16-byte\n"
	"                        formatter frames from byte 0 (ETB/ETF/ETR memory);\n"
	"                        tpiu: frames found by FSYNC (TPIU port capture),\n"
	"                        or without FSYNC by their structure (SWO);\n"
	"                        tpiu-nofsync: TPIU frames from byte 0 (SWO)\n"
	"  --etmcr V --etmccer V --etmidr V   configuration registers\n"
	"  --m-profile           the core is ARMv7-M\n"
	"  --allow-outside       follow snapshot file references that leave the\n"
	"                        snapshot directory (refused by default)\n"
	"A CoreSight buffer read from its write pointer (ETB dump) may hold pieces\n"
	"of several times (doc/circular.md): each is decoded on its own, listed\n"
	"with '-- piece N of M' lines:\n"
	"  --order time|file     pieces in time order (default) or as in the file\n"
	"  --pieces on|off       on: also buffers over 256 KiB (default: up to\n"
	"                        256 KiB); off: the buffer is one input\n"
	"  --realign off|basic|precise  recovery of a lost frame alignment (bytes\n"
	"                        lost or inserted): basic holds elements back only\n"
	"                        once damage is suspected; precise (default) always\n"
	"                        (doc/realign.md)\n"
	"ETMv1 (trace file of samples: etmtrace binary or text, OpenOCD `etm dump`,\n"
	"or an ETB RAM image; doc/etmv1.md; the binary file and the dump are\n"
	"recognised, the others need --protocol etmv1 or --samples):\n"
	"  --samples bin|text|openocd|etb  sample file format (default: sniffed;\n"
	"                        no header: etb)\n"
	"  --etmccr V            ETMCCR (ETMv1 version in [30:28])\n"
	"Trace IDs are hex, as listings print them: --id 13 is 0x13.\n"
	"Exit status: 0 ok; 1 no instructions decoded, or trace lost (error\n"
	"elements) or contradicted by the image or configuration (one-line\n"
	"reason on stderr); 2 usage or input error. A packet cut by the end of\n"
	"the trace buffer is a note, not an error (doc/robustness.md).\n";

/* A decode's listing and what it writes to and counts into. */
struct decode_out {
	struct etm_listing *l;
	struct etm_diagset *dw; /* configuration diagnostics */
	enum etm_listing_format fmt;
	int fd;  /* standard output */
	int err; /* errno of the first failed write */
	/* the worker threads' figures: of the last run, and summed */
	struct etm_run_stats rs;
	struct etm_run_thread th[RUN_TOTALS_THREADS];
	struct run_totals rf;
};

/* The listing's write callback: the text to d->fd. */
static int decode_write(void *ctx, const char *p, size_t n)
{
	struct decode_out *d = ctx;

	while (n && !d->err) {
		ssize_t k = write(d->fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			d->err = errno;
		else {
			p += k;
			n -= (size_t)k;
		}
	}
	return d->err ? -etme_io : 0;
}

static void print_stats(const struct session *s,
			const struct etm_listing_counts *n, double secs)
{
	double mib = (double)s->input_bytes / (1024.0 * 1024.0);
	int k;

	printf("input bytes      %llu\n", (unsigned long long)s->input_bytes);
	printf("packets          %llu\n",
	       (unsigned long long)etm_decoder_packet_count(s->dec));
	printf("instructions     %llu\n", (unsigned long long)n->insns);
	for (k = 1; k < etmk_num_kinds; k++)
		if (n->elems[k])
			printf("elements %-12s %llu\n",
			       etm_elem_kind_name((enum etm_elem_kind)k),
			       (unsigned long long)n->elems[k]);
	printf("errors           %llu\n", (unsigned long long)n->errors);
	printf("gaps             %llu\n",
	       (unsigned long long)(n->elems[etmk_trace_on] + n->elems[etmk_nomem] +
				    n->elems[etmk_nosync] + n->elems[etmk_error]));
	printf("elapsed          %.3f s\n", secs);
	if (s->e1 && secs > 0) /* ETMv1: one sample per core cycle */
		printf("samples (cycles) %llu, %.1f M cycles/s\n",
		       (unsigned long long)(s->input_bytes / ETM_E1_REC),
		       (double)(s->input_bytes / ETM_E1_REC) / secs / 1e6);
	if (secs > 0)
		printf("throughput       %.1f MiB/s, %.1f M instructions/s\n",
		       mib / secs, (double)n->insns / secs / 1e6);
}

/* The exit status rule (--help, README; diagwarn_verdict()). */
static int decode_verdict(const struct session *s, const struct decode_out *d,
			  const struct etm_listing_counts *n)
{
	struct diagtally t = { .insns = n->insns, .errors = n->errors };
	int i;

	for (i = 0; i < etmk_num_kinds; i++)
		t.elems += n->elems[i];
	if (!t.insns && (s->o->win_start.kind || s->o->win_stop.kind)) {
		fprintf(stderr, "etmtrace: no instructions in the window (--start "
				"never came, or --stop came first)\n");
		return 1;
	}
	return diagwarn_verdict(d->dw, s, &t, "listing");
}

/* The chosen buffer on worker threads (etm_listing_run()): 0, 1 if it is
 * not read so, or 2 (error printed). */
static int decode_par(struct session *s, struct decode_out *d)
{
	int r;

	run_totals_prepare(&d->rs, d->th, RUN_TOTALS_THREADS);
	d->rs.threads = 0;
	r = par_listing_run(s, d->l);
	if (r == 0)
		run_totals_add(&d->rf, &d->rs);
	if (r < 0 && !d->err) /* else the output's error, reported later */
		fprintf(stderr, "etmtrace: %s: decoder: %s\n", s->trace_path,
			etm_errstr(r));
	return r < 0 ? 2 : r;
}

/* Every buffer of the capture in turn. */
static int decode_buffers(struct session *s, struct decode_out *d)
{
	struct etm_capture_sink ls;
	struct winrun wr;
	void *lctx;
	size_t b;
	int r;

	if (etm_listing_capture_sink(d->l, &ls, &lctx) < 0)
		return 2;
	r = winrun_open(&wr, s, s->o, ls.elems, lctx);
	for (b = 0; b < session_nbuffers(s) && !r && !winrun_done(&wr); b++) {
		if (session_select(s, b) < 0)
			continue;
		/* several jobs on a file range: formatted on the workers;
		 * with a window, decoded there and formatted here in order */
		r = s->jobs > 1 && !s->o->chunk && !wr.w ? decode_par(s, d) : 1;
		d->rf.serial += r == 1 && s->jobs > 1 && !s->o->chunk && !wr.w;
		s->elems = wr.w ? winrun_elems : ls.elems;
		if (r == 1)
			r = wr.w ? session_run_buffer(s, winrun_item, &wr) :
				   session_run_buffer(s, ls.item, lctx);
		etm_listing_flush(d->l);
	}
	if (!r)
		r = winrun_finish(&wr);
	etm_listing_flush(d->l);
	winrun_close(&wr);
	return r;
}

/* The listing options that ask for annotations: symbols (loaded into *@sy,
 * NULL if none), source lines, offsets, the clock. Returns 0 or 2 (error
 * printed). */
static int decode_annotations(const struct session *s, const struct opts *o,
			      struct etm_symbols **sy, struct etm_srcpath **sp,
			      struct etm_listing_opts *lo)
{
	if (o->fields && o->format && strcmp(o->format, "text")) {
		fprintf(stderr, "etmtrace decode: --fields is for the text listing (--format text)\n");
		return 2;
	}
	lo->fields = o->fields;
	lo->clock_hz = o->clock_hz > 0 ? o->clock_hz : symload_ts_hz(s);
	if (symload_srcpath(o, sp) || symload_open(s, sy))
		return 2;
	lo->srcpath = *sp;
	etm_symbols_hook(*sy, &lo->sym);
	lo->source_lines = o->source;
	lo->offsets = o->offsets;
	etm_capture_ctx_images(s->cap, &lo->ctx_img, &lo->ctx_img_arg);
	lo->data_only = o->data_only;
	lo->data_range = o->data_range;
	lo->data_lo = o->data_lo;
	lo->data_hi = o->data_hi;
	return 0;
}
/* The sources with instructions (ITM/DWT has none: the canonical list
 * leaves it out). */
static int session_flow_sources(const struct session *s)
{
	int i, n = 0;

	for (i = 0; i < s->nsrc; i++)
		n += s->src[i].cfg.protocol != etm_proto_itm;
	return n;
}

/* What the session and the options allow after the session is open;
 * 0 or 2 (error printed). */
static int decode_check(struct session *s, const struct opts *o,
			enum etm_listing_format fmt)
{
	if (fmt == etm_listing_canon && session_flow_sources(s) != 1) {
		fprintf(stderr, "etmtrace decode: --format canon needs exactly one trace source (use --id)\n");
		return 2;
	}
	s->jobs = o->jobs ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (session_live(s)) /* decoded as it comes */
		s->jobs = 1;
	if (o->verify && s->e1) {
		fprintf(stderr, "etmtrace decode: --verify is for ETMv3/PTM (periodic I-sync)\n");
		return 2;
	}
	if (o->verify && session_verify(s))
		return 2;
	if (!session_osrc(s)) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	return 0;
}

/* Decode into the listing @d set up, print the verdict, the warnings
 * and the figures; returns the exit status. */
static int decode_run(struct session *s, const struct opts *o,
		      struct decode_out *d)
{
	struct etm_listing_counts n;
	struct timespec t0, t1;
	int r, v = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	s->dw = d->dw;
	r = decode_buffers(s, d);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (d->err) {
		fprintf(stderr, "etmtrace: writing the output: %s\n",
			strerror(d->err));
		r = 2;
	}
	if (!r && s->vdropped)
		fprintf(stderr, "etmtrace: --verify-drop: %llu elements of rejected "
				"trace left out\n",
			(unsigned long long)s->vdropped);
	etm_listing_counts(d->l, &n);
	if (!r)
		v = decode_verdict(s, d, &n);
	s->dw = NULL;
	if (d->fmt == etm_listing_count && !r)
		print_stats(s, &n, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (!o->run_stats) /* the one-thread line: --run-stats only */
		d->rf.serial = 0;
	if ((d->fmt == etm_listing_count || o->run_stats) && !r)
		run_totals_print(o->run_stats ? stderr : stdout, &d->rf);
	return r ? r : v;
}

/* --format calls: the call trace of the profile's stacks. */
static int decode_calls(struct opts *o)
{
	struct etm_symbols *sy = NULL;
	struct session s;
	int r;

	if (o->stats || o->verify || o->offsets || o->source) {
		fprintf(stderr, "etmtrace decode: --format calls takes none of --stats, "
				"--verify, --offsets, --source (it shows source lines)\n");
		return 2;
	}
	r = session_open(&s, o, etm_dec_elements, 1);
	if (!r)
		r = symload_open(&s, &sy);
	if (!r)
		r = profile_calls(&s, o, sy);
	etm_symbols_free(sy);
	session_close(&s);
	return r;
}

/* A live stream's output written after each read (@ctx: the listing). */
static void decode_flush(void *ctx)
{
	etm_listing_write_out(ctx);
}

/* A perf.data piece of another process: the listing reads its images. */
static void decode_images(void *ctx, const struct session *s)
{
	struct decode_out *d = ctx;

	etm_listing_set_images(d->l, s->osrc, (size_t)s->nsrc);
}

static struct etm_disasm_hook decode_dis_open(void *ctx)
{
	(void)ctx;
	return cli_dis_open();
}

static void decode_dis_close(void *ctx, struct etm_disasm_hook *h)
{
	(void)ctx;
	cli_dis_close(h);
}

/* The listing and the diagnostics of @d as @lo says, for the session's
 * sources, written to standard output; 0 or 2 (error printed). */
static int decode_out_open(struct session *s, struct decode_out *d,
			   struct etm_listing_opts *lo)
{
	char why[256] = "";
	int r;

	d->fd = STDOUT_FILENO;
	lo->format = d->fmt;
	lo->src = session_osrc(s);
	lo->nsrc = (size_t)s->nsrc;
	lo->write = decode_write;
	lo->write_ctx = d;
	lo->dis_open = decode_dis_open;
	lo->dis_close = decode_dis_close;
	lo->run_stats = &d->rs;
	lo->err = why;
	lo->errlen = sizeof(why);
	d->dw = etm_diagset_alloc(lo->src, s->nsrc);
	lo->diag = d->dw;
	r = d->dw ? etm_listing_alloc(&d->l, lo) : -etme_nomem;
	if (r == -etme_invalid && why[0]) {
		fprintf(stderr, "etmtrace decode: --fields: %s\n", why);
		return 2;
	}
	if (r < 0) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	s->flush = decode_flush;
	s->flush_ctx = d->l;
	s->on_images = decode_images;
	s->on_images_ctx = d;
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	static struct decode_out d;
	struct opts o = { .cmd = "decode" };
	struct etm_listing_opts lo = { .size = sizeof(lo) };
	struct etm_symbols *sy = NULL;
	struct etm_srcpath *sp = NULL;
	struct session s;
	int r;

	r = opt_parse(&o, argc, argv,
		      "id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,"
		      "image,elf,stats,run-stats,no-cache,jobs,chunk,verify,symbols,source,offsets,clock,fields,"
		      "allow-outside,verbose,verify-drop,etmccr,samples,order,pieces,realign,start,stop,last,at,"
		      "source-map,source-dir,symfs,buildid-dir,vmlinux,ctx-images,probe-wait,data-only,data-range");
	if (r) {
		if (r > 0)
			fputs(decode_help, stdout);
		return r > 0 ? 0 : 2;
	}
	if (o.format && !strcmp(o.format, "calls"))
		return decode_calls(&o);
	d.fmt = o.stats ? etm_listing_count : !o.format || !strcmp(o.format, "text") ? etm_listing_text :
				      !strcmp(o.format, "canon")                     ? etm_listing_canon :
				      !strcmp(o.format, "data")                      ? etm_listing_data :
										       etm_listing_jsonl;
	r = session_open(&s, &o, etm_dec_elements, 1);
	if (!r && o.format && !strcmp(o.format, "perf-script")) {
		r = perfscript_run(&s);
		session_close(&s);
		return r;
	}
	if (!r)
		r = decode_check(&s, &o, d.fmt);
	if (!r)
		r = decode_annotations(&s, &o, &sy, &sp, &lo);
	if (!r && d.fmt == etm_listing_text)
		r = cli_dis_first(&lo.dis);
	if (!r)
		r = decode_out_open(&s, &d, &lo);
	if (!r)
		r = decode_run(&s, &o, &d);
	etm_listing_free(d.l);
	etm_diagset_free(d.dw);
	cli_dis_close(&lo.dis);
	etm_symbols_free(sy);
	etm_srcpath_free(sp);
	session_close(&s);
	return r;
}
