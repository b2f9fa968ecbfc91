/* load/open_src.c - the two halves of etm_capture_open(): a snapshot
 * directory (every buffer, every source, options as overrides) and a trace
 * file (format detected, trace IDs found, configuration inferred). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <etmtrace/detect.h>
#include <etmtrace/diag.h>
#include <etmtrace/error.h>
#include <etmtrace/open.h>

#include "load/open_int.h"

/* Bytes read from the start of a buffer to detect its format, find its
 * trace IDs and infer configurations. */
#define CAP_PROBE ((size_t)256 << 10)
/* Of them, those a source left out by --id is inferred from: its
 * configuration serves only to find where damage began among its data
 * (etm_decoder_note_source_img()), and the probe without an image costs
 * some 265 M instructions per source on 256 KiB (TC2 x64). */
#define CAP_PROBE_LEFT ((size_t)32 << 10)

static const char *fmt_word(enum etm_input_format f)
{
	switch (f) {
	case etm_fmt_raw: return "raw";
	case etm_fmt_coresight: return "coresight";
	case etm_fmt_tpiu: return "tpiu";
	case etm_fmt_tpiu_nofsync: return "tpiu-nofsync";
	case etm_fmt_unknown: break;
	}
	return "unknown";
}

/* The first CAP_PROBE bytes of @path into a new buffer (*@n bytes). */
static int cap_read_head(struct cap_ctx *c, const char *path, uint8_t **buf,
			 size_t *n)
{
	FILE *f = fopen(path, "rb");

	*n = 0;
	*buf = malloc(CAP_PROBE);
	if (!*buf) {
		if (f)
			fclose(f);
		return cap_err(c, -etme_nomem, "out of memory");
	}
	if (!f)
		return cap_err(c, -etme_io, "%s: %s", path, strerror(errno));
	*n = fread(*buf, 1, CAP_PROBE, f);
	fclose(f);
	return 0;
}

/* The option's format against what the bytes show: raw over frames,
 * frames over unframed bytes, or frames from byte 0 over TPIU frames
 * that start elsewhere, is noted. Returns 1 if noted. */
static int cap_format_doubt(struct cap_ctx *c, struct etm_capture_buffer *b,
			    const uint8_t *head, size_t n)
{
	char *why = c->cap->why[b - c->cap->buf];
	enum etm_input_format f = etm_detect_format(head, n, why,
						    sizeof(c->cap->why[0]));
	int from0 = b->format == etm_fmt_coresight ||
		    b->format == etm_fmt_tpiu_nofsync;

	if ((f == etm_fmt_raw) == (b->format == etm_fmt_raw) &&
	    !(from0 && f == etm_fmt_tpiu && etm_detect_frame_start(head, n) > 0))
		return 0;
	cap_note(c->cap, "buffer %s: input format %s given, but the bytes show %s"
			 "%s%s",
		 b->name, fmt_word(b->format), why,
		 f == etm_fmt_raw ? "" : ": try --input-format ",
		 f == etm_fmt_raw ? "" : fmt_word(f));
	return 1;
}

/* TPIU frames with no FSYNC in @head (an SWO capture): where they start,
 * from their structure; noted when the format was given. */
static void cap_unmarked(struct cap_ctx *c, struct etm_capture_buffer *b,
			 const uint8_t *head, size_t n)
{
	int at = b->format == etm_fmt_tpiu ? etm_detect_frame_start(head, n) : -1;

	if (at < 0)
		return;
	b->unmarked = 1;
	b->frame_start = (uint64_t)at;
	if (!b->detected)
		cap_note(c->cap, "buffer %s: no FSYNC in the TPIU frames: frames "
				 "from offset %d, found from their structure",
			 b->name, at);
}

/* The bytes the probes of buffer @b look at: TPIU frames without FSYNC
 * from where they start, as frames from byte 0. */
void cap_probe_view(const struct etm_capture_buffer *b,
		    enum etm_input_format *fmt, const uint8_t **head, size_t *n)
{
	*fmt = b->format;
	if (!b->unmarked || b->frame_start >= *n)
		return;
	*fmt = etm_fmt_tpiu_nofsync;
	*head += b->frame_start;
	*n -= (size_t)b->frame_start;
}

