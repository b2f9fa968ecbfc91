/* load/open_e1.c - ETMv1 in etm_capture_open(): a buffer of ETMv1 holds a
 * sample file (our binary or text format, OpenOCD `etm dump`, an ETB RAM
 * image; etmtrace/etmv1.h), not trace bytes. Our binary format is streamed
 * past its header (buffer skip), the others are converted into records in
 * memory (buffer data); the configuration is the snapshot's or the
 * defaults', then the options', then what the file says for registers
 * neither gave. One source per buffer, raw input, elements only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>
#include <etmtrace/open.h>

#include "common/grow.h"
#include "load/open_int.h"

int cap_is_e1(enum etm_protocol p)
{
	return p == etm_proto_etmv1 || p == etm_proto_etmv2;
}

/* The whole of @path into a new buffer (*@buf, *@n bytes). Returns 0, or
 * -1 with errno set. */
static int e1_slurp(const char *path, uint8_t **buf, size_t *n)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, len = 0, k;
	uint8_t *b = malloc(cap), *q;

	if (!f || !b) {
		if (f)
			fclose(f);
		free(b);
		return -1;
	}
	while ((k = fread(b + len, 1, cap - len, f)) > 0) {
		len += k;
		q = etm_grow(b, &cap, len + 1, 1, 0); /* full: doubled */
		if (!q) {
			free(b);
			fclose(f);
			return -1;
		}
		b = q;
	}
	fclose(f);
	*buf = b;
	*n = len;
	return 0;
}

static uint32_t e1_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The first up to 32 samples of an OpenOCD dump (@b, @n bytes read):
 * pipestat words 0-7, flags words 0-3 (doc/etmv1.md §1.1). */
static int e1_ocd_samples_ok(const uint8_t *b, size_t n)
{
	size_t k;

	for (k = 12; k + 12 <= n; k += 12)
		if (e1_be32(b + k) > 7 || e1_be32(b + k + 8) > 3 ||
		    e1_be32(b + k + 4) > 0xffff)
			return 0;
	return 1;
}

enum etm_e1_format etm_e1_file_format(const char *path)
{
	uint8_t b[12 + 32 * 12];
	struct stat st;
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return etm_e1f_unknown;
	n = fread(b, 1, sizeof(b), f);
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		n = 0;
	fclose(f);
	if (n >= 32 && !memcmp(b, "ETM1TRC", 8))
		return etm_e1f_bin;
	if (n >= 24 && e1_be32(b + 8) &&
	    (uint64_t)e1_be32(b + 8) * 12 + 12 == (uint64_t)st.st_size &&
	    e1_ocd_samples_ok(b, n))
		return etm_e1f_openocd;
	return etm_e1f_unknown;
}

enum etm_e1_format etm_e1_format_named(const char *name)
{
	static const char *const nm[] = { "", "bin", "text", "openocd", "etb" };
	int k;

	for (k = 1; name && k < 5; k++)
		if (!strcmp(name, nm[k]))
			return (enum etm_e1_format)k;
	return etm_e1f_unknown;
}

int etm_e1_read_file(struct etm_e1_capture *c, const char *path,
		     enum etm_e1_format *fmt, char *errbuf, size_t errlen)
{
	uint8_t *buf;
	size_t n;
	int r;

	if (errbuf && errlen)
		errbuf[0] = 0;
	if (!c || !path || !fmt)
		return -etme_invalid;
	if (e1_slurp(path, &buf, &n) < 0) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s", strerror(errno));
		return -etme_io;
	}
	if (*fmt == etm_e1f_unknown)
		*fmt = etm_e1_sniff(buf, n);
	r = *fmt == etm_e1f_unknown ?
		    -etme_parse :
		    etm_e1_read(c, *fmt, buf, n, errbuf, errlen);
	free(buf);
	return r;
}

/* Registers given by the snapshot or the options win over the file's. */
static void e1_merge(struct etm_config *d, const struct etm_config *f)
{
	if (!d->etmcr)
		d->etmcr = f->etmcr;
	if (!d->etmccr)
		d->etmccr = f->etmccr;
	d->flags |= f->flags;
	if (f->protocol == etm_proto_etmv2)
		d->protocol = etm_proto_etmv2;
}

