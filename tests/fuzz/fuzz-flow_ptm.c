/* tests/fuzz/fuzz-flow_ptm.c - fuzz target for the PTM flow decoder through
 * the decoder pipeline over the fixed image (see fuzz-flow.h). */
#include "fuzz-flow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return flow_fuzz(etm_proto_ptm, data, size);
}
