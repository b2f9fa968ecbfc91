/* load/armattr.c - the ARM build attributes of an ELF file's
 * .ARM.attributes section (ARM IHI 0045, "Addenda to, and Errata in, the
 * ABI for the ARM Architecture", section "Build attributes"), and what
 * they say about the trace the core can produce (doc/inference.md).
 *
 * Section format: 'A', then subsections: a 4-byte length (the ELF's byte
 * order, counting itself), the vendor name (NUL-terminated), then
 * sub-subsections: a tag byte (1 file, 2 section, 3 symbol), a 4-byte
 * size (counting tag and size), for 2 and 3 a 0-terminated ULEB128 list,
 * then attributes: a ULEB128 tag and its value, a NUL-terminated string
 * for tags 4, 5, 65, 67 and odd tags above 32, ULEB128 then a string for
 * Tag_compatibility (32), else a ULEB128. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <etmtrace/core.h>
#include <etmtrace/error.h>

/* A cursor over @end - @p bytes. */
struct attr_cur {
	const uint8_t *p, *end;
};

static int attr_uleb(struct attr_cur *c, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (c->p < c->end) {
		uint8_t b = *c->p++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return 0;
	}
	return -etme_parse;
}

/* A NUL-terminated string at the cursor: its start, the cursor past it. */
static const char *attr_ntbs(struct attr_cur *c)
{
	const uint8_t *s = c->p, *z = memchr(c->p, 0, (size_t)(c->end - c->p));

	if (!z)
		return NULL;
	c->p = z + 1;
	return (const char *)s;
}

static uint32_t attr_u32(const uint8_t *p, int big)
{
	return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
			       (uint32_t)p[2] << 8 | p[3] :
		     (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
			       (uint32_t)p[1] << 8 | p[0];
}

/* Whether attribute @tag has a string value (after a ULEB128 flag for
 * Tag_compatibility, 32). */
static int attr_is_string(uint64_t tag)
{
	return tag == 4 || tag == 5 || tag == 65 || tag == 67 ||
	       (tag > 32 && (tag & 1));
}

/* The attributes of one file-scope set into @a. */
static int attr_file_set(struct attr_cur c, struct etm_arm_attrs *a)
{
	uint64_t tag, v;
	const char *s;

	while (c.p < c.end) {
		if (attr_uleb(&c, &tag) < 0)
			return -etme_parse;
		if (tag == 32 && attr_uleb(&c, &v) < 0)
			return -etme_parse;
		if (tag == 32 || attr_is_string(tag)) {
			if (!(s = attr_ntbs(&c)))
				return -etme_parse;
			if (tag == 5)
				snprintf(a->cpu_name, sizeof(a->cpu_name), "%s", s);
			continue;
		}
		if (attr_uleb(&c, &v) < 0)
			return -etme_parse;
		v = v > 0x7fffffff ? 0x7fffffff : v;
		if (tag == 6)
			a->cpu_arch = (int)v;
		else if (tag == 7)
			a->profile = (int)v;
		else if (tag == 8)
			a->arm_isa = (int)v;
		else if (tag == 9)
			a->thumb_isa = (int)v;
	}
	a->found = 1;
	return 0;
}

/* The sub-subsections of an "aeabi" subsection. */
static int attr_vendor(struct attr_cur c, int big, struct etm_arm_attrs *a)
{
	while (c.p < c.end) {
		uint32_t size;
		struct attr_cur sub;

		if (c.end - c.p < 5)
			return -etme_parse;
		size = attr_u32(c.p + 1, big);
		if (size < 5 || size > (size_t)(c.end - c.p))
			return -etme_parse;
		sub.p = c.p + 5;
		sub.end = c.p + size;
		if (*c.p == 1 && attr_file_set(sub, a) < 0)
			return -etme_parse;
		c.p += size;
	}
	return 0;
}

int etm_arm_attrs_parse(const uint8_t *p, size_t n, int big,
			struct etm_arm_attrs *a)
{
	struct attr_cur c = { p, p + n };

	if (!a || (!p && n))
		return -etme_invalid;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->cpu_arch = a->arm_isa = a->thumb_isa = -1;
	if (!n)
		return 0;
	if (*c.p++ != 'A')
		return -etme_parse;
	while (c.p < c.end) {
		struct attr_cur sub;
		const char *vendor;
		uint32_t len;

		if (c.end - c.p < 4)
			return -etme_parse;
		len = attr_u32(c.p, big);
		if (len < 4 || len > (size_t)(c.end - c.p))
			return -etme_parse;
		sub.p = c.p + 4;
		sub.end = c.p + len;
		c.p += len;
		if (!(vendor = attr_ntbs(&sub)))
			return -etme_parse;
		if (!strcmp(vendor, "aeabi") && attr_vendor(sub, big, a) < 0)
			return -etme_parse;
	}
	return 0;
}
