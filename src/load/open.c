/* load/open.c - etm_capture_open(): a snapshot directory or a trace file
 * plus options becomes a decoder per trace buffer with every selected
 * source, its configuration and its program image (etmtrace/open.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/diag.h>
#include <etmtrace/error.h>
#include <etmtrace/etmv1.h>
#include <etmtrace/open.h>

#include "common/file.h"
#include "decoder/realign.h"
#include "load/open_int.h"

int cap_note(struct etm_capture *cap, const char *fmt, ...)
{
	char line[512];
	char **t;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	t = realloc(cap->notes, (cap->nnotes + 2) * sizeof(*t));
	if (!t)
		return -etme_nomem;
	cap->notes = t;
	t[cap->nnotes] = strdup(line);
	if (!t[cap->nnotes])
		return -etme_nomem;
	t[++cap->nnotes] = NULL;
	return 0;
}

/* A new empty entry of the growing array *@arr of @n items of @size. */
static void *cap_grow(void **arr, size_t *n, size_t size)
{
	char *t = realloc(*arr, (*n + 1) * size);

	if (!t)
		return NULL;
	*arr = t;
	memset(t + *n * size, 0, size);
	return t + (*n)++ * size;
}

const char *cap_strdup(struct etm_capture *cap, const char *s)
{
	char **t = realloc(cap->strs, (cap->nstrs + 1) * sizeof(*t));

	if (!t)
		return NULL;
	cap->strs = t;
	t[cap->nstrs] = strdup(s);
	return t[cap->nstrs] ? t[cap->nstrs++] : NULL;
}

struct etm_capture_source *cap_add_source(struct etm_capture *cap)
{
	return cap_grow((void **)&cap->src, &cap->nsrc, sizeof(*cap->src));
}

struct etm_capture_buffer *cap_add_buffer(struct etm_capture *cap)
{
	struct etm_capture_buffer *b;

	b = cap_grow((void **)&cap->buf, &cap->nbuf, sizeof(*cap->buf));
	if (b && !cap_grow((void **)&cap->why, &cap->nwhy, sizeof(*cap->why))) {
		cap->nbuf--;
		return NULL;
	}
	if (b)
		b->format_why = "";
	return b;
}

struct etm_image *cap_new_image(struct etm_capture *cap)
{
	struct etm_image **slot, *img = etm_image_alloc();

	if (!img)
		return NULL;
	slot = cap_grow((void **)&cap->imgs, &cap->nimgs, sizeof(*slot));
	if (!slot) {
		etm_image_free(img);
		return NULL;
	}
	*slot = img;
	return img;
}

/* Add the option's raw binaries and ELF files to @img. */
int cap_user_images(struct cap_ctx *c, struct etm_image *img)
{
	const struct etm_open_opts *o = &c->o;
	char err[256];
	size_t i;
	int r;

	for (i = 0; i < o->nimages; i++) {
		if (etm_file_problem(o->images[i].path, 0, err, sizeof(err)))
			return cap_err(c, -etme_io, "--image %s: %s",
				       o->images[i].path, err);
		r = etm_image_add_file(img, etm_space_any, o->images[i].addr,
				       o->images[i].path, 0, 0);
		if (r < 0)
			return cap_err(c, r, "%s: %s", o->images[i].path,
				       r == -etme_invalid ? "it does not fit in "
							    "the 32-bit address space there" :
				       r == -etme_io      ? strerror(errno) :
							    etm_errstr(r));
		etm_image_name_last(img, o->images[i].path);
	}
	for (i = 0; i < o->nelfs; i++) {
		if (etm_file_problem(o->elfs[i].path, 0, err, sizeof(err)))
			return cap_err(c, -etme_io, "--elf %s: %s",
				       o->elfs[i].path, err);
		err[0] = 0;
		r = etm_image_add_elf(img, o->elfs[i].path, o->elfs[i].addr,
				      err, sizeof(err));
		if (r < 0)
			return cap_err(c, r, "%s", etm_errmsg(r, err));
	}
	return 0;
}

int cap_selected(const struct cap_ctx *c, unsigned id)
{
	size_t i;

	if (!c->o.nids)
		return 1;
	for (i = 0; i < c->o.nids; i++)
		if (c->o.ids[i] == id)
			return 1;
	return 0;
}

