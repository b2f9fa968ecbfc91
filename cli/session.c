/* cli/session.c - decoder set-up from options or a snapshot, and the
 * read-push-drain loop over the trace file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/diag.h>
#include "session.h"

/* perf.data: the build-id cache perf keeps, ~/.debug (NULL: no HOME). */
static const char *session_debug_dir(void)
{
	static char dir[4096];
	const char *home = getenv("HOME");

	if (!home || !*home || strlen(home) + 8 > sizeof(dir))
		return NULL;
	snprintf(dir, sizeof(dir), "%s/.debug", home);
	return dir;
}

/* The options as etm_capture_open() takes them. */
static void open_opts(const struct opts *o, enum etm_decoder_mode mode,
		      int want_images, struct etm_open_opts *oo,
		      struct etm_open_file *images, struct etm_open_file *elfs)
{
	int i;

	memset(oo, 0, sizeof(*oo));
	oo->size = sizeof(*oo);
	oo->mode = mode;
	oo->format = o->infmt;
	oo->ids = o->ids;
	oo->nids = (size_t)o->nids;
	oo->protocol = o->proto;
	oo->regs = (o->have_etmcr ? ETM_OPEN_ETMCR : 0) |
		   (o->have_etmccer ? ETM_OPEN_ETMCCER : 0) |
		   (o->have_etmidr ? ETM_OPEN_ETMIDR : 0);
	oo->etmcr = o->etmcr;
	oo->etmccer = o->etmccer;
	oo->etmidr = o->etmidr;
	oo->cfg_flags = o->m_profile ? ETM_CFG_M_PROFILE : 0;
	if (o->etmccr) {
		oo->regs |= ETM_OPEN_ETMCCR;
		oo->etmccr = o->etmccr;
	}
	oo->samples = (unsigned)etm_e1_format_named(o->samples); /* 0: sniffed */
	for (i = 0; i < o->nimages; i++)
		images[i] = (struct etm_open_file){ o->images[i].path,
						    o->images[i].addr };
	for (i = 0; i < o->nelfs; i++)
		elfs[i] = (struct etm_open_file){ o->elfs[i].path,
						  o->elfs[i].addr };
	oo->images = images;
	oo->nimages = (size_t)o->nimages;
	oo->elfs = elfs;
	oo->nelfs = (size_t)o->nelfs;
	oo->symfs = o->symfs;
	oo->buildid_dir = o->buildid_dir ? o->buildid_dir : session_debug_dir();
	oo->flags = (want_images ? 0 : ETM_OPEN_NO_IMAGES) |
		    (o->list ? ETM_OPEN_LIST : 0) |
		    (o->allow_outside ? ETM_OPEN_ALLOW_OUTSIDE : 0) |
		    (o->order_file ? ETM_OPEN_FILE_ORDER : 0) |
		    (o->pieces == 2 ? ETM_OPEN_NO_PIECES : 0) |
		    (o->pieces == 1 ? ETM_OPEN_PIECES : 0) |
		    (o->no_ctx_images ? ETM_OPEN_NO_CTX_IMAGES : 0) |
		    (o->realign == 1 ? ETM_OPEN_REALIGN_OFF : 0) |
		    (o->realign == 2 ? ETM_OPEN_REALIGN_BASIC : 0) |
		    (o->realign == 3 ? ETM_OPEN_REALIGN_PRECISE : 0);
}

/* The capture's decoded sources as the session's list. */
static int session_sources(struct session *s)
{
	size_t i, n = etm_capture_nsources(s->cap);

	s->src = calloc(n ? n : 1, sizeof(*s->src));
	if (!s->src)
		return -1;
	for (i = 0; i < n; i++) {
		const struct etm_capture_source *cs = etm_capture_source(s->cap, i);
		const struct etm_capture_buffer *b;
		struct session_src *d = &s->src[s->nsrc];

		if (cs->skip || session_find(s, cs->id))
			continue; /* a perf.data file: one ID in many buffers */
		b = etm_capture_buffer(s->cap, cs->buffer);
		d->id = cs->id;
		d->cfg = cs->cfg;
		d->img = cs->img;
		d->name = cs->name;
		d->buffer = cs->buffer;
		d->path = b->path;
		d->fmt = b->format;
		s->e1 |= cs->cfg.protocol == etm_proto_etmv1;
		s->nsrc++;
	}
	return 0;
}

