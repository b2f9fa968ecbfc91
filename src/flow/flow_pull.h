/* flow/flow_pull.h - the flow decoder's library-internal interface for the
 * pipeline (decoder/): the flow decoder embeds the packet decoder of its
 * source and pulls packets from it, general ones as struct etm_packet,
 * the common ones as compact tokens on its fast path; elements are taken
 * from its queue in place. */
#ifndef ETM_FLOW_FLOW_PULL_H
#define ETM_FLOW_FLOW_PULL_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/flow.h>
#include <etmtrace/error.h>
#include <etmtrace/packet.h>

/* The element a packet error @err of the flow's input becomes. A packet
 * the end of the data cut (etme_truncated: a packet decoder gives it only
 * after finish, at the end of its input - the end of the trace buffer, or
 * of a circular buffer's piece decoded on its own) is the note
 * etmk_buffer_end; any other is an etmk_error (doc/robustness.md "The end
 * of a trace buffer"). */
static inline enum etm_elem_kind etm_flow_err_kind(int err)
{
	return err == etme_truncated || err == -etme_truncated ? etmk_buffer_end : etmk_error;
}

/* The packet decoder @f owns: bytes for @f are pushed into it. */
struct etm_pkt_decoder *etm_flow_pkt(struct etm_flow *f);

/* The general path: the next packet of etm_flow_pkt(@f) into @pkt and put
 * into @f (*@np counts it). Returns 0, an error of etm_pkt_next() (no
 * packet: -etme_again, -etme_eos, ...) or of etm_flow_put(). */
int etm_flow_pull(struct etm_flow *f, struct etm_packet *pkt, uint64_t *np);

/* The fast path, the same for every protocol: packets pulled as compact
 * tokens and decoded, as etm_flow_pull() one by one would, while the queue
 * has room; *@np counts them. Returns 0 (the queue is full enough, or the
 * next packet needs etm_flow_pull()) or an error. */
int etm_flow_drain(struct etm_flow *f, uint64_t *np);

/* The oldest queued element, removed from the queue (NULL if none): what
 * etm_flow_next() copies out, for callers that copy it themselves. */
const struct etm_elem *etm_flow_pop(struct etm_flow *f);

/* Up to @max queued elements at once, in place: *@els points to them in
 * the queue (valid until the next call on @f); when none are queued, the
 * fast path (etm_flow_drain(), *@np counting the packets) fills the queue
 * first. Returns how many (0: none, the general path is next) or an error
 * of the fast path. */
int etm_flow_next_batch(struct etm_flow *f, uint64_t *np,
			const struct etm_elem **els, size_t max);

/* The element @el that etm_flow_pop() gave last, if it is still in place
 * right before the queue, with up to @max - 1 queued elements after it, in
 * place as etm_flow_next_batch() gives them. Returns how many (0: @el is
 * not that element). */
int etm_flow_next_batch_from(struct etm_flow *f, const struct etm_elem *el,
			     const struct etm_elem **els, size_t max);

/* Number of elements queued. */
unsigned etm_flow_queued(const struct etm_flow *f);

/* Write the state that decides the decoder's future output (everything but
 * the block cache, which only memoises the image, and the packet decoder,
 * saved with etm_pkt_save()) to @s, so that parallel decode can tell when
 * two decoders have converged. */
struct etm_sbuf;
void etm_flow_save(const struct etm_flow *f, struct etm_sbuf *s);
/* Write every field of @el to @s (the decoder's waiting elements too). */
void etm_elem_save(struct etm_sbuf *s, const struct etm_elem *el);

#endif