/* Format of buffer @b: the option's, else @declared, else detected from
 * @head; with a note when the option overrides or detection decided. */
static void cap_format_pick(struct cap_ctx *c, struct etm_capture_buffer *b,
			    enum etm_input_format declared,
			    const uint8_t *head, size_t n)
{
	char *why = c->cap->why[b - c->cap->buf];

	if (c->o.format) {
		b->format = c->o.format;
		if (declared && declared != c->o.format)
			cap_note(c->cap, "buffer %s: input format %s (option; "
					 "the snapshot says %s)",
				 b->name,
				 fmt_word(c->o.format), fmt_word(declared));
		if (n && cap_format_doubt(c, b, head, n))
			b->format_why = why;
		return;
	}
	if (declared) {
		b->format = declared;
		return;
	}
	b->format = etm_detect_format(head, n, why, sizeof(c->cap->why[0]));
	if (b->format == etm_fmt_unknown)
		b->format = etm_fmt_raw;
	b->detected = 1;
	b->format_why = why;
	cap_note(c->cap, "buffer %s: input format %s detected (%s)", b->name,
		 fmt_word(b->format), why);
}

/* ... and where TPIU frames without FSYNC start. */
static void cap_format(struct cap_ctx *c, struct etm_capture_buffer *b,
		       enum etm_input_format declared, const uint8_t *head,
		       size_t n)
{
	cap_format_pick(c, b, declared, head, n);
	if (n)
		cap_unmarked(c, b, head, n);
}

static size_t snap_buffer_index(const struct etm_snapshot *snap,
				const char *name)
{
	size_t i;

	for (i = 0; name && i < snap->nbuffers; i++)
		if (!strcmp(snap->buffers[i].name, name))
			return i;
	return (size_t)-1;
}

/* The image of @ss's core: shared with an earlier source of that core. */
static int snap_image(struct cap_ctx *c, size_t k, struct etm_capture_source *s)
{
	const struct etm_snapshot *snap = c->cap->snap;
	const struct etm_snap_source *ss = &snap->sources[k];
	struct etm_image *img;
	char err[256];
	size_t i;
	int r;

	for (i = 0; i < k; i++)
		if (c->cap->src[i].img && snap->sources[i].core && ss->core &&
		    !strcmp(snap->sources[i].core, ss->core)) {
			s->img = c->cap->src[i].img;
			return 0;
		}
	img = cap_new_image(c->cap);
	if (!img)
		return cap_err(c, -etme_nomem, "out of memory");
	err[0] = 0;
	r = etm_snapshot_add_memory(ss, img, err, sizeof(err));
	if (r < 0)
		return cap_err(c, r, "%s", err[0] ? err : "cannot load memory dump");
	s->img = img;
	return cap_user_images(c, img);
}

/* Two decoded sources of one buffer with one trace ID cannot be told
 * apart. */
static int snap_id_taken(struct cap_ctx *c, const struct etm_capture_source *s)
{
	size_t i;

	for (i = 0; i + 1 < c->cap->nsrc; i++) {
		const struct etm_capture_source *o = &c->cap->src[i];

		if (!o->skip && o->id == s->id && o->buffer == s->buffer)
			return cap_err(c, -1, "trace sources %s and %s both use "
					      "trace ID 0x%02x",
				       o->name, s->name,
				       s->id) != 0;
	}
	return 0;
}

/* An ETMv1 source the options leave ETMv1, to be decoded (not listed). */
static int snap_e1(const struct cap_ctx *c, const struct etm_snap_source *ss)
{
	return cap_is_e1(ss->cfg.protocol) &&
	       (!c->o.protocol || cap_is_e1(c->o.protocol)) &&
	       !(c->o.flags & ETM_OPEN_LIST);
}

/* Source @k of the snapshot: configured, or with the reason it is not
 * decoded. */
/* A snapshot device of type "ITM" (an ITM/DWT trace source). */
static int snap_itm_type(const char *type)
{
	return type && strcspn(type, ".") == 3 && !strncasecmp(type, "ITM", 3);
}

