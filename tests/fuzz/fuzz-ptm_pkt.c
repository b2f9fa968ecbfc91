/* tests/fuzz/fuzz-ptm_pkt.c - fuzz target for the PTM packet parser
 * (configuration registers from the input; see fuzz-pkt.h). */
#include "fuzz-pkt.h"

static void *p_alloc(const struct etm_config *c)
{
	return etm_pkt_alloc(c);
}
static void p_free(void *p)
{
	etm_pkt_free(p);
}
static int p_push(void *p, const uint8_t *b, size_t n, uint64_t o)
{
	return etm_pkt_push(p, b, n, o);
}
static int p_finish(void *p)
{
	return etm_pkt_finish(p);
}
static int p_next(void *p, struct etm_packet *k, size_t n)
{
	return etm_pkt_next(p, k, n);
}
static void p_reset(void *p)
{
	etm_pkt_reset(p);
}

static const struct fz_parser parser = {
	etm_proto_ptm, p_alloc, p_free, p_push, p_finish, p_next, p_reset
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return pkt_fuzz(&parser, data, size);
}
