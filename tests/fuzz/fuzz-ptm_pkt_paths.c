/* tests/fuzz/fuzz-ptm_pkt_paths.c - differential fuzz target for the PTM
 * packet decoder's token and general paths (see fuzz-pkt_paths.h;
 * replays the ptm_pkt corpus). */
#include "fuzz-pkt_paths.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return pkt_paths_fuzz(etm_proto_ptm, data, size);
}
