/* listing/line_cache.h - cache of the formatted, path-independent part of listing
 * lines: address, ISA, opcode, disassembly (with its symbolized target) and
 * func+0xoff, keyed by address, ISA and memory space; and of whole ranges'
 * text (keyed by start, instruction count, ISA and space) for listings
 * whose lines hold nothing else. The text is a
 * function of the image alone (the disassembler hook takes its context
 * from the image: src/disasm/disasm.c), so a hit equals a fresh format, and
 * the listing is spared printf and capstone on every line.
 * Library-internal (listing/listing.c). */
#ifndef ETM_LISTING_LINE_CACHE_H
#define ETM_LISTING_LINE_CACHE_H

#include <etmtrace/flow.h>
#include <etmtrace/listing.h>

#include "listing/line_annot.h"
#include "listing/text_arena.h"

struct line_cache;

/* Width of the listing's disassembly column: the text of an instruction
 * and its branch target's " <sym+0xoff>", whose name is cut to fit
 * (doc/listing.md). */
#define LC_INSN_W 44

/* A line's parts: the head "  ADDR  ISA  OPCODE  disassembly<padding>"
 * (@hlen bytes at @text, the first @tlen of them without the padding; the
 * disassembly from @doff), then "  func+0xoff" or nothing (@slen bytes at
 * @text + @hlen). */
struct lc_text {
	const char *text;
	size_t hlen, slen, tlen, doff;
};

/* A line as formatted, before it goes into the cache. */
struct lc_fresh {
	int hlen, slen, tlen, doff;
	char text[512];
};

/* The line parts of @in (read from @img in @space), formatted now into
 * @fresh or taken from *@lc (allocated on first use; lines that do not fit
 * a cache entry, or all if that fails, are formatted every time). @dis may
 * be NULL (the instruction class is shown). The text stays valid until
 * the next call with @lc or @fresh. */
struct lc_text line_cache_line(struct line_cache **lc, struct lc_fresh *fresh,
			       const struct etm_disasm_hook *dis,
			       struct line_annot *sym, const struct etm_image *img,
			       enum etm_space space, const struct etm_insn *in);
/* A whole range's text: its lines but the last as written (@body, @len
 * bytes), then the last line as written when it was cached (the two
 * characters @en after its head: " E", " N" or "  "), all contiguous in
 * @total bytes at @body: where the last line is that again, that is the
 * range. The last line's parts are @head (@hlen, @tlen) and @sym (@slen),
 * copies. The text stays put while block @blk of @arena is valid or pinned
 * (wbuf_ref()). */
struct lc_range {
	const char *body, *head, *sym;
	size_t len, hlen, slen, tlen, total;
	char en[2];
	struct text_arena *arena;
	uint32_t blk;
};

/* The text of range @el (walked in @space) if cached: 1 with *@out set,
 * else 0. Only for listings whose lines carry nothing but these parts. */
int line_cache_range_get(struct line_cache *lc, const struct etm_elem *el,
			 enum etm_space space, struct lc_range *out);
/* Cache the text of range @el: @body as in lc_range, @last the last line's
 * parts, @en what followed its head, @lastline that line as written
 * (@lastlen bytes). Ranges whose text does not fit (or finds no room in
 * the arena) are not kept. */
void line_cache_range_put(struct line_cache *lc, const struct etm_elem *el,
			  enum etm_space space, const char *body, size_t len,
			  struct lc_text last, const char en[2],
			  const char *lastline, size_t lastlen);
void line_cache_free(struct line_cache *lc);

#endif
