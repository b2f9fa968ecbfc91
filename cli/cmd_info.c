/* cli/cmd_info.c - `etmtrace info`: the trace sources of a snapshot, their
 * protocols and decoded configuration, and the memory regions. */
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "session.h"

static const char info_help[] =
	"usage: etmtrace info <snapshot-dir> [--id ID]...\n"
	"\n"
	"List the trace sources of a snapshot with their protocol, configuration\n"
	"(cycle-accurate, context ID size, timestamps, return stack, ...), trace\n"
	"buffer, and the memory regions of their cores.\n";

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

static void info_source(const struct etm_snap_source *ss)
{
	const struct etm_config *c = &ss->cfg;
	const char *why = NULL;
	size_t i;

	printf("source %s: trace ID 0x%02x, %s (%s)", ss->name, etm_cfg_trace_id(c),
	       etm_protocol_name(c->protocol), ss->type ? ss->type : "?");
	printf(", core %s%s%s%s, buffer %s\n", ss->core ? ss->core : "-",
	       ss->core_type ? " (" : "", ss->core_type ? ss->core_type : "",
	       ss->core_type ? ")" : "", ss->buffer ? ss->buffer : "-");
	if (c->protocol == etm_proto_unknown)
		return;
	printf("  ETMCR=0x%08x ETMCCER=0x%08x ETMIDR=0x%08x\n", c->etmcr, c->etmccer,
	       c->etmidr);
	printf("  architecture %s v%d.%d, cycle-accurate %s, context ID %d bytes, "
	       "timestamps %s (%s, %s), VMID %s\n",
	       c->protocol == etm_proto_ptm ? "PFT" : "ETM",
	       c->protocol == etm_proto_ptm ? 1 : etm_cfg_arch_major(c) + 1,
	       etm_cfg_arch_minor(c), etm_cfg_cycle_acc(c) ? "yes" : "no",
	       etm_cfg_ctxid_bytes(c), etm_cfg_timestamps(c) ? "on" : "off",
	       etm_cfg_ts_64bit(c) ? "64-bit" : "48-bit",
	       etm_cfg_ts_binary(c) ? "binary" : "Gray", etm_cfg_vmid(c) ? "on" : "off");
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
	for (i = 0; i < ss->ndumps; i++) {
		const struct etm_snap_dump *d = &ss->dumps[i];

		printf("  memory 0x%08llx-0x%08llx %s%s\n",
		       (unsigned long long)d->addr,
		       (unsigned long long)(d->addr + (d->length ? d->length : 0)),
		       d->path, d->space == etm_space_secure ? " (secure)" :
				d->space == etm_space_nonsecure ? " (non-secure)" : "");
	}
}

int cmd_info(int argc, char **argv)
{
	struct opts o = { .cmd = "info" };
	struct etm_snapshot *snap = NULL;
	char err[512] = "";
	size_t i, j;
	int r;

	r = opt_parse(&o, argc, argv, "id");
	if (r) {
		if (r > 0)
			fputs(info_help, stdout);
		return r > 0 ? 0 : 2;
	}
	r = etm_snapshot_load(&snap, o.input, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s\n", err[0] ? err : etm_errstr(r));
		return 2;
	}
	printf("snapshot %s\n", snap->dir ? snap->dir : o.input);
	for (i = 0; i < snap->nbuffers; i++) {
		const struct etm_snap_buffer *b = &snap->buffers[i];

		printf("buffer %s: %s", b->name, fmt_name(b->format));
		for (j = 0; j < b->nfiles; j++)
			printf(" %s", b->files[j]);
		printf("\n");
	}
	for (i = 0; i < snap->nsources; i++) {
		unsigned id = etm_cfg_trace_id(&snap->sources[i].cfg);
		int k, sel = !o.nids;

		for (k = 0; k < o.nids; k++)
			sel |= o.ids[k] == id;
		if (sel)
			info_source(&snap->sources[i]);
	}
	etm_snapshot_free(snap);
	return 0;
}
