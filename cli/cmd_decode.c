/* cli/cmd_decode.c - `etmtrace decode`: the executed instructions as a
 * readable listing, the canonical list (../shared/tools/canon.py format),
 * JSON lines of elements, or totals only (--stats). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "diagwarn.h"
#include "disasm.h"
#include "session.h"
#include "wbuf.h"

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
	"  --elf FILE[@BIAS]     executable segments of an ELF file (repeatable)\n"
	"  --no-cache            disable the decoded-block cache\n"
	"  --jobs N              decode on N threads (default: one per CPU);\n"
	"                        the output is the same for every N\n"
	"Without a snapshot directory (trace file given):\n"
	"  --protocol etmv3|ptm  trace protocol (required)\n"
	"  --input-format raw|coresight|tpiu  (default raw)\n"
	"  --etmcr V --etmccer V --etmidr V   configuration registers\n"
	"  --m-profile           the core is ARMv7-M\n";

enum dec_fmt { DF_TEXT, DF_CANON, DF_JSONL, DF_STATS };

struct dec_ctx {
	struct session *s;
	struct wbuf *w;
	enum dec_fmt fmt;
	int multi;                /* several IDs: prefix lines with the ID */
	struct disasm *dis;
	unsigned long long insns, elems[etmk_num_kinds], errors, packets;
	struct diagwarn *dw;      /* configuration-mismatch warnings */
};

static int canon_range(struct dec_ctx *c, const struct etm_elem *el,
		       const struct etm_image *img)
{
	struct etm_walk wk;
	struct etm_insn in;
	char isa = el->isa == etmi_a32 ? 'A' : 'T';
	uint32_t i = 0;

	if (etm_walk_init(&wk, img, el) < 0)
		return -1;
	while (etm_walk_next(&wk, &in) == 0) {
		char *p;

		i++;
		wbuf_hex8(c->w, (uint32_t)in.addr);
		p = wbuf_reserve(c->w, 4);
		p[0] = ' ';
		p[1] = isa;
		if (i == el->ninsn && !el->last_exec) {
			p[2] = ' ';
			p[3] = 'N';
			wbuf_commit(c->w, 4);
		} else {
			wbuf_commit(c->w, 2);
		}
		wbuf_char(c->w, '\n');
	}
	c->insns += i;
	return 0;
}

static void text_prefix(struct dec_ctx *c, const struct etm_elem *el)
{
	if (c->multi)
		wbuf_printf(c->w, "[%02x] ", el->id);
}

static void text_range(struct dec_ctx *c, const struct etm_elem *el,
		       const struct etm_image *img)
{
	struct etm_walk wk;
	struct etm_insn in;
	char dis[128];
	uint32_t i = 0;

	if (etm_walk_init(&wk, img, el) < 0)
		return;
	while (etm_walk_next(&wk, &in) == 0) {
		int last = ++i == el->ninsn;

		text_prefix(c, el);
		if (in.size == 4 && in.isa != etmi_a32)
			wbuf_printf(c->w, "  %08llx  %s  %04x %04x  ",
				    (unsigned long long)in.addr, etm_isa_name(in.isa),
				    in.opcode >> 16, in.opcode & 0xffff);
		else if (in.size == 4)
			wbuf_printf(c->w, "  %08llx  %s  %08x   ",
				    (unsigned long long)in.addr, etm_isa_name(in.isa),
				    in.opcode);
		else
			wbuf_printf(c->w, "  %08llx  %s  %04x       ",
				    (unsigned long long)in.addr, etm_isa_name(in.isa),
				    in.opcode);
		disasm_insn(c->dis, &in, dis, sizeof(dis));
		wbuf_printf(c->w, "%-36s", dis);
		if (last && el->last_atom)
			wbuf_str(c->w, el->last_exec ? " E" : " N");
		else if (last && !el->last_exec)
			wbuf_str(c->w, " N");
		else
			wbuf_str(c->w, "  ");
		if (last && el->has_cycles)
			wbuf_printf(c->w, "  cyc=%u", el->cycles);
		wbuf_char(c->w, '\n');
	}
	c->insns += i;
}

