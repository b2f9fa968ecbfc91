/* cli/cmd_decode.c - `etmtrace decode`: the executed instructions as a
 * readable listing, the canonical list (../shared/tools/canon.py format),
 * JSON lines of elements, or totals only (--stats). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "decfmt.h"
#include "decpar.h"

static const char decode_help[] =
	"usage: etmtrace decode <snapshot-dir | trace-file> [options]\n"
	"\n"
	"Decode trace into the instructions the core executed.\n"
	"\n"
	"  --id ID               only this trace ID (repeatable; default: all)\n"
	"  --format text|canon|jsonl\n"
	"                        text: one instruction per line with exceptions,\n"
	"                        gaps, context and timestamps (default);\n"
	"                        canon: 'ADDRESS A|T[ N]' lines and GAP (one ID only);\n"
	"                        jsonl: one JSON object per decoded element\n"
	"  --stats               decode fully, print only totals and speed\n"
	"  --image FILE@ADDR     raw binary image loaded at ADDR (repeatable)\n"
	"  --elf FILE[@BIAS]     executable segments of an ELF file, and its\n"
	"                        symbols and lines: func+0xoff per instruction,\n"
	"                        symbolized branch targets (repeatable)\n"
	"  --symbols FILE        functions from an 'nm -S' style file (repeatable)\n"
	"  --source              the source line (and its text, when the file is\n"
	"                        found) before the instructions that change it\n"
	"  --offsets             input offset of the packet behind each line\n"
	"  --clock HZ            clock of timestamps and cycles (default: the\n"
	"                        snapshot's trace.ini frequency): times in seconds\n"
	"  --no-cache            disable the decoded-block cache\n"
	"  --jobs N              decode on N threads (default: one per CPU);\n"
	"                        the output is the same for every N\n"
	"  --verify              hold each source's output until its next periodic\n"
	"                        I-sync confirms it; trace that a later check\n"
	"                        rejects is preceded by an 'unverified' error\n"
	"                        (one thread; see doc/robustness.md)\n"
	"Without a snapshot directory (trace file given):\n"
	"  --protocol etmv3|ptm  trace protocol (required)\n"
	"  --input-format raw|coresight|tpiu  (default raw)\n"
	"  --etmcr V --etmccer V --etmidr V   configuration registers\n"
	"  --m-profile           the core is ARMv7-M\n";

static void print_stats(struct decfmt *c, double secs)
{
	double mib = (double)c->s->input_bytes / (1024.0 * 1024.0);
	int k;

	printf("input bytes      %llu\n", (unsigned long long)c->s->input_bytes);
	printf("packets          %llu\n",
	       (unsigned long long)etm_decoder_packet_count(c->s->dec));
	printf("instructions     %llu\n", c->n.insns);
	for (k = 1; k < etmk_num_kinds; k++)
		if (c->n.elems[k])
			printf("elements %-12s %llu\n",
			       etm_elem_kind_name((enum etm_elem_kind)k), c->n.elems[k]);
	printf("errors           %llu\n", c->n.errors);
	printf("gaps             %llu\n", c->n.elems[etmk_trace_on] + c->n.elems[etmk_nomem] +
	       c->n.elems[etmk_nosync] + c->n.elems[etmk_error]);
	printf("elapsed          %.3f s\n", secs);
	if (secs > 0)
		printf("throughput       %.1f MiB/s, %.1f M instructions/s\n",
		       mib / secs, (double)c->n.insns / secs / 1e6);
}

int cmd_decode(int argc, char **argv)
{
	static struct wbuf w;
	static struct decfmt c;
	struct opts o = { .cmd = "decode" };
	enum dec_fmt fmt;
	struct session s;
	struct decsym *ds = NULL;
	struct timespec t0, t1;
	int r;

	r = opt_parse(&o, argc, argv,
		      "id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,"
		      "image,elf,stats,no-cache,jobs,chunk,verify,symbols,source,offsets,clock");
	if (r) {
		if (r > 0)
			fputs(decode_help, stdout);
		return r > 0 ? 0 : 2;
	}
	fmt = o.stats ? DF_STATS : !o.format || !strcmp(o.format, "text") ? DF_TEXT :
		!strcmp(o.format, "canon") ? DF_CANON : DF_JSONL;
	r = session_open(&s, &o, etm_dec_elements, 1);
	if (r) {
		session_close(&s);
		return r;
	}
	if (fmt == DF_CANON && s.nsrc != 1) {
		fprintf(stderr, "etmtrace decode: --format canon needs exactly one trace source (use --id)\n");
		session_close(&s);
		return 2;
	}
	s.jobs = o.jobs ? o.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (o.verify && session_verify(&s)) {
		session_close(&s);
		return 2;
	}
	if (decsym_open(&s, &o, &ds)) {
		session_close(&s);
		return 2;
	}
	wbuf_init(&w, STDOUT_FILENO);
	decfmt_init(&c, &s, &w, fmt, fmt == DF_TEXT ? disasm_open() : NULL, NULL);
	c.sym = ds;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c.dw = diagwarn_open(&s);
	/* several jobs on a regular file: formatted on the workers */
	r = s.jobs > 1 && !o.chunk && !decsym_sequential(ds) ? decpar_run(&s, &c) : -1;
	s.elems = decfmt_elems;
	if (r < 0)
		r = session_run(&s, decfmt_item, &c);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wbuf_flush(&w);
	if (!r)
		diagwarn_report(c.dw, &s);
	diagwarn_close(c.dw);
	if (c.fmt == DF_STATS && !r)
		print_stats(&c, (double)(t1.tv_sec - t0.tv_sec) +
				(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	disasm_close(c.dis);
	decfmt_fini(&c);
	decsym_close(ds);
	session_close(&s);
	if (r)
		return r;
	return c.n.errors ? 1 : 0;
}
