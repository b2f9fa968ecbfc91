/* cli/session.c - decoder set-up from options or a snapshot, and the
 * read-push-drain loop over the trace file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session.h"

static int id_selected(const struct opts *o, unsigned id)
{
	int i;

	if (!o->nids)
		return 1;
	for (i = 0; i < o->nids; i++)
		if (o->ids[i] == id)
			return 1;
	return 0;
}

static int add_user_images(struct session *s, struct etm_image *img)
{
	char err[256];
	int i, r;

	for (i = 0; i < s->o->nimages; i++) {
		r = etm_image_add_file(img, etm_space_any, s->o->images[i].addr,
				       s->o->images[i].path, 0, 0);
		if (r < 0) {
			fprintf(stderr, "etmtrace: %s: %s\n", s->o->images[i].path,
				r == -etme_invalid ?
				"it does not fit in the 32-bit address space there" :
				etm_errstr(r));
			return -1;
		}
		etm_image_name_last(img, s->o->images[i].path);
	}
	for (i = 0; i < s->o->nelfs; i++) {
		err[0] = 0;
		r = etm_image_add_elf(img, s->o->elfs[i].path, s->o->elfs[i].addr,
				      err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "etmtrace: %s: %s\n", s->o->elfs[i].path,
				err[0] ? err : etm_errstr(r));
			return -1;
		}
	}
	return 0;
}

static struct etm_image *new_image(struct session *s)
{
	struct etm_image *img = etm_image_alloc();

	if (img)
		s->images[s->nimages++] = img; /* at most one per source */
	return img;
}

/* Room for @n sources and as many images. */
static int session_alloc(struct session *s, size_t n)
{
	s->src = calloc(n ? n : 1, sizeof(*s->src));
	s->images = calloc(n ? n : 1, sizeof(*s->images));
	if (s->src && s->images)
		return 0;
	fprintf(stderr, "etmtrace: out of memory\n");
	return -1;
}

/* Two selected sources with one trace ID cannot be told apart. */
static int snap_id_taken(const struct session *s, unsigned id,
			 const char *name)
{
	const struct session_src *o = session_find(s, id);

	if (!o)
		return 0;
	fprintf(stderr, "etmtrace: %s: trace sources %s and %s both use trace ID 0x%02x\n",
		s->o->input, o->name, name, id);
	return 1;
}

/* One image per core; sources of the same core share it. */
static int snap_image(struct session *s, const struct etm_snap_source *ss,
		      struct etm_image **out)
{
	char err[256];
	int i;

	for (i = 0; i < s->nsrc; i++) {
		const struct etm_snap_source *o = etm_snapshot_find(s->snap,
								    s->src[i].id);
		if (o && o->core && ss->core && !strcmp(o->core, ss->core)) {
			*out = s->src[i].img;
			return 0;
		}
	}
	*out = new_image(s);
	if (!*out)
		return -1;
	err[0] = 0;
	if (etm_snapshot_add_memory(ss, *out, err, sizeof(err)) < 0) {
		fprintf(stderr, "etmtrace: %s\n", err[0] ? err : "cannot load memory dump");
		return -1;
	}
	return add_user_images(s, *out);
}

static int open_snapshot(struct session *s, int want_images)
{
	char err[512];
	const char *buffer = NULL;
	const struct etm_snap_buffer *b = NULL;
	size_t i;
	int r;

	err[0] = 0;
	r = etm_snapshot_load_ex(&s->snap, s->o->input,
				 s->o->allow_outside ? ETM_SNAP_ALLOW_OUTSIDE : 0,
				 err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s\n", err[0] ? err : etm_errstr(r));
		return 2;
	}
	if (session_alloc(s, s->snap->nsources) < 0)
		return 2;
	for (i = 0; i < s->snap->nsources; i++) {
		const struct etm_snap_source *ss = &s->snap->sources[i];
		struct session_src *d;
		unsigned id = etm_cfg_trace_id(&ss->cfg);

		if (ss->cfg.protocol == etm_proto_unknown || !id_selected(s->o, id))
			continue;
		if (!ss->buffer)
			continue;
		if (!buffer)
			buffer = ss->buffer;
		else if (strcmp(buffer, ss->buffer))
			continue; /* one buffer per run: the first selected one */
		if (snap_id_taken(s, id, ss->name))
			return 2;
		d = &s->src[s->nsrc];
		d->id = id;
		d->cfg = ss->cfg;
		d->name = ss->name;
		if (s->o->m_profile)
			d->cfg.flags |= ETM_CFG_M_PROFILE;
		if (want_images && snap_image(s, ss, &d->img) < 0)
			return 2;
		s->nsrc++;
	}
	for (i = 0; buffer && i < s->snap->nbuffers; i++)
		if (!strcmp(s->snap->buffers[i].name, buffer))
			b = &s->snap->buffers[i];
	if (!b || !b->nfiles) {
		fprintf(stderr, "etmtrace: %s: no trace buffer for the selected trace sources\n",
			s->o->input);
		return 2;
	}
	s->trace_path = b->files[0];
	s->fmt = s->o->infmt ? s->o->infmt : b->format;
	if (!s->fmt)
		s->fmt = etm_fmt_coresight;
	return 0;
}

