/* cli/synth_data.h - `etmtrace synth --expect-data`: the data transfers
 * the generated trace gives, in the form of `decode --format data`. */
#ifndef ETM_CLI_SYNTH_DATA_H
#define ETM_CLI_SYNTH_DATA_H

#include <etmtrace/encode.h>

/* Write the data transfers of @g's events under @cfg to @path, one a line
 * (etm_enc_data_expect()). Returns 0, -1 after printing an error. */
int synth_expect_data(const char *path, const struct etm_config *cfg,
		      const struct etm_gen *g);

#endif
