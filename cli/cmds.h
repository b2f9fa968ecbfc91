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
int cmd_itm(int argc, char **argv);

struct session;
struct opts;
struct etm_symbols;
/* `decode --format calls`: the call trace of the profile's stacks
 * (etm_profile_set_calls()) on stdout; @sy may be NULL. Returns the exit
 * status (as decode). */
int profile_calls(struct session *s, struct opts *o, struct etm_symbols *sy);

#endif
