/* load/snapshot.c - CoreSight snapshot directory reader: snapshot.ini,
 * device files and trace.ini into trace sources, buffers and core dumps. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <etmtrace/error.h>
#include <etmtrace/snapshot.h>

#include "common/strbuf.h"

#include "load/ini.h"
#include "load/path.h"

/* Bounds that keep loading time and memory linear in the size of the
 * snapshot (doc/robustness.md): more is rejected with -etme_parse. */
#define SNAP_MAX_DEVICES 256         /* device files in [device_list] */
#define SNAP_MAX_DUMPS 4096          /* [dump] sections, all sources together */
#define SNAP_MAX_BUFFERS 64          /* buffers in trace.ini */
#define SNAP_MAX_TEXT (16u << 20)    /* bytes of all .ini files together */
#define SNAP_ADDR_TOP 0x100000000ull /* dumps lie in the 32-bit space */

/* A parsed device file. */
struct snap_dev {
	struct etm_ini *ini;
	const char *name, *class, *type, *location;
	const char *core;    /* its core in [core_trace_sources], or NULL */
	const char *buffers; /* its entry in [source_buffers], or NULL */
};

/* Everything alive while loading. */
struct snap_ctx {
	struct etm_snapshot *snap;
	struct etm_ini *top;   /* snapshot.ini */
	struct etm_ini *trace; /* trace.ini, may be NULL */
	struct snap_dev *devs;
	size_t ndevs;
	size_t text;    /* .ini bytes read so far */
	size_t ndumps;  /* dumps of all sources so far */
	unsigned flags; /* ETM_SNAP_* */
	char *realdir;  /* real path of the snapshot directory */
	char *errbuf;
	size_t errlen;
};

/* An error of the load: its message into the caller's buffer. */
#define snap_err(c, code, ...) etm_err_msg((c)->errbuf, (c)->errlen, code, __VA_ARGS__)