/* Our binary format is streamed: the header read here, the records from
 * offset 32 (bounded memory). 1 if it is not one. */
static int e1_stream_bin(struct cap_ctx *c, struct etm_capture_buffer *b,
			 struct etm_config *cfg)
{
	struct etm_config fc;
	uint8_t hdr[32];
	uint32_t cnt;
	struct stat st;
	FILE *f = fopen(b->path, "rb");
	size_t n = f ? fread(hdr, 1, sizeof(hdr), f) : 0;

	if (f)
		fclose(f);
	if (etm_e1_bin_header(hdr, n, &fc, &cnt) < 0)
		return 1;
	if (stat(b->path, &st) ||
	    (uint64_t)st.st_size != 32 + (uint64_t)cnt * ETM_E1_REC)
		return cap_err(c, -etme_parse, "%s: sample count %u does not "
					       "match the file size",
			       b->path, cnt);
	e1_merge(cfg, &fc);
	b->skip = 32;
	/* bounded: the records are a file range the parallel runner may
	 * read at any offset (load/capread.h) */
	b->length = (uint64_t)cnt * ETM_E1_REC;
	return 0;
}

/* The samples of buffer @b, read with @cfg (merged with the file's). */
static int e1_load(struct cap_ctx *c, struct etm_capture_buffer *b,
		   struct etm_config *cfg)
{
	struct etm_e1_capture e;
	enum etm_e1_format f = (enum etm_e1_format)c->o.samples;
	char err[256] = "";
	uint8_t *buf;
	size_t n;
	int r;

	if (f == etm_e1f_unknown || f == etm_e1f_bin) {
		r = e1_stream_bin(c, b, cfg);
		if (r != 1)
			return r;
	}
	if (e1_slurp(b->path, &buf, &n) < 0)
		return cap_err(c, -etme_io, "%s: %s", b->path, strerror(errno));
	if (f == etm_e1f_unknown)
		f = etm_e1_sniff(buf, n);
	if (f == etm_e1f_unknown)
		f = etm_e1f_etb; /* no header: an ETB RAM image */
	memset(&e, 0, sizeof(e));
	e.cfg = *cfg;
	r = etm_e1_read(&e, f, buf, n, err, sizeof(err));
	free(buf);
	if (r < 0)
		return cap_err(c, r, "%s: %s", b->path, etm_errmsg(r, err));
	e1_merge(cfg, &e.cfg);
	b->data = e.rec;
	b->size = e.n * ETM_E1_REC;
	return 0;
}

/* The options over the snapshot's or the defaults' configuration. */
static void e1_options(const struct cap_ctx *c, struct etm_config *cfg)
{
	if (c->o.protocol)
		cfg->protocol = c->o.protocol;
	if (c->o.regs & ETM_OPEN_ETMCR)
		cfg->etmcr = c->o.etmcr;
	if (c->o.regs & ETM_OPEN_ETMCCR)
		cfg->etmccr = c->o.etmccr;
	cfg->flags |= c->o.cfg_flags;
}

/* Source @s (configured by e1_options()) decoded from its buffer. */
static int e1_wire(struct cap_ctx *c, struct etm_capture_source *s)
{
	struct etm_capture_buffer *b = &c->cap->buf[s->buffer];
	enum etm_decoder_mode mode = c->o.mode ? c->o.mode : etm_dec_elements;
	const char *why = NULL;
	int r;

	s->id = etm_cfg_trace_id(&s->cfg);
	r = e1_load(c, b, &s->cfg);
	if (r < 0)
		return r;
	if (etm_config_check(&s->cfg, &why) < 0)
		return cap_err(c, -etme_bad_config, "%s: trace ID 0x%02x: %s",
			       c->cap->path, s->id, why);
	if (!b->dec)
		b->dec = etm_decoder_alloc(etm_fmt_raw, mode);
	if (!b->dec)
		return cap_err(c, -etme_nomem, "out of memory");
	r = etm_decoder_add_source(b->dec, &s->cfg, s->img);
	if (r < 0 && mode == etm_dec_packets)
		return cap_err(c, r, "%s: ETMv1 trace has no packets (samples "
				     "are decoded by `etmtrace decode`)",
			       c->cap->path);
	if (r < 0)
		return cap_err(c, r, "%s: trace ID 0x%02x: %s", c->cap->path,
			       s->id, etm_errstr(r));
	b->nsources++;
	return 0;
}

