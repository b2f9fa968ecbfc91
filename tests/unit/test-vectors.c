/* tests/unit/test-vectors.c - the .etv vector runner: decodes each vector
 * parsed by tests/vectors/run.c three ways and compares with its @expect. */
#include <stdio.h>
#include <stdlib.h>

#include "../vectors/run.c"

/* ---- decoding ------------------------------------------------------------ */

/* The collected output of one pass. */
struct v_out {
	struct etm_elem *el;
	size_t n, cap;
	int err; /* API failure */
};

static int src_is_etm3(const struct vec *v, uint8_t id)
{
	int i;

	for (i = 0; i < v->nsrc; i++)
		if (etm_cfg_trace_id(&v->src[i]) == id)
			return v->src[i].protocol == etm_proto_etmv3;
	return 0;
}

/* ETMv3 ranges may be split anywhere the decoder likes as long as a range
 * ends at every N atom and taken branch (flow.h conventions); join the
 * pieces of one straight run so that vectors do not depend on the split. */
static int can_join(const struct vec *v, const struct etm_elem *a,
		    const struct etm_elem *b)
{
	return a->kind == etmk_range && b->kind == etmk_range &&
	       a->id == b->id && src_is_etm3(v, a->id) && a->end == b->start &&
	       a->isa == b->isa && a->last_atom && a->last_exec &&
	       a->last_cls != etmc_br_direct && a->last_cls != etmc_br_indirect;
}

static void out_add(const struct vec *v, struct v_out *o,
		    const struct etm_elem *el)
{
	struct etm_elem *p = o->n ? &o->el[o->n - 1] : NULL;

	if (p && can_join(v, p, el)) {
		p->end = el->end;
		p->ninsn += el->ninsn;
		p->last_addr = el->last_addr;
		p->last_size = el->last_size;
		p->last_cls = el->last_cls;
		p->last_link = el->last_link;
		p->last_exec = el->last_exec;
		p->last_atom = el->last_atom;
		p->cycles += el->cycles;
		return;
	}
	o->el = v_grow(o->el, &o->cap, o->n + 1, sizeof(*o->el));
	o->el[o->n++] = *el;
}

static int drain(const struct vec *v, struct etm_decoder *d, struct v_out *o)
{
	struct etm_item it;
	int err;

	while ((err = etm_decoder_next(d, &it, sizeof(it))) == 0)
		if (it.is_elem)
			out_add(v, o, &it.elem);
	return err == -etme_again || err == -etme_eos ? 0 : err;
}

/* Decode the vector once. @cache: block cache on/off; @chunk: push size
 * (0 = everything at once). */
static void run_pass(const struct vec *v, const struct etm_image *img,
		     int cache, size_t chunk, struct v_out *o)
{
	struct etm_decoder *d;
	size_t i, n;
	int k;

	memset(o, 0, sizeof(*o));
	d = etm_decoder_alloc(v->fmt ? etm_fmt_coresight : etm_fmt_raw,
			      etm_dec_elements);
	if (!d) {
		o->err = -etme_nomem;
		return;
	}
	for (k = 0; k < v->nsrc && !o->err; k++)
		o->err = etm_decoder_add_source(d, &v->src[k], img);
	etm_decoder_set_cache(d, cache);
	for (i = 0; i < v->nfile && !o->err; i += n) {
		n = chunk && chunk < v->nfile - i ? chunk : v->nfile - i;
		o->err = etm_decoder_push(d, v->file + i, n);
		if (!o->err)
			o->err = drain(v, d, o);
	}
	if (!o->err)
		o->err = etm_decoder_finish(d);
	if (!o->err)
		o->err = drain(v, d, o);
	etm_decoder_free(d);
}

/* Canonical list (shared/tools/canon.py): one line per instruction, ' N' on
 * an instruction whose range ends in an N atom, GAP for discontinuities;
 * runs of GAP collapse and leading/trailing GAPs are dropped. */
static void canon_of(const struct vec *v, const struct etm_image *img,
		     const struct v_out *o, uint8_t id, struct v_lines *out)
{
	size_t i;
	int gap = 0;

	for (i = 0; i < o->n; i++) {
		const struct etm_elem *el = &o->el[i];
		struct etm_walk w;
		struct etm_insn in;
		uint32_t k = 0;

		if (v->nsrc > 1 && el->id != id)
			continue;
		if (el->kind == etmk_trace_on || el->kind == etmk_nosync ||
		    el->kind == etmk_nomem || el->kind == etmk_error) {
			gap = out->n > 0;
			continue;
		}
		if (el->kind != etmk_range || etm_walk_init(&w, img, el) < 0)
			continue;
		while (etm_walk_next(&w, &in) == 0) {
			if (gap)
				lines_add(out, "GAP");
			gap = 0;
			k++;
			lines_addf(out, "%08llX %c%s",
				   (unsigned long long)in.addr,
				   el->isa == etmi_a32 ? 'A' : 'T',
				   k == el->ninsn && !el->last_exec ?
					   " N" :
					   "");
		}
	}
}

/* ---- comparison ---------------------------------------------------------- */

static int expect_lines(struct vec *v, const struct v_lines *exp, int canon,
			struct v_lines *out)
{
	char buf[V_LINE];
	size_t i;

	for (i = 0; i < exp->n; i++) {
		if (v_subst(v, exp->s[i], buf, sizeof(buf), canon) < 0)
			return -1;
		lines_add(out, buf);
	}
	return 0;
}

static int same_lines(const struct v_lines *a, const struct v_lines *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->s[i], b->s[i]))
			return 0;
	return 1;
}