static char *snap_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* Full path of file reference @rel made at @ini:@line (@ini NULL: the
 * snapshot's own snapshot.ini): confined to the snapshot directory unless
 * ETM_SNAP_ALLOW_OUTSIDE, a regular file if it exists. */
static int snap_ref(struct snap_ctx *c, const char *rel,
		    const struct etm_ini *ini, unsigned line, char **out)
{
	const char *where = ini ? ini->path : c->snap->dir;
	int rc = etm_snap_path(c->snap->dir, c->realdir,
			       c->flags & ETM_SNAP_ALLOW_OUTSIDE, rel, out);

	if (rc == -1)
		return snap_err(c, -etme_nomem, "out of memory");
	if (rc == -2)
		return snap_err(c, -etme_parse,
				"%s:%u: '%s' lies outside the snapshot directory (not followed unless allowed)",
				where, line, rel);
	if (rc == -3)
		return snap_err(c, -etme_io, "%s:%u: '%s' is not a regular file",
				where, line, rel);
	return 0;
}

/* Copy the @i-th comma-separated item of @list, trimmed, into @out. */
static int snap_list_item(const char *list, size_t i, char *out, size_t n)
{
	const char *s = list, *e;

	while (i--) {
		s = strchr(s, ',');
		if (!s)
			return 0;
		s++;
	}
	e = strchr(s, ',');
	if (!e)
		e = s + strlen(s);
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	if (s == e || (size_t)(e - s) >= n)
		return 0;
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = 0;
	return 1;
}

static int snap_load_ini(struct snap_ctx *c, struct etm_ini **ini,
			 const char *rel, const struct etm_ini *from,
			 unsigned line)
{
	char msg[512];
	char *path;
	int rc;

	rc = snap_ref(c, rel, from, line, &path);
	if (rc < 0)
		return rc;
	rc = etm_ini_load(ini, path, msg, sizeof(msg));
	free(path);
	if (rc == -etme_io && from)
		return snap_err(c, rc, "%s:%u: %s", from->path, line, msg);
	if (rc < 0)
		return snap_err(c, rc, "%s", msg);
	c->text += (*ini)->size;
	if (c->text > SNAP_MAX_TEXT) {
		rc = snap_err(c, -etme_parse,
			      "%s: snapshot .ini files exceed %u bytes",
			      (*ini)->path, SNAP_MAX_TEXT);
		etm_ini_free(*ini);
		*ini = NULL;
	}
	return rc;
}

static int snap_read_devices(struct snap_ctx *c)
{
	const struct etm_ini *top = c->top;
	long sec = etm_ini_section(top, "device_list");
	size_t i;
	int rc;

	if (sec < 0)
		return snap_err(c, -etme_parse, "%s: no [device_list] section",
				top->path);
	c->devs = calloc(top->nentries ? top->nentries : 1, sizeof(*c->devs));
	if (!c->devs)
		return snap_err(c, -etme_nomem, "out of memory");
	for (i = 0; i < top->nentries; i++) {
		const struct etm_ini_entry *e = &top->entries[i];
		struct snap_dev *d = &c->devs[c->ndevs];

		if (e->section != (size_t)sec)
			continue;
		if (c->ndevs == SNAP_MAX_DEVICES)
			return snap_err(c, -etme_parse,
					"%s:%u: more than %u devices", top->path,
					e->line, SNAP_MAX_DEVICES);
		rc = snap_load_ini(c, &d->ini, e->value, top, e->line);
		if (rc < 0)
			return rc;
		c->ndevs++;
		d->name = etm_ini_get(d->ini, "device", "name", NULL);
		d->class = etm_ini_get(d->ini, "device", "class", NULL);
		d->type = etm_ini_get(d->ini, "device", "type", NULL);
		d->location = etm_ini_get(d->ini, "device", "location", NULL);
		if (!d->name || !*d->name)
			return snap_err(c, -etme_parse,
					"%s: [device] has no name",
					d->ini->path);
	}
	return 0;
}

static const struct snap_dev *snap_dev_by_name(const struct snap_ctx *c,
					       const char *name)
{
	size_t i;

	for (i = 0; i < c->ndevs; i++)
		if (!strcmp(c->devs[i].name, name))
			return &c->devs[i];
	for (i = 0; i < c->ndevs; i++)
		if (!strcasecmp(c->devs[i].name, name))
			return &c->devs[i];
	return NULL;
}

/* Protocol from a trace-source type: the part before the first '.'. */
static enum etm_protocol snap_protocol(const char *type)
{
	size_t n;

	if (!type)
		return etm_proto_unknown;
	n = strcspn(type, ".");
	if (n == 4 && !strncasecmp(type, "ETM3", 4))
		return etm_proto_etmv3;
	if (n == 4 && !strncasecmp(type, "ETM1", 4))
		return etm_proto_etmv1;
	if (n == 4 && !strncasecmp(type, "ETM2", 4))
		return etm_proto_etmv2;
	if (n == 4 && (!strncasecmp(type, "PTM1", 4) ||
		       !strncasecmp(type, "PFT1", 4)))
		return etm_proto_ptm;
	return etm_proto_unknown;
}

/* Register @name from [regs]: key "NAME" or "NAME(...)", any case.
 * Missing registers read as 0. */
static int snap_reg(struct snap_ctx *c, const struct etm_ini *ini,
		    const char *name, uint32_t *val)
{
	long sec = etm_ini_section(ini, "regs");
	size_t i, n = strlen(name);
	unsigned long long v;

	*val = 0;
	for (i = 0; sec >= 0 && i < ini->nentries; i++) {
		const struct etm_ini_entry *e = &ini->entries[i];
		const char *k = e->key;

		if (e->section != (size_t)sec || strncasecmp(k, name, n))
			continue;
		k += n;
		while (*k == ' ' || *k == '\t')
			k++;
		if (*k && *k != '(')
			continue;
		if (etm_ini_u64(e->value, &v) < 0 || v > 0xffffffffull)
			return snap_err(c, -etme_parse,
					"%s:%u: bad value '%s' for register %s",
					ini->path, e->line, e->value, name);
		*val = (uint32_t)v;
		return 0;
	}
	return 0;
}

static enum etm_space snap_space(const char *s)
{
	if (!s)
		return etm_space_any;
	if (!strcasecmp(s, "S") || !strcasecmp(s, "EL1S") ||
	    !strcasecmp(s, "EL3") || !strcasecmp(s, "SP"))
		return etm_space_secure;
	if (!strcasecmp(s, "N") || !strcasecmp(s, "EL1N") ||
	    !strcasecmp(s, "H") || !strcasecmp(s, "EL2") ||
	    !strcasecmp(s, "NP"))
		return etm_space_nonsecure;
	return etm_space_any;
}

static int snap_dump_num(struct snap_ctx *c, const struct etm_ini *ini,
			 size_t si, const char *key, uint64_t *v, int required)
{
	unsigned line = 0;
	const char *s = etm_ini_get_in(ini, si, key, &line);
	unsigned long long x;

	*v = 0;
	if (!s && required)
		return snap_err(c, -etme_parse, "%s:%u: [%s] has no %s",
				ini->path, ini->section_line[si],
				ini->sections[si], key);
	if (s && etm_ini_u64(s, &x) < 0)
		return snap_err(c, -etme_parse, "%s:%u: bad %s '%s'",
				ini->path, line, key, s);
	if (s)
		*v = x;
	return 0;
}

static int snap_one_dump(struct snap_ctx *c, const struct etm_ini *ini,
			 size_t si, struct etm_snap_dump *d)
{
	const char *file = etm_ini_get_in(ini, si, "file", NULL);
	unsigned line = 0;
	int rc;

	if (!file || !*file)
		return snap_err(c, -etme_parse, "%s:%u: [%s] has no file",
				ini->path, ini->section_line[si],
				ini->sections[si]);
	rc = snap_dump_num(c, ini, si, "address", &d->addr, 1);
	if (!rc)
		rc = snap_dump_num(c, ini, si, "length", &d->length, 0);
	if (!rc)
		rc = snap_dump_num(c, ini, si, "offset", &d->offset, 0);
	if (rc < 0)
		return rc;
	if (d->addr >= SNAP_ADDR_TOP || d->length > SNAP_ADDR_TOP - d->addr)
		return snap_err(c, -etme_parse,
				"%s:%u: [%s] address 0x%llx + length 0x%llx lies beyond the 32-bit address space",
				ini->path, ini->section_line[si],
				ini->sections[si], (unsigned long long)d->addr,
				(unsigned long long)d->length);
	d->space = snap_space(etm_ini_get_in(ini, si, "space", NULL));
	etm_ini_get_in(ini, si, "file", &line);
	return snap_ref(c, file, ini, line, &d->path);
}

/* Whether dump section @i repeats the name of an earlier dump section
 * (the first one wins); only the @n dumps already taken are compared. */
static int snap_dump_repeated(const struct etm_ini *ini, size_t i,
			      const size_t *taken, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!strcasecmp(ini->sections[taken[k]], ini->sections[i]))
			return 1;
	return 0;
}

