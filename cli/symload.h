/* cli/symload.h - the symbols of a session: every --elf, --symbols file
 * and ELF memory dump of the snapshot; and the snapshot's timestamp clock. */
#ifndef ETM_CLI_SYMLOAD_H
#define ETM_CLI_SYMLOAD_H

#include <etmtrace/srcpath.h>
#include <etmtrace/symbols.h>

#include "session.h"

/* Load the session's symbols into a new table (*@out; NULL when there are
 * none). Returns 0, or 2 after printing an error. */
int symload_open(const struct session *s, struct etm_symbols **out);
/* The source file rules and directories of --source-map and --source-dir
 * (*@out; NULL when there are none). Returns 0, or 2 after printing an
 * error. */
int symload_srcpath(const struct opts *o, struct etm_srcpath **out);
/* [timestamp] frequency of the snapshot's trace.ini in Hz, 0 if none. */
double symload_ts_hz(const struct session *s);

#endif