static int snap_source(struct cap_ctx *c, size_t k)
{
	const struct etm_snap_source *ss = &c->cap->snap->sources[k];
	struct etm_capture_source *s = cap_add_source(c->cap);
	size_t bi;
	char was[160];

	if (!s)
		return cap_err(c, -etme_nomem, "out of memory");
	s->name = ss->name;
	s->type = ss->type;
	s->cfg = ss->cfg;
	s->id = etm_cfg_trace_id(&ss->cfg);
	s->how = ETM_HOW_SNAPSHOT;
	bi = snap_buffer_index(c->cap->snap, ss->buffer);
	s->buffer = bi == (size_t)-1 ? 0 : bi;
	if (!cap_selected(c, s->id))
		s->skip = "not selected";
	else if (bi == (size_t)-1)
		s->skip = "not connected to a trace buffer";
	else if (!c->cap->buf[bi].path)
		s->skip = "its trace buffer has no data file";
	if (s->skip)
		return 0;
	if (snap_id_taken(c, s))
		return -etme_bad_config;
	if (snap_e1(c, ss)) { /* sample files (load/open_e1.c) */
		if (!(c->o.flags & ETM_OPEN_NO_IMAGES) && snap_image(c, k, s) < 0)
			return -1;
		return cap_wire_e1(c, s);
	}
	if (cap_override(c, &s->cfg)) {
		s->how |= ETM_HOW_OPTIONS;
		etm_diag_config_diff(&ss->cfg, &s->cfg, was, sizeof(was));
		cap_note(c->cap, "trace ID 0x%02x (%s): options override the "
				 "snapshot: %s; ETMCR=0x%08x ETMCCER=0x%08x "
				 "ETMIDR=0x%08x",
			 s->id, s->name, was[0] ? was : "registers", s->cfg.etmcr, s->cfg.etmccer,
			 s->cfg.etmidr);
	}
	if (!(c->o.flags & ETM_OPEN_NO_IMAGES) && snap_image(c, k, s) < 0)
		return -1;
	return cap_wire(c, s);
}

static int snap_buffers(struct cap_ctx *c)
{
	const struct etm_snapshot *snap = c->cap->snap;
	uint8_t *head = NULL;
	size_t i, n;
	int r = 0;

	for (i = 0; i < snap->nbuffers && !r; i++) {
		const struct etm_snap_buffer *sb = &snap->buffers[i];
		struct etm_capture_buffer *b = cap_add_buffer(c->cap);

		if (!b)
			return cap_err(c, -etme_nomem, "out of memory");
		b->name = sb->name;
		b->path = sb->nfiles ? sb->files[0] : NULL;
		if (!b->path)
			continue;
		n = 0;
		if (c->o.format || !sb->format)
			r = cap_read_head(c, b->path, &head, &n);
		if (!r)
			cap_format(c, b, sb->format, head, n);
		free(head);
		head = NULL;
	}
	return r;
}

int cap_open_snapshot(struct cap_ctx *c)
{
	struct etm_snapshot *snap;
	char err[512];
	size_t i;
	int r;

	err[0] = 0;
	r = etm_snapshot_load_ex(&c->cap->snap, c->cap->path,
				 c->o.flags & ETM_OPEN_ALLOW_OUTSIDE ?
					 ETM_SNAP_ALLOW_OUTSIDE :
					 0,
				 err, sizeof(err));
	if (r < 0)
		return cap_err(c, r, "%s", etm_errmsg(r, err));
	snap = c->cap->snap;
	r = snap_buffers(c);
	if (r < 0)
		return r;
	if (!c->cap->nbuf && !cap_add_buffer(c->cap))
		return cap_err(c, -etme_nomem, "out of memory");
	for (i = 0; i < snap->nsources; i++)
		if ((r = snap_source(c, i)) < 0)
			return r;
	for (i = 0; i < snap->nothers; i++) {
		struct etm_capture_source *s = cap_add_source(c->cap);

		if (!s)
			return cap_err(c, -etme_nomem, "out of memory");
		s->name = snap->others[i].name;
		s->type = snap->others[i].type;
		s->id = etm_cfg_trace_id(&snap->others[i].cfg);
		s->cfg = snap->others[i].cfg;
		s->how = ETM_HOW_SNAPSHOT;
		s->skip = "a protocol etmtrace does not decode";
		if (snap_itm_type(s->type)) {
			size_t bi = snap_buffer_index(snap, snap->others[i].buffer);

			s->buffer = bi == (size_t)-1 ? 0 : bi;
			s->skip = !cap_selected(c, s->id) ? "not selected" :
				  bi == (size_t)-1 || !c->cap->buf[bi].path ?
							    "no trace data" :
							    NULL;
			if (!s->skip && (r = cap_itm_snap(c, s)) < 0)
				return r;
		}
	}
	return 0;
}

