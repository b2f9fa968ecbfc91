/* tests/fuzz/fuzz-ptm_pkt.c - fuzz target for the PTM packet parser
 * (configuration registers from the input; see fuzz-pkt.h). */
#include "fuzz-pkt.h"

static const struct fz_parser parser = FZ_PKT_PARSER(etm_proto_ptm);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return pkt_fuzz(&parser, data, size);
}
