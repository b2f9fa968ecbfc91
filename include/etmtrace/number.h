/* etmtrace/number.h - an unsigned number written as text, read as the
 * library reads the numbers of its text inputs (window bounds,
 * etmtrace/window.h): decimal, or hex after "0x"/"0X" (or, with
 * ETM_DIGITS_HEX, hex digits also without the prefix); no sign, no
 * spaces, no overflow. For a front end's option values in the same
 * syntax. */
#ifndef ETM_ETMTRACE_NUMBER_H
#define ETM_ETMTRACE_NUMBER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Flags of etm_parse_number(). */
enum {
	ETM_DIGITS_HEX = 1,   /**< hex digits without a "0x" prefix */
	ETM_DIGITS_STRICT = 2 /**< decimal without a leading zero ("010" is
			       * neither octal nor ten: refused) */
};

/** The number written at @s (flags ETM_DIGITS_*) into *@v. Returns 0, or
 * -1 (NULL, empty, a digit outside the base, or more than 64 bits) with
 * *@v left as it was. */
int etm_parse_number(const char *s, unsigned flags, uint64_t *v);

#ifdef __cplusplus
}
#endif

#endif