/* The core's [dump*] sections. Every dump section seen counts towards
 * SNAP_MAX_DUMPS, so the repeated-name check stays bounded. */
static int snap_dumps(struct snap_ctx *c, const struct snap_dev *core,
		      struct etm_snap_source *src)
{
	const struct etm_ini *ini = core->ini;
	size_t i, max = ini->nsections, *taken;
	int rc = 0;

	if (max > SNAP_MAX_DUMPS)
		max = SNAP_MAX_DUMPS;
	src->dumps = calloc(max ? max : 1, sizeof(*src->dumps));
	taken = calloc(max ? max : 1, sizeof(*taken));
	if (!src->dumps || !taken) {
		free(taken);
		return snap_err(c, -etme_nomem, "out of memory");
	}
	for (i = 0; i < ini->nsections && rc == 0; i++) {
		if (strncasecmp(ini->sections[i], "dump", 4))
			continue;
		if (++c->ndumps > SNAP_MAX_DUMPS) {
			rc = snap_err(c, -etme_parse,
				      "%s:%u: more than %u memory dumps",
				      ini->path, ini->section_line[i],
				      SNAP_MAX_DUMPS);
			break;
		}
		if (snap_dump_repeated(ini, i, taken, src->ndumps))
			continue; /* a repeated section name: first wins */
		taken[src->ndumps] = i;
		rc = snap_one_dump(c, ini, i, &src->dumps[src->ndumps]);
		src->ndumps++; /* counted even on error: path is freed */
	}
	free(taken);
	return rc;
}

static int snap_is_m_profile(const char *type)
{
	static const char *const m[] = { "Cortex-M", "ARMv6-M", "ARMv7-M",
					 "ARMv7E-M", "ARMv8-M" };
	size_t i;

	for (i = 0; type && i < sizeof(m) / sizeof(m[0]); i++)
		if (!strncasecmp(type, m[i], strlen(m[i])))
			return 1;
	return 0;
}

/* Devices sorted by name or by location (case-insensitive), to link
 * the entries of trace.ini to them in O(entries x log devices). */
static int dev_name_cmp(const void *a, const void *b)
{
	return strcasecmp((*(struct snap_dev *const *)a)->name,
			  (*(struct snap_dev *const *)b)->name);
}