static int open_manual(struct session *s, int want_images)
{
	struct session_src *d;
	int i, n;

	if (!s->o->proto) {
		fprintf(stderr, "etmtrace: %s: not a snapshot directory; give --protocol etmv3|ptm\n",
			s->o->input);
		return 2;
	}
	s->trace_path = s->o->input;
	s->fmt = s->o->infmt ? s->o->infmt : etm_fmt_raw;
	n = s->fmt == etm_fmt_raw ? 1 : (s->o->nids ? s->o->nids : 1);
	if (session_alloc(s, (size_t)n) < 0)
		return 2;
	for (i = 0; i < n; i++) {
		d = &s->src[s->nsrc];
		d->id = s->o->nids ? s->o->ids[i] : 0x10;
		etm_config_init(&d->cfg);
		d->cfg.protocol = s->o->proto;
		d->cfg.etmcr = s->o->etmcr;
		d->cfg.etmccer = s->o->etmccer;
		d->cfg.etmidr = s->o->have_etmidr ? s->o->etmidr :
			(s->o->proto == etm_proto_ptm ? 0x411CF311u : 0x410CF250u);
		d->cfg.traceid = d->id;
		if (s->o->m_profile)
			d->cfg.flags |= ETM_CFG_M_PROFILE;
		d->name = "source";
		if (want_images) {
			if (i == 0 && (!(d->img = new_image(s)) ||
				       add_user_images(s, d->img) < 0))
				return 2;
			if (i > 0)
				d->img = s->src[0].img;
		}
		s->nsrc++;
	}
	return 0;
}

int session_open(struct session *s, struct opts *o, enum etm_decoder_mode mode,
		 int want_images)
{
	struct stat st;
	const char *why;
	int i, r;

	memset(s, 0, sizeof(*s));
	s->o = o;
	if (stat(o->input, &st) != 0) {
		fprintf(stderr, "etmtrace: %s: %s\n", o->input, strerror(errno));
		return 2;
	}
	r = S_ISDIR(st.st_mode) ? open_snapshot(s, want_images) :
				  open_manual(s, want_images);
	if (r)
		return r;
	if (!s->nsrc) {
		fprintf(stderr, "etmtrace: %s: no ETMv3/PTM trace source%s\n",
			o->input, o->nids ? " with the given --id" : "");
		return 2;
	}
	s->dec = etm_decoder_alloc(s->fmt, mode);
	if (!s->dec) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	for (i = 0; i < s->nsrc; i++) {
		if (etm_config_check(&s->src[i].cfg, &why) < 0) {
			fprintf(stderr, "etmtrace: %s: trace ID 0x%02x: %s\n",
				o->input, s->src[i].id, why);
			return 2;
		}
		r = etm_decoder_add_source(s->dec, &s->src[i].cfg, s->src[i].img);
		if (r < 0) {
			fprintf(stderr, "etmtrace: %s: trace ID 0x%02x: %s\n",
				o->input, s->src[i].id, etm_errstr(r));
			return 2;
		}
	}
	if (o->no_cache)
		etm_decoder_set_cache(s->dec, 0);
	return 0;
}

void session_close(struct session *s)
{
	int i;

	etm_verify_free(s->verify);
	s->verify = NULL;
	etm_decoder_free(s->dec);
	for (i = 0; i < s->nimages; i++)
		etm_image_free(s->images[i]);
	free(s->images);
	free(s->src);
	etm_snapshot_free(s->snap);
}

const struct session_src *session_find(const struct session *s, unsigned id)
{
	int i;

	for (i = 0; i < s->nsrc; i++)
		if (s->src[i].id == id)
			return &s->src[i];
	return NULL;
}

int session_verify(struct session *s)
{
	s->verify = etm_verify_alloc(0);
	if (!s->verify) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	etm_decoder_set_packets(s->dec, 1);
	s->jobs = 1;
	return 0;
}

/* Pass the items the verify filter has released to @fn (elements only:
 * the packet items were turned on for the filter). */
static int verify_take(struct session *s, session_fn fn, void *ctx)
{
	struct etm_item it;

	while (etm_verify_next(s->verify, &it) == 0)
		if (it.is_elem && fn(ctx, &it) < 0)
			return 1;
	return 0;
}

/* An item through the verify filter. */
static int verify_item(struct session *s, const struct etm_item *it,
		       session_fn fn, void *ctx)
{
	int r;

	while ((r = etm_verify_put(s->verify, it)) == -etme_busy)
		if (verify_take(s, fn, ctx))
			return 1;
	if (r < 0)
		return 2;
	return verify_take(s, fn, ctx);
}