/* --verbose: what is decoded from where, and what is not. */
static void session_describe(const struct session *s)
{
	size_t i;

	for (i = 0; i < etm_capture_nbuffers(s->cap); i++) {
		const struct etm_capture_buffer *b = etm_capture_buffer(s->cap, i);

		fprintf(stderr, "etmtrace: buffer %s: %s, format %s%s%s%s\n",
			b->name ? b->name : "-", b->path ? b->path : "no file",
			session_fmt_name(b->format), b->detected ? " (detected: " : "",
			b->detected ? b->format_why : "", b->detected ? ")" : "");
	}
	for (i = 0; i < etm_capture_nsources(s->cap); i++) {
		const struct etm_capture_source *c = etm_capture_source(s->cap, i);

		fprintf(stderr, "etmtrace: trace ID 0x%02x %s (%s): %s%s\n", c->id,
			c->name, etm_protocol_name(c->cfg.protocol),
			c->skip ? "not decoded: " : "decoded", c->skip ? c->skip : "");
	}
}

/* `-`: standard input copied to a temporary file (detection and inference
 * read the start of the trace before the decode reads it all). */
static int spool_stdin(struct session *s)
{
	const char *dir = getenv("TMPDIR");
	char buf[65536];
	ssize_t n;
	int fd;

	s->spool = malloc(4096);
	if (!s->spool)
		return -1;
	snprintf(s->spool, 4096, "%s/etmtrace-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(s->spool);
	if (fd < 0) {
		fprintf(stderr, "etmtrace: standard input: cannot make a temporary file in %s: %s\n",
			dir && *dir ? dir : "/tmp", strerror(errno));
		free(s->spool);
		s->spool = NULL;
		return -1;
	}
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(fd, buf, (size_t)n) != n) {
			fprintf(stderr, "etmtrace: standard input: %s\n", strerror(errno));
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/* Fewer bytes of a stream's head than this make format detection a
 * guess: noted. */
#define LIVE_FEW ((size_t)4096)

/* The rest of a stream after its head, into a temporary file (s->spool):
 * an input that ended within its head, or ETMv1 samples (read from a file,
 * not a stream). Returns 0 or -1 (printed). */
static int spool_live(struct session *s)
{
	const char *dir = getenv("TMPDIR");
	uint8_t *buf = s->live.head;
	ssize_t n = (ssize_t)s->live.nhead;
	int fd;

	s->spool = malloc(4096);
	if (!s->spool)
		return -1;
	snprintf(s->spool, 4096, "%s/etmtrace-stream-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(s->spool);
	if (fd < 0) {
		fprintf(stderr, "etmtrace: %s: cannot make a temporary file in %s: %s\n",
			s->o->input, dir && *dir ? dir : "/tmp", strerror(errno));
		free(s->spool);
		s->spool = NULL;
		return -1;
	}
	while (n > 0) {
		if (write(fd, buf, (size_t)n) != n) {
			fprintf(stderr, "etmtrace: %s: %s\n", s->spool, strerror(errno));
			n = -1;
			break;
		}
		n = s->live.eof ? 0 : live_read(&s->live, buf, LIVE_PROBE);
	}
	close(fd);
	live_close(&s->live);
	return n < 0 ? -1 : 0;
}

/* A stream (live_is_stream()): its head read, and either opened as a
 * stream from that head, or spooled when it must be a file. Returns 0 or
 * 2 (printed). */
static int session_stream(struct session *s, struct etm_open_opts *oo)
{
	const struct opts *o = s->o;
	int e1 = o->proto == etm_proto_etmv1 || o->proto == etm_proto_etmv2 ||
		 o->samples;

	if (live_open(&s->live, o->input,
		      o->probe_wait ? o->probe_wait - 1 : LIVE_PROBE_WAIT_MS))
		return 2;
	e1 |= s->live.nhead >= 8 && !memcmp(s->live.head, "ETM1TRC", 8);
	if (s->live.eof || e1)
		return spool_live(s) < 0 ? 2 : 0;
	oo->head = s->live.head;
	oo->nhead = s->live.nhead;
	return 0;
}

int session_open(struct session *s, struct opts *o, enum etm_decoder_mode mode,
		 int want_images)
{
	struct etm_open_file images[OPT_MAX_FILES], elfs[OPT_MAX_FILES];
	struct etm_open_opts oo;
	const char *note;
	char err[600];
	size_t i;
	int r;

	memset(s, 0, sizeof(*s));
	s->live.fd = -1;
	s->o = o;
	open_opts(o, mode, want_images, &oo, images, elfs);
	if (live_is_stream(o->input)) {
		if (session_stream(s, &oo))
			return 2;
	} else if (!strcmp(o->input, "-") && spool_stdin(s) < 0) {
		return 2;
	}
	r = etm_capture_open(&s->cap, s->spool ? s->spool : o->input, &oo,
			     err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s\n", etm_errmsg(r, err));
		return 2;
	}
	for (i = 0; (note = etm_capture_note(s->cap, i)) != NULL; i++)
		fprintf(stderr, "etmtrace: note: %s\n", note);
	s->nnotes = i;
	if (session_live(s) && s->live.nhead < LIVE_FEW &&
	    etm_capture_buffer(s->cap, 0)->detected)
		fprintf(stderr, "etmtrace: note: %s: the input format was found from "
				"the first %zu bytes only (give --input-format, or a longer "
				"--probe-wait)\n",
			o->input, s->live.nhead);
	if (o->verbose)
		session_describe(s);
	if (session_sources(s) < 0) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	for (i = 0; i < etm_capture_nbuffers(s->cap); i++)
		if (o->no_cache && etm_capture_buffer(s->cap, i)->dec)
			etm_decoder_set_cache(etm_capture_buffer(s->cap, i)->dec, 0);
	session_select(s, 0);
	return 0;
}

/* The images of buffer @b's sources as the sources' (a perf.data file's
 * buffers may hold the trace of different processes). */
static void session_images(struct session *s, size_t b)
{
	size_t i;
	int k, changed = 0;

	for (i = 0; i < etm_capture_nsources(s->cap); i++) {
		const struct etm_capture_source *cs = etm_capture_source(s->cap, i);

		for (k = 0; k < s->nsrc && !cs->skip && cs->buffer == b; k++)
			if (s->src[k].id == cs->id) {
				changed |= s->src[k].img != cs->img;
				s->src[k].img = cs->img;
				if (s->osrc)
					s->osrc[k].img = cs->img;
			}
	}
	if (s->osrc)
		etm_diagset_images(s->dw, s->osrc, s->nsrc);
	if (changed && s->on_images)
		s->on_images(s->on_images_ctx, s);
}

int session_select(struct session *s, size_t b)
{
	const struct etm_capture_buffer *cb;

	if (etm_capture_load(s->cap, b) < 0) /* a perf.data piece's decoder */
		return -1;
	cb = etm_capture_buffer(s->cap, b);
	if (!cb || !cb->dec)
		return -1;
	if (s->o->no_cache)
		etm_decoder_set_cache(cb->dec, 0);
	s->dec = cb->dec;
	s->trace_path = cb->path;
	s->fmt = cb->format;
	s->mem = cb->data;
	s->mem_n = cb->size;
	s->skip = cb->skip;
	s->length = cb->length;
	session_images(s, b);
	return 0;
}

size_t session_nbuffers(const struct session *s)
{
	return etm_capture_nbuffers(s->cap);
}

const char *session_fmt_name(enum etm_input_format f)
{
	switch (f) {
	case etm_fmt_raw: return "raw";
	case etm_fmt_coresight: return "coresight";
	case etm_fmt_tpiu: return "tpiu";
	case etm_fmt_tpiu_nofsync: return "tpiu (frames from byte 0, no FSYNC)";
	case etm_fmt_unknown: break;
	}
	return "unknown";
}

void session_close(struct session *s)
{
	const char *note;

	/* notes made while decoding (a perf.data's pid without an image) */
	while (s->cap && (note = etm_capture_note(s->cap, s->nnotes++)) != NULL)
		fprintf(stderr, "etmtrace: note: %s\n", note);
	etm_verify_free(s->verify);
	s->verify = NULL;
	etm_capture_free(s->cap);
	s->cap = NULL;
	s->dec = NULL;
	free(s->src);
	s->src = NULL;
	free(s->osrc);
	s->osrc = NULL;
	live_close(&s->live);
	if (s->spool)
		unlink(s->spool);
	free(s->spool);
	s->spool = NULL;
}

const struct etm_listing_source *session_osrc(struct session *s)
{
	int i;

	if (s->osrc)
		return s->osrc;
	s->osrc = calloc(s->nsrc ? (size_t)s->nsrc : 1, sizeof(*s->osrc));
	for (i = 0; s->osrc && i < s->nsrc; i++) {
		s->osrc[i].id = s->src[i].id;
		s->osrc[i].cfg = &s->src[i].cfg;
		s->osrc[i].img = s->src[i].img;
	}
	return s->osrc;
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

/* --verify-drop: the elements an etme_unverified error puts in doubt, up
 * to the error or loss of sync of that source that rejected them, are
 * dropped (counted in the error's place: the error element is kept). */
static int verify_dropped(struct session *s, const struct etm_elem *e)
{
	uint8_t *d = &s->vdrop[e->id & 0x7f];

	if (!s->o->verify_drop)
		return 0;
	if (e->kind == etmk_error && e->err == etme_unverified) {
		*d = 1;
		return 0;
	}
	if (*d && (e->kind == etmk_error || e->kind == etmk_nosync))
		*d = 0; /* the rejecting error: shown */
	if (*d)
		s->vdropped++;
	return *d;
}

/* Pass the items the verify filter has released to @fn (elements only:
 * the packet items were turned on for the filter). */
static int verify_take(struct session *s, session_fn fn, void *ctx)
{
	struct etm_item it;

	while (etm_verify_next(s->verify, &it) == 0)
		if (it.kind == etm_item_elem && !verify_dropped(s, &it.elem) && fn(ctx, &it) < 0)
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

/* The index of the buffer session_select() chose. */
static size_t session_buffer(const struct session *s)
{
	size_t b = 0;

	while (b < etm_capture_nbuffers(s->cap) &&
	       etm_capture_buffer(s->cap, b)->dec != s->dec)
		b++;
	return b;
}

int session_range(struct session *s, struct etm_fd_range *rg, uint64_t *size)
{
	return etm_capture_range(s->cap, session_buffer(s), rg, size);
}

/* The command's callbacks as the library's run sink: the verify filter,
 * element batches, flushing a stream's output after each read. */
struct run_ctx {
	struct session *s;
	session_fn fn;
	void *ctx;
};

/* Sink values: the command asked to stop (exit 0), the verify filter
 * failed (exit 2). Below every -etme_* code. */
#define RUN_STOP (-1000)
#define RUN_FAIL (-1001)

static int run_item(void *vctx, const struct etm_item *it)
{
	struct run_ctx *c = vctx;
	int r;

	if (c->s->verify) {
		r = verify_item(c->s, it, c->fn, c->ctx);
		if (r == 1)
			return RUN_STOP;
		return r ? RUN_FAIL : 0;
	}
	return c->fn(c->ctx, it) < 0 ? RUN_STOP : 0;
}

static int run_elems(void *vctx, const struct etm_elem *els, size_t n)
{
	struct run_ctx *c = vctx;

	return c->s->elems(c->ctx, els, n) < 0 ? RUN_STOP : 0;
}

static int run_end(void *vctx)
{
	struct run_ctx *c = vctx;

	if (!c->s->verify)
		return 0;
	etm_verify_finish(c->s->verify);
	return verify_take(c->s, c->fn, c->ctx) ? RUN_STOP : 0;
}

/* A live stream: the output flushed after each read (bounded latency). */
static int run_pushed(void *vctx)
{
	struct run_ctx *c = vctx;

	if (c->s->flush)
		c->s->flush(c->s->flush_ctx);
	return 0;
}

/* A live stream ended, or SIGINT/SIGTERM: the decode is finished as at
 * the end of a file. */
static void run_input_end(void *vctx, uint64_t bytes)
{
	struct run_ctx *c = vctx;

	fprintf(stderr, "etmtrace: note: %s: %s after %llu bytes\n",
		c->s->live.name, c->s->live.stopped ? "interrupted" : "the stream ended",
		(unsigned long long)bytes);
}

static ssize_t run_live_read(void *vctx, uint8_t *buf, size_t n)
{
	return live_read(vctx, buf, n);
}

/* Bytes of a live stream read at once, at most. */
#define LIVE_READ ((size_t)64 << 10)

int session_run_buffer(struct session *s, session_fn fn, void *ctx)
{
	struct run_ctx c = { s, fn, ctx };
	struct etm_capture_sink sk = { .item = run_item, .end = run_end };
	struct etm_capture_run_opts ro = { .size = sizeof(ro) };
	char err[600];
	size_t b = session_buffer(s);
	int r;

	if (s->elems && !s->verify)
		sk.elems = run_elems;
	ro.jobs = s->jobs > 1 ? (unsigned)s->jobs : 1;
	ro.chunk = (size_t)s->o->chunk;
	ro.bytes = &s->input_bytes;
	ro.err = err;
	ro.errlen = sizeof(err);
	if (session_live(s)) {
		ro.read = run_live_read;
		ro.read_ctx = &s->live;
		ro.head = s->live.head;
		ro.nhead = s->live.nhead;
		ro.chunk = LIVE_READ;
		sk.pushed = run_pushed;
		sk.input_end = run_input_end;
	}
	r = etm_capture_run_buffer(s->cap, b, &ro, &sk, &c);
	if (r >= 0 || r == RUN_STOP)
		return 0;
	if (r != RUN_FAIL && err[0])
		fprintf(stderr, "etmtrace: %s\n", err);
	return 2;
}

int session_run(struct session *s, session_fn fn, void *ctx)
{
	size_t b;
	int r;

	for (b = 0; b < session_nbuffers(s); b++) {
		if (session_select(s, b) < 0)
			continue;
		r = session_run_buffer(s, fn, ctx);
		if (r)
			return r;
	}
	return 0;
}
