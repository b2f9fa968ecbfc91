/* cli/cmds.h - the etmtrace subcommands. Each returns the process exit
 * status: 0 ok, 1 decode errors found, 2 usage or input error. */
#ifndef ETM_CLI_CMDS_H
#define ETM_CLI_CMDS_H

int cmd_packets(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_fdo(int argc, char **argv);
int cmd_convert(int argc, char **argv);

#endif
