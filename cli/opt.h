/* cli/opt.h - command-line options shared by the subcommands. */
#ifndef ETM_CLI_OPT_H
#define ETM_CLI_OPT_H

#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/source.h>

#define OPT_MAX_FILES 32

struct opt_file {
	const char *path;
	uint64_t addr;      /* --image: load address; --elf: bias */
};

struct opts {
	const char *cmd;
	const char *input;            /* snapshot directory or trace file */
	unsigned ids[128];
	int nids;
	enum etm_protocol proto;      /* manual configuration */
	uint32_t etmcr, etmccer, etmidr;
	int have_etmidr;
	int m_profile;
	enum etm_input_format infmt;  /* 0 = from snapshot / raw */
	struct opt_file images[OPT_MAX_FILES];
	int nimages;
	struct opt_file elfs[OPT_MAX_FILES];
	int nelfs;
	const char *format;           /* text, jsonl, canon */
	int stats;
	int verify;
	int no_cache;
	int jobs;
	int chunk;                    /* input chunk size (testing) */
	const char *symfiles[OPT_MAX_FILES]; /* --symbols: nm -S style files */
	int nsymfiles;
	double clock_hz;              /* --clock: core clock (cycles), Hz */
	int source, offsets;          /* --source, --offsets (listing) */
};

/* Parse argv after the subcommand. @allowed lists the option names the
 * command accepts (e.g. "id,format"). Returns 0, 1 if --help was given, or
 * -1 after printing a one-line error to stderr. */
int opt_parse(struct opts *o, int argc, char **argv, const char *allowed);

/* Parse a number (decimal or 0x hex) into *v; returns 0 or -1. */
int opt_num(const char *s, uint64_t *v);

#endif
