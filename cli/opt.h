/* cli/opt.h - command-line options shared by the subcommands. */
#ifndef ETM_CLI_OPT_H
#define ETM_CLI_OPT_H

#include <stdint.h>

#include <etmtrace/config.h>
#include <etmtrace/source.h>
#include <etmtrace/window.h>

#define OPT_MAX_FILES 32

struct opt_file {
	const char *path;
	uint64_t addr; /* --image: load address; --elf: bias */
};

struct opts {
	const char *cmd;
	const char *input;  /* snapshot directory or trace file */
	unsigned ids[0x70]; /* distinct, 0x01-0x6f */
	int nids;
	enum etm_protocol proto; /* manual configuration */
	uint32_t etmcr, etmccer, etmidr;
	uint32_t etmccr;     /* ETMv1: ETMCCR (--etmccr) */
	const char *samples; /* ETMv1 sample file format (--samples) */
	int have_etmidr, have_etmcr, have_etmccer;
	int verbose;     /* --verbose: what is decoded from where */
	int list;        /* info: open to list, not to decode */
	int verify_drop; /* --verify-drop: drop rejected trace */
	int m_profile;
	enum etm_input_format infmt; /* 0 = from snapshot / raw */
	struct opt_file images[OPT_MAX_FILES];
	int nimages;
	struct opt_file elfs[OPT_MAX_FILES];
	int nelfs;
	const char *format; /* text, jsonl, canon */
	int stats;
	int run_stats; /* --run-stats: parallel figures */
	int verify;
	int no_cache;
	int order_file;    /* --order file: pieces of a circular buffer in file order */
	int pieces;        /* --pieces: 0 auto (small buffers), 1 on, 2 off */
	int realign;       /* --realign: 0 default, 1 off, 2 basic, 3 precise */
	int allow_outside; /* snapshot files outside its directory */
	int jobs;
	int chunk;                           /* input chunk size (testing) */
	const char *symfiles[OPT_MAX_FILES]; /* --symbols: nm -S style files */
	int nsymfiles;
	double clock_hz;     /* --clock: core clock (cycles), Hz */
	int source, offsets; /* --source, --offsets (listing; offsets:
			      * 1 decimal, 2 hex) */
	const char *fields;  /* --fields: the text listing's columns */
	/* --start, --stop, --last, --at halt: the window (etmtrace/window.h) */
	struct etm_win_bound win_start, win_stop;
	uint64_t win_last;
	int win_at_halt;
	/* --source-map OLD=NEW, --source-dir DIR (in order) */
	const char *source_maps[OPT_MAX_FILES];
	int nsource_maps;
	const char *source_dirs[OPT_MAX_FILES];
	int nsource_dirs;
	int itm_channel;                 /* itm --channel: stimulus port, -1 all */
	int itm_check;                   /* itm --check: against the instruction flow */
	const char *symfs, *buildid_dir; /* perf.data: where mapped files are */
	int no_ctx_images;               /* --ctx-images off: no per-process switch */
	int probe_wait;                  /* --probe-wait MS, plus 1 (0: default) */
	/* --data-only: data transfers alone; --data-range LO-HI: only the
	 * transfers at addresses in [LO, HI] (ETMv3 data trace) */
	int data_only, data_range;
	uint64_t data_lo, data_hi;
};

/* Parse argv after the subcommand. @allowed lists the option names the
 * command accepts (e.g. "id,format"). Returns 0, 1 if --help was given, or
 * -1 after printing a one-line error to stderr. */
int opt_parse(struct opts *o, int argc, char **argv, const char *allowed);

/* Parse the value @s of option --@name as a number in [@min, @max]:
 * decimal without leading zeros or 0x hex (@hex: hex, 0x optional); no
 * sign, no spaces, no overflow. Returns 0, or -1 after printing
 * "etmtrace @cmd: bad value for --NAME: 'S' (expected MIN-MAX, ...)". */
int opt_uint(const char *cmd, const char *name, const char *s, int hex,
	     uint64_t min, uint64_t max, uint64_t *v);

#endif
