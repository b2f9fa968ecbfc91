/* encode/snapdir.c - a whole synthetic snapshot written to a directory
 * (etm_snapw_write(), etmtrace/snapwrite.h): the device files, the dumps,
 * snapshot.ini, trace.ini and the trace, each text from snapwr.c. The one
 * place that writes a snapshot: `etmtrace synth` and examples/mksample.c
 * describe theirs and call it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/error.h>
#include <etmtrace/snapwrite.h>

#include "common/strbuf.h"

struct snapdir {
	const char *dir;
	char *err;
	size_t errlen;
};

#define sd_fail(d, r, ...) etm_err_msg((d)->err, (d)->errlen, r, __VA_ARGS__)

/* @n bytes of @buf into @d->dir/@name. */
static int sd_file(struct snapdir *d, const char *name, const void *buf,
		   size_t n)
{
	size_t len = strlen(d->dir) + strlen(name) + 2;
	char *path = malloc(len);
	FILE *f;
	int ok;

	if (!path)
		return -etme_nomem;
	snprintf(path, len, "%s/%s", d->dir, name);
	f = fopen(path, "wb");
	if (!f) {
		sd_fail(d, -etme_io, "cannot write %s: %s", path, strerror(errno));
		free(path);
		return -etme_io;
	}
	ok = (n == 0 || fwrite(buf, 1, n, f) == n);
	if (!ok)
		sd_fail(d, -etme_io, "cannot write %s: %s", path, strerror(errno));
	if (fclose(f) != 0 && ok) {
		sd_fail(d, -etme_io, "cannot write %s: %s", path, strerror(errno));
		ok = 0;
	}
	free(path);
	return ok ? 0 : -etme_io;
}

/* The text of one snapshot file: its length from a first call of the
 * writer, then the text in a buffer of that size. */
struct sd_text {
	const struct etm_snapw_snapshot *s;
	const struct etm_snapw_device *dev; /* NULL: snapshot.ini/trace.ini */
	int trace_ini;
	const char *const *keys, *const *files, *const *srcs, *const *cores;
	size_t nsrc;
};

static int sd_render(const struct sd_text *t, char *buf, size_t n)
{
	const struct etm_snapw_device *v = t->dev;

	if (v && v->is_core)
		return etm_snapw_core(buf, n, v->name, v->type, v->regs, v->dumps,
				      v->ndumps, v->first);
	if (v && v->text)
		return snprintf(buf, n, "%s", v->text);
	if (v)
		return etm_snapw_source(buf, n, v->name, v->type, v->cfg);
	if (t->trace_ini)
		return etm_snapw_trace(buf, n, t->s->bufname, t->s->trace_file,
				       t->s->fmt, t->srcs, t->cores, t->nsrc);
	return etm_snapw_index(buf, n, t->s->comment, t->keys, t->files,
			       t->s->ndevs);
}

static int sd_ini(struct snapdir *d, const char *name, const struct sd_text *t)
{
	int len = sd_render(t, NULL, 0), r;
	char *buf;

	if (len < 0)
		return len;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return -etme_nomem;
	r = sd_render(t, buf, (size_t)len + 1);
	if (r == len)
		r = sd_file(d, name, buf, (size_t)len);
	else if (r >= 0)
		r = -etme_internal;
	free(buf);
	return r;
}

/* A device's file, and a core's dumps. */
static int sd_device(struct snapdir *d, const struct etm_snapw_snapshot *s,
		     const struct etm_snapw_device *v)
{
	struct sd_text t = { s, v, 0, NULL, NULL, NULL, NULL, 0 };
	size_t i;
	int r;

	if (!v->key || !v->file || !v->name ||
	    (!v->is_core && !v->cfg && !v->text))
		return -etme_invalid;
	for (i = 0; v->is_core && i < v->ndumps; i++) {
		if (!v->dumps || !v->dumps[i].file)
			return -etme_invalid;
		if (!v->dumps[i].data)
			continue;
		r = sd_file(d, v->dumps[i].file, v->dumps[i].data,
			    (size_t)v->dumps[i].length);
		if (r < 0)
			return r;
	}
	return sd_ini(d, v->file, &t);
}

/* snapshot.ini and trace.ini, from the list of devices. */
static int sd_index(struct snapdir *d, const struct etm_snapw_snapshot *s)
{
	const char **p = calloc(4 * (s->ndevs + 1), sizeof(*p));
	struct sd_text t = { s, NULL, 0, NULL, NULL, NULL, NULL, 0 };
	size_t i, m = s->ndevs + 1;
	int r;

	if (!p)
		return -etme_nomem;
	t.keys = p;
	t.files = p + m;
	t.srcs = p + 2 * m;
	t.cores = p + 3 * m;
	for (i = 0; i < s->ndevs; i++) {
		p[i] = s->devs[i].key;
		p[m + i] = s->devs[i].file;
		if (s->devs[i].is_core)
			continue;
		p[2 * m + t.nsrc] = s->devs[i].name;
		p[3 * m + t.nsrc++] = s->devs[i].core;
	}
	r = sd_ini(d, "snapshot.ini", &t);
	t.trace_ini = 1;
	if (r >= 0)
		r = sd_ini(d, "trace.ini", &t);
	free(p);
	return r;
}

int etm_snapw_write(const char *dir, const struct etm_snapw_snapshot *s,
		    char *err, size_t errlen)
{
	struct snapdir d = { dir, err, errlen };
	size_t i;
	int r = 0;

	if (err && errlen)
		err[0] = 0;
	if (!dir || !s || (s->ndevs && !s->devs) || !s->bufname ||
	    !s->trace_file || (s->trace_len && !s->trace))
		return -etme_invalid;
	if (mkdir(dir, 0777) && errno != EEXIST)
		return sd_fail(&d, -etme_io, "cannot create %s: %s", dir,
			       strerror(errno));
	for (i = 0; i < s->ndevs && r >= 0; i++)
		r = sd_device(&d, s, &s->devs[i]);
	if (r >= 0)
		r = sd_index(&d, s);
	if (r >= 0 && s->trace)
		r = sd_file(&d, s->trace_file, s->trace, s->trace_len);
	return r < 0 ? r : 0;
}
