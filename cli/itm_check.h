/* cli/itm_check.h - cross-checks of an ITM/DWT source against the ETM/PTM
 * instruction flow of the same stream (cli/itm_check.c; doc/itm.md). */
#ifndef ETM_CLI_ITM_CHECK_H
#define ETM_CLI_ITM_CHECK_H

#include <stdint.h>

#include <etmtrace/flow.h>

/* How far (in executed ranges of the instruction flow, before or after)
 * a PC sample may lie from the instructions it sampled, and a DWT
 * exception entry from the ETM's exception element. */
#define ITM_CHECK_WINDOW 64
#define ITM_CHECK_PENDING 256

struct itm_pend {
	uint64_t addr, offset;
	unsigned left; /* ranges still to look at */
};

struct itm_check {
	/* the program image of each trace ID's source (walking ranges) */
	const struct etm_image *img[128];
	/* the last ITM_CHECK_WINDOW executed ranges */
	struct etm_elem r[ITM_CHECK_WINDOW];
	unsigned nr, ri;
	struct itm_pend pend[ITM_CHECK_PENDING]; /* samples waiting */
	unsigned npend;
	/* exceptions: ETM elements and DWT entries not matched yet, each
	 * with the number of ranges since it came */
	unsigned etm_wait, dwt_wait, etm_age, dwt_age;
	unsigned long long samples, sleeping, on_insn, missed;
	unsigned long long dwt_exc, etm_exc, exc_matched, exc_unmatched;
	unsigned long long warned;
};

void itm_check_init(struct itm_check *c);
/* One element of the decode, in stream order. */
void itm_check_elem(struct itm_check *c, const struct etm_elem *el);
/* End of the stream: the statistic (and the last warnings) on stderr.
 * Returns 1 if the sources disagree, else 0. */
int itm_check_end(struct itm_check *c);

#endif
