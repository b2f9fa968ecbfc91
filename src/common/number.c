/* common/number.c - etm_parse_number() (etmtrace/number.h): the library's
 * own number reader (common/digits.h) for front ends. */
#include "common/digits.h"

int etm_parse_number(const char *s, unsigned flags, uint64_t *v)
{
	return etm_digits(s, flags, v);
}