/* Apply the options' protocol and registers to @cfg; 1 if one changed it. */
int cap_override(const struct cap_ctx *c, struct etm_config *cfg)
{
	struct etm_config old = *cfg;
	const struct etm_open_opts *o = &c->o;

	if (o->protocol)
		cfg->protocol = o->protocol;
	if (o->regs & ETM_OPEN_ETMCR)
		cfg->etmcr = o->etmcr;
	if (o->regs & ETM_OPEN_ETMCCER)
		cfg->etmccer = o->etmccer;
	if (o->regs & ETM_OPEN_ETMIDR)
		cfg->etmidr = o->etmidr;
	cfg->flags |= o->cfg_flags;
	return memcmp(&old, cfg, sizeof(old)) != 0;
}

/* Add source @s (configured) to its buffer's decoder, made on first use. */
int cap_wire(struct cap_ctx *c, struct etm_capture_source *s)
{
	struct etm_capture_buffer *b = &c->cap->buf[s->buffer];
	const char *why = NULL;
	int r;

	if (s->cfg.protocol == etm_proto_etmv1 ||
	    s->cfg.protocol == etm_proto_etmv2) {
		/* ETMv1 sources the snapshot declares are decoded from their
		 * sample files (load/open_e1.c); listed, they are decoded (no
		 * packets, no decoder here: nothing reads them in a listing) */
		if (c->o.flags & ETM_OPEN_LIST &&
		    s->cfg.protocol == etm_proto_etmv1)
			return 0;
		s->skip = c->o.flags & ETM_OPEN_LIST ?
				  "ETMv1 sample records: decoded to elements, no packets" :
				  "ETMv1 by option, but the snapshot declares another protocol";
		return 0;
	}
	if (etm_config_check(&s->cfg, &why) < 0)
		return cap_err(c, -etme_bad_config, "trace ID 0x%02x (%s): %s",
			       s->id, s->name, why);
	if (!b->dec)
		b->dec = etm_decoder_alloc(b->format, c->o.mode ? c->o.mode :
								  etm_dec_elements);
	if (!b->dec)
		return cap_err(c, -etme_nomem, "out of memory");
	cap_realign(c, b->dec);
	if (b->unmarked && !b->nsources)
		etm_decoder_set_frame_start(b->dec, b->frame_start);
	r = etm_decoder_add_source(b->dec, &s->cfg, s->img);
	if (r < 0)
		return cap_err(c, r, "trace ID 0x%02x (%s): %s", s->id, s->name,
			       etm_errstr(r));
	b->nsources++;
	return 0;
}

void cap_realign(const struct cap_ctx *c, struct etm_decoder *dec)
{
	uint32_t f = c->o.flags;

	if (f & ETM_OPEN_REALIGN_OFF)
		etm_decoder_set_realign(dec, etm_realign_off);
	else if (f & ETM_OPEN_REALIGN_BASIC)
		etm_decoder_set_realign(dec, etm_realign_basic);
	else if (f & ETM_OPEN_REALIGN_PRECISE)
		etm_decoder_set_realign(dec, etm_realign_precise);
}

/* Every source of a buffer, decoded or not, is a trace ID its frames may
 * name (etm_decoder_note_id(): others make it check the alignment); one
 * left out by the selection with its configuration, to find where damage
 * among its data began (etm_decoder_note_source_img()). */
static void cap_note_ids(struct cap_ctx *c)
{
	size_t j;

	for (j = 0; j < c->cap->nsrc; j++) {
		const struct etm_capture_source *s = &c->cap->src[j];
		struct etm_decoder *dec = s->buffer < c->cap->nbuf ?
						  c->cap->buf[s->buffer].dec :
						  NULL;

		if (dec && !cap_selected(c, s->id))
			etm_decoder_note_source_img(dec, &s->cfg,
						    cap_left_image(c->cap, s));
		else if (dec)
			etm_decoder_note_id(dec, s->id);
	}
}

