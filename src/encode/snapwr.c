/* encode/snapwr.c - the text of snapshot files (etmtrace/snapwrite.h): the
 * library's one snapshot writer, the counterpart of snapshot.c. */
#include <stdio.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>
#include <etmtrace/snapwrite.h>

#include "common/strbuf.h"

/* The length of the text, or -etme_invalid past INT_MAX. */
static int snapw_end(struct etm_strbuf *w)
{
	int r = etm_strbuf_end(w);

	return r < 0 ? -etme_invalid : r;
}

int etm_snapw_index(char *buf, size_t n, const char *comment,
		    const char *const *keys, const char *const *files,
		    size_t ndev)
{
	struct etm_strbuf w = { buf, n, 0 };
	size_t i;

	if ((!buf && n) || (ndev && (!keys || !files)))
		return -etme_invalid;
	if (comment)
		etm_strbuf_put(&w, "; %s\n", comment);
	etm_strbuf_put(&w, "[snapshot]\nversion=1.0\n\n[device_list]\n");
	for (i = 0; i < ndev; i++)
		etm_strbuf_put(&w, "%s=%s\n", keys[i], files[i]);
	etm_strbuf_put(&w, "\n[trace]\nmetadata=trace.ini\n");
	return snapw_end(&w);
}

int etm_snapw_core(char *buf, size_t n, const char *name, const char *type,
		   int regs, const struct etm_snapw_dump *dumps, size_t ndumps,
		   unsigned first)
{
	struct etm_strbuf w = { buf, n, 0 };
	size_t i;

	if ((!buf && n) || !name || !type || (ndumps && !dumps))
		return -etme_invalid;
	etm_strbuf_put(&w, "[device]\nname=%s\nclass=core\ntype=%s\n", name, type);
	if (regs)
		etm_strbuf_put(&w, "\n[regs]\nPC=0x00000000\nCPSR=0x000001d3\n");
	for (i = 0; i < ndumps; i++)
		etm_strbuf_put(&w, "\n[dump%zu]\nfile=%s\naddress=0x%08llx\nlength=0x%llx\n",
			       first + i, dumps[i].file, (unsigned long long)dumps[i].addr,
			       (unsigned long long)dumps[i].length);
	return snapw_end(&w);
}

/* The device type of @c's protocol and version. */
static const char *source_type(const struct etm_config *c, char *tmp,
			       size_t n)
{
	if (c->protocol == etm_proto_ptm)
		return "PFT1.1";
	if (c->protocol == etm_proto_etmv1) {
		snprintf(tmp, n, "ETM1.%d", etm_cfg_e1_minor(c));
		return tmp;
	}
	return etm_cfg_arch_minor(c) == 5 ? "ETM3.5" :
	       etm_cfg_arch_minor(c) == 4 ? "ETM3.4" :
					    "ETM3.3";
}

int etm_snapw_source(char *buf, size_t n, const char *name, const char *type,
		     const struct etm_config *cfg)
{
	struct etm_strbuf w = { buf, n, 0 };
	char tmp[16];

	if ((!buf && n) || !name || !cfg)
		return -etme_invalid;
	if (!type)
		type = source_type(cfg, tmp, sizeof(tmp));
	etm_strbuf_put(&w, "[device]\nname=%s\nclass=trace_source\ntype=%s\n\n[regs]\n",
		       name, type);
	if (cfg->protocol == etm_proto_etmv1)
		etm_strbuf_put(&w, "ETMCR(0x000)=0x%08x\nETMCCR(0x001)=0x%08x\n",
			       cfg->etmcr, cfg->etmccr);
	else
		etm_strbuf_put(&w, "ETMCR(0x000)=0x%08x\nETMIDR(0x079)=0x%08x\n"
				   "ETMCCER(0x07A)=0x%08x\nETMTRACEIDR(0x080)=0x%08x\n",
			       cfg->etmcr, cfg->etmidr, cfg->etmccer, cfg->traceid);
	return snapw_end(&w);
}

int etm_snapw_trace(char *buf, size_t n, const char *bufname,
		    const char *file, enum etm_input_format fmt,
		    const char *const *sources, const char *const *cores,
		    size_t nsrc)
{
	struct etm_strbuf w = { buf, n, 0 };
	size_t i;

	if ((!buf && n) || !bufname || !file ||
	    (nsrc && (!sources || !cores)))
		return -etme_invalid;
	etm_strbuf_put(&w, "[trace_buffers]\nbuffers=buffer0\n\n[buffer0]\nname=%s\n"
			   "file=%s\nformat=%s\n\n[source_buffers]\n",
		       bufname, file,
		       fmt == etm_fmt_coresight ? "coresight" : "source_data");
	for (i = 0; i < nsrc; i++)
		etm_strbuf_put(&w, "%s=%s\n", sources[i], bufname);
	etm_strbuf_put(&w, "\n[core_trace_sources]\n");
	for (i = 0; i < nsrc; i++)
		if (cores[i])
			etm_strbuf_put(&w, "%s=%s\n", cores[i], sources[i]);
	return snapw_end(&w);
}
