/* cli/perfscript.h - `decode --format perf-script` (cli/perfscript.c). */
#ifndef ETM_CLI_PERFSCRIPT_H
#define ETM_CLI_PERFSCRIPT_H

#include "session.h"

/* Print the taken branches of every buffer of the open session @s as
 * `perf script --itrace=b -F ip,addr,flags` does; 0 or an exit status. */
int perfscript_run(struct session *s);

#endif