/* Every --id must name a source; one of a protocol not decoded is named. */
int cap_check_ids(struct cap_ctx *c)
{
	char have[400];
	size_t i, j, len = 0;

	have[0] = 0;
	for (j = 0; j < c->cap->nsrc && len + 8 < sizeof(have); j++)
		len += (size_t)snprintf(have + len, sizeof(have) - len, "%s0x%02x",
					j ? ", " : "", c->cap->src[j].id);
	for (i = 0; i < c->o.nids; i++) {
		const struct etm_capture_source *s = NULL;

		for (j = 0; j < c->cap->nsrc; j++)
			if (c->cap->src[j].id == c->o.ids[i])
				s = &c->cap->src[j];
		if (!s)
			return cap_err(c, -etme_bad_config, "no trace source "
							    "with ID 0x%02x (sources: %s)",
				       c->o.ids[i], len ? have : "none");
		if (s->cfg.protocol == etm_proto_unknown &&
		    !(c->o.flags & ETM_OPEN_LIST))
			return cap_err(c, -etme_bad_config, "trace ID 0x%02x "
							    "is %s (%s): %s",
				       s->id, s->name,
				       s->type ? s->type : "?", s->skip);
	}
	return 0;
}

static int cap_nonempty(struct cap_ctx *c)
{
	size_t i;

	for (i = 0; i < c->cap->nbuf; i++)
		if (c->cap->buf[i].dec)
			return 0;
	if (cap_perf_nonempty(c->cap))
		return 0;
	return cap_err(c, -etme_bad_config, "no ETMv3/PTM trace source to "
					    "decode%s",
		       c->o.nids ? " with the given IDs" : "");
}

/* A trace file of ETMv1 samples (the options say so, or the ELF's core
 * has no other trace). */
static int cap_e1_file(struct cap_ctx *c)
{
	return !(c->o.flags & ETM_OPEN_LIST) &&
	       (cap_is_e1(c->o.protocol) || c->o.samples || cap_core_e1_only(c) ||
		(!c->o.protocol && etm_e1_file_format(c->cap->path) != etm_e1f_unknown));
}

/* cap_open_e1_file(), saying on failure when the ELF's core chose it. */
static int cap_open_e1_core(struct cap_ctx *c)
{
	int r = cap_open_e1_file(c);
	size_t k;

	if (c->o.protocol || c->o.samples)
		return r;
	if (!cap_core_e1_only(c))
		return r < 0 || cap_note(c->cap, "%s: ETMv1 samples detected (%s); "
						 "give --protocol for another",
					 c->cap->path,
					 etm_e1_file_format(c->cap->path) == etm_e1f_bin ?
						 "etmtrace binary sample file, ETM1TRC magic" :
						 "OpenOCD etm dump: the depth gives the size") >= 0 ?
			       r :
			       -etme_nomem;
	if (r >= 0)
		return cap_note(c->cap, "%s: read as ETMv1 samples: the ELF's core, "
					"%s, has no other trace; give --protocol "
					"for another",
				c->cap->path, cap_core(c)->what) < 0 ?
			       -etme_nomem :
			       r;
	if (!c->err || !c->errlen)
		return r;
	k = strlen(c->err);
	snprintf(c->err + k, c->errlen - k, " (read as ETMv1 samples: the "
					    "ELF's core, %s, has no other trace; "
					    "give --protocol for another)",
		 cap_core(c)->what);
	return r;
}

/* Directory @dir has no snapshot.ini file. */
static int cap_not_snapshot(const char *dir)
{
	char p[4200];
	struct stat st;

	snprintf(p, sizeof(p), "%s/snapshot.ini", dir);
	return strlen(dir) < 4000 && stat(p, &st) != 0 && errno == ENOENT;
}

/* The checks every opened capture goes through; frees it on failure. */
static int cap_finish_open(struct etm_capture **out, struct cap_ctx *c, int r)
{
	if (!r)
		r = cap_check_ids(c);
	if (!r)
		cap_note_ids(c);
	if (!r)
		r = cap_pieces(c);
	if (!r && !(c->o.flags & ETM_OPEN_LIST))
		r = cap_nonempty(c);
	free(c->probe_data);
	free(c->probe_id);
	if (r < 0) {
		etm_capture_free(c->cap);
		return r;
	}
	*out = c->cap;
	return 0;
}

/* A stream named @name from its head (etm_open_opts.head): one buffer,
 * no pieces, no ETMv1 sample files. */