static void text_other(struct dec_ctx *c, const struct etm_elem *el)
{
	static const char *const reasons[] = { "start", "trace enabled",
		"overflow (data lost)", "debug exit", "resync" };

	text_prefix(c, el);
	switch (el->kind) {
	case etmk_exception:
		wbuf_printf(c->w, "-- exception %s (%u)%s -> 0x%08llx", etm_exc_name(el->exc_num,
			    etm_cfg_m_profile(&session_find(c->s, el->id)->cfg)),
			    el->exc_num, el->exc_cancel ? " cancels last instruction" : "",
			    (unsigned long long)el->addr);
		if (el->has_ret)
			wbuf_printf(c->w, ", return 0x%08llx", (unsigned long long)el->ret_addr);
		wbuf_char(c->w, '\n');
		break;
	case etmk_exc_return:
		wbuf_str(c->w, "-- exception return\n");
		break;
	case etmk_trace_on:
		wbuf_printf(c->w, "-- trace on (%s) at 0x%08llx\n",
			    el->reason < 5 ? reasons[el->reason] : "?",
			    (unsigned long long)el->addr);
		break;
	case etmk_nosync:
		wbuf_str(c->w, "-- not synchronised\n");
		break;
	case etmk_context:
		wbuf_printf(c->w, "-- context %s%s", el->ns ? "NS" : "S", el->hyp ? " Hyp" : "");
		if (el->has_ctxid)
			wbuf_printf(c->w, " ctxid=0x%08x", el->ctxid);
		if (el->has_vmid)
			wbuf_printf(c->w, " vmid=%u", el->vmid);
		wbuf_char(c->w, '\n');
		break;
	case etmk_timestamp:
		wbuf_printf(c->w, "-- timestamp %llu\n", (unsigned long long)el->timestamp);
		break;
	case etmk_cycle_count:
		wbuf_printf(c->w, "-- cycle count %u\n", el->cycles);
		break;
	case etmk_event:
		wbuf_str(c->w, "-- trigger\n");
		break;
	case etmk_nomem:
		wbuf_printf(c->w, "-- memory not accessible at 0x%08llx (%s)\n",
			    (unsigned long long)el->addr, etm_isa_name(el->isa));
		break;
	case etmk_error:
		wbuf_printf(c->w, "-- error at offset %llu: %s\n",
			    (unsigned long long)el->offset, etm_errstr(el->err));
		break;
	case etmk_range:
	case etmk_invalid:
	case etmk_num_kinds:
		break;
	}
}

static void jsonl_elem(struct dec_ctx *c, const struct etm_elem *el)
{
	wbuf_printf(c->w, "{\"offset\":%llu,\"id\":\"0x%02x\",\"kind\":\"%s\"",
		    (unsigned long long)el->offset, el->id, etm_elem_kind_name(el->kind));
	switch (el->kind) {
	case etmk_range:
		wbuf_printf(c->w, ",\"start\":\"0x%08llx\",\"end\":\"0x%08llx\",\"isa\":\"%s\","
			    "\"n\":%u,\"last\":\"0x%08llx\",\"last_class\":\"%s\"",
			    (unsigned long long)el->start, (unsigned long long)el->end,
			    etm_isa_name(el->isa), el->ninsn,
			    (unsigned long long)el->last_addr,
			    etm_insn_class_name(el->last_cls));
		if (el->last_atom)
			wbuf_printf(c->w, ",\"atom\":\"%c\"", el->last_exec ? 'E' : 'N');
		if (el->has_cycles)
			wbuf_printf(c->w, ",\"cycles\":%u", el->cycles);
		c->insns += el->ninsn;
		break;
	case etmk_exception:
		wbuf_printf(c->w, ",\"exception\":%u,\"name\":\"%s\",\"addr\":\"0x%08llx\"",
			    el->exc_num, etm_exc_name(el->exc_num,
			    etm_cfg_m_profile(&session_find(c->s, el->id)->cfg)),
			    (unsigned long long)el->addr);
		if (el->has_ret)
			wbuf_printf(c->w, ",\"return\":\"0x%08llx\"",
				    (unsigned long long)el->ret_addr);
		if (el->exc_cancel)
			wbuf_str(c->w, ",\"cancel\":true");
		break;
	case etmk_trace_on:
		wbuf_printf(c->w, ",\"reason\":%u,\"addr\":\"0x%08llx\"", el->reason,
			    (unsigned long long)el->addr);
		break;
	case etmk_context:
		wbuf_printf(c->w, ",\"ns\":%u,\"hyp\":%u", el->ns, el->hyp);
		if (el->has_ctxid)
			wbuf_printf(c->w, ",\"ctxid\":\"0x%08x\"", el->ctxid);
		if (el->has_vmid)
			wbuf_printf(c->w, ",\"vmid\":%u", el->vmid);
		break;
	case etmk_timestamp:
		wbuf_printf(c->w, ",\"timestamp\":%llu", (unsigned long long)el->timestamp);
		break;
	case etmk_cycle_count:
		wbuf_printf(c->w, ",\"cycles\":%u", el->cycles);
		break;
	case etmk_nomem:
		wbuf_printf(c->w, ",\"addr\":\"0x%08llx\"", (unsigned long long)el->addr);
		break;
	case etmk_error:
		wbuf_printf(c->w, ",\"error\":\"%s\"", etm_errname(el->err));
		break;
	case etmk_exc_return:
	case etmk_nosync:
	case etmk_event:
	case etmk_invalid:
	case etmk_num_kinds:
		break;
	}
	wbuf_str(c->w, "}\n");
}

