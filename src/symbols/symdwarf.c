/* symbols/symdwarf.c - DWARF line rows and inlined-call ranges through
 * elfutils libdw. Every compile unit is read once at load time, so nothing
 * depends on .debug_aranges (which clang does not emit by default) and
 * lookups afterwards are plain binary searches, safe from any thread. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include <etmtrace/error.h>

#include "common/grow.h"
#include "symbols/sym_int.h"

/* Deepest DIE nesting walked for inlined calls (hostile DWARF). */
#define SYM_MAX_DEPTH 64

/* File names interned by libdw pointer: libdw keeps one string per file
 * of a compile unit, so a pointer seen again needs no copy. */
struct sym_fmap {
	const char **key;
	uint32_t *off;
	size_t cap, n;
};

static int fmap_intern(struct etm_symbols *s, struct sym_fmap *m,
		       const char *name, uint32_t *off)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) { /* rehash into twice the size */
		struct sym_fmap g = { 0 };

		g.cap = m->cap ? m->cap * 2 : 256;
		g.key = calloc(g.cap, sizeof(*g.key));
		g.off = calloc(g.cap, sizeof(*g.off));
		if (!g.key || !g.off) {
			free(g.key);
			free(g.off);
			return -etme_nomem;
		}
		for (i = 0; i < m->cap; i++) {
			size_t j;

			if (!m->key[i])
				continue;
			j = ((uintptr_t)m->key[i] >> 3) & (g.cap - 1);
			while (g.key[j])
				j = (j + 1) & (g.cap - 1);
			g.key[j] = m->key[i];
			g.off[j] = m->off[i];
		}
		g.n = m->n;
		free(m->key);
		free(m->off);
		*m = g;
	}
	i = ((uintptr_t)name >> 3) & (m->cap - 1);
	while (m->key[i] && m->key[i] != name)
		i = (i + 1) & (m->cap - 1);
	if (!m->key[i]) {
		int r = sym_pool_add(s, name, strlen(name), &m->off[i]);

		if (r < 0)
			return r;
		m->key[i] = name;
		m->n++;
	}
	*off = m->off[i];
	return 0;
}

/* Rows of one compile unit's line table: row i covers [addr_i, addr_i+1)
 * unless it ends a sequence; rows of no length are dropped. */
static int sym_dwarf_lines(struct etm_symbols *s, Dwarf_Die *cu,
			   struct sym_fmap *fm, uint64_t bias)
{
	Dwarf_Lines *lines;
	size_t i, n;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return 0;
	for (i = 0; i + 1 < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Line *nx = dwarf_onesrcline(lines, i + 1);
		Dwarf_Addr a, b;
		bool es;
		int ln = 0, col = 0;
		const char *file;
		struct sym_row *r;

		if (!l || !nx || dwarf_lineaddr(l, &a) || dwarf_lineaddr(nx, &b) ||
		    dwarf_lineendsequence(l, &es) || es || b <= a)
			continue;
		file = dwarf_linesrc(l, NULL, NULL);
		dwarf_lineno(l, &ln);
		dwarf_linecol(l, &col);
		r = etm_grow(s->rows, &s->caprows, s->nrows + 1, sizeof(*r), 64);
		if (!r)
			return -etme_nomem;
		s->rows = r;
		r = &s->rows[s->nrows];
		r->start = a + bias;
		r->end = b + bias;
		r->line = ln > 0 ? (uint32_t)ln : 0;
		r->column = col > 0 ? (uint32_t)col : 0;
		if (!file)
			file = "??";
		if (fmap_intern(s, fm, file, &r->file) < 0)
			return -etme_nomem;
		s->nrows++;
	}
	return 0;
}

struct sym_cuwalk {
	struct etm_symbols *s;
	struct sym_fmap *fm;
	Dwarf_Files *files;
	size_t nfiles;
	uint64_t bias;
};

/* Where @die (an inlined subroutine) was called: file pool offset or
 * UINT32_MAX, and line. */
static int sym_call_site(struct sym_cuwalk *w, Dwarf_Die *die,
			 uint32_t *file, uint32_t *line)
{
	Dwarf_Attribute at;
	Dwarf_Word v;
	const char *name;

	*file = UINT32_MAX;
	*line = 0;
	if (dwarf_attr(die, DW_AT_call_line, &at) && dwarf_formudata(&at, &v) == 0)
		*line = (uint32_t)v;
	if (!w->files || !dwarf_attr(die, DW_AT_call_file, &at) ||
	    dwarf_formudata(&at, &v) != 0 || v >= w->nfiles)
		return 0;
	name = dwarf_filesrc(w->files, v, NULL, NULL);
	return name ? fmap_intern(w->s, w->fm, name, file) : 0;
}

/* Record every range of inlined subroutine @die at nesting @depth. */
static int sym_inl_add(struct sym_cuwalk *w, Dwarf_Die *die, uint32_t depth)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	uint32_t name, cfile, cline;
	const char *n = dwarf_diename(die);
	int r;

	r = sym_pool_add(w->s, n ? n : "??", strlen(n ? n : "??"), &name);
	if (r < 0 || (r = sym_call_site(w, die, &cfile, &cline)) < 0)
		return r;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		struct sym_inl *e;

		if (hi <= lo)
			continue;
		e = etm_grow(w->s->inl, &w->s->capinl, w->s->ninl + 1,
			     sizeof(*e), 64);
		if (!e)
			return -etme_nomem;
		w->s->inl = e;
		e = &w->s->inl[w->s->ninl++];
		memset(e, 0, sizeof(*e));
		e->start = lo + w->bias;
		e->end = hi + w->bias;
		e->name = name;
		e->call_file = cfile;
		e->call_line = cline;
		e->depth = depth;
	}
	return 0;
}

/* Walk the children of @parent for inlined subroutines; @depth counts the
 * inlined subroutines around them. */
static int sym_inl_walk(struct sym_cuwalk *w, Dwarf_Die *parent,
			uint32_t depth, int level)
{
	Dwarf_Die c;
	int r;

	if (level > SYM_MAX_DEPTH || dwarf_child(parent, &c) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&c);
		uint32_t d = depth;

		if (tag == DW_TAG_inlined_subroutine) {
			r = sym_inl_add(w, &c, depth);
			if (r < 0)
				return r;
			d++;
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
		    tag == DW_TAG_inlined_subroutine || tag == DW_TAG_namespace ||
		    tag == DW_TAG_class_type || tag == DW_TAG_structure_type) {
			r = sym_inl_walk(w, &c, d, level + 1);
			if (r < 0)
				return r;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

int sym_dwarf_load(struct etm_symbols *s, int fd, uint64_t bias)
{
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	struct sym_fmap fm = { 0 };
	uint8_t utype;
	int r = 0;

	if (!dw)
		return 0;
	while (r == 0 && dwarf_get_units(dw, cu, &cu, NULL, &utype, &cudie,
					 NULL) == 0) {
		struct sym_cuwalk w = { s, &fm, NULL, 0, bias };

		if (utype != DW_UT_compile && utype != DW_UT_partial)
			continue;
		r = sym_dwarf_lines(s, &cudie, &fm, bias);
		if (r == 0 && dwarf_getsrcfiles(&cudie, &w.files, &w.nfiles) != 0)
			w.files = NULL;
		if (r == 0)
			r = sym_inl_walk(&w, &cudie, 0, 0);
	}
	free(fm.key);
	free(fm.off);
	dwarf_end(dw);
	return r;
}