/* Elements in batches through s->elems (see drain()); -etme_invalid if the
 * decoder does not give them so. */
static int drain_elems(struct session *s, void *ctx, int final)
{
	const struct etm_elem *els;
	int r;

	for (;;) {
		r = etm_decoder_next_elems(s->dec, &els, 256);
		if (r == -etme_invalid)
			return r;
		if ((r == -etme_again && !final) || r == -etme_eos)
			return 0;
		if (r < 0) {
			fprintf(stderr, "etmtrace: %s: decoder: %s\n", s->trace_path,
				etm_errstr(r));
			return 2;
		}
		if (s->elems(ctx, els, (size_t)r) < 0)
			return 1;
	}
}

static int drain(struct session *s, session_fn fn, void *ctx, int final)
{
	struct etm_item it;
	int r;

	if (s->elems && !s->verify) {
		r = drain_elems(s, ctx, final);
		if (r != -etme_invalid)
			return r;
	}
	for (;;) {
		r = etm_decoder_next(s->dec, &it, sizeof(it));
		if (s->verify && r == -etme_eos) {
			etm_verify_finish(s->verify);
			return verify_take(s, fn, ctx);
		}
		if (s->verify && r == 0) {
			r = verify_item(s, &it, fn, ctx);
			if (r)
				return r;
			continue;
		}
		if (r == -etme_again && !final)
			return 0;
		if (r == -etme_eos)
			return 0;
		if (r < 0) {
			fprintf(stderr, "etmtrace: %s: decoder: %s\n", s->trace_path,
				etm_errstr(r));
			return 2;
		}
		if (fn(ctx, &it) < 0)
			return 1;
	}
}

struct par_ctx {
	int fd;
	int stopped;            /* the command's callback asked to stop */
	session_fn fn;
	void *ctx;
};

size_t session_pread(int fd, uint64_t off, uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = pread(fd, buf + got, n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	return got;
}

static size_t par_read(void *vctx, uint64_t off, uint8_t *buf, size_t n)
{
	struct par_ctx *p = vctx;

	return session_pread(p->fd, off, buf, n);
}

static int par_item(void *vctx, const struct etm_item *it)
{
	struct par_ctx *p = vctx;

	if (p->fn(p->ctx, it) < 0) {
		p->stopped = 1;
		return -1;
	}
	return 0;
}

/* Whole-file decode on s->jobs threads (the file is read with pread). */
static int session_run_jobs(struct session *s, int fd, uint64_t size,
			    session_fn fn, void *ctx)
{
	struct par_ctx p = { .fd = fd, .fn = fn, .ctx = ctx };
	int r;

	r = etm_decoder_run(s->dec, par_read, &p, size, (unsigned)s->jobs,
			    par_item, &p);
	s->input_bytes = size;
	if (r < 0 && !p.stopped) {
		fprintf(stderr, "etmtrace: %s: decoder: %s\n", s->trace_path,
			etm_errstr(r));
		return 2;
	}
	return 0;
}

int session_run(struct session *s, session_fn fn, void *ctx)
{
	struct stat st;
	size_t chunk = s->o->chunk ? (size_t)s->o->chunk : (size_t)1 << 20;
	uint8_t *buf;
	int fd, r = 0;

	/* a snapshot's trace buffer must be a regular file (a FIFO would
	 * block, /dev/zero never ends); a trace file named on the command
	 * line may be a pipe */
	fd = open(s->trace_path, O_RDONLY | (s->snap ? O_NONBLOCK : 0));
	if (fd < 0) {
		fprintf(stderr, "etmtrace: %s: %s\n", s->trace_path, strerror(errno));
		return 2;
	}
	if (s->snap && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		fprintf(stderr, "etmtrace: %s: not a regular file\n", s->trace_path);
		close(fd);
		return 2;
	}
	if (s->jobs > 1 && !s->o->chunk && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		r = session_run_jobs(s, fd, (uint64_t)st.st_size, fn, ctx);
		close(fd);
		return r;
	}
	buf = malloc(chunk);
	if (!buf) {
		close(fd);
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	for (;;) {
		ssize_t n = read(fd, buf, chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "etmtrace: %s: %s\n", s->trace_path,
				strerror(errno));
			r = 2;
			break;
		}
		if (n == 0)
			break;
		s->input_bytes += (uint64_t)n;
		etm_decoder_push(s->dec, buf, (size_t)n);
		r = drain(s, fn, ctx, 0);
		if (r)
			break;
	}
	if (!r) {
		etm_decoder_finish(s->dec);
		r = drain(s, fn, ctx, 1);
	}
	free(buf);
	close(fd);
	return r == 1 ? 0 : r;
}
