/* listing/line_fields.c - instruction lines with the fields the user picks
 * (see line_fields.h). Every field but the last is padded to its width so
 * that columns line up; the line is written without trailing blanks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listing/line_fields.h"

/* Names (in enum order) and the widths fields are padded to when another
 * follows (a longer value is not cut: put long fields last). */
static const struct {
	const char *name;
	int width;
} lf_info[LF_NUM] = {
	[LF_OFFSET] = { "offset", 10 },
	[LF_ID] = { "id", 4 },
	[LF_ADDR] = { "addr", 8 },
	[LF_ISA] = { "isa", 3 },
	[LF_OPCODE] = { "opcode", 9 },
	[LF_INSN] = { "insn", LC_INSN_W },
	[LF_ATOM] = { "atom", 1 },
	[LF_SYM] = { "sym", 32 },
	[LF_SRC] = { "src", 32 },
	[LF_CYCLES] = { "cycles", 6 },
	[LF_TS] = { "ts", 14 },
	[LF_CTX] = { "ctx", 10 },
};

struct line_fields {
	struct line_fields_spec sp;
	uint64_t ts[256];
	uint32_t ctx[256];
	uint8_t has_ts[256], has_ctx[256];
};

const char *line_fields_names(void)
{
	return "offset,id,addr,isa,opcode,insn,atom,sym,src,cycles,ts,ctx";
}

int line_fields_parse(const char *s, struct line_fields_spec *out, char *why,
		      size_t n)
{
	const char *p = s;

	memset(out, 0, sizeof(*out));
	for (;;) {
		size_t len = strcspn(p, ",");
		int k;

		for (k = 0; k < LF_NUM; k++)
			if (strlen(lf_info[k].name) == len &&
			    !strncmp(p, lf_info[k].name, len))
				break;
		if (!len) {
			snprintf(why, n, "an empty field name in '%s' (fields: %s)",
				 s, line_fields_names());
			return -1;
		}
		if (k == LF_NUM) {
			snprintf(why, n, "unknown field '%.*s' (fields: %s)",
				 (int)len, p, line_fields_names());
			return -1;
		}
		if (out->n == LF_MAX) {
			snprintf(why, n, "more than %d fields", LF_MAX);
			return -1;
		}
		out->f[out->n++] = (uint8_t)k;
		p += len;
		if (!*p++)
			return 0;
	}
}

int line_fields_sequential(const struct line_fields_spec *sp)
{
	int i;

	for (i = 0; sp && i < sp->n; i++)
		if (sp->f[i] == LF_TS || sp->f[i] == LF_CTX)
			return 1;
	return 0;
}

struct line_fields *line_fields_open(const struct line_fields_spec *sp)
{
	struct line_fields *f = calloc(1, sizeof(*f));

	if (f)
		f->sp = *sp;
	return f;
}

void line_fields_close(struct line_fields *f)
{
	free(f);
}

void line_fields_event(struct line_fields *f, const struct etm_elem *el)
{
	if (el->kind == etmk_timestamp) {
		f->ts[el->id] = el->timestamp;
		f->has_ts[el->id] = 1;
	} else if (el->kind == etmk_context && el->has_ctxid) {
		f->ctx[el->id] = el->ctxid;
		f->has_ctx[el->id] = 1;
	}
}

/* The opcode as the listing prints it: "e1a00000", "f642 10fc", "4770". */
static int lf_opcode(char *b, size_t n, const struct etm_insn *in)
{
	if (in->size == 4 && in->isa != etmi_a32)
		return snprintf(b, n, "%04x %04x", in->opcode >> 16,
				in->opcode & 0xffff);
	return snprintf(b, n, in->size == 4 ? "%08x" : "%04x", in->opcode);
}

/* The text of field @k into @b (@n bytes); returns its length. */
static int lf_value(struct line_fields *f, int k, char *b, size_t n,
		    const struct etm_elem *el, const struct etm_insn *in,
		    struct lc_text l, int last, struct line_annot *sym)
{
	const char *file;
	uint32_t line;

	switch (k) {
	case LF_OFFSET:
		return snprintf(b, n, f->sp.hex ? "0x%08llx" : "%llu",
				(unsigned long long)el->offset);
	case LF_ID:
		return snprintf(b, n, "0x%02x", el->id);
	case LF_ADDR:
		return snprintf(b, n, "%08llx", (unsigned long long)in->addr);
	case LF_ISA:
		return snprintf(b, n, "%s", etm_isa_name(in->isa));
	case LF_OPCODE:
		return lf_opcode(b, n, in);
	case LF_INSN:
		return snprintf(b, n, "%.*s", (int)(l.tlen - l.doff), l.text + l.doff);
	case LF_ATOM:
		return last && (el->last_atom || !el->last_exec) ?
			       snprintf(b, n, "%c", el->last_exec ? 'E' : 'N') :
			       0;
	case LF_SYM: /* "  func+0xoff" */
		return l.slen > 2 ? snprintf(b, n, "%.*s", (int)l.slen - 2,
					     l.text + l.hlen + 2) :
				    0;
	case LF_SRC:
		return line_annot_srcpos(sym, in->addr, &file, &line) == 0 ?
			       snprintf(b, n, "%s:%u", file, line) :
			       0;
	case LF_CYCLES:
		return last && el->has_cycles ? snprintf(b, n, "%u", el->cycles) : 0;
	case LF_TS:
		return f->has_ts[el->id] ? snprintf(b, n, "%llu",
						    (unsigned long long)f->ts[el->id]) :
					   0;
	case LF_CTX:
		return f->has_ctx[el->id] ? snprintf(b, n, "0x%08x", f->ctx[el->id]) :
					    0;
	}
	return 0;
}

void line_fields_line(struct line_fields *f, struct wbuf *w, const struct etm_elem *el,
		      const struct etm_insn *in, struct lc_text l, int last,
		      struct line_annot *sym)
{
	char line[2048], v[512];
	size_t len = 0;
	int i;

	for (i = 0; i < f->sp.n; i++) {
		int k = f->sp.f[i], vl;

		vl = lf_value(f, k, v, sizeof(v), el, in, l, last, sym);
		vl = vl < 0 ? 0 : vl >= (int)sizeof(v) ? (int)sizeof(v) - 1 :
							 vl;
		if (i && len + 2 < sizeof(line)) {
			memcpy(line + len, "  ", 2);
			len += 2;
		}
		if (len + (size_t)vl + 64 > sizeof(line))
			break; /* 32 fields of 512 bytes: not reached */
		memcpy(line + len, v, (size_t)vl);
		len += (size_t)vl;
		for (; vl < lf_info[k].width && i + 1 < f->sp.n; vl++)
			line[len++] = ' ';
	}
	while (len && line[len - 1] == ' ')
		len--;
	line[len++] = '\n';
	wbuf_put(w, line, len);
}