static int cap_open_stream(struct etm_capture **out, struct cap_ctx *c,
			   const char *name)
{
	int r;

	if (cap_is_e1(c->o.protocol) || c->o.samples || cap_core_e1_only(c))
		return cap_err(c, -etme_invalid, "%s: ETMv1 samples are read from "
						 "a file, not from a stream",
			       name);
	c->o.flags |= ETM_OPEN_NO_PIECES;
	c->cap = calloc(1, sizeof(*c->cap));
	if (!c->cap)
		return cap_err(c, -etme_nomem, "out of memory");
	c->cap->stream = 1;
	c->cap->path = strdup(name);
	r = c->cap->path ? cap_open_file(c) :
			   cap_err(c, -etme_nomem, "out of memory");
	return cap_finish_open(out, c, r);
}

int etm_capture_open(struct etm_capture **out, const char *path,
		     const struct etm_open_opts *opts, char *err, size_t errlen)
{
	struct cap_ctx c = { .err = err, .errlen = errlen };
	char err_why[160];
	struct stat st;
	int r;

	if (err && errlen)
		err[0] = 0;
	if (!out || !path)
		return cap_err(&c, -etme_invalid, "invalid argument");
	*out = NULL;
	if (opts && opts->size > sizeof(c.o))
		return cap_err(&c, -etme_invalid, "options of a newer library");
	if (opts)
		memcpy(&c.o, opts, opts->size);
	c.o.size = sizeof(c.o);
	if (c.o.head)
		return cap_open_stream(out, &c, path);
	if (etm_file_problem(path, 1, err_why, sizeof(err_why)))
		return cap_err(&c, -etme_io, "%s: %s", path, err_why);
	if (stat(path, &st) != 0)
		return cap_err(&c, -etme_io, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode) && cap_not_snapshot(path))
		return cap_err(&c, -etme_io, "%s: a directory without snapshot.ini: "
					     "not a snapshot (give a snapshot "
					     "directory or a trace file)",
			       path);
	c.cap = calloc(1, sizeof(*c.cap));
	if (!c.cap)
		return cap_err(&c, -etme_nomem, "out of memory");
	c.cap->path = strdup(path);
	r = c.cap->path ? 0 : cap_err(&c, -etme_nomem, "out of memory");
	if (!r)
		r = S_ISDIR(st.st_mode) ? cap_open_snapshot(&c) :
		    cap_is_perf(path)   ? cap_open_perf(&c) :
		    cap_e1_file(&c)     ? cap_open_e1_core(&c) :
					  cap_open_file(&c);
	return cap_finish_open(out, &c, r);
}

void etm_capture_free(struct etm_capture *cap)
{
	size_t i;

	if (!cap)
		return;
	cap_pull_free(cap);
	cap_pctx_free(cap);
	for (i = 0; i < cap->nbuf; i++) {
		etm_decoder_free(cap->buf[i].dec);
		free((void *)cap->buf[i].data);
	}
	for (i = 0; i < cap->nimgs; i++)
		etm_image_free(cap->imgs[i]);
	for (i = 0; i < cap->nnotes; i++)
		free(cap->notes[i]);
	for (i = 0; i < cap->nstrs; i++)
		free(cap->strs[i]);
	free(cap->strs);
	free(cap->lazy);
	free(cap->notes);
	free(cap->imgs);
	free(cap->buf);
	free(cap->why);
	free(cap->src);
	free(cap->path);
	etm_snapshot_free(cap->snap);
	free(cap);
}

size_t etm_capture_nbuffers(const struct etm_capture *cap)
{
	return cap ? cap->nbuf : 0;
}

const struct etm_capture_buffer *etm_capture_buffer(const struct etm_capture *cap,
						    size_t i)
{
	return cap && i < cap->nbuf ? &cap->buf[i] : NULL;
}

size_t etm_capture_nsources(const struct etm_capture *cap)
{
	return cap ? cap->nsrc : 0;
}

const struct etm_capture_source *etm_capture_source(const struct etm_capture *cap,
						    size_t i)
{
	return cap && i < cap->nsrc ? &cap->src[i] : NULL;
}

const struct etm_snapshot *etm_capture_snapshot(const struct etm_capture *cap)
{
	return cap ? cap->snap : NULL;
}

const char *etm_capture_note(const struct etm_capture *cap, size_t i)
{
	return cap && i < cap->nnotes ? cap->notes[i] : NULL;
}
