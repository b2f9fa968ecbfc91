/* cli/cmd_info.c - `etmtrace info`: the trace sources of a snapshot, their
 * protocols and decoded configuration, and the memory regions. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmds.h"
#include "etm1.h"
#include "session.h"

static const char info_help[] =
	"usage: etmtrace info <snapshot-dir | trace-file> [--id ID]... [options]\n"
	"       etmtrace info <etmv1-sample-file> [--samples bin|text|openocd|etb]\n"
	"                     [--etmcr X] [--etmccr X]\n"
	"\n"
	"List the trace sources of a snapshot with their protocol, configuration\n"
	"(cycle-accurate, context ID size, timestamps, return stack, ...), trace\n"
	"buffer, and the memory regions of their cores; sources of protocols not\n"
	"decoded (ETMv4, ITM, STM) with the reason. For a trace file: the input\n"
	"format detected and the configuration inferred (give the image with\n"
	"--elf FILE[@BIAS] / --image FILE@ADDR; options as for decode).\n"
	"  --id ID          only this trace ID (hex, repeatable)\n"
	"  --allow-outside  follow file references that leave the snapshot\n"
	"                   directory (refused by default)\n";

static const char *fmt_name(enum etm_input_format f)
{
	switch (f) {
	case etm_fmt_raw: return "raw (source_data)";
	case etm_fmt_coresight: return "coresight frames";
	case etm_fmt_tpiu: return "tpiu frames";
	case etm_fmt_tpiu_nofsync: return "tpiu frames from byte 0";
	case etm_fmt_unknown: break;
	}
	return "unknown";
}

/* Bytes of dump @d: its length, or the file from its offset on. */
static uint64_t dump_len(const struct etm_snap_dump *d)
{
	struct stat st;

	if (d->length || stat(d->path, &st) != 0 || (uint64_t)st.st_size < d->offset)
		return d->length;
	return (uint64_t)st.st_size - d->offset;
}

static const char *how_name(unsigned how)
{
	if (how & ETM_HOW_INFERRED)
		return how & ETM_HOW_OPTIONS ? "options + inferred" : "inferred";
	if (how & ETM_HOW_OPTIONS)
		return how & ETM_HOW_SNAPSHOT ? "snapshot + options" : "options";
	return how & ETM_HOW_DEFAULT ? "defaults" : "snapshot";
}

static void info_regs(const struct etm_config *c)
{
	const char *why = NULL;

	if (c->protocol == etm_proto_etmv1 || c->protocol == etm_proto_etmv2) {
		cli_e1_info(c);
		if (etm_config_check(c, &why) < 0)
			printf("  configuration problem: %s\n", why);
		return;
	}
	printf("  ETMCR=0x%08x ETMCCER=0x%08x ETMIDR=0x%08x\n", c->etmcr, c->etmccer,
	       c->etmidr);
	printf("  architecture %s v%d.%d, cycle-accurate %s, context ID %d bytes, "
	       "timestamps %s (%s, %s), VMID %s\n",
	       c->protocol == etm_proto_ptm ? "PFT" : "ETM",
	       c->protocol == etm_proto_ptm ? 1 : etm_cfg_arch_major(c) + 1,
	       etm_cfg_arch_minor(c), etm_cfg_cycle_acc(c) ? "yes" : "no",
	       etm_cfg_ctxid_bytes(c), etm_cfg_timestamps(c) ? "on" : "off",
	       etm_cfg_ts_64bit(c) ? "64-bit" : "48-bit",
	       etm_cfg_ts_binary(c) ? "binary" : c->protocol == etm_proto_ptm && !etm_cfg_arch_minor(c) ? "Gray: PFT 1.0, ETMCCER[28] reserved" :
													  "Gray",
	       etm_cfg_vmid(c) ? "on" : "off");
	if (c->protocol == etm_proto_ptm)
		printf("  return stack %s, branch broadcast %s, DMB/DSB waypoints %s\n",
		       etm_cfg_ret_stack(c) ? "on" : "off",
		       etm_cfg_branch_bcast(c) ? "on" : "off",
		       etm_cfg_dmb_waypoint(c) ? "yes" : "no");
	else
		printf("  branch encoding %s, branch broadcast %s, data trace %s%s, M-profile %s\n",
		       etm_cfg_alt_branch(c) ? "alternative" : "original",
		       etm_cfg_branch_bcast(c) ? "on" : "off",
		       etm_cfg_data_trace(c) ? "on" : "off",
		       etm_cfg_data_only(c) ? " (data only)" : "",
		       etm_cfg_m_profile(c) ? "yes" : "no");
	if (etm_config_check(c, &why) < 0)
		printf("  configuration problem: %s\n", why);
}

