/* cli/session_e1.c - the CLI session of ETMv1 input (sample files given
 * with --protocol etmv1 or --samples; snapshots with an ETM1.x source),
 * kept apart from the capture-based session (session.c): etm_capture_open()
 * reads trace bytes, ETMv1 comes as sample records (cli/etm1.c). One source,
 * one buffer; the options win over the file and the snapshot. `info`
 * (o->list) lists an ETM1.x snapshot through the capture. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "etm1.h"
#include "session.h"

static int e1_proto(enum etm_protocol p)
{
	return p == etm_proto_etmv1 || p == etm_proto_etmv2;
}

static int e1_user_images(struct session *s, struct etm_image *img)
{
	char err[256];
	int i, r;

	for (i = 0; i < s->o->nimages; i++) {
		r = etm_image_add_file(img, etm_space_any, s->o->images[i].addr,
				       s->o->images[i].path, 0, 0);
		if (r < 0) {
			fprintf(stderr, "etmtrace: %s: %s\n", s->o->images[i].path,
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

/* The first selected ETM1.x source of the snapshot, or NULL. */
static const struct etm_snap_source *e1_snap_source(const struct session *s)
{
	const struct etm_snapshot *snap = s->e1_snap;
	size_t i;
	int k, sel;

	for (i = 0; i < snap->nsources; i++) {
		const struct etm_snap_source *ss = &snap->sources[i];

		if (!e1_proto(ss->cfg.protocol) || !ss->buffer)
			continue;
		sel = !s->o->nids;
		for (k = 0; k < s->o->nids; k++)
			sel |= s->o->ids[k] == etm_cfg_trace_id(&ss->cfg);
		if (sel)
			return ss;
	}
	return NULL;
}

/* A snapshot directory: 1 if it has no selected ETM1.x source. */
static int e1_open_snapshot(struct session *s, int want_images)
{
	struct session_src *d = &s->src[0];
	const struct etm_snap_source *ss;
	char err[512] = "";
	size_t i;

	if (etm_snapshot_load(&s->e1_snap, s->o->input, err, sizeof(err)) < 0 ||
	    !(ss = e1_snap_source(s)))
		return 1; /* errors are the capture's to report */
	for (i = 0; i < s->e1_snap->nbuffers; i++)
		if (!strcmp(s->e1_snap->buffers[i].name, ss->buffer) &&
		    s->e1_snap->buffers[i].nfiles)
			s->trace_path = s->e1_snap->buffers[i].files[0];
	if (!s->trace_path) {
		fprintf(stderr, "etmtrace: %s: no trace buffer for ETMv1 source %s\n",
			s->o->input, ss->name);
		return 2;
	}
	d->cfg = ss->cfg;
	d->name = ss->name;
	if (want_images) {
		if (!(s->e1_img = etm_image_alloc()))
			return 2;
		if (etm_snapshot_add_memory(ss, s->e1_img, err, sizeof(err)) < 0) {
			fprintf(stderr, "etmtrace: %s\n", err[0] ? err : "cannot load memory dump");
			return 2;
		}
	}
	return 0;
}

/* Options over the snapshot's or the defaults' configuration. */
static void e1_options(struct session *s, struct session_src *d)
{
	if (s->o->proto)
		d->cfg.protocol = s->o->proto;
	if (s->o->have_etmcr)
		d->cfg.etmcr = s->o->etmcr;
	if (s->o->etmccr)
		d->cfg.etmccr = s->o->etmccr;
	if (s->o->m_profile)
		d->cfg.flags |= ETM_CFG_M_PROFILE;
	d->id = etm_cfg_trace_id(&d->cfg);
}

static int e1_decoder(struct session *s, enum etm_decoder_mode mode)
{
	const char *why = NULL;
	int r;

	if (etm_config_check(&s->src[0].cfg, &why) < 0) {
		fprintf(stderr, "etmtrace: %s: trace ID 0x%02x: %s\n",
			s->o->input, s->src[0].id, why);
		return 2;
	}
	s->dec = s->e1_dec = etm_decoder_alloc(etm_fmt_raw, mode);
	if (!s->dec) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	r = etm_decoder_add_source(s->dec, &s->src[0].cfg, s->src[0].img);
	if (r < 0 && mode == etm_dec_packets) {
		fprintf(stderr, "etmtrace: %s: ETMv1 trace has no packets "
				"(samples are decoded by `etmtrace decode`)\n",
			s->o->input);
		return 2;
	}
	if (r < 0) {
		fprintf(stderr, "etmtrace: %s: trace ID 0x%02x: %s\n",
			s->o->input, s->src[0].id, etm_errstr(r));
		return 2;
	}
	if (s->o->no_cache)
		etm_decoder_set_cache(s->dec, 0);
	return 0;
}

int session_e1_open(struct session *s, enum etm_decoder_mode mode,
		    int want_images)
{
	struct session_src *d;
	struct stat st;
	int r;

	if (s->o->list || stat(s->o->input, &st) != 0 ||
	    (s->o->proto && !e1_proto(s->o->proto)) ||
	    (!S_ISDIR(st.st_mode) && !e1_proto(s->o->proto) && !s->o->samples))
		return 1;
	s->src = d = calloc(1, sizeof(*s->src));
	if (!d)
		return 2;
	etm_config_init(&d->cfg);
	if (S_ISDIR(st.st_mode)) {
		r = e1_open_snapshot(s, want_images);
		if (r) {
			session_e1_close(s);
			return r;
		}
	} else {
		d->cfg.protocol = s->o->proto ? s->o->proto : etm_proto_etmv1;
		d->cfg.traceid = 0x10;
		d->name = "source";
		s->trace_path = s->o->input;
		if (want_images && !(s->e1_img = etm_image_alloc()))
			return 2;
	}
	e1_options(s, d);
	if (s->e1_img && e1_user_images(s, s->e1_img) < 0)
		return 2;
	d->img = s->e1_img;
	s->nsrc = 1;
	s->fmt = etm_fmt_raw; /* sample records */
	r = cli_e1_load(s);
	d->path = s->trace_path;
	d->fmt = s->fmt;
	return r ? r : e1_decoder(s, mode);
}

void session_e1_close(struct session *s)
{
	etm_decoder_free(s->e1_dec);
	s->e1_dec = NULL;
	free(s->e1_rec);
	s->e1_rec = NULL;
	etm_image_free(s->e1_img);
	s->e1_img = NULL;
	etm_snapshot_free(s->e1_snap);
	s->e1_snap = NULL;
	s->trace_path = NULL;
	free(s->src);
	s->src = NULL;
	s->nsrc = 0;
	s->e1 = 0;
}
