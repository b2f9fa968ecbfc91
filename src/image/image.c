/* image/image.c - program image: owned memory regions per memory space,
 * kept as sorted non-overlapping segments for binary search, plus a reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/image.h>

#include "common/file.h"
#include "common/grow.h"
#include "image/image_int.h"

#define ETM_NSPACES 3

/* One added region, in the order regions were added (for listings). */
struct etm_region {
	enum etm_space space;
	uint64_t addr;
	uint64_t size;
	uint8_t *data; /* owned */
	char *name;    /* owned, may be NULL */
};

/* A visible piece of a region: [addr, end) served from p. Segments of one
 * space are sorted by address and never overlap: adding a region cuts the
 * segments it covers, so later regions win. */
struct etm_seg {
	uint64_t addr;
	uint64_t end;
	const uint8_t *p;
};

struct etm_seglist {
	struct etm_seg *v;
	size_t n, cap;
};

struct etm_image {
	struct etm_region *reg;
	size_t nreg, capreg;
	struct etm_seglist seg[ETM_NSPACES];
	etm_image_read_fn reader;
	void *reader_ctx;
};

struct etm_image *etm_image_alloc(void)
{
	return calloc(1, sizeof(struct etm_image));
}

void etm_image_free(struct etm_image *img)
{
	size_t i;

	if (!img)
		return;
	for (i = 0; i < img->nreg; i++) {
		free(img->reg[i].data);
		free(img->reg[i].name);
	}
	free(img->reg);
	for (i = 0; i < ETM_NSPACES; i++)
		free(img->seg[i].v);
	free(img);
}

static int image_space_ok(enum etm_space space)
{
	return (unsigned)space < ETM_NSPACES;
}