/* The snapshot's record of capture source @cs (by name), or NULL. */
static const struct etm_snap_source *snap_of(const struct etm_snapshot *snap,
					     const struct etm_capture_source *cs)
{
	size_t i;

	for (i = 0; snap && i < snap->nsources + snap->nothers; i++) {
		const struct etm_snap_source *ss = i < snap->nsources ?
							   &snap->sources[i] :
							   &snap->others[i - snap->nsources];

		if (ss->name == cs->name)
			return ss;
	}
	return NULL;
}

static void info_source(const struct session *s, const struct etm_capture_source *cs)
{
	const struct etm_snap_source *ss = snap_of(etm_capture_snapshot(s->cap), cs);
	const struct etm_capture_buffer *b = etm_capture_buffer(s->cap, cs->buffer);
	size_t i;

	/* one name: the snapshot's (with its type), or for a trace file the
	 * trace ID alone (its sources are all called "source") */
	if (ss || (cs->name && strcmp(cs->name, "source")))
		printf("source %s: trace ID 0x%02x, %s", cs->name, cs->id,
		       etm_protocol_name(cs->cfg.protocol));
	else
		printf("source: trace ID 0x%02x, %s", cs->id,
		       etm_protocol_name(cs->cfg.protocol));
	if (cs->type)
		printf(" (%s)", cs->type);
	if (ss)
		printf(", core %s%s%s%s", ss->core ? ss->core : "-",
		       ss->core_type ? " (" : "", ss->core_type ? ss->core_type : "",
		       ss->core_type ? ")" : "");
	printf(", buffer %s\n", ss && !ss->buffer ? "-" : b && b->name ? b->name :
									 "-");
	if (cs->skip)
		printf("  not decoded: %s\n", cs->skip);
	else if (cs->cfg.protocol == etm_proto_etmv1)
		printf("  decoded from its ETMv1 samples (no packets to list)\n");
	if (cs->cfg.protocol == etm_proto_unknown)
		return;
	if (cs->cfg.protocol == etm_proto_itm) {
		printf("  decoded as ITM/DWT packets (no registers, no image)\n");
		return;
	}
	printf("  configuration: %s\n", how_name(cs->how));
	info_regs(&cs->cfg);
	for (i = 0; ss && i < ss->ndumps; i++) {
		const struct etm_snap_dump *d = &ss->dumps[i];

		printf("  memory 0x%08llx-0x%08llx %s%s\n",
		       (unsigned long long)d->addr,
		       (unsigned long long)(d->addr + dump_len(d)),
		       d->path, d->space == etm_space_secure ? " (secure)" : d->space == etm_space_nonsecure ? " (non-secure)" :
													       "");
	}
}

int cmd_info(int argc, char **argv)
{
	struct opts o = { .cmd = "info", .list = 1 };
	struct session s;
	struct stat st;
	size_t i;
	int r;

	r = opt_parse(&o, argc, argv, "id,allow-outside,image,elf,input-format,"
				      "protocol,etmcr,etmccer,etmidr,m-profile,etmccr,samples,symfs,buildid-dir,vmlinux");
	if (r) {
		if (r > 0)
			fputs(info_help, stdout);
		return r > 0 ? 0 : 2;
	}
	/* an ETMv1 sample file: described by cli/etm1.c */
	if ((o.samples || o.proto == etm_proto_etmv1 || o.proto == etm_proto_etmv2 ||
	     (!o.proto && etm_e1_file_format(o.input) != etm_e1f_unknown)) &&
	    stat(o.input, &st) == 0 && !S_ISDIR(st.st_mode))
		return cli_e1_info_file(&o);
	r = session_open(&s, &o, etm_dec_packets, o.nimages || o.nelfs);
	if (r) {
		session_close(&s);
		return r;
	}
	printf("%s %s\n", etm_capture_snapshot(s.cap) ? "snapshot" : "trace file",
	       o.input);
	for (i = 0; i < etm_capture_nbuffers(s.cap); i++) {
		const struct etm_capture_buffer *b = etm_capture_buffer(s.cap, i);

		printf("buffer %s: %s %s%s%s%s\n", b->name ? b->name : "-",
		       fmt_name(b->format), b->path ? b->path : "(no file)",
		       b->detected ? " (detected: " : "",
		       b->detected ? b->format_why : "", b->detected ? ")" : "");
	}
	for (i = 0; i < etm_capture_nsources(s.cap); i++) {
		const struct etm_capture_source *cs = etm_capture_source(s.cap, i);
		int k, sel = !o.nids;

		for (k = 0; k < o.nids; k++)
			sel |= o.ids[k] == cs->id;
		if (sel)
			info_source(&s, cs);
	}
	session_close(&s);
	return 0;
}
