/* cli/main.c - etmtrace command-line entry: subcommand dispatch only. */
#include <stdio.h>
#include <string.h>

#include <etmtrace/etmtrace.h>

#include "cmds.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} commands[] = {
	{ "decode", cmd_decode, "decode trace to the executed instructions" },
	{ "packets", cmd_packets, "list trace packets" },
	{ "profile", cmd_profile, "call stacks and per-function profiles (flat, callgrind, folded, perfetto)" },
	{ "info", cmd_info, "describe a snapshot: sources, configuration, memory" },
	{ "synth", cmd_synth, "write a snapshot with synthetic trace of a random program" },
	{ "coverage", cmd_coverage, "instruction, line and branch coverage (lcov, listing)" },
	{ "fdo", cmd_fdo, "AutoFDO / llvm-profgen profile input (exact range and branch counts)" },
	{ "itm", cmd_itm, "the text of the ITM stimulus ports (printf over SWO), as orbcat" },
	{ "convert", cmd_convert, "write a snapshot's trace as a perf.data file (--perf-data)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: etmtrace <command> [options] <snapshot-dir | trace-file>\n\n"
		   "ARM ETMv3 / PTM program-flow trace decoder, version %s.\n\ncommands:\n",
		ETM_VERSION_STRING);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'etmtrace <command> --help' describes each command's options.\n"
		   "Exit status: 0 ok, 1 decode errors found, 2 usage or input error.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("etmtrace %s\n", ETM_VERSION_STRING);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 2, argv + 2);
	fprintf(stderr, "etmtrace: unknown command '%s' (try 'etmtrace --help')\n",
		argv[1]);
	return 2;
}
