/* load/open_itm.c - a trace file's source whose bytes are ITM/DWT trace
 * (etm_detect_itm(): the ITM packet grammar), or every source with
 * --protocol itm, is decoded as ITM/DWT (etm_proto_itm) instead of being
 * handed to an ETM/PTM decoder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/detect.h>
#include <etmtrace/error.h>
#include <etmtrace/open.h>

#include "load/open_int.h"

int cap_probe_data(struct cap_ctx *c, const struct etm_capture_buffer *b,
		   const uint8_t *head, size_t n)
{
	enum etm_input_format fmt;
	struct etm_dfmt_item it;
	struct etm_dfmt *d;
	size_t i;
	int r;

	if (c->probe_data)
		return 0;
	c->nprobe = 0;
	c->probe_data = malloc(n ? n : 1);
	c->probe_id = calloc(n ? n : 1, 1);
	if (!c->probe_data || !c->probe_id)
		return -etme_nomem;
	cap_probe_view(b, &fmt, &head, &n);
	if (fmt == etm_fmt_raw) {
		memcpy(c->probe_data, head, n);
		c->nprobe = n;
		return 0;
	}
	d = etm_dfmt_alloc(fmt, 0);
	if (!d)
		return -etme_nomem;
	r = etm_dfmt_push(d, head, n);
	while (!r || r == -etme_again) {
		r = etm_dfmt_next(d, &it, sizeof(it));
		if (r == -etme_again)
			r = etm_dfmt_finish(d);
		else if (!r && it.kind == etm_dfmt_data)
			for (i = 0; i < it.run.size && c->nprobe < n; i++) {
				c->probe_id[c->nprobe] = it.run.id;
				c->probe_data[c->nprobe++] = it.run.data[i];
			}
	}
	etm_dfmt_free(d);
	return 0;
}

/* The probed bytes of trace ID @id (any, for raw input) into a new buffer
 * (*@out, *@nout bytes). */
static int itm_id_bytes(struct cap_ctx *c, const struct etm_capture_buffer *b,
			unsigned id, const uint8_t *head, size_t n,
			uint8_t **out, size_t *nout)
{
	size_t i;
	int raw = b->format == etm_fmt_raw;

	*nout = 0;
	*out = NULL;
	if (cap_probe_data(c, b, head, n) < 0)
		return -etme_nomem;
	*out = malloc(c->nprobe ? c->nprobe : 1);
	if (!*out)
		return -etme_nomem;
	for (i = 0; i < c->nprobe; i++)
		if (raw || c->probe_id[i] == id)
			(*out)[(*nout)++] = c->probe_data[i];
	return 0;
}

int cap_itm_source(struct cap_ctx *c, struct etm_capture_source *s,
		   const uint8_t *head, size_t n, int wire)
{
	char why[200];
	uint8_t *bytes;
	size_t nb;
	int r;

	if (c->o.protocol && c->o.protocol != etm_proto_itm)
		return 0; /* the options say what it is */
	if (c->o.protocol == etm_proto_itm) {
		snprintf(why, sizeof(why), "ITM/DWT by option");
	} else {
		r = itm_id_bytes(c, &c->cap->buf[s->buffer], s->id, head, n,
				 &bytes, &nb);
		if (r < 0)
			return cap_err(c, r, "out of memory");
		r = etm_detect_itm(bytes, nb, why, sizeof(why));
		free(bytes);
		if (!r)
			return 0;
	}
	s->name = "ITM";
	s->type = "ITM/DWT";
	etm_config_init(&s->cfg);
	s->cfg.protocol = etm_proto_itm;
	s->cfg.traceid = s->id;
	s->img = NULL; /* no instruction flow: no image */
	if (!wire)
		return 1;
	cap_note(c->cap, "trace ID 0x%02x: %s, decoded as ITM/DWT", s->id,
		 why);
	r = cap_wire(c, s);
	return r < 0 ? r : 1;
}

int cap_itm_snap(struct cap_ctx *c, struct etm_capture_source *s)
{
	unsigned id = s->id;

	if (!id || id >= 0x70)
		return 0; /* no trace ID in its control register: not decoded */
	etm_config_init(&s->cfg);
	s->cfg.protocol = etm_proto_itm;
	s->cfg.traceid = id;
	s->img = NULL;
	return cap_wire(c, s);
}
