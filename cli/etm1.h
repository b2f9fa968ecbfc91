/* cli/etm1.h - ETMv1 sample files in the CLI (cli/etm1.c). */
#ifndef ETM_CLI_ETM1_H
#define ETM_CLI_ETM1_H

#include "session.h"

/* Describe an ETMv1/ETMv2 configuration (indented lines). */
void cli_e1_info(const struct etm_config *c);
/* `info` on a sample file (not a snapshot). Returns the exit status. */
int cli_e1_info_file(struct opts *o);
/* Write @nbytes of records with @cfg as our binary sample file. */
int cli_e1_write(const char *path, const struct etm_config *cfg,
		 const uint8_t *rec, size_t nbytes);

#endif
