/* cli/cmd_decode.c - `etmtrace decode`: the executed instructions as a
 * readable listing, the canonical list (../shared/tools/canon.py format),
 * JSON lines of elements, or totals only (--stats). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "par_run.h"
#include "diagwarn.h"
#include "dis.h"
#include "perfscript.h"
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

static void print_stats(const struct session *s, struct decfmt *c,
			double secs)
{
	double mib = (double)s->input_bytes / (1024.0 * 1024.0);
	int k;

	printf("input bytes      %llu\n", (unsigned long long)s->input_bytes);
	printf("packets          %llu\n",
	       (unsigned long long)etm_decoder_packet_count(s->dec));
	printf("instructions     %llu\n", c->n.insns);
	for (k = 1; k < etmk_num_kinds; k++)
		if (c->n.elems[k])
			printf("elements %-12s %llu\n",
			       etm_elem_kind_name((enum etm_elem_kind)k), c->n.elems[k]);
	printf("errors           %llu\n", c->n.errors);
	printf("gaps             %llu\n", c->n.elems[etmk_trace_on] + c->n.elems[etmk_nomem] +
						  c->n.elems[etmk_nosync] + c->n.elems[etmk_error]);
	printf("elapsed          %.3f s\n", secs);
	if (s->e1 && secs > 0) /* ETMv1: one sample per core cycle */
		printf("samples (cycles) %llu, %.1f M cycles/s\n",
		       (unsigned long long)(s->input_bytes / ETM_E1_REC),
		       (double)(s->input_bytes / ETM_E1_REC) / secs / 1e6);
	if (secs > 0)
		printf("throughput       %.1f MiB/s, %.1f M instructions/s\n",
		       mib / secs, (double)c->n.insns / secs / 1e6);
}

/* The exit status rule (--help, README; diagwarn_verdict()). */
static int decode_verdict(const struct session *s, const struct decfmt *c)
{
	struct diagtally t = { .insns = c->n.insns, .errors = c->n.errors };
	int i;

	for (i = 0; i < etmk_num_kinds; i++)
		t.elems += c->n.elems[i];
	if (!t.insns && (s->o->win_start.kind || s->o->win_stop.kind)) {
		fprintf(stderr, "etmtrace: no instructions in the window (--start "
				"never came, or --stop came first)\n");
		return 1;
	}
	return diagwarn_verdict(c->dw, s, &t, "listing");
}

/* Every buffer of the capture in turn. */
static int decode_buffers(struct session *s, struct decfmt *c,
			  const struct line_annot_opts *ann, struct run_totals *rf)
{
	struct winrun wr;
	size_t b;
	int r;

	r = winrun_open(&wr, s, s->o, decfmt_elems, c);
	for (b = 0; b < session_nbuffers(s) && !r && !winrun_done(&wr); b++) {
		if (session_select(s, b) < 0)
			continue;
		/* several jobs on a regular file: formatted on the workers;
		 * with a window, decoded there and formatted here in order */
		r = s->jobs > 1 && !s->o->chunk && !s->mem && (!s->skip || s->length) &&
				    !line_annot_sequential(ann) && !wr.w ?
			    par_listing_run(s, c, ann, rf) :
			    -1;
		s->elems = wr.w ? winrun_elems : decfmt_elems;
		if (r < 0)
			r = wr.w ? session_run_buffer(s, winrun_item, &wr) :
				   session_run_buffer(s, decfmt_item, c);
		decfmt_flush(c);
	}
	if (!r)
		r = winrun_finish(&wr);
	decfmt_flush(c);
	winrun_close(&wr);
	return r;
}

/* The listing annotations the options ask for: symbols (loaded into *@sy,
 * NULL if none), source lines, offsets, the clock. Returns 0 or 2 (error
 * printed). */
static int decode_annotations(const struct session *s, const struct opts *o,
			      struct etm_symbols **sy, struct etm_srcpath **sp,
			      struct line_annot_opts *ann, struct line_fields_spec *fs)
{
	char why[256];