/* Index of the first segment whose end is above @addr (n if none). */
static size_t seg_search(const struct etm_seglist *sl, uint64_t addr)
{
	size_t lo = 0, hi = sl->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sl->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Insert [addr, end) served from p into @sl, cutting what it overlaps.
 * At most one extra segment appears (a split), so reserve n + 2. */
static int seg_insert(struct etm_seglist *sl, uint64_t addr, uint64_t end,
		      const uint8_t *p)
{
	size_t first, last, keep_tail, ntail;
	struct etm_seg left = { 0 }, right = { 0 };
	int has_left = 0, has_right = 0;

	struct etm_seg *v = etm_grow(sl->v, &sl->cap, sl->n + 2, sizeof(*v), 8);

	if (!v)
		return -etme_nomem;
	sl->v = v;
	first = seg_search(sl, addr);
	last = first;
	while (last < sl->n && sl->v[last].addr < end)
		last++;
	/* Segments [first, last) overlap the new one. */
	if (first < last && sl->v[first].addr < addr) {
		left = sl->v[first];
		left.end = addr;
		has_left = 1;
	}
	if (first < last && sl->v[last - 1].end > end) {
		right = sl->v[last - 1];
		right.p += end - right.addr;
		right.addr = end;
		has_right = 1;
	}
	ntail = sl->n - last;
	keep_tail = first + has_left + 1 + has_right;
	memmove(&sl->v[keep_tail], &sl->v[last], ntail * sizeof(*sl->v));
	if (has_left)
		sl->v[first++] = left;
	sl->v[first].addr = addr;
	sl->v[first].end = end;
	sl->v[first].p = p;
	if (has_right)
		sl->v[first + 1] = right;
	sl->n = keep_tail + ntail;
	return 0;
}

/* Room for @n more regions. */
static int image_reserve(struct etm_image *img, size_t n)
{
	struct etm_region *v = etm_grow(img->reg, &img->capreg, img->nreg + n,
					sizeof(*v), 8);

	if (!v)
		return -etme_nomem;
	img->reg = v;
	return 0;
}

/* Take ownership of @data (n bytes) as a new region. */
static int image_add_owned(struct etm_image *img, enum etm_space space,
			   uint64_t addr, uint8_t *data, size_t n)
{
	struct etm_region *r;
	int err;

	err = image_reserve(img, 1);
	if (!err)
		err = seg_insert(&img->seg[space], addr, addr + n, data);
	if (err < 0)
		return err;
	r = &img->reg[img->nreg++];
	r->space = space;
	r->addr = addr;
	r->size = n;
	r->data = data;
	r->name = NULL;
	return 0;
}

/* A region must be non-empty and lie in the 32-bit address space. */
static int image_range_ok(uint64_t addr, uint64_t n)
{
	return n && n <= ETM_IMAGE_TOP && addr <= ETM_IMAGE_TOP - n;
}

/* Sweep-line event: region @i starts (or ends) at @x. */
struct seg_event {
	uint64_t x;
	size_t i;
	int start;
};

static int event_cmp(const void *a, const void *b)
{
	const struct seg_event *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

/* Max-heap of region indices (the latest added region wins). */
static void heap_push(size_t *h, size_t *n, size_t v)
{
	size_t k = (*n)++, up;

	while (k && h[up = (k - 1) / 2] < v) {
		h[k] = h[up];
		k = up;
	}
	h[k] = v;
}

static void heap_pop(size_t *h, size_t *n)
{
	size_t k = 0, c, v = h[--*n];

	while ((c = 2 * k + 1) < *n) {
		if (c + 1 < *n && h[c + 1] > h[c])
			c++;
		if (h[c] <= v)
			break;
		h[k] = h[c];
		k = c;
	}
	h[k] = v;
}

/* The visible pieces of regions reg[0..n) (later ones win) into @out,
 * sorted and disjoint (at most 2n); returns their count. */
static size_t seg_envelope(const struct etm_region *reg, size_t n,
			   struct seg_event *ev, size_t *heap, char *ended,
			   struct etm_seg *out)
{
	size_t i, k = 0, nh = 0, nout = 0;

	for (i = 0; i < n; i++) {
		ev[2 * i] = (struct seg_event){ reg[i].addr, i, 1 };
		ev[2 * i + 1] = (struct seg_event){ reg[i].addr + reg[i].size, i, 0 };
	}
	qsort(ev, 2 * n, sizeof(*ev), event_cmp);
	while (k < 2 * n) {
		uint64_t x = ev[k].x;

		for (; k < 2 * n && ev[k].x == x; k++) {
			if (ev[k].start)
				heap_push(heap, &nh, ev[k].i);
			else
				ended[ev[k].i] = 1;
		}
		while (nh && ended[heap[0]])
			heap_pop(heap, &nh);
		if (nh && k < 2 * n) {
			const struct etm_region *r = &reg[heap[0]];
			const uint8_t *p = r->data + (x - r->addr);

			if (nout && out[nout - 1].end == x &&
			    out[nout - 1].p + (x - out[nout - 1].addr) == p)
				out[nout - 1].end = ev[k].x;
			else
				out[nout++] = (struct etm_seg){ x, ev[k].x, p };
		}
	}
	return nout;
}

/* The segments of @sl outside the sorted disjoint @b[0..nb) into @out. */
static size_t seg_uncovered(const struct etm_seglist *sl,
			    const struct etm_seg *b, size_t nb,
			    struct etm_seg *out)
{
	size_t i, k = 0, kk, n = 0;

	for (i = 0; i < sl->n; i++) {
		const struct etm_seg *o = &sl->v[i];
		uint64_t cur = o->addr;

		while (k < nb && b[k].end <= cur)
			k++;
		for (kk = k; cur < o->end;) {
			uint64_t stop = kk < nb && b[kk].addr < o->end ?
						b[kk].addr :
						o->end;

			if (stop > cur)
				out[n++] = (struct etm_seg){
					cur, stop, o->p + (cur - o->addr)
				};
			if (stop == o->end)
				break;
			cur = b[kk].end > cur ? b[kk].end : cur;
			kk++;
		}
	}
	return n;
}

/* Replace @sl by the merge of its segments outside @b and @b itself. */
static int seg_overlay(struct etm_seglist *sl, const struct etm_seg *b,
		       size_t nb)
{
	size_t cap = sl->n + nb + nb + 2, na, i = 0, k = 0, n = 0;
	struct etm_seg *old = malloc(cap * sizeof(*old));
	struct etm_seg *v = malloc(cap * sizeof(*v));

	if (!old || !v) {
		free(old);
		free(v);
		return -etme_nomem;
	}
	na = seg_uncovered(sl, b, nb, old);
	while (i < na || k < nb)
		v[n++] = k == nb || (i < na && old[i].addr < b[k].addr) ?
				 old[i++] :
				 b[k++];
	free(old);
	free(sl->v);
	sl->v = v;
	sl->n = n;
	sl->cap = cap;
	return 0;
}

/* Segments of the regions reg[first..nreg) added at once (see
 * etm_image_add_buffers). */
static int image_overlay(struct etm_image *img, enum etm_space space,
			 size_t first)
{
	size_t n = img->nreg - first;
	struct seg_event *ev = malloc(2 * n * sizeof(*ev));
	size_t *heap = malloc(n * sizeof(*heap));
	char *ended = calloc(n, 1);
	struct etm_seg *b = malloc(2 * n * sizeof(*b));
	int err = -etme_nomem;

	if (ev && heap && ended && b)
		err = seg_overlay(&img->seg[space], b,
				  seg_envelope(img->reg + first, n, ev, heap,
					       ended, b));
	free(ev);
	free(heap);
	free(ended);
	free(b);
	return err;
}

/* Undo the regions added after the first @nreg. */
static void image_truncate(struct etm_image *img, size_t nreg)
{
	while (img->nreg > nreg) {
		img->nreg--;
		free(img->reg[img->nreg].data);
		free(img->reg[img->nreg].name);
	}
}

int etm_image_add_buffers(struct etm_image *img, enum etm_space space,
			  const struct etm_piece *v, size_t n,
			  const char *name)
{
	size_t i, first;
	int err;

	if (!img || (!v && n) || !image_space_ok(space))
		return -etme_invalid;
	for (i = 0; i < n; i++)
		if (!v[i].p || !image_range_ok(v[i].addr, v[i].n))
			return -etme_invalid;
	if (!n)
		return 0;
	err = image_reserve(img, n);
	first = img->nreg;
	for (i = 0; !err && i < n; i++) {
		struct etm_region *r = &img->reg[img->nreg];

		*r = (struct etm_region){ space, v[i].addr, v[i].n,
					  malloc(v[i].n), NULL };
		if (!r->data)
			err = -etme_nomem;
		else
			img->nreg++;
		if (r->data) {
			memcpy(r->data, v[i].p, v[i].n);
			if (name && etm_image_name_last(img, name) < 0)
				err = -etme_nomem;
		}
	}
	if (!err)
		err = image_overlay(img, space, first);
	if (err)
		image_truncate(img, first);
	return err;
}

int etm_image_add_buffer(struct etm_image *img, enum etm_space space,
			 uint64_t addr, const uint8_t *buf, size_t n)
{
	uint8_t *data;
	int err;

	if (!img || !buf || !image_space_ok(space) || !image_range_ok(addr, n))
		return -etme_invalid;
	data = malloc(n);
	if (!data)
		return -etme_nomem;
	memcpy(data, buf, n);
	err = image_add_owned(img, space, addr, data, n);
	if (err < 0)
		free(data);
	return err;
}

/* Read @len bytes at @off of the open file into a new buffer. */
static int image_read_file(FILE *fp, uint64_t off, uint64_t len,
			   uint8_t **out)
{
	uint8_t *data;

	if (len > (uint64_t)SIZE_MAX || off > (uint64_t)INT64_MAX)
		return -etme_nomem;
	data = malloc((size_t)len);
	if (!data)
		return -etme_nomem;
	if (fseeko(fp, (off_t)off, SEEK_SET) != 0 ||
	    fread(data, 1, (size_t)len, fp) != (size_t)len) {
		free(data);
		return -etme_io;
	}
	*out = data;
	return 0;
}

int etm_image_add_file(struct etm_image *img, enum etm_space space,
		       uint64_t addr, const char *path, uint64_t file_offset,
		       uint64_t length)
{
	struct stat st;
	uint8_t *data = NULL;
	uint64_t fsize;
	FILE *fp;
	int fd, err;

	if (!img || !path || !image_space_ok(space))
		return -etme_invalid;
	fd = etm_open_regular(path, &st); /* no FIFO, no device */
	fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!fp) {
		if (fd >= 0)
			close(fd);
		return -etme_io;
	}
	fsize = (uint64_t)st.st_size;
	if (file_offset >= fsize) {
		err = -etme_io;
	} else {
		if (!length)
			length = fsize - file_offset;
		if (length > fsize - file_offset)
			err = -etme_io;
		else if (!image_range_ok(addr, length))
			err = -etme_invalid;
		else
			err = image_read_file(fp, file_offset, length, &data);
	}
	fclose(fp);
	if (err < 0)
		return err;
	err = image_add_owned(img, space, addr, data, (size_t)length);
	if (err < 0) {
		free(data);
		return err;
	}
	etm_image_name_last(img, path);
	return 0;
}

int etm_image_set_reader(struct etm_image *img, etm_image_read_fn fn,
			 void *ctx)
{
	if (!img)
		return -etme_invalid;
	img->reader = fn;
	img->reader_ctx = ctx;
	return 0;
}

/* Segment holding @addr in list @sl, or NULL. */
static const struct etm_seg *seg_find(const struct etm_seglist *sl,
				      uint64_t addr)
{
	size_t i = seg_search(sl, addr);

	if (i < sl->n && sl->v[i].addr <= addr)
		return &sl->v[i];
	return NULL;
}

/* The space lists to consult for a query in @space, best first: a specific
 * space, then "any"; an "any" query takes any space (non-secure first). */
static int space_order(enum etm_space space, enum etm_space order[3])
{
	if (space == etm_space_any) {
		order[0] = etm_space_any;
		order[1] = etm_space_nonsecure;
		order[2] = etm_space_secure;
		return 3;
	}
	order[0] = space;
	order[1] = etm_space_any;
	return 2;
}

/* Find the segment for @addr in @space; NULL if no region covers it.
 * *@end is where its bytes stop serving @addr: the segment end, or the
 * start of a segment of a preferred space list, whichever is lower. */
static const struct etm_seg *image_lookup(const struct etm_image *img,
					  enum etm_space space, uint64_t addr,
					  uint64_t *end)
{
	enum etm_space order[3];
	int i, j, n = space_order(space, order);

	for (i = 0; i < n; i++) {
		const struct etm_seg *s = seg_find(&img->seg[order[i]], addr);

		if (!s)
			continue;
		*end = s->end;
		for (j = 0; j < i; j++) {
			const struct etm_seglist *sl = &img->seg[order[j]];
			size_t k = seg_search(sl, addr);

			if (k < sl->n && sl->v[k].addr < *end)
				*end = sl->v[k].addr;
		}
		return s;
	}
	return NULL;
}

/* Lowest segment start above @addr in the lists consulted for @space
 * (0 if none): how far a callback read may go before a region takes over. */
static uint64_t image_next_start(const struct etm_image *img,
				 enum etm_space space, uint64_t addr)
{
	enum etm_space order[3];
	int i, n = space_order(space, order);
	uint64_t best = 0;

	for (i = 0; i < n; i++) {
		const struct etm_seglist *sl = &img->seg[order[i]];
		size_t j = seg_search(sl, addr);

		if (j < sl->n && sl->v[j].addr > addr &&
		    (!best || sl->v[j].addr < best))
			best = sl->v[j].addr;
	}
	return best;
}

size_t etm_image_peek(const struct etm_image *img, enum etm_space space,
		      uint64_t addr, const uint8_t **p)
{
	const struct etm_seg *s;
	uint64_t end;

	if (!img || !p || !image_space_ok(space))
		return 0;
	s = image_lookup(img, space, addr, &end);
	if (!s)
		return 0;
	*p = s->p + (addr - s->addr);
	return (size_t)(end - addr < SIZE_MAX ? end - addr : SIZE_MAX);
}

/* Read a piece at @addr from the callback, stopping before the next
 * region. Returns the bytes read. */
static size_t image_read_cb(const struct etm_image *img, enum etm_space space,
			    uint64_t addr, uint8_t *buf, size_t n)
{
	uint64_t next = image_next_start(img, space, addr);
	size_t got;

	if (!img->reader)
		return 0;
	if (next && next - addr < n)
		n = (size_t)(next - addr);
	got = img->reader(img->reader_ctx, space, addr, buf, n);
	return got > n ? n : got;
}

size_t etm_image_read(const struct etm_image *img, enum etm_space space,
		      uint64_t addr, uint8_t *buf, size_t n)
{
	size_t done = 0;

	if (!img || !buf || !image_space_ok(space))
		return 0;
	while (done < n) {
		uint64_t a = addr + done;
		const uint8_t *p;
		size_t want = n - done, got;

		if (a >= ETM_IMAGE_TOP)
			break; /* past the top of memory */
		got = etm_image_peek(img, space, a, &p);
		if (got) {
			if (got > want)
				got = want;
			memcpy(buf + done, p, got);
		} else {
			got = image_read_cb(img, space, a, buf + done, want);
			if (!got)
				break;
		}
		done += got;
	}
	return done;
}

size_t etm_image_count(const struct etm_image *img)
{
	return img ? img->nreg : 0;
}

int etm_image_region(const struct etm_image *img, size_t i,
		     enum etm_space *space, uint64_t *addr, uint64_t *size,
		     const char **name)
{
	const struct etm_region *r;

	if (!img || i >= img->nreg)
		return -etme_invalid;
	r = &img->reg[i];
	if (space)
		*space = r->space;
	if (addr)
		*addr = r->addr;
	if (size)
		*size = r->size;
	if (name)
		*name = r->name ? r->name : "";
	return 0;
}

int etm_image_name_last(struct etm_image *img, const char *name)
{
	struct etm_region *r;
	char *s;
	size_t len;

	if (!img || !name || !img->nreg)
		return -etme_invalid;
	r = &img->reg[img->nreg - 1];
	len = strlen(name);
	s = malloc(len + 1);
	if (!s)
		return -etme_nomem;
	memcpy(s, name, len + 1);
	free(r->name);
	r->name = s;
	return 0;
}

int etm_image_has_spaces(const struct etm_image *img)
{
	return img && (img->seg[etm_space_secure].n ||
		       img->seg[etm_space_nonsecure].n);
}
