/* cli/synth_expect.h - the expected canonical list of a generated
 * execution (cli/synth_expect.c), for `etmtrace synth --expect`. */
#ifndef ETM_CLI_SYNTH_EXPECT_H
#define ETM_CLI_SYNTH_EXPECT_H

#include <stddef.h>

#include <etmtrace/encode.h>
#include <etmtrace/image.h>

/* The list of @g's events traced under @cfg (@img: the program, for PTM's
 * E/N), 'ADDRESS A|T[ N]' and GAP lines; with @ctx also "CTX id" lines (hex;
 * "CTX 0" first: the context before any change). *@out is malloc'd (may
 * be NULL when empty), *@len its length. Returns 0, -1 on no memory. */
int synth_expect_list(const struct etm_config *cfg, const struct etm_image *img,
		      const struct etm_gen *g, int ctx, char **out, size_t *len);

#endif