	memset(ann, 0, sizeof(*ann));
	if (o->fields && line_fields_parse(o->fields, fs, why, sizeof(why)) < 0) {
		fprintf(stderr, "etmtrace decode: --fields: %s\n", why);
		return 2;
	}
	if (o->fields && o->format && strcmp(o->format, "text")) {
		fprintf(stderr, "etmtrace decode: --fields is for the text listing (--format text)\n");
		return 2;
	}
	fs->hex = o->offsets == 2;
	ann->fields = o->fields ? fs : NULL;
	ann->hz = o->clock_hz > 0 ? o->clock_hz : symload_ts_hz(s);
	if (symload_srcpath(o, sp) || symload_open(s, sy))
		return 2;
	ann->srcpath = *sp;
	etm_symbols_hook(*sy, &ann->sym);
	ann->source = o->source;
	ann->offsets = o->offsets;
	etm_capture_ctx_images(s->cap, &ann->ctx_img, &ann->ctx_img_arg);
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
			enum dec_fmt fmt)
{
	if (fmt == DF_CANON && session_flow_sources(s) != 1) {
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

/* Decode with the formatter @c set up, print the verdict, the warnings
 * and the figures; returns the exit status. */
static int decode_run(struct session *s, const struct opts *o,
		      struct decfmt *c, const struct line_annot_opts *ann)
{
	static struct run_totals rf;
	struct timespec t0, t1;
	int r, v = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	c->dw = etm_diagset_alloc(session_osrc(s), s->nsrc);
	s->dw = c->dw;
	r = decode_buffers(s, c, ann, &rf);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wbuf_flush(c->w);
	if (c->w->err) {
		fprintf(stderr, "etmtrace: writing the output: %s\n",
			strerror(c->w->err));
		r = 2;
	}
	if (!r && s->vdropped)
		fprintf(stderr, "etmtrace: --verify-drop: %llu elements of rejected "
				"trace left out\n",
			(unsigned long long)s->vdropped);
	if (!r)
		v = decode_verdict(s, c);
	etm_diagset_free(c->dw);
	s->dw = NULL;
	c->dw = NULL;
	if (c->fmt == DF_STATS && !r)
		print_stats(s, c, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if ((c->fmt == DF_STATS || o->run_stats) && !r)
		run_totals_print(o->run_stats ? stderr : stdout, &rf);
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

/* A live stream's output flushed after each read (@ctx: the wbuf). */
static void decode_flush(void *ctx)
{
	wbuf_flush(ctx);
}

int cmd_decode(int argc, char **argv)
{
	static struct wbuf w;
	static struct decfmt c;
	struct opts o = { .cmd = "decode" };
	struct etm_disasm_hook dis = { NULL, NULL };
	struct etm_symbols *sy = NULL;
	struct etm_srcpath *sp = NULL;
	struct line_annot_opts ann;
	struct line_fields_spec fs;
	enum dec_fmt fmt;
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
	fmt = o.stats ? DF_STATS : !o.format || !strcmp(o.format, "text") ? DF_TEXT :
			   !strcmp(o.format, "canon")                     ? DF_CANON :
			   !strcmp(o.format, "data")                      ? DF_DATA :
									    DF_JSONL;
	r = session_open(&s, &o, etm_dec_elements, 1);
	if (!r && o.format && !strcmp(o.format, "perf-script")) {
		r = perfscript_run(&s);
		session_close(&s);
		return r;
	}
	if (!r)
		r = decode_check(&s, &o, fmt);
	if (!r)
		r = decode_annotations(&s, &o, &sy, &sp, &ann, &fs);
	if (r) {
		etm_srcpath_free(sp);
		session_close(&s);
		return r;
	}
	wbuf_init(&w, STDOUT_FILENO);
	s.flush = decode_flush;
	s.flush_ctx = &w;
	if (fmt == DF_TEXT)
		dis = cli_dis_open();
	if (decfmt_init(&c, session_osrc(&s), s.nsrc, &w, fmt, &dis, NULL,
			&ann) < 0) {
		fprintf(stderr, "etmtrace: out of memory\n");
		r = 2;
	} else {
		c.df.only = o.data_only;
		c.df.range = o.data_range;
		c.df.lo = o.data_lo;
		c.df.hi = o.data_hi;
		c.df.on = c.df.only || c.df.range;
		r = decode_run(&s, &o, &c, &ann);
	}
	cli_dis_close(&c.dis);
	decfmt_fini(&c);
	etm_symbols_free(sy);
	etm_srcpath_free(sp);
	session_close(&s);
	return r;
}
