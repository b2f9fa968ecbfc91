/* common/digits.h - an unsigned number written as text: decimal, or hex
 * after "0x"/"0X" (or with ETM_DIGITS_HEX, hex digits also without the
 * prefix); no sign, no spaces, no overflow. The window bounds of the
 * library and the CLI's option values read numbers with it. */
#ifndef ETM_COMMON_DIGITS_H
#define ETM_COMMON_DIGITS_H

#include <stdint.h>

#include <etmtrace/number.h> /* the flags; etm_parse_number() is this */

/* 0 and the value in *@v, or -1 (NULL, empty, a digit outside the base,
 * or more than 64 bits); *@v is left as it was on -1. */
static inline int etm_digits(const char *s, unsigned flags, uint64_t *v)
{
	unsigned base = (flags & ETM_DIGITS_HEX) ? 16 : 10, d;
	uint64_t x = 0;

	if (!s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (base == 10 && (flags & ETM_DIGITS_STRICT) && s[0] == '0' &&
		   s[1]) {
		return -1;
	}
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (x > (UINT64_MAX - d) / base)
			return -1;
		x = x * base + d;
	}
	*v = x;
	return 0;
}

#endif