int cap_wire_e1(struct cap_ctx *c, struct etm_capture_source *s)
{
	/* the options as ETMv1 takes them (over the snapshot's) */
	e1_options(c, &s->cfg);
	if (c->o.regs & (ETM_OPEN_ETMCR | ETM_OPEN_ETMCCR) || c->o.protocol ||
	    c->o.cfg_flags)
		s->how |= ETM_HOW_OPTIONS;
	c->cap->buf[s->buffer].format = etm_fmt_raw; /* sample records */
	return e1_wire(c, s);
}

int cap_open_e1_file(struct cap_ctx *c)
{
	struct etm_capture_buffer *b = cap_add_buffer(c->cap);
	struct etm_capture_source *s;
	int r;

	if (!b || !(s = cap_add_source(c->cap)))
		return cap_err(c, -etme_nomem, "out of memory");
	b->path = b->name = c->cap->path;
	b->format = etm_fmt_raw;
	s->name = "source";
	s->how = ETM_HOW_DEFAULT | ETM_HOW_OPTIONS;
	etm_config_init(&s->cfg);
	s->cfg.protocol = etm_proto_etmv1;
	/* as for raw ETMv3/PTM files: --id names the one source */
	if (c->o.nids > 1)
		return cap_err(c, -etme_invalid, "a sample file holds one source: "
						 "give one --id");
	s->cfg.traceid = c->o.nids ? c->o.ids[0] : 0x10;
	e1_options(c, &s->cfg);
	if (!(c->o.flags & ETM_OPEN_NO_IMAGES)) {
		struct etm_image *img = cap_new_image(c->cap);

		r = img ? cap_user_images(c, img) :
			  cap_err(c, -etme_nomem, "out of memory");
		if (r < 0)
			return r;
		s->img = img;
	}
	return e1_wire(c, s);
}

/* Text of our sample format: printable, with an `@etm` header or a sample
 * line `CYCLE PS ...` (PS a pipestat mnemonic). */
static int e1_looks_text(const uint8_t *b, size_t n)
{
	static const char *const ps[] = { "IE", "ID", "IN", "WT", "BE", "BD", "TR", "TD" };
	size_t i, k, line = 0;

	for (i = 0; i < n; i++)
		if (b[i] != '\n' && b[i] != '\t' && b[i] != '\r' &&
		    (b[i] < 0x20 || b[i] >= 0x7f))
			return 0;
	for (i = 0; i < n; i = line) {
		const uint8_t *p = b + i;
		size_t d = 0;

		for (line = i; line < n && b[line] != '\n'; line++)
			;
		line++;
		if (line - i > 5 && !memcmp(p, "@etm ", 5))
			return 1;
		while (i + d < n && p[d] >= '0' && p[d] <= '9')
			d++;
		for (k = 0; d && i + d + 4 <= n && p[d] == ' ' && k < 8; k++)
			if (!memcmp(p + d + 1, ps[k], 2) && p[d + 3] == ' ')
				return 1;
	}
	return 0;
}

/* An ETB RAM image of ETMv1 samples: 4-, 8- and 16-bit ports leave byte 3
 * of every little-endian word zero (doc/etmv1.md §1.1); at least 64 words,
 * half of them not zero. */
static int e1_looks_etb(const uint8_t *b, size_t n)
{
	size_t i, nz = 0;

	if (n < 256 || n % 4)
		return 0;
	for (i = 0; i < n; i += 4) {
		if (b[i + 3])
			return 0;
		nz += b[i] || b[i + 1] || b[i + 2];
	}
	return nz * 2 >= n / 4;
}

void cap_e1_hint(struct cap_ctx *c, const uint8_t *head, size_t n)
{
	int text;

	if (c->o.protocol || c->o.format)
		return;
	text = e1_looks_text(head, n);
	if (!text && !e1_looks_etb(head, n))
		return;
	cap_note(c->cap, "%s: the bytes look like ETMv1 pipestat samples (%s): "
			 "give --protocol etmv1 (doc/etmv1.md)",
		 c->cap->path, text ? "the etmtrace text sample format" : "an ETB image: byte 3 of every 32-bit word is zero");
}
