/* tests/vectors/run.c - .etv test vectors (doc/vectors.md): parser, frame
 * builder and element-line formatter; included by tests/unit/test-vectors.c. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>
#include <etmtrace/flow.h>
#include <etmtrace/image.h>

#define V_MAXSRC 8
#define V_MAXREG 32
#define V_LINE 1024

/* A growable array of strings. */
struct v_lines {
	char **s;
	size_t n, cap;
};

struct v_label {
	char name[40];
	uint64_t val; /* address, or trace stream position */
	int kind;     /* 'a' address, 's' stream, 'f' file offset */
};

struct v_region {
	uint64_t addr;
	enum etm_isa isa; /* how hex tokens are read (words / hws) */
	uint8_t *buf;
	size_t n, cap;
};

/* One trace stream byte before framing: its trace ID. */
struct v_sbyte {
	uint8_t b, id;
};

enum v_section { vs_none,
		 vs_image,
		 vs_trace,
		 vs_frames,
		 vs_exp_el,
		 vs_exp_canon,
		 vs_samples };

struct vec {
	const char *name;
	int lineno;
	char err[256]; /* parse error */
	struct etm_config src[V_MAXSRC];
	int nsrc;
	struct v_region reg[V_MAXREG];
	int nreg;
	struct v_label *lab;
	size_t nlab, caplab;
	enum v_section sec;
	int fmt;        /* 0 raw, 1 runner frames, 2 hand frames */
	uint8_t cur_id; /* @trace fmt: ID of the following bytes */
	struct v_sbyte *stream;
	size_t nstream, capstream;
	uint64_t *soff; /* file offset of each stream byte */
	uint8_t *file;  /* the bytes fed to the decoder */
	size_t nfile, capfile;
	struct v_lines exp_el, exp_canon;
	int has_el, has_canon;
	char xfail[256];
};

/* ---- small helpers ------------------------------------------------------ */

static void *v_grow(void *p, size_t *cap, size_t need, size_t elsz)
{
	size_t nc = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return p;
	while (nc < need)
		nc *= 2;
	q = realloc(p, nc * elsz);
	if (!q) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	*cap = nc;
	return q;
}

static void lines_add(struct v_lines *l, const char *s)
{
	l->s = v_grow(l->s, &l->cap, l->n + 1, sizeof(*l->s));
	l->s[l->n] = strdup(s);
	if (!l->s[l->n])
		exit(2);
	l->n++;
}

static void lines_free(struct v_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof(*l));
}

