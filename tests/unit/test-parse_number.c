/* tests/unit/test-parse_number.c - numbers as text (etm_parse_number(),
 * etmtrace/number.h), each expected value worked out by hand: decimal,
 * 0x/0X hex, bare hex with ETM_DIGITS_HEX, a leading zero refused with
 * ETM_DIGITS_STRICT, the 64-bit limit (2^64 - 1 = 18446744073709551615
 * = 0xffffffffffffffff; one more overflows), and *v untouched on -1. */
#include <etmtrace/number.h>

#include "etest.h"

static int num(const char *s, unsigned flags, uint64_t *v)
{
	*v = 77;
	return etm_parse_number(s, flags, v);
}

static void t_numbers(void)
{
	uint64_t v;

	ET_EQ(num("0", 0, &v), 0);
	ET_EQ(v, 0);
	ET_EQ(num("4096", ETM_DIGITS_STRICT, &v), 0);
	ET_EQ(v, 4096);
	ET_EQ(num("0x1F", 0, &v), 0);
	ET_EQ(v, 31);
	ET_EQ(num("0XfF", ETM_DIGITS_STRICT, &v), 0);
	ET_EQ(v, 255);
	ET_EQ(num("ff", ETM_DIGITS_HEX, &v), 0);
	ET_EQ(v, 255);
	ET_EQ(num("010", 0, &v), 0);
	ET_EQ(v, 10); /* decimal, not octal */
	ET_EQ(num("18446744073709551615", 0, &v), 0);
	ET_EQ(v, UINT64_MAX);
	ET_EQ(num("0xffffffffffffffff", 0, &v), 0);
	ET_EQ(v, UINT64_MAX);
}

static void t_refused(void)
{
	static const struct {
		const char *s;
		unsigned flags;
	} bad[] = {
		{ "010", ETM_DIGITS_STRICT },
		{ "ff", 0 },
		{ "", 0 },
		{ "0x", 0 },
		{ "-1", 0 },
		{ " 1", 0 },
		{ "1 ", 0 },
		{ "12a", 0 },
		{ "18446744073709551616", 0 },
		{ "0x10000000000000000", 0 },
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ET_EQ(num(bad[i].s, bad[i].flags, &v), -1);
		ET_EQ(v, 77);
	}
	ET_EQ(num(NULL, 0, &v), -1);
	ET_EQ(v, 77);
}

int main(void)
{
	ETEST(t_numbers);
	ETEST(t_refused);
	return etest_end();
}
