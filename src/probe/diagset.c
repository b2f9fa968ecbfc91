/* probe/diagset.c - the configuration-mismatch diagnostics of a decode's
 * sources by trace ID (probe/diagset.h). */
#include <stdlib.h>
#include <string.h>

#include "probe/diag_int.h"
#include "probe/diagset.h"

struct etm_diagset {
	struct etm_diag *d[128]; /* by trace ID */
	int seg;                 /* segments (etm_diagset_alloc_segment()) */
	int packed;              /* packed segments (etm_diag_pack_segment()) */
};

static struct etm_diagset *open_diag(const struct etm_listing_source *src, int n,
				     int seg)
{
	struct etm_diagset *w = calloc(1, sizeof(*w));
	int i;

	for (i = 0; w && i < n; i++) {
		unsigned id = src[i].id & 0x7f;

		etm_diag_free(w->d[id]);
		w->d[id] = seg ? etm_diag_alloc_segment(src[i].cfg, src[i].img) :
				 etm_diag_alloc(src[i].cfg, src[i].img);
	}
	if (w)
		w->seg = seg;
	return w;
}

/* Segments of several sources are packed: decoded from interleaved
 * frames, their lookups come in no order a branch predictor learns. */
static void pack_segments(struct etm_diagset *w)
{
	int i, n = 0;

	for (i = 0; i < 128; i++)
		n += w->d[i] != NULL;
	if (n < 2)
		return;
	for (i = 0; i < 128; i++)
		if (w->d[i])
			etm_diag_pack_segment(w->d[i]);
	w->packed = 1;
}

void etm_diagset_images(struct etm_diagset *w, const struct etm_listing_source *src,
			int n)
{
	int i;

	for (i = 0; w && i < n; i++)
		etm_diag_set_image(w->d[src[i].id & 0x7f], src[i].img);
}

struct etm_diagset *etm_diagset_alloc(const struct etm_listing_source *src, int n)
{
	return open_diag(src, n, 0);
}

struct etm_diagset *etm_diagset_alloc_segment(const struct etm_listing_source *src, int n)
{
	struct etm_diagset *w = open_diag(src, n, 1);

	if (w)
		pack_segments(w);
	return w;
}

void etm_diagset_append(struct etm_diagset *w, const struct etm_diagset *seg)
{
	int i;

	for (i = 0; w && seg && i < 128; i++)
		if (w->d[i] && seg->d[i])
			etm_diag_append(w->d[i], seg->d[i]);
}

void diagset_reset(struct etm_diagset *seg)
{
	int i;

	for (i = 0; seg && i < 128; i++)
		etm_diag_reset_segment(seg->d[i]);
}

void diagset_item(struct etm_diagset *w, const struct etm_item *it)
{
	unsigned id;

	if (!w)
		return;
	id = (it->kind == etm_item_elem ? it->elem.id : it->pkt.id) & 0x7f;
	if (w->d[id])
		etm_diag_item(w->d[id], it);
}

void diagset_elem(struct etm_diagset *w, const struct etm_elem *el)
{
	if (w && w->d[el->id & 0x7f])
		etm_diag_elem(w->d[el->id & 0x7f], el);
}

void etm_diagset_elems(struct etm_diagset *w, const struct etm_elem *els, size_t n)
{
	if (w && w->packed)
		etm_diag_elems_packed(w->d, els, n);
	else if (w)
		etm_diag_elems_byid(w->d, els, n);
}

struct etm_diag *etm_diagset_get(const struct etm_diagset *w, unsigned id)
{
	return w ? w->d[id & 0x7f] : NULL;
}

void etm_diagset_free(struct etm_diagset *w)
{
	int i;

	for (i = 0; w && i < 128; i++)
		etm_diag_free(w->d[i]);
	free(w);
}

void etm_diagset_sum(const struct etm_diagset *w, struct etm_diag_counts *sum)
{
	struct etm_diag_counts c;
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; w && i < 128; i++) {
		if (!w->d[i] || etm_diag_counts(w->d[i], &c, sizeof(c)) < 0)
			continue;
		sum->packets += c.packets;
		sum->pkt_errors += c.pkt_errors;
		sum->sync_lost += c.sync_lost;
		sum->insns += c.insns;
		sum->nomem += c.nomem;
		sum->mismatch += c.mismatch + c.n_uncond + c.undef + c.mid_insn;
	}
}