static void lines_addf(struct v_lines *l, const char *fmt, ...)
{
	char buf[V_LINE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lines_add(l, buf);
}

static int v_fail(struct vec *v, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (v->lineno)
		n = snprintf(v->err, sizeof(v->err), "%s:%d: ", v->name,
			     v->lineno);
	else
		n = snprintf(v->err, sizeof(v->err), "%s: ", v->name);
	va_start(ap, fmt);
	vsnprintf(v->err + n, sizeof(v->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static void v_free(struct vec *v)
{
	int i;

	for (i = 0; i < v->nreg; i++)
		free(v->reg[i].buf);
	free(v->lab);
	free(v->stream);
	free(v->soff);
	free(v->file);
	lines_free(&v->exp_el);
	lines_free(&v->exp_canon);
}

/* Strip a trailing comment (';' anywhere, '#' at the start) and blanks. */
static char *v_strip(char *s)
{
	char *p = strchr(s, ';');
	size_t n;

	if (p)
		*p = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#')
		*s = 0;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
		     s[n - 1] == '\r'))
		s[--n] = 0;
	return s;
}

static int v_num(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || end == s || *end ? -1 : 0;
}

static int v_hexbyte(const char *t, unsigned *out)
{
	char *end;
	unsigned long v;

	if (strlen(t) != 2)
		return -1;
	v = strtoul(t, &end, 16);
	if (*end)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* ---- labels -------------------------------------------------------------- */

static int lab_add(struct vec *v, const char *name, uint64_t val, int kind)
{
	size_t i;

	for (i = 0; i < v->nlab; i++)
		if (!strcmp(v->lab[i].name, name))
			return v_fail(v, "duplicate label '%s'", name);
	if (strlen(name) >= sizeof(v->lab[0].name))
		return v_fail(v, "label too long");
	v->lab = v_grow(v->lab, &v->caplab, v->nlab + 1, sizeof(*v->lab));
	strcpy(v->lab[v->nlab].name, name);
	v->lab[v->nlab].val = val;
	v->lab[v->nlab].kind = kind;
	v->nlab++;
	return 0;
}

static const struct v_label *lab_find(const struct vec *v, const char *name,
				      size_t n)
{
	size_t i;

	for (i = 0; i < v->nlab; i++)
		if (strlen(v->lab[i].name) == n &&
		    !strncmp(v->lab[i].name, name, n))
			return &v->lab[i];
	return NULL;
}

static int is_ident(int c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* If @s starts with "name:", bind the label and return the rest. */
static char *lab_prefix(struct vec *v, char *s, uint64_t val, int kind,
			int *err)
{
	char *p = s;

	*err = 0;
	if (!is_ident(*p, 1))
		return s;
	while (is_ident(*p, 0))
		p++;
	if (*p != ':')
		return s;
	*p = 0;
	if (lab_add(v, s, val, kind) < 0)
		*err = -1;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Value of label @l: addresses as they are, trace labels as file offsets. */
static uint64_t lab_value(const struct vec *v, const struct v_label *l)
{
	if (l->kind == 's')
		return l->val < v->nstream ? v->soff[l->val] : v->nfile;
	return l->val;
}

/* Replace %name[+-N] in @in: addresses as 0x%llx (elements) or %08llX
 * (canon), trace offsets as decimal. */
static int v_subst(struct vec *v, const char *in, char *out, size_t n,
		   int canon)
{
	size_t o = 0;

	while (*in && o + 24 < n) {
		const struct v_label *l;
		const char *p;
		uint64_t val, d;
		char *end;

		if (*in != '%') {
			out[o++] = *in++;
			continue;
		}
		p = ++in;
		while (is_ident(*p, p == in))
			p++;
		l = lab_find(v, in, (size_t)(p - in));
		if (!l)
			return v_fail(v, "unknown label in '%s'", in - 1);
		val = lab_value(v, l);
		if ((*p == '+' || *p == '-') && p[1] >= '0' && p[1] <= '9') {
			d = strtoull(p + 1, &end, 0);
			val = *p == '+' ? val + d : val - d;
			p = end;
		}
		in = p;
		if (l->kind == 'a')
			o += (size_t)snprintf(out + o, n - o,
					      canon ? "%08llX" : "0x%llx",
					      (unsigned long long)val);
		else
			o += (size_t)snprintf(out + o, n - o, "%llu",
					      (unsigned long long)val);
	}
	out[o] = 0;
	return 0;
}

/* ---- sections ----------------------------------------------------------- */

static int parse_isa(const char *s, enum etm_isa *isa)
{
	if (!strcmp(s, "a32"))
		*isa = etmi_a32;
	else if (!strcmp(s, "t32"))
		*isa = etmi_t32;
	else
		return -1;
	return 0;
}

/* "@config ptm|etmv3 etmcr=.. etmccer=.. etmidr=.. traceid=.. [m-profile]" */
static int parse_config(struct vec *v, char *args)
{
	struct etm_config *c;
	char *tok, *save = NULL;
	uint64_t x;

	if (v->nsrc == V_MAXSRC)
		return v_fail(v, "too many sources");
	c = &v->src[v->nsrc++];
	etm_config_init(c);
	c->traceid = 0x10;
	c->etmccer = 0x30000000; /* binary, 64-bit timestamps */
	tok = strtok_r(args, " \t", &save);
	if (tok && !strcmp(tok, "ptm")) {
		c->protocol = etm_proto_ptm;
		c->etmidr = 0x411cf312; /* PFT 1.1 */
	} else if (tok && !strcmp(tok, "etmv3")) {
		c->protocol = etm_proto_etmv3;
		c->etmidr = 0x410cf250; /* ETMv3.5, original branches */
	} else if (tok && !strcmp(tok, "etmv1")) {
		c->protocol = etm_proto_etmv1;
		c->etmcr = 0x10;      /* 8-bit port */
		c->etmccr = 2u << 28; /* ETMv1.2 */
	} else {
		return v_fail(v, "@config needs ptm, etmv3 or etmv1");
	}
	while ((tok = strtok_r(NULL, " \t", &save))) {
		char *eq = strchr(tok, '=');

		if (!strcmp(tok, "m-profile")) {
			c->flags |= ETM_CFG_M_PROFILE;
			continue;
		}
		if (!strcmp(tok, "latency1")) {
			c->flags |= ETM_CFG_E1_LATENCY1;
			continue;
		}
		if (!eq || v_num(eq + 1, &x) < 0)
			return v_fail(v, "bad @config item '%s'", tok);
		*eq = 0;
		if (!strcmp(tok, "etmcr"))
			c->etmcr = (uint32_t)x;
		else if (!strcmp(tok, "etmccer"))
			c->etmccer = (uint32_t)x;
		else if (!strcmp(tok, "etmidr"))
			c->etmidr = (uint32_t)x;
		else if (!strcmp(tok, "traceid"))
			c->traceid = (uint32_t)x;
		else if (!strcmp(tok, "etmccr"))
			c->etmccr = (uint32_t)x;
		else
			return v_fail(v, "unknown @config item '%s'", tok);
	}
	return 0;
}

static void reg_put(struct v_region *r, const uint8_t *b, size_t n)
{
	r->buf = v_grow(r->buf, &r->cap, r->n + n, 1);
	memcpy(r->buf + r->n, b, n);
	r->n += n;
}

/* One image token: 8 hex digits = A32 word, or T32 hw1:hw2 (first halfword
 * first); 4 digits = halfword; 2 digits = byte. Stored little-endian. */
static int image_token(struct vec *v, struct v_region *r, const char *t)
{
	size_t len = strlen(t);
	uint8_t b[4];
	uint64_t x;
	char hex[16];

	if (len != 2 && len != 4 && len != 8)
		return v_fail(v, "bad opcode token '%s'", t);
	snprintf(hex, sizeof(hex), "0x%s", t);
	if (v_num(hex, &x) < 0)
		return v_fail(v, "bad opcode token '%s'", t);
	if (len == 8 && r->isa == etmi_t32) {
		b[0] = (uint8_t)(x >> 16);
		b[1] = (uint8_t)(x >> 24);
		b[2] = (uint8_t)x;
		b[3] = (uint8_t)(x >> 8);
	} else {
		b[0] = (uint8_t)x;
		b[1] = (uint8_t)(x >> 8);
		b[2] = (uint8_t)(x >> 16);
		b[3] = (uint8_t)(x >> 24);
	}
	reg_put(r, b, len / 2);
	return 0;
}

static int image_line(struct vec *v, char *s)
{
	struct v_region *r = &v->reg[v->nreg - 1];
	char *tok, *save = NULL;
	int err;

	s = lab_prefix(v, s, r->addr + r->n, 'a', &err);
	if (err)
		return -1;
	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		if (image_token(v, r, tok) < 0)
			return -1;
	return 0;
}

static void stream_put(struct vec *v, uint8_t b)
{
	v->stream = v_grow(v->stream, &v->capstream, v->nstream + 1,
			   sizeof(*v->stream));
	v->stream[v->nstream].b = b;
	v->stream[v->nstream].id = v->cur_id;
	v->nstream++;
}

static void file_put(struct vec *v, uint8_t b)
{
	v->file = v_grow(v->file, &v->capfile, v->nfile + 1, 1);
	v->file[v->nfile++] = b;
}

/* A line of @trace (stream bytes) or @frames (file bytes). */
static int trace_line(struct vec *v, char *s)
{
	int frames = v->sec == vs_frames, err;
	char *tok, *save = NULL;
	uint64_t x;
	unsigned b;

	if (!frames && !strncmp(s, "@id ", 4)) {
		if (v->fmt != 1 || v_num(s + 4, &x) < 0 || !x || x > 0x6f)
			return v_fail(v, "bad @id line");
		v->cur_id = (uint8_t)x;
		return 0;
	}
	s = lab_prefix(v, s, frames ? v->nfile : v->nstream,
		       frames ? 'f' : 's', &err);
	if (err)
		return -1;
	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (v_hexbyte(tok, &b) < 0)
			return v_fail(v, "bad trace byte '%s'", tok);
		if (frames)
			file_put(v, (uint8_t)b);
		else
			stream_put(v, (uint8_t)b);
	}
	return 0;
}

/* A line of @samples (ETMv1, doc/vectors.md): "[label:] CYCLE PS SYNC PKT
 * [T]", PS a mnemonic (IE ID IN WT BE BD TR TD), a number, or aN for an APO
 * cycle carrying N; each sample is one 4-byte record of the input. */
static int sample_line(struct vec *v, char *s)
{
	static const char *const nm[8] = { "IE", "ID", "IN", "WT", "BE", "BD",
					   "TR", "TD" };
	struct etm_e1_sample smp = { 0 };
	char *t[6], *save = NULL, *tok;
	uint8_t rec[ETM_E1_REC];
	int k = 0, err, ps = -1, i;
	uint64_t x;

	s = lab_prefix(v, s, v->nstream, 's', &err);
	if (err)
		return -1;
	for (tok = strtok_r(s, " \t", &save); tok && k < 6;
	     tok = strtok_r(NULL, " \t", &save))
		t[k++] = tok;
	if (k < 4 || k > 5 || v_num(t[0], &x) < 0 ||
	    x * ETM_E1_REC != v->nstream)
		return v_fail(v, "bad sample line (cycle %zu expected)",
			      v->nstream / ETM_E1_REC);
	for (i = 0; i < 8; i++)
		if (!strcmp(t[1], nm[i]))
			ps = i;
	if (t[1][0] == 'a' && t[1][1] >= '0' && t[1][1] <= '3' && !t[1][2])
		ps = t[1][1] - '0';
	else if (ps < 0 && v_num(t[1], &x) == 0 && x < 16)
		ps = (int)x;
	if (ps < 0 || (strcmp(t[2], "0") && strcmp(t[2], "1")) ||
	    (k == 5 && strcmp(t[4], "T")))
		return v_fail(v, "bad sample line");
	smp.ps = (uint8_t)ps;
	smp.sync = t[2][0] == '1';
	smp.pkt = (uint16_t)strtoul(t[3], NULL, 16);
	smp.trig = k == 5;
	etm_e1_rec_put(rec, &smp);
	for (i = 0; i < ETM_E1_REC; i++)
		stream_put(v, rec[i]);
	return 0;
}

static int start_section(struct vec *v, char *s)
{
	uint64_t x;
	char *arg;

	if (!strncmp(s, "@config", 7))
		return parse_config(v, s + 7);
	if (!strncmp(s, "@xfail", 6)) {
		snprintf(v->xfail, sizeof(v->xfail), "%s",
			 s[6] ? s + 7 : "(no reason)");
		return 0;
	}
	if (!strncmp(s, "@image ", 7)) {
		struct v_region *r;
		char isa[8];

		if (v->nreg == V_MAXREG)
			return v_fail(v, "too many @image sections");
		r = &v->reg[v->nreg];
		memset(r, 0, sizeof(*r));
		arg = strpbrk(s + 7, " \t");
		if (!arg || (size_t)(arg - s - 7) >= sizeof(isa))
			return v_fail(v, "@image ISA ADDR");
		snprintf(isa, sizeof(isa), "%.*s", (int)(arg - s - 7), s + 7);
		while (*arg == ' ' || *arg == '\t')
			arg++;
		if (parse_isa(isa, &r->isa) < 0 || v_num(arg, &r->addr) < 0)
			return v_fail(v, "@image ISA ADDR");
		v->nreg++;
		v->sec = vs_image;
		return 0;
	}
	if (!strcmp(s, "@trace") || !strncmp(s, "@trace fmt", 10)) {
		if (v->fmt || v->nstream)
			return v_fail(v, "only one @trace/@frames section");
		if (s[6]) {
			arg = strstr(s, "id=");
			if (!arg || v_num(arg + 3, &x) < 0 || !x || x > 0x6f)
				return v_fail(v, "@trace fmt id=ID");
			v->fmt = 1;
			v->cur_id = (uint8_t)x;
		}
		v->sec = vs_trace;
		return 0;
	}
	if (!strcmp(s, "@samples")) {
		if (v->fmt || v->nstream)
			return v_fail(v, "only one @trace/@samples section");
		v->sec = vs_samples;
		return 0;
	}
	if (!strcmp(s, "@frames")) {
		if (v->fmt || v->nstream)
			return v_fail(v, "only one @trace/@frames section");
		v->fmt = 2;
		v->sec = vs_frames;
		return 0;
	}
	if (!strcmp(s, "@expect elements")) {
		v->sec = vs_exp_el;
		v->has_el = 1;
		return 0;
	}
	if (!strcmp(s, "@expect canon")) {
		v->sec = vs_exp_canon;
		v->has_canon = 1;
		return 0;
	}
	return v_fail(v, "unknown directive '%s'", s);
}

static int parse_line(struct vec *v, char *raw)
{
	char *s = v_strip(raw);

	if (!*s)
		return 0;
	if (*s == '@' && strncmp(s, "@id ", 4))
		return start_section(v, s);
	switch (v->sec) {
	case vs_image:
		return image_line(v, s);
	case vs_trace:
	case vs_frames:
		return trace_line(v, s);
	case vs_samples:
		return sample_line(v, s);
	case vs_exp_el:
		lines_add(&v->exp_el, s);
		return 0;
	case vs_exp_canon:
		lines_add(&v->exp_canon, s);
		return 0;
	default:
		return v_fail(v, "text outside a section");
	}
}

/* ---- framing ------------------------------------------------------------- */

/* Pack the stream into 16-byte CoreSight frames (shared/docs/coresight-formatter.md
 * §3-4). An ID change is written at a mixed slot: aux 0 when the following
 * data byte has the new ID, aux 1 when it still has the old one. Padding
 * switches to the NULL ID 0x00. Records each stream byte's file offset. */
static void build_frames(struct vec *v)
{
	size_t i = 0;
	int cur = -1;

	v->soff = calloc(v->nstream + 1, sizeof(*v->soff));
	if (!v->soff)
		exit(2);
	while (i < v->nstream) {
		uint8_t fr[16] = { 0 };
		uint64_t base = v->nfile;
		int k;

		for (k = 0; k < 8; k++) {
			const struct v_sbyte *q0 = i < v->nstream ?
							   &v->stream[i] :
							   NULL;
			const struct v_sbyte *q1 = i + 1 < v->nstream ?
							   &v->stream[i + 1] :
							   NULL;
			int m = 2 * k;

			if (!q0) {
				if (cur != 0) {
					fr[m] = 0x01; /* NULL ID */
					cur = 0;
				}
				continue;
			}
			if (q0->id != cur) {
				fr[m] = (uint8_t)(q0->id << 1 | 1);
				cur = q0->id;
				if (k == 7)
					continue;
				fr[m + 1] = q0->b;
				v->soff[i++] = base + (uint64_t)m + 1;
				continue;
			}
			if (k == 7 || !q1 || q1->id != cur) {
				if (k == 7) {
					fr[m] = q0->b & 0xfe;
					fr[15] |= (uint8_t)((q0->b & 1) << 7);
					v->soff[i++] = base + (uint64_t)m;
					continue;
				}
				/* the new ID (or NULL) announced here; its
				 * data byte still belongs to the old ID */
				cur = q1 ? q1->id : 0;
				fr[m] = (uint8_t)(cur << 1 | 1);
				fr[15] |= (uint8_t)(1u << k);
				fr[m + 1] = q0->b;
				v->soff[i++] = base + (uint64_t)m + 1;
				continue;
			}
			fr[m] = q0->b & 0xfe;
			fr[15] |= (uint8_t)((q0->b & 1) << k);
			fr[m + 1] = q1->b;
			v->soff[i] = base + (uint64_t)m;
			v->soff[i + 1] = base + (uint64_t)m + 1;
			i += 2;
		}
		for (k = 0; k < 16; k++)
			file_put(v, fr[k]);
	}
	v->soff[v->nstream] = v->nfile;
}

static int v_finish_parse(struct vec *v)
{
	size_t i;

	if (!v->nsrc)
		return v_fail(v, "no @config");
	if (!v->has_el && !v->has_canon)
		return v_fail(v, "no @expect block");
	if (v->fmt == 1) {
		build_frames(v);
	} else if (v->fmt == 0) {
		if (v->nsrc != 1)
			return v_fail(v, "raw @trace takes one source");
		v->soff = calloc(v->nstream + 1, sizeof(*v->soff));
		if (!v->soff)
			exit(2);
		for (i = 0; i < v->nstream; i++) {
			file_put(v, v->stream[i].b);
			v->soff[i] = i;
		}
		v->soff[v->nstream] = v->nfile;
	}
	return 0;
}

static int v_parse(struct vec *v, const char *path)
{
	char line[V_LINE];
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return v_fail(v, "cannot open");
	while (!err && fgets(line, sizeof(line), f)) {
		v->lineno++;
		err = parse_line(v, line);
	}
	fclose(f);
	if (err)
		return err;
	v->lineno = 0;
	return v_finish_parse(v);
}

/* ---- element lines (doc/vectors.md "Element lines") --------------------- */

static const char *v_isa(enum etm_isa isa)
{
	switch (isa) {
	case etmi_a32: return "a32";
	case etmi_t32: return "t32";
	case etmi_tee: return "tee";
	case etmi_jazelle: return "jazelle";
	case etmi_unknown: break;
	}
	return "?";
}

static const char *v_cls(enum etm_insn_class c)
{
	switch (c) {
	case etmc_other: return "other";
	case etmc_br_direct: return "branch";
	case etmc_br_indirect: return "ibranch";
	case etmc_isb: return "isb";
	case etmc_barrier: return "barrier";
	case etmc_exc_gen: return "excgen";
	case etmc_undefined: return "undef";
	case etmc_unknown: break;
	}
	return "unknown";
}

static const char *v_reason(unsigned r)
{
	static const char *const names[] = { "start", "enable", "overflow",
					     "debug", "resync" };

	return r < 5 ? names[r] : "?";
}

/* Exception names: IHI 0014Q Table 7-12 (A/R) and the ARMv7-M table
 * (shared/docs/etmv3.md §6.6). Our own names, fixed by doc/vectors.md. */
static void v_excname(unsigned n, int m, char *buf, size_t len)
{
	static const char *const ar[16] = {
		"none", "debug-halt", "SMC", "Hyp", "async-abort", "jazelle",
		"res6", "res7", "reset", "undef", "SVC", "pabort", "dabort",
		"generic", "IRQ", "FIQ"
	};
	static const char *const mp[24] = {
		"none", "IRQ1", "IRQ2", "IRQ3", "IRQ4", "IRQ5", "IRQ6", "IRQ7",
		"IRQ0", "UsageFault", "NMI", "SVC", "DebugMonitor",
		"MemManage", "PendSV", "SysTick", "res16", "Reset", "res18",
		"HardFault", "res20", "BusFault", "res22", "res23"
	};

	if (!m && n < 16)
		snprintf(buf, len, "%s", ar[n]);
	else if (m && n < 24)
		snprintf(buf, len, "%s", mp[n]);
	else if (m)
		snprintf(buf, len, "IRQ%u", n - 16);
	else
		snprintf(buf, len, "exc%u", n);
}

static void fmt_range(char *b, size_t n, const struct etm_elem *el)
{
	const char *r;

	if (el->last_atom)
		r = el->last_exec ? "E" : "N";
	else
		r = el->last_exec ? "-" : "-N";
	snprintf(b, n, "range [0x%llx,0x%llx) %s n=%u last=%s%s %s",
		 (unsigned long long)el->start, (unsigned long long)el->end,
		 v_isa(el->isa), el->ninsn, v_cls(el->last_cls),
		 el->last_link ? "+link" : "", r);
}

static void fmt_context(char *b, size_t n, const struct etm_elem *el)
{
	int o = snprintf(b, n, "context ns=%u hyp=%u", el->ns, el->hyp);

	if (el->has_ctxid)
		o += snprintf(b + o, n - (size_t)o, " ctxid=0x%x", el->ctxid);
	if (el->has_vmid)
		snprintf(b + o, n - (size_t)o, " vmid=0x%x", el->vmid);
}

static void fmt_exception(char *b, size_t n, const struct etm_elem *el,
			  int m)
{
	char name[32];
	int o;

	v_excname(el->exc_num, m, name, sizeof(name));
	o = snprintf(b, n, "exception %u %s -> 0x%llx", el->exc_num, name,
		     (unsigned long long)el->addr);
	if (el->has_ret)
		o += snprintf(b + o, n - (size_t)o, " ret=0x%llx",
			      (unsigned long long)el->ret_addr);
	if (el->exc_cancel)
		snprintf(b + o, n - (size_t)o, " cancel");
}

/* "data R|W|? insn=0x.. addr=0x..|- value=0x..|- size=N [#k] [tag=T]
 * [suppressed] [failed] [stacking]" */
static void fmt_data(char *b, size_t n, const struct etm_elem *el)
{
	unsigned f = el->dflags;
	int o = snprintf(b, n, "data %s", !(f & ETM_DATA_DIR) ? "?" : (f & ETM_DATA_WRITE) ? "W" :
											     "R");

	if (f & ETM_DATA_INSN)
		o += snprintf(b + o, n - (size_t)o, " insn=0x%llx", (unsigned long long)el->addr);
	if (f & ETM_DATA_ADDR)
		o += snprintf(b + o, n - (size_t)o, " addr=0x%llx", (unsigned long long)el->daddr);
	else
		o += snprintf(b + o, n - (size_t)o, " addr=-");
	if (f & ETM_DATA_VALUE)
		o += snprintf(b + o, n - (size_t)o, " value=0x%x", el->dvalue);
	else
		o += snprintf(b + o, n - (size_t)o, " value=-");
	o += snprintf(b + o, n - (size_t)o, " size=%u", el->dsize);
	if (el->dindex)
		o += snprintf(b + o, n - (size_t)o, " #%u", el->dindex);
	if (el->dtag)
		o += snprintf(b + o, n - (size_t)o, " tag=%u", el->dtag);
	snprintf(b + o, n - (size_t)o, "%s%s%s", (f & ETM_DATA_SUPPRESSED) ? " suppressed" : "",
		 (f & ETM_DATA_FAILED) ? " failed" : "", (f & ETM_DATA_STACKING) ? " stacking" : "");
}

static void fmt_body(char *b, size_t n, const struct etm_elem *el, int m)
{
	switch (el->kind) {
	case etmk_range:
		fmt_range(b, n, el);
		return;
	case etmk_exception:
		fmt_exception(b, n, el, m);
		return;
	case etmk_exc_return:
		snprintf(b, n, "exc-return");
		return;
	case etmk_trace_on:
		snprintf(b, n, "trace-on %s 0x%llx", v_reason(el->reason),
			 (unsigned long long)el->addr);
		return;
	case etmk_nosync:
		if (el->err)
			snprintf(b, n, "nosync %s", etm_errname(el->err));
		else
			snprintf(b, n, "nosync");
		return;
	case etmk_context:
		fmt_context(b, n, el);
		return;
	case etmk_timestamp:
		snprintf(b, n, "timestamp %llu",
			 (unsigned long long)el->timestamp);
		return;
	case etmk_cycle_count:
		snprintf(b, n, "cycles %u", el->cycles);
		return;
	case etmk_event:
		snprintf(b, n, "event");
		return;
	case etmk_nomem:
		snprintf(b, n, "nomem 0x%llx", (unsigned long long)el->addr);
		return;
	case etmk_error:
		snprintf(b, n, "error %s", etm_errname(el->err));
		return;
	case etmk_buffer_end:
		snprintf(b, n, "buffer-end %s", etm_errname(el->err));
		return;
	case etmk_data:
		fmt_data(b, n, el);
		return;
	default:
		snprintf(b, n, "kind%d", (int)el->kind);
		return;
	}
}

static void fmt_elem(const struct vec *v, const struct etm_elem *el,
		     char *b, size_t n)
{
	int o = snprintf(b, n, "%llu ", (unsigned long long)el->offset);
	int i, m = 0;

	if (v->nsrc > 1)
		o += snprintf(b + o, n - (size_t)o, "id=0x%02x ", el->id);
	for (i = 0; i < v->nsrc; i++)
		if (etm_cfg_trace_id(&v->src[i]) == el->id)
			m = etm_cfg_m_profile(&v->src[i]);
	fmt_body(b + o, n - (size_t)o, el, m);
	if (el->kind != etmk_cycle_count && el->has_cycles)
		snprintf(b + strlen(b), n - strlen(b), " cyc=%u", el->cycles);
}
