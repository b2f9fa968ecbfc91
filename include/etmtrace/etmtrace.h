/* etmtrace/etmtrace.h - umbrella header for libetmtrace: ARM ETMv3 and PTM
 * program-flow trace decoding. */
#ifndef ETM_ETMTRACE_ETMTRACE_H
#define ETM_ETMTRACE_ETMTRACE_H

#define ETM_VERSION_MAJOR 0
#define ETM_VERSION_MINOR 1
#define ETM_VERSION_STRING "0.1.0"

#include <etmtrace/error.h>
#include <etmtrace/config.h>
#include <etmtrace/source.h>
#include <etmtrace/detect.h>
#include <etmtrace/packet.h>
#include <etmtrace/image.h>
#include <etmtrace/insn.h>
#include <etmtrace/listing.h>
#include <etmtrace/flow.h>
#include <etmtrace/snapshot.h>
#include <etmtrace/snapwrite.h>
#include <etmtrace/decoder.h>
#include <etmtrace/runstats.h>
#include <etmtrace/diag.h>
#include <etmtrace/core.h>
#include <etmtrace/verify.h>
#include <etmtrace/etmv1.h>
#include <etmtrace/coverage.h>
#include <etmtrace/chunk.h>
#include <etmtrace/open.h>
#include <etmtrace/caprun.h>
#include <etmtrace/write.h>
#include <etmtrace/window.h>
#include <etmtrace/number.h>

#endif
