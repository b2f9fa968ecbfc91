/* cli/etm1.c - ETMv1 in the CLI: the `info` description of an ETMv1
 * configuration and of a sample file, and `synth`'s sample-file writer.
 * Decoding opens sample files through etm_capture_open() (load/open_e1.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/etmv1.h>

#include "etm1.h"

void cli_e1_info(const struct etm_config *c)
{
	static const char *const modes[4] = { "normal", "multiplexed",
					      "demultiplexed", "reserved" };
	int minor = etm_cfg_e1_minor(c), ctx = etm_cfg_ctxid_bytes(c);

	printf("  ETMCR=0x%08x ETMCCR=0x%08x\n", c->etmcr, c->etmccr);
	if (c->protocol == etm_proto_etmv2) {
		printf("  architecture ETMv2 (ETM10): not decoded\n");
		return;
	}
	printf("  architecture ETMv1.%d (protocol number %u), port %d-bit %s%s, "
	       "FIFO latency %d\n",
	       minor < 0 ? 0 : minor,
	       (unsigned)(c->etmccr >> 28 & 7), etm_cfg_e1_port(c),
	       modes[c->etmcr >> 16 & 3], c->etmcr & (1u << 13) ? " half-rate" : "", (c->flags & ETM_CFG_E1_LATENCY1) ? 1 : 0);
	printf("  cycle-accurate %s, context ID %d bytes%s, branch output %s, "
	       "data trace %s%s%s\n",
	       etm_cfg_cycle_acc(c) ? "yes" : "no", ctx,
	       ctx && minor < 2 ? " (not traced before ETMv1.2)" : "",
	       etm_cfg_branch_bcast(c) ? "on" : "off",
	       etm_cfg_data_addr(c) ? "address" : "",
	       etm_cfg_data_addr(c) && etm_cfg_data_value(c) ? "+" : "",
	       etm_cfg_data_value(c) ? "value" :
	       etm_cfg_data_addr(c)  ? "" :
				       "off");
}

int cli_e1_info_file(struct opts *o)
{
	struct etm_e1_capture c;
	const char *why = NULL;
	char err[256] = "";
	enum etm_e1_format f;
	int r;

	f = etm_e1_format_named(o->samples);
	memset(&c, 0, sizeof(c));
	c.cfg.etmcr = o->etmcr;
	c.cfg.etmccr = o->etmccr;
	r = etm_e1_read_file(&c, o->input, &f, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s: %s\n", o->input,
			err[0] ? err : "not a snapshot directory or sample file");
		return 2;
	}
	if (o->etmcr)
		c.cfg.etmcr = o->etmcr;
	if (o->etmccr)
		c.cfg.etmccr = o->etmccr;
	printf("sample file %s: %zu samples (%s)\n", o->input, c.n,
	       f == etm_e1f_bin ? "etmtrace binary" : f == etm_e1f_text ? "etmtrace text" :
					      f == etm_e1f_openocd      ? "OpenOCD etm dump" :
									  "ETB image");
	printf("source: %s\n", etm_protocol_name(c.cfg.protocol));
	cli_e1_info(&c.cfg);
	if (etm_config_check(&c.cfg, &why) < 0)
		printf("  configuration problem: %s\n", why);
	etm_e1_capture_fini(&c);
	return 0;
}

int cli_e1_write(const char *path, const struct etm_config *cfg,
		 const uint8_t *rec, size_t nbytes)
{
	struct etm_e1_capture c;
	uint8_t *out;
	size_t n;
	FILE *f;
	int r;

	memset(&c, 0, sizeof(c));
	c.cfg = *cfg;
	c.rec = (uint8_t *)rec;
	c.n = nbytes / ETM_E1_REC;
	if (etm_e1_write(&c, etm_e1f_bin, &out, &n) < 0)
		return -1;
	f = fopen(path, "wb");
	r = f && fwrite(out, 1, n, f) == n ? 0 : -1;
	if (f && fclose(f))
		r = -1;
	free(out);
	return r;
}
