/* cli/opt.c - option table and parser for the etmtrace subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

int opt_num(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s)
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static int opt_allowed(const char *allowed, const char *name)
{
	size_t n = strlen(name);
	const char *p = allowed;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == allowed || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* FILE@ADDR (ADDR required for --image, optional for --elf). The '@' is
 * cut in place: argv strings are writable (C11 5.1.2.2.1). */
static int opt_file_arg(struct opt_file *f, char *arg, int need_addr)
{
	char *at = strrchr(arg, '@');
	uint64_t v = 0;

	if (at && opt_num(at + 1, &v) == 0) {
		*at = 0;
		f->path = arg;
		f->addr = v;
		return 0;
	}
	if (need_addr)
		return -1;
	f->path = arg;
	f->addr = 0;
	return 0;
}

static int opt_enum(const char *v, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return i;
	return -1;
}

static int opt_value(struct opts *o, const char *name, char *v)
{
	static const char *const protos[] = { "", "etmv3", "ptm" };
	static const char *const fmts[] = { "", "raw", "coresight", "tpiu" };
	uint64_t n;
	int k;

	if (!strcmp(name, "id")) {
		if (opt_num(v, &n) || n == 0 || n >= 0x70 || o->nids >= 128)
			return -1;
		o->ids[o->nids++] = (unsigned)n;
	} else if (!strcmp(name, "protocol")) {
		if ((k = opt_enum(v, protos, 3)) <= 0)
			return -1;
		o->proto = (enum etm_protocol)k;
	} else if (!strcmp(name, "input-format")) {
		if ((k = opt_enum(v, fmts, 4)) <= 0)
			return -1;
		o->infmt = (enum etm_input_format)k;
	} else if (!strcmp(name, "etmcr") || !strcmp(name, "etmccer") ||
		   !strcmp(name, "etmidr")) {
		if (opt_num(v, &n) || n > 0xffffffffu)
			return -1;
		if (name[3] == 'c' && name[4] == 'r')
			o->etmcr = (uint32_t)n;
		else if (name[3] == 'c')
			o->etmccer = (uint32_t)n;
		else {
			o->etmidr = (uint32_t)n;
			o->have_etmidr = 1;
		}
	} else if (!strcmp(name, "image")) {
		if (o->nimages >= OPT_MAX_FILES ||
		    opt_file_arg(&o->images[o->nimages++], v, 1))
			return -1;
	} else if (!strcmp(name, "elf")) {
		if (o->nelfs >= OPT_MAX_FILES ||
		    opt_file_arg(&o->elfs[o->nelfs++], v, 0))
			return -1;
	} else if (!strcmp(name, "format")) {
		if (strcmp(v, "text") && strcmp(v, "jsonl") && strcmp(v, "canon") &&
		    strcmp(v, "flat") && strcmp(v, "callgrind") &&
		    strcmp(v, "folded") && strcmp(v, "perfetto"))
			return -1;
		o->format = v;
	} else if (!strcmp(name, "jobs")) {
		if (opt_num(v, &n) || n == 0 || n > 256)
			return -1;
		o->jobs = (int)n;
	} else if (!strcmp(name, "symbols")) {
		if (o->nsymfiles >= OPT_MAX_FILES)
			return -1;
		o->symfiles[o->nsymfiles++] = v;
	} else if (!strcmp(name, "clock")) {
		char *end;

		o->clock_hz = strtod(v, &end);
		if (*end || !(o->clock_hz > 0))
			return -1;
	} else if (!strcmp(name, "chunk")) {
		if (opt_num(v, &n) || n == 0 || n > (1u << 30))
			return -1;
		o->chunk = (int)n;
	} else {
		return -1;
	}
	return 0;
}

static const char *const opt_flags[] = { "stats", "no-cache", "m-profile",
					  "verify", "source", "offsets" };

static int opt_flag(struct opts *o, const char *name)
{
	if (!strcmp(name, "stats"))
		o->stats = 1;
	else if (!strcmp(name, "no-cache"))
		o->no_cache = 1;
	else if (!strcmp(name, "m-profile"))
		o->m_profile = 1;
	else if (!strcmp(name, "verify"))
		o->verify = 1;
	else if (!strcmp(name, "source"))
		o->source = 1;
	else if (!strcmp(name, "offsets"))
		o->offsets = 1;
	else
		return -1;
	return 0;
}

int opt_parse(struct opts *o, int argc, char **argv, const char *allowed)
{
	int i;

	for (i = 0; i < argc; i++) {
		char *a = argv[i];
		char name[32];
		char *eq, *val;
		size_t nl;
		unsigned f;
		int is_flag = 0;

		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return 1;
		if (strncmp(a, "--", 2) != 0) {
			if (o->input) {
				fprintf(stderr, "etmtrace %s: unexpected argument '%s'\n",
					o->cmd, a);
				return -1;
			}
			o->input = a;
			continue;
		}
		a += 2;
		eq = strchr(a, '=');
		nl = eq ? (size_t)(eq - a) : strlen(a);
		if (nl >= sizeof(name))
			nl = sizeof(name) - 1;
		memcpy(name, a, nl);
		name[nl] = 0;
		if (!opt_allowed(allowed, name)) {
			fprintf(stderr, "etmtrace %s: unknown option '--%s' (see --help)\n",
				o->cmd, name);
			return -1;
		}
		for (f = 0; f < sizeof(opt_flags) / sizeof(opt_flags[0]); f++)
			if (!strcmp(name, opt_flags[f]))
				is_flag = 1;
		if (is_flag) {
			opt_flag(o, name);
			continue;
		}
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val || opt_value(o, name, val) < 0) {
			fprintf(stderr, "etmtrace %s: bad value for --%s: '%s'\n",
				o->cmd, name, val ? val : "(missing)");
			return -1;
		}
	}
	if (!o->input) {
		fprintf(stderr, "etmtrace %s: no snapshot directory or trace file given (see --help)\n",
			o->cmd);
		return -1;
	}
	return 0;
}