static int dec_item(void *vctx, const struct etm_item *it)
{
	struct dec_ctx *c = vctx;
	const struct etm_elem *el = &it->elem;
	const struct session_src *src;

	diagwarn_item(c->dw, it);
	if (!it->is_elem) {
		c->packets++;
		return 0;
	}
	if (el->kind < etmk_num_kinds)
		c->elems[el->kind]++;
	if (el->kind == etmk_error)
		c->errors++;
	src = session_find(c->s, el->id);
	switch (c->fmt) {
	case DF_STATS:
		if (el->kind == etmk_range)
			c->insns += el->ninsn;
		break;
	case DF_JSONL:
		jsonl_elem(c, el);
		break;
	case DF_CANON:
		if (el->kind == etmk_range && src)
			canon_range(c, el, src->img);
		else if (el->kind == etmk_trace_on || el->kind == etmk_nosync ||
			 el->kind == etmk_nomem || el->kind == etmk_error)
			wbuf_str(c->w, "GAP\n");
		break;
	case DF_TEXT:
		if (el->kind == etmk_range && src)
			text_range(c, el, src->img);
		else if (src || el->kind == etmk_error)
			text_other(c, el);
		break;
	}
	return 0;
}

static void print_stats(struct dec_ctx *c, double secs)
{
	double mib = (double)c->s->input_bytes / (1024.0 * 1024.0);
	int k;

	printf("input bytes      %llu\n", (unsigned long long)c->s->input_bytes);
	printf("packets          %llu\n",
	       (unsigned long long)etm_decoder_packet_count(c->s->dec));
	printf("instructions     %llu\n", c->insns);
	for (k = 1; k < etmk_num_kinds; k++)
		if (c->elems[k])
			printf("elements %-12s %llu\n",
			       etm_elem_kind_name((enum etm_elem_kind)k), c->elems[k]);
	printf("errors           %llu\n", c->errors);
	printf("gaps             %llu\n", c->elems[etmk_trace_on] + c->elems[etmk_nomem] +
	       c->elems[etmk_nosync] + c->elems[etmk_error]);
	printf("elapsed          %.3f s\n", secs);
	if (secs > 0)
		printf("throughput       %.1f MiB/s, %.1f M instructions/s\n",
		       mib / secs, (double)c->insns / secs / 1e6);
}

int cmd_decode(int argc, char **argv)
{
	static struct wbuf w;
	struct opts o = { .cmd = "decode" };
	struct dec_ctx c = { .w = &w };
	struct session s;
	struct timespec t0, t1;
	int r;

	r = opt_parse(&o, argc, argv,
		      "id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,"
		      "image,elf,stats,no-cache,jobs,chunk");
	if (r) {
		if (r > 0)
			fputs(decode_help, stdout);
		return r > 0 ? 0 : 2;
	}
	c.fmt = o.stats ? DF_STATS : !o.format || !strcmp(o.format, "text") ? DF_TEXT :
		!strcmp(o.format, "canon") ? DF_CANON : DF_JSONL;
	r = session_open(&s, &o, etm_dec_elements, 1);
	if (r) {
		session_close(&s);
		return r;
	}
	if (c.fmt == DF_CANON && s.nsrc != 1) {
		fprintf(stderr, "etmtrace decode: --format canon needs exactly one trace source (use --id)\n");
		session_close(&s);
		return 2;
	}
	c.s = &s;
	c.multi = s.nsrc > 1;
	s.jobs = o.jobs ? o.jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (c.fmt == DF_TEXT)
		c.dis = disasm_open();
	wbuf_init(&w, STDOUT_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c.dw = diagwarn_open(&s);
	r = session_run(&s, dec_item, &c);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wbuf_flush(&w);
	if (!r)
		diagwarn_report(c.dw, &s);
	diagwarn_close(c.dw);
	if (c.fmt == DF_STATS && !r)
		print_stats(&c, (double)(t1.tv_sec - t0.tv_sec) +
				(double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	disasm_close(c.dis);
	session_close(&s);
	if (r)
		return r;
	return c.errors ? 1 : 0;
}