/* Trace IDs with data in the framed @head of the trace file, as flags
 * (one each, whatever the number of runs); returns how many. */
static int file_ids(struct cap_ctx *c, const uint8_t *head, size_t n,
		    uint8_t ids[128])
{
	int count = 0;

	memset(ids, 0, 128);
	if (cap_probe_data(c, &c->cap->buf[0], head, n) < 0)
		return -etme_nomem;
	for (size_t i = 0; i < c->nprobe; i++)
		if (!ids[c->probe_id[i] & 0x7f]) {
			ids[c->probe_id[i] & 0x7f] = 1;
			count++;
		}
	return count;
}

/* A source of the trace file with trace ID @id, named by its ID; NULL
 * (error set) when out of memory. */
static struct etm_capture_source *file_add_source(struct cap_ctx *c,
						  unsigned id)
{
	struct etm_capture_source *s = cap_add_source(c->cap);

	if (!s) {
		cap_err(c, -etme_nomem, "out of memory");
		return NULL;
	}
	s->name = "source";
	s->id = id;
	return s;
}

/* Source @s of a framed trace file, found (no --id, no protocol given):
 * if it has probed data and they hold no A-sync (five or more zeros, then 0x80; ETMv3 and PTM
 * alike), nothing in them can be decoded as ETM/PTM trace (am243x's ID
 * 0x6F: an incrementing counter byte, 256 of them): it is listed, not
 * decoded, with a note. Returns 1 if so. */
static int file_unsynced(struct cap_ctx *c, struct etm_capture_source *s)
{
	size_t i, nb = 0;
	int zeros = 0;

	if (c->o.protocol || c->o.nids || c->cap->buf[0].format == etm_fmt_raw)
		return 0; /* what the options select is decoded as they say */
	for (i = 0; i < c->nprobe; i++) {
		if (c->probe_id[i] != s->id)
			continue;
		nb++;
		if (c->probe_data[i] == 0x80 && zeros >= 5)
			return 0;
		zeros = c->probe_data[i] ? 0 : zeros + 1;
	}
	if (!nb)
		return 0; /* no data to judge (an --id with none in the probe) */
	s->skip = "no A-sync in its data (not ETM/PTM trace)";
	s->cfg.protocol = etm_proto_unknown;
	s->cfg.traceid = s->id;
	cap_note(c->cap, "trace ID 0x%02x: no A-sync in its %zu bytes: not "
			 "ETM/PTM trace, not decoded (--id or --protocol "
			 "decodes it)",
		 s->id, nb);
	return 1;
}

static int file_source(struct cap_ctx *c, unsigned id, struct etm_image *img,
		       const uint8_t *head, size_t n)
{
	struct etm_capture_source *s = file_add_source(c, id);
	enum etm_input_format fmt;
	int r;

	if (!s)
		return -etme_nomem;
	s->img = img;
	s->how = ETM_HOW_OPTIONS;
	r = cap_itm_source(c, s, head, n, 1);
	if (r)
		return r < 0 ? r : 0;
	if (file_unsynced(c, s))
		return 0;
	cap_probe_view(&c->cap->buf[0], &fmt, &head, &n);
	r = cap_infer(c, fmt, id, img, head, n, &s->cfg);
	if (r < 0)
		return r;
	s->how = (unsigned)r;
	return cap_wire(c, s);
}

/* Trace ID @id of a framed file, left out by the selection: listed as not
 * selected, as a snapshot's source is, and noted with its configuration
 * (cap_note_ids()), so that the decoder knows every ID of the input and the
 * selected sources decode as they do from the snapshot. The options and
 * the image describe the selected sources, so its configuration is
 * inferred from its bytes alone; without a note (it is not decoded). */
