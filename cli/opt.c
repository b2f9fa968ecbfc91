/* cli/opt.c - option table and parser for the etmtrace subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/number.h>
#include <etmtrace/open.h>

#include "opt.h"

int opt_uint(const char *cmd, const char *name, const char *s, int hex,
	     uint64_t min, uint64_t max, uint64_t *v)
{
	if (etm_parse_number(s, hex ? ETM_DIGITS_HEX : ETM_DIGITS_STRICT, v) == 0 && *v >= min && *v <= max)
		return 0;
	if (hex || max >= 0xffffffffu)
		fprintf(stderr, "etmtrace %s: bad value for --%s: '%s' (expected 0x%llx-0x%llx%s)\n",
			cmd, name, s ? s : "(missing)", (unsigned long long)min,
			(unsigned long long)max, hex ? ", hex" : ", decimal or 0x hex");
	else
		fprintf(stderr, "etmtrace %s: bad value for --%s: '%s' (expected %llu-%llu, decimal or 0x hex)\n",
			cmd, name, s ? s : "(missing)", (unsigned long long)min,
			(unsigned long long)max);
	return -1;
}

static int opt_allowed(const char *allowed, const char *name)
{
	size_t n = strlen(name);
	const char *p = allowed;

	if (!n)
		return 0; /* "--": strstr would find "" for ever */
	while ((p = strstr(p, name)) != NULL) {
		if ((p == allowed || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* FILE@ADDR (ADDR required for --image, optional for --elf; a 32-bit
 * address). The '@' is cut in place: argv strings are writable (C11
 * 5.1.2.2.1). For --elf, text after the last '@' is a bias when the whole
 * argument names no file. Returns 0, or -2 after printing an error that
 * names the argument and the accepted forms. */
static int opt_file_arg(const struct opts *o, const char *name,
			struct opt_file *f, char *arg, int need_addr)
{
	char *at = strrchr(arg, '@');
	struct stat st;
	uint64_t v = 0;

	f->path = arg;
	f->addr = 0;
	if (!at && !need_addr)
		return 0;
	if (!at) {
		fprintf(stderr, "etmtrace %s: --%s %s: no '@ADDRESS' (expected "
				"FILE@ADDRESS); ADDRESS 0x0-0xffffffff, decimal or 0x hex\n",
			o->cmd, name, arg);
		return -2;
	}
	if (!need_addr && stat(arg, &st) == 0)
		return 0; /* a file name with an '@' in it */
	if (etm_parse_number(at + 1, ETM_DIGITS_STRICT, &v) != 0 || v > 0xffffffffu) {
		fprintf(stderr, "etmtrace %s: --%s %s: bad %s '%s' (expected "
				"0x0-0xffffffff, decimal or 0x hex, in %s)\n",
			o->cmd, name, arg, need_addr ? "address" : "bias", at + 1,
			need_addr ? "FILE@ADDRESS" : "FILE@BIAS; or FILE alone");
		return -2;
	}
	*at = 0;
	f->addr = v;
	return 0;
}

/* Room for one more --@name file (at most OPT_MAX_FILES); -2 if full. */
static int opt_file_room(const struct opts *o, const char *name, int n)
{
	if (n < OPT_MAX_FILES)
		return 0;
	fprintf(stderr, "etmtrace %s: at most %d --%s options\n", o->cmd,
		OPT_MAX_FILES, name);
	return -2;
}

static int opt_enum(const char *v, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, names[i]))
			return i;
	return -1;
}

/* --etmcr, --etmccer, --etmidr, --etmccr: a 32-bit register value.
 * Returns 0 or -2 (reported). */
static int opt_register(struct opts *o, const char *name, const char *v)
{
	uint64_t n;

	if (opt_uint(o->cmd, name, v, 0, 0, 0xffffffffu, &n) < 0)
		return -2;
	if (!strcmp(name, "etmcr")) {
		o->etmcr = (uint32_t)n;
		o->have_etmcr = 1;
	} else if (!strcmp(name, "etmccer")) {
		o->etmccer = (uint32_t)n;
		o->have_etmccer = 1;
	} else if (!strcmp(name, "etmidr")) {
		o->etmidr = (uint32_t)n;
		o->have_etmidr = 1;
	} else {
		o->etmccr = (uint32_t)n;
	}
	return 0;
}

/* Returns 0, -1 (bad value, reported by the caller) or -2 (reported). */
/* --order time|file, --pieces on|off: a circular buffer's pieces;
 * --realign off|basic|precise: the frame realignment;
 * --symfs DIR, --buildid-dir DIR: where the files a perf.data maps are;
 * --ctx-images on|off: its images switched by the Context ID. */
static int opt_pieces(struct opts *o, const char *name, const char *v)
{
	if (!strcmp(name, "order") && (!strcmp(v, "time") || !strcmp(v, "file")))
		o->order_file = !strcmp(v, "file");
	else if (!strcmp(name, "pieces") && (!strcmp(v, "on") || !strcmp(v, "off")))
		o->pieces = !strcmp(v, "off") ? 2 : 1;
	else if (!strcmp(name, "symfs"))
		o->symfs = v;
	else if (!strcmp(name, "buildid-dir"))
		o->buildid_dir = v;
	else if (!strcmp(name, "ctx-images") && (!strcmp(v, "on") || !strcmp(v, "off")))
		o->no_ctx_images = !strcmp(v, "off");
	else if (!strcmp(name, "realign") && !strcmp(v, "off"))
		o->realign = 1;
	else if (!strcmp(name, "realign") && !strcmp(v, "basic"))
		o->realign = 2;
	else if (!strcmp(name, "realign") && !strcmp(v, "precise"))
		o->realign = 3;
	else
		return -1;
	return 0;
}

/* --data-range LO-HI: two numbers (0x hex or decimal), LO <= HI, both
 * included. Returns 0, -2 after printing an error. */
static int opt_data_range(struct opts *o, const char *v)
{
	char lo[64];
	const char *dash = strchr(v, '-');
	size_t n = dash ? (size_t)(dash - v) : 0;

	if (!dash || n == 0 || n >= sizeof(lo)) {
		fprintf(stderr, "etmtrace %s: bad value for --data-range: '%s' (expected LO-HI)\n",
			o->cmd, v);
		return -2;
	}
	memcpy(lo, v, n);
	lo[n] = 0;
	if (opt_uint(o->cmd, "data-range", lo, 0, 0, 0xffffffffu, &o->data_lo) < 0 ||
	    opt_uint(o->cmd, "data-range", dash + 1, 0, 0, 0xffffffffu, &o->data_hi) < 0)
		return -2;
	if (o->data_lo > o->data_hi) {
		fprintf(stderr, "etmtrace %s: --data-range %s: LO is above HI\n", o->cmd, v);
		return -2;
	}
	o->data_range = 1;
	return 0;
}

/* Options of one command each: itm --channel, --probe-wait MS (live
 * input), --data-range; the pieces options. */
static int opt_more(struct opts *o, const char *name, const char *v)
{
	uint64_t n;

	if (!strcmp(name, "data-range"))
		return opt_data_range(o, v);
	if (!strcmp(name, "probe-wait")) {
		if (opt_uint(o->cmd, name, v, 0, 0, 60000, &n) < 0)
			return -2;
		o->probe_wait = (int)n + 1;
		return 0;
	}
	if (strcmp(name, "channel"))
		return opt_pieces(o, name, v);
	if (opt_uint(o->cmd, name, v, 0, 0, 255, &n) < 0)
		return -2;
	o->itm_channel = (int)n;
	return 0;
}

/* --source-map OLD=NEW, --source-dir DIR (repeatable, in order).
 * Returns 0, -1 (not one of them) or -2 (reported). */
static int opt_paths(struct opts *o, const char *name, const char *v)
{
	int map = !strcmp(name, "source-map");
	struct stat st;

	if (!map && strcmp(name, "source-dir"))
		return -1;
	if (opt_file_room(o, name, map ? o->nsource_maps : o->nsource_dirs))
		return -2;
	if (map && (v[0] == '=' || !strchr(v, '='))) {
		fprintf(stderr, "etmtrace %s: --source-map %s: expected OLD=NEW "
				"(OLD not empty)\n",
			o->cmd, v);
		return -2;
	}
	if (!map && (stat(v, &st) != 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "etmtrace %s: --source-dir %s: not a directory\n",
			o->cmd, v);
		return -2;
	}
	if (map)
		o->source_maps[o->nsource_maps++] = v;
	else
		o->source_dirs[o->nsource_dirs++] = v;
	return 0;
}

/* Options of the listing's layout: --fields (checked by the command). */
static int opt_listing(struct opts *o, const char *name, const char *v)
{
	if (strcmp(name, "fields"))
		return opt_more(o, name, v) == 0 ? 0 : opt_paths(o, name, v);
	o->fields = v;
	return 0;
}

/* --start/--stop BOUND, --last N, --at end|halt: the window. Returns 0,
 * -1 (bad value) or -2 (reported). */
static int opt_window(struct opts *o, const char *name, const char *v)
{
	if (!strcmp(name, "start") || !strcmp(name, "stop")) {
		if (etm_window_parse(v, !strcmp(name, "start") ? &o->win_start :
								 &o->win_stop) == 0)
			return 0;
		fprintf(stderr, "etmtrace %s: bad value for --%s: '%s' (expected 0xADDRESS, "
				"@OFFSET, ts:TIMESTAMP or #INDEX)\n",
			o->cmd, name, v);
		return -2;
	}
	if (!strcmp(name, "last"))
		return opt_uint(o->cmd, name, v, 0, 1, (uint64_t)1 << 32, &o->win_last) < 0 ?
			       -2 :
			       0;
	if (!strcmp(name, "at") && (!strcmp(v, "end") || !strcmp(v, "halt"))) {
		o->win_at_halt = !strcmp(v, "halt");
		return 0;
	}
	return opt_listing(o, name, v);
}

static int opt_value(struct opts *o, const char *name, char *v)
{
	static const char *const protos[] = { "", "etmv3", "ptm", "etmv1",
					      "etmv2", "itm" };
	static const char *const fmts[] = { "", "raw", "coresight", "tpiu",
					    "tpiu-nofsync" };
	uint64_t n;
	int k;

	if (!strcmp(name, "id")) {
		if (opt_uint(o->cmd, name, v, 1, 1, 0x6f, &n) < 0)
			return -2;
		for (k = 0; k < o->nids; k++)
			if (o->ids[k] == (unsigned)n) {
				fprintf(stderr, "etmtrace %s: --id 0x%02x given twice\n",
					o->cmd, (unsigned)n);
				return -2;
			}
		o->ids[o->nids++] = (unsigned)n; /* distinct, < 0x70 */
	} else if (!strcmp(name, "protocol")) {
		if ((k = opt_enum(v, protos, 6)) <= 0)
			return -1;
		o->proto = (enum etm_protocol)k;
	} else if (!strcmp(name, "input-format")) {
		if ((k = opt_enum(v, fmts, 5)) <= 0)
			return -1;
		o->infmt = (enum etm_input_format)k;
	} else if (!strcmp(name, "etmcr") || !strcmp(name, "etmccer") ||
		   !strcmp(name, "etmidr") || !strcmp(name, "etmccr")) {
		return opt_register(o, name, v);
	} else if (!strcmp(name, "samples")) {
		if (strcmp(v, "bin") && strcmp(v, "text") &&
		    strcmp(v, "openocd") && strcmp(v, "etb"))
			return -1;
		o->samples = v;
	} else if (!strcmp(name, "image")) {
		if (opt_file_room(o, name, o->nimages) ||
		    opt_file_arg(o, name, &o->images[o->nimages], v, 1))
			return -2;
		o->nimages++;
	} else if (!strcmp(name, "elf") || !strcmp(name, "vmlinux")) {
		if (opt_file_room(o, name, o->nelfs) ||
		    opt_file_arg(o, name, &o->elfs[o->nelfs], v, 0))
			return -2;
		o->nelfs++;
	} else if (!strcmp(name, "format")) {
		if (strcmp(v, "text") && strcmp(v, "jsonl") && strcmp(v, "canon") &&
		    strcmp(v, "flat") && strcmp(v, "callgrind") &&
		    strcmp(v, "folded") && strcmp(v, "perfetto") &&
		    strcmp(v, "calls") && strcmp(v, "perf-script") && strcmp(v, "data"))
			return -1;
		o->format = v;
	} else if (!strcmp(name, "jobs")) {
		if (opt_uint(o->cmd, name, v, 0, 1, 256, &n) < 0)
			return -2;
		o->jobs = (int)n;
	} else if (!strcmp(name, "symbols")) {
		char why[160];

		if (o->nsymfiles >= OPT_MAX_FILES)
			return -1;
		if (etm_file_problem(v, 0, why, sizeof(why))) {
			fprintf(stderr, "etmtrace %s: --symbols %s: %s\n", o->cmd, v, why);
			return -2;
		}
		o->symfiles[o->nsymfiles++] = v;
	} else if (!strcmp(name, "clock")) {
		char *end;

		o->clock_hz = strtod(v, &end);
		if (*end || !(o->clock_hz > 0))
			return -1;
	} else if (!strcmp(name, "chunk")) {
		if (opt_uint(o->cmd, name, v, 0, 1, 1u << 30, &n) < 0)
			return -2;
		o->chunk = (int)n;
	} else {
		return opt_window(o, name, v);
	}
	return 0;
}

static const char *const opt_flags[] = { "stats", "no-cache", "m-profile",
					 "verify", "source", "offsets", "allow-outside",
					 "verbose", "verify-drop", "run-stats", "check",
					 "data-only" };

static int opt_flag(struct opts *o, const char *name)
{
	if (!strcmp(name, "stats"))
		o->stats = 1;
	else if (!strcmp(name, "run-stats"))
		o->run_stats = 1;
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
	else if (!strcmp(name, "allow-outside"))
		o->allow_outside = 1;
	else if (!strcmp(name, "verbose"))
		o->verbose = 1;
	else if (!strcmp(name, "verify-drop"))
		o->verify = o->verify_drop = 1;
	else if (!strcmp(name, "check"))
		o->itm_check = 1;
	else if (!strcmp(name, "data-only"))
		o->data_only = 1;
	else
		return -1;
	return 0;
}

/* --offsets [dec|hex], --offsets=dec|hex: the input offset column of
 * listings, decimal unless hex is asked for. The value may be the next
 * argument only when it is "dec" or "hex" (else that is the input). */
static int opt_offsets(struct opts *o, const char *eq, int argc, char **argv,
		       int *i)
{
	const char *v = eq ? eq + 1 : NULL;

	if (!v && *i + 1 < argc &&
	    (!strcmp(argv[*i + 1], "hex") || !strcmp(argv[*i + 1], "dec")))
		v = argv[++*i];
	if (!v || !strcmp(v, "dec")) {
		o->offsets = 1;
		return 0;
	}
	if (!strcmp(v, "hex")) {
		o->offsets = 2;
		return 0;
	}
	fprintf(stderr, "etmtrace %s: bad value for --offsets: '%s' (expected dec or hex)\n",
		o->cmd, v);
	return -1;
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
		int is_flag = 0, k;

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
		if (!strcmp(name, "offsets")) {
			if (opt_offsets(o, eq, argc, argv, &i) < 0)
				return -1;
			continue;
		}
		for (f = 0; f < sizeof(opt_flags) / sizeof(opt_flags[0]); f++)
			if (!strcmp(name, opt_flags[f]))
				is_flag = 1;
		if (is_flag) {
			opt_flag(o, name);
			continue;
		}
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		k = val ? opt_value(o, name, val) : -1;
		if (k == -2)
			return -1;
		if (k < 0) {
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