static int dev_loc_cmp(const void *a, const void *b)
{
	return strcasecmp((*(struct snap_dev *const *)a)->location,
			  (*(struct snap_dev *const *)b)->location);
}

/* First of the @n sorted devices whose name (@loc: location) is @key. */
static size_t dev_lower(struct snap_dev **v, size_t n, const char *key,
			int loc)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(loc ? v[mid]->location : v[mid]->name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Set @field (core or buffers) to @val on the devices named @key (@loc:
 * located at @key) that have none yet: the first entry wins. */
static void dev_link(struct snap_dev **v, size_t n, const char *key, int loc,
		     size_t field, const char *val)
{
	size_t i;

	for (i = dev_lower(v, n, key, loc); i < n; i++) {
		const char **f = (const char **)((char *)v[i] + field);

		if (strcasecmp(loc ? v[i]->location : v[i]->name, key))
			break;
		if (!*f)
			*f = val;
	}
}

/* Each device's core (its first [core_trace_sources] entry naming it or,
 * with '@', its location) and [source_buffers] entry. */
static int snap_link(struct snap_ctx *c)
{
	const struct etm_ini *t = c->trace;
	long sec = etm_ini_section(t, "core_trace_sources");
	struct snap_dev **byname, **byloc;
	size_t i, nloc = 0;

	byname = calloc(c->ndevs + 1, sizeof(*byname));
	byloc = calloc(c->ndevs + 1, sizeof(*byloc));
	if (!byname || !byloc) {
		free(byname);
		free(byloc);
		return snap_err(c, -etme_nomem, "out of memory");
	}
	for (i = 0; i < c->ndevs; i++) {
		byname[i] = &c->devs[i];
		if (c->devs[i].location)
			byloc[nloc++] = &c->devs[i];
	}
	qsort(byname, c->ndevs, sizeof(*byname), dev_name_cmp);
	qsort(byloc, nloc, sizeof(*byloc), dev_loc_cmp);
	for (i = 0; i < t->nentries; i++) {
		const struct etm_ini_entry *e = &t->entries[i];

		if (sec >= 0 && e->section == (size_t)sec) {
			if (e->value[0] == '@')
				dev_link(byloc, nloc, e->value + 1, 1,
					 offsetof(struct snap_dev, core), e->key);
			dev_link(byname, c->ndevs, e->value, 0,
				 offsetof(struct snap_dev, core), e->key);
		}
		if (!strcasecmp(t->sections[e->section], "source_buffers"))
			dev_link(byname, c->ndevs, e->key, 0,
				 offsetof(struct snap_dev, buffers), e->value);
	}
	free(byname);
	free(byloc);
	return 0;
}

/* Buffer of source @name: first entry of [source_buffers], or the only
 * buffer when there is no [source_buffers] section. */
static int snap_buffer_of(struct snap_ctx *c, const struct snap_dev *d,
			  struct etm_snap_source *s)
{
	const char *v;
	char name[256];

	if (!c->trace)
		return 0;
	if (etm_ini_section(c->trace, "source_buffers") < 0) {
		if (c->snap->nbuffers != 1)
			return 0;
		s->buffer = snap_strdup(c->snap->buffers[0].name);
		return s->buffer ? 0 : -etme_nomem;
	}
	v = d->buffers;
	if (!v || !snap_list_item(v, 0, name, sizeof(name)))
		return 0;
	s->buffer = snap_strdup(name);
	return s->buffer ? 0 : -etme_nomem;
}

static int snap_dup_opt(char **dst, const char *s)
{
	if (!s)
		return 0;
	*dst = snap_strdup(s);
	return *dst ? 0 : -etme_nomem;
}

static int snap_source_regs(struct snap_ctx *c, const struct snap_dev *d,
			    struct etm_config *cfg)
{
	int rc;

	rc = snap_reg(c, d->ini, "ETMCR", &cfg->etmcr);
	if (!rc)
		rc = snap_reg(c, d->ini, "ETMCCER", &cfg->etmccer);
	if (!rc)
		rc = snap_reg(c, d->ini, "ETMIDR", &cfg->etmidr);
	if (!rc)
		rc = snap_reg(c, d->ini, "ETMTRACEIDR", &cfg->traceid);
	if (!rc)
		rc = snap_reg(c, d->ini, "ETMCCR", &cfg->etmccr);
	if (!rc && (cfg->protocol == etm_proto_etmv1 || cfg->protocol == etm_proto_etmv2) && !cfg->traceid)
		cfg->traceid = 0x10; /* ETMv1/v2 have no trace ID */
	return rc;
}

/* Trace ID of a source of another protocol, from whichever register of its
 * kind holds it (ETMv4 TRCTRACEIDR, ITM/STM control register [22:16]). */
static int snap_other_id(struct snap_ctx *c, const struct snap_dev *d,
			 struct etm_config *cfg)
{
	static const char *const idregs[] = { "ETMTRACEIDR", "TRCTRACEIDR" };
	static const char *const ctlregs[] = { "ITMTCR", "STMTCSR" };
	uint32_t v = 0;
	size_t i;
	int rc = 0;

	for (i = 0; i < 2 && !rc && !v; i++)
		rc = snap_reg(c, d->ini, idregs[i], &v);
	for (i = 0; i < 2 && !rc && !v; i++) {
		rc = snap_reg(c, d->ini, ctlregs[i], &v);
		v = (v >> 16) & 0x7f;
	}
	cfg->traceid = v & 0x7f;
	return rc;
}

static int snap_add_source(struct snap_ctx *c, const struct snap_dev *d,
			   enum etm_protocol proto)
{
	struct etm_snap_source *s = proto == etm_proto_unknown ?
					    &c->snap->others[c->snap->nothers++] :
					    &c->snap->sources[c->snap->nsources++];
	const struct snap_dev *core = NULL;
	const char *core_name;
	int rc;

	etm_config_init(&s->cfg);
	s->cfg.protocol = proto;
	rc = snap_dup_opt(&s->name, d->name);
	if (!rc)
		rc = snap_dup_opt(&s->type, d->type);
	if (rc < 0)
		return snap_err(c, rc, "out of memory");
	rc = proto == etm_proto_unknown ? snap_other_id(c, d, &s->cfg) :
					  snap_source_regs(c, d, &s->cfg);
	if (rc < 0)
		return rc;
	core_name = d->core;
	if (core_name)
		core = snap_dev_by_name(c, core_name);
	rc = snap_dup_opt(&s->core, core_name);
	if (!rc && core)
		rc = snap_dup_opt(&s->core_type, core->type);
	if (!rc)
		rc = snap_buffer_of(c, d, s);
	if (rc < 0)
		return snap_err(c, rc, "out of memory");
	if (snap_is_m_profile(s->core_type))
		s->cfg.flags |= ETM_CFG_M_PROFILE;
	return core ? snap_dumps(c, core, s) : 0;
}

static int snap_sources(struct snap_ctx *c)
{
	size_t i;
	int rc;

	if (c->trace) {
		rc = snap_link(c);
		if (rc < 0)
			return rc;
	}
	c->snap->sources = calloc(c->ndevs ? c->ndevs : 1,
				  sizeof(*c->snap->sources));
	c->snap->others = calloc(c->ndevs ? c->ndevs : 1,
				 sizeof(*c->snap->others));
	if (!c->snap->sources || !c->snap->others)
		return snap_err(c, -etme_nomem, "out of memory");
	for (i = 0; i < c->ndevs; i++) {
		const struct snap_dev *d = &c->devs[i];
		enum etm_protocol p = snap_protocol(d->type);

		if (!d->class || strcasecmp(d->class, "trace_source"))
			continue; /* cores, funnels, sinks, ... */
		rc = snap_add_source(c, d, p);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static enum etm_input_format snap_format(const char *f)
{
	if (f && !strcasecmp(f, "coresight"))
		return etm_fmt_coresight;
	if (f && !strcasecmp(f, "source_data"))
		return etm_fmt_raw;
	return etm_fmt_unknown;
}

static int snap_one_buffer(struct snap_ctx *c, const char *id,
			   struct etm_snap_buffer *b)
{
	const struct etm_ini *t = c->trace;
	unsigned line = 0;
	const char *name, *files;
	char item[1024];
	size_t i, n = 0;

	if (etm_ini_section(t, id) < 0) {
		etm_ini_get(t, "trace_buffers", "buffers", &line);
		return snap_err(c, -etme_parse, "%s:%u: no section [%s]",
				t->path, line, id);
	}
	name = etm_ini_get(t, id, "name", NULL);
	files = etm_ini_get(t, id, "file", &line);
	if (!name || !*name || !files)
		return snap_err(c, -etme_parse,
				"%s:%u: [%s] needs name and file", t->path,
				t->section_line[etm_ini_section(t, id)], id);
	b->format = snap_format(etm_ini_get(t, id, "format", NULL));
	b->name = snap_strdup(name);
	while (snap_list_item(files, n, item, sizeof(item)))
		n++;
	b->files = calloc(n ? n : 1, sizeof(*b->files));
	if (!b->name || !b->files)
		return snap_err(c, -etme_nomem, "out of memory");
	for (i = 0; i < n; i++) {
		int rc;

		snap_list_item(files, i, item, sizeof(item));
		rc = snap_ref(c, item, t, line, &b->files[i]);
		if (rc < 0)
			return rc;
		b->nfiles++;
	}
	if (!n)
		return snap_err(c, -etme_parse, "%s:%u: [%s] bad file list",
				t->path, line, id);
	return 0;
}

static int snap_buffers(struct snap_ctx *c)
{
	const char *list;
	unsigned line = 0;
	char id[256];
	size_t n = 0, i;
	int rc;

	if (!c->trace)
		return 0;
	list = etm_ini_get(c->trace, "trace_buffers", "buffers", &line);
	if (!list)
		return snap_err(c, -etme_parse,
				"%s: no [trace_buffers] buffers= entry",
				c->trace->path);
	while (snap_list_item(list, n, id, sizeof(id)))
		if (++n > SNAP_MAX_BUFFERS)
			return snap_err(c, -etme_parse,
					"%s:%u: more than %u trace buffers",
					c->trace->path, line, SNAP_MAX_BUFFERS);
	c->snap->buffers = calloc(n ? n : 1, sizeof(*c->snap->buffers));
	if (!c->snap->buffers)
		return snap_err(c, -etme_nomem, "out of memory");
	for (i = 0; i < n; i++) {
		snap_list_item(list, i, id, sizeof(id));
		c->snap->nbuffers++;
		rc = snap_one_buffer(c, id, &c->snap->buffers[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int snap_read_top(struct snap_ctx *c)
{
	const char *ver, *meta;
	unsigned line = 0;
	int rc;

	rc = snap_load_ini(c, &c->top, "snapshot.ini", NULL, 0);
	if (rc < 0)
		return rc;
	ver = etm_ini_get(c->top, "snapshot", "version", &line);
	if (ver && strncmp(ver, "1.", 2))
		return snap_err(c, -etme_parse,
				"%s:%u: unsupported snapshot version '%s'",
				c->top->path, line, ver);
	rc = snap_read_devices(c);
	if (rc < 0)
		return rc;
	meta = etm_ini_get(c->top, "trace", "metadata", &line);
	if (meta)
		rc = snap_load_ini(c, &c->trace, meta, c->top, line);
	return rc;
}

int etm_snapshot_load(struct etm_snapshot **snap, const char *dir,
		      char *errbuf, size_t errlen)
{
	return etm_snapshot_load_ex(snap, dir, 0, errbuf, errlen);
}

int etm_snapshot_load_ex(struct etm_snapshot **snap, const char *dir,
			 unsigned flags, char *errbuf, size_t errlen)
{
	struct snap_ctx c;
	size_t i;
	int rc;

	if (errbuf && errlen)
		errbuf[0] = 0;
	if (!snap || !dir)
		return -etme_invalid;
	*snap = NULL;
	memset(&c, 0, sizeof(c));
	c.errbuf = errbuf;
	c.errlen = errlen;
	c.flags = flags;
	c.snap = calloc(1, sizeof(*c.snap));
	if (!c.snap || !(c.snap->dir = snap_strdup(dir))) {
		rc = snap_err(&c, -etme_nomem, "out of memory");
		goto out;
	}
	c.realdir = realpath(dir, NULL);
	if (!c.realdir) {
		rc = snap_err(&c, -etme_io, "%s: %s", dir, strerror(errno));
		goto out;
	}
	rc = snap_read_top(&c);
	if (!rc)
		rc = snap_buffers(&c);
	if (!rc)
		rc = snap_sources(&c);
out:
	for (i = 0; i < c.ndevs; i++)
		etm_ini_free(c.devs[i].ini);
	free(c.devs);
	free(c.realdir);
	etm_ini_free(c.top);
	etm_ini_free(c.trace);
	if (rc < 0) {
		etm_snapshot_free(c.snap);
		return rc;
	}
	*snap = c.snap;
	return 0;
}