static void show_diff(const char *what, const struct v_lines *exp,
		      const struct v_lines *got)
{
	size_t i, n = exp->n > got->n ? exp->n : got->n;

	printf("    %s: expected | got\n", what);
	for (i = 0; i < n; i++) {
		const char *e = i < exp->n ? exp->s[i] : "";
		const char *g = i < got->n ? got->s[i] : "";

		printf("    %c %-44s | %s\n", strcmp(e, g) ? '!' : ' ', e, g);
	}
}

/* The three ways every vector is decoded. */
static const struct {
	const char *name;
	int cache;
	size_t chunk;
} v_passes[] = {
	{ "cache-on", 1, 0 },
	{ "cache-off", 0, 0 },
	{ "bytewise", 1, 1 },
};

/* Run one pass and compare; returns 1 if it matched. */
static int check_pass(struct vec *v, const struct etm_image *img, int p,
		      const struct v_lines *exp_el,
		      const struct v_lines *exp_canon, int verbose)
{
	struct v_lines got_el = { 0 }, got_canon = { 0 };
	struct v_out o;
	char buf[V_LINE];
	size_t i;
	int ok;

	run_pass(v, img, v_passes[p].cache, v_passes[p].chunk, &o);
	for (i = 0; i < o.n; i++) {
		fmt_elem(v, &o.el[i], buf, sizeof(buf));
		lines_add(&got_el, buf);
	}
	canon_of(v, img, &o, (uint8_t)etm_cfg_trace_id(&v->src[0]),
		 &got_canon);
	ok = !o.err && (!v->has_el || same_lines(exp_el, &got_el)) &&
	     (!v->has_canon || same_lines(exp_canon, &got_canon));
	if (!ok && verbose) {
		printf("  pass %s:%s%s\n", v_passes[p].name,
		       o.err ? " api error " : "",
		       o.err ? etm_errname(o.err) : "");
		if (v->has_el && !same_lines(exp_el, &got_el))
			show_diff("elements", exp_el, &got_el);
		if (v->has_canon && !same_lines(exp_canon, &got_canon))
			show_diff("canon", exp_canon, &got_canon);
	}
	free(o.el);
	lines_free(&got_el);
	lines_free(&got_canon);
	return ok;
}

static struct etm_image *v_image(const struct vec *v)
{
	struct etm_image *img = etm_image_alloc();
	int i;

	if (!img)
		return NULL;
	for (i = 0; i < v->nreg; i++) {
		if (etm_image_add_buffer(img, etm_space_any, v->reg[i].addr,
					 v->reg[i].buf, v->reg[i].n) < 0) {
			etm_image_free(img);
			return NULL;
		}
	}
	return img;
}

enum v_result { vr_pass,
		vr_fail,
		vr_xfail,
		vr_xpass,
		vr_bad };

/* Parse, decode three ways, compare. */
static enum v_result run_vector(const char *path, const char *name)
{
	struct v_lines exp_el = { 0 }, exp_canon = { 0 };
	enum v_result res = vr_bad;
	struct etm_image *img = NULL;
	struct vec v;
	int p, ok = 1, xf;

	memset(&v, 0, sizeof(v));
	v.name = name;
	if (v_parse(&v, path) < 0 ||
	    expect_lines(&v, &v.exp_el, 0, &exp_el) < 0 ||
	    expect_lines(&v, &v.exp_canon, 1, &exp_canon) < 0) {
		printf("BAD   %s\n", v.err);
		goto out;
	}
	img = v_image(&v);
	if (!img) {
		printf("BAD   %s: image\n", name);
		goto out;
	}
	xf = v.xfail[0] != 0;
	for (p = 0; p < 3; p++)
		ok &= check_pass(&v, img, p, &exp_el, &exp_canon, !xf);
	if (xf) {
		res = ok ? vr_xpass : vr_xfail;
		printf("%s %s: %s\n", ok ? "XPASS" : "xfail", name, v.xfail);
	} else {
		res = ok ? vr_pass : vr_fail;
		printf("%s %s\n", ok ? "ok   " : "FAIL ", name);
	}
out:
	etm_image_free(img);
	lines_free(&exp_el);
	lines_free(&exp_canon);
	v_free(&v);
	return res;
}

static int etv_filter(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 4 && !strcmp(e->d_name + n - 4, ".etv");
}

/* Run every vector in @dir (or only those named in argv). Returns the
 * process exit status. */
static int run_all(const char *dir, int argc, char **argv)
{
	unsigned cnt[5] = { 0 };
	struct dirent **ents;
	char path[4096];
	int i, n;

	n = scandir(dir, &ents, etv_filter, alphasort);
	if (n <= 0) {
		printf("no vectors found in %s\n", dir);
		return 1;
	}
	for (i = 0; i < n; i++) {
		int j, want = argc <= 1;

		for (j = 1; j < argc; j++)
			if (strstr(ents[i]->d_name, argv[j]))
				want = 1;
		if (want) {
			if (snprintf(path, sizeof(path), "%s/%s", dir,
				     ents[i]->d_name) < (int)sizeof(path))
				cnt[run_vector(path, ents[i]->d_name)]++;
			else
				cnt[vr_bad]++;
		}
		free(ents[i]);
	}
	free(ents);
	printf("%u vectors: %u passed, %u xfail, %u failed, %u xpass, %u bad\n",
	       cnt[0] + cnt[1] + cnt[2] + cnt[3] + cnt[4], cnt[vr_pass],
	       cnt[vr_xfail], cnt[vr_fail], cnt[vr_xpass], cnt[vr_bad]);
	return cnt[vr_fail] || cnt[vr_xpass] || cnt[vr_bad] ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *src = getenv("ETM_SRCDIR");
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/tests/vectors", src ? src : "..");
	return run_all(dir, argc, argv);
}