static int file_left_source(struct cap_ctx *c, unsigned id,
			    const uint8_t *head, size_t n)
{
	struct etm_capture_source *s = file_add_source(c, id);
	struct cap_ctx lc = *c;
	size_t nn = c->cap->nnotes;
	enum etm_input_format fmt;
	int r;

	if (!s)
		return -etme_nomem;
	s->skip = "not selected";
	lc.o.protocol = etm_proto_unknown;
	lc.o.regs = 0;
	lc.o.cfg_flags = 0;
	lc.err = NULL;
	r = cap_itm_source(c, s, head, n, 0);
	if (r > 0) { /* ITM/DWT: not an ETM/PTM configuration */
		s->skip = "not selected";
		r = -etme_bad_config;
	} else if (!r) {
		cap_probe_view(&c->cap->buf[0], &fmt, &head, &n);
		r = cap_infer(&lc, fmt, id, NULL, head,
			      n < CAP_PROBE_LEFT ? n : CAP_PROBE_LEFT, &s->cfg);
	}
	while (c->cap->nnotes > nn) {
		free(c->cap->notes[--c->cap->nnotes]);
		c->cap->notes[c->cap->nnotes] = NULL;
	}
	if (r < 0) { /* noted by its ID alone */
		etm_config_init(&s->cfg);
		s->cfg.traceid = id;
		r = ETM_HOW_DEFAULT;
	}
	s->how = (unsigned)r;
	return 0;
}

/* The sources of a framed file: every trace ID with data in @head and
 * every --id, in ID order; IDs left out by --id are noted, not decoded. */
static int file_sources(struct cap_ctx *c, struct etm_image *img,
			const uint8_t *head, size_t n)
{
	uint8_t ids[128];
	unsigned i;
	int r = file_ids(c, head, n, ids);

	if (r < 0)
		return cap_err(c, r, "out of memory");
	if (!r && !c->o.nids)
		return cap_err(c, -etme_bad_config, "%s: no trace data in any "
						    "%s frame",
			       c->cap->path, fmt_word(c->cap->buf[0].format));
	for (i = 1, r = 0; i < 0x70 && !r; i++)
		if (cap_selected(c, i) && (ids[i] || c->o.nids))
			r = file_source(c, i, img, head, n);
		else if (ids[i])
			r = file_left_source(c, i, head, n);
	return r;
}

/* Buffer @b of a trace file or stream from its first @n bytes @head: the
 * format, the image, the sources. */
static int open_file_head(struct cap_ctx *c, struct etm_capture_buffer *b,
			  const uint8_t *head, size_t n)
{
	struct etm_image *img = NULL;
	int r = 0;

	cap_format(c, b, etm_fmt_unknown, head, n);
	cap_e1_hint(c, head, n);
	if (!(c->o.flags & ETM_OPEN_NO_IMAGES)) {
		img = cap_new_image(c->cap);
		r = img ? cap_user_images(c, img) :
			  cap_err(c, -etme_nomem, "out of memory");
	}
	if (!r && b->format == etm_fmt_raw && c->o.nids > 1)
		r = cap_err(c, -etme_invalid, "raw input holds one source: "
					      "give one --id, or --input-format coresight");
	if (!r && b->format == etm_fmt_raw)
		r = file_source(c, c->o.nids ? c->o.ids[0] : 0x10, img, head, n);
	else if (!r)
		r = file_sources(c, img, head, n);
	return r;
}

int cap_open_file(struct cap_ctx *c)
{
	struct etm_capture_buffer *b = cap_add_buffer(c->cap);
	uint8_t *head = NULL;
	size_t n;
	int r;

	if (!b)
		return cap_err(c, -etme_nomem, "out of memory");
	b->path = b->name = c->cap->path;
	if (c->cap->stream) { /* the caller's head of the stream */
		n = c->o.nhead < CAP_PROBE ? c->o.nhead : CAP_PROBE;
		if (!n)
			return cap_err(c, -etme_io, "%s: empty trace stream",
				       b->path);
		return open_file_head(c, b, c->o.head, n);
	}
	r = cap_read_head(c, b->path, &head, &n);
	if (!r && !n)
		r = cap_err(c, -etme_io, "%s: empty trace file", b->path);
	if (!r)
		r = open_file_head(c, b, head, n);
	free(head);
	return r;
}
