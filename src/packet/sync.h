/* packet/sync.h - A-sync search shared by both protocols: runs of 0x00 bytes
 * ended by 0x80, not-synchronised byte runs, broken A-sync sequences. */
#ifndef ETM_PACKET_SYNC_H
#define ETM_PACKET_SYNC_H

#include "packet/async.h"
#include "packet/pktbuf.h"

/* Take a zeroed output slot from the parser's queue. */
struct etm_packet *etm_sync_slot(struct etm_pktp *p);

/* Unsynchronised: scan the current chunk for A-sync. Bytes before it are
 * gathered into notsync packets. Returns 1 when packets were queued, 0 when
 * the chunk is used up. */
int etm_sync_search(struct etm_pktp *p);

/* Synchronised, inside a run of 0x00 headers: finish the A-sync (or report
 * it as broken and fall back to searching). Returns 1 if packets were
 * queued, 0 when the chunk is used up. */
int etm_sync_zrun(struct etm_pktp *p);

/* End of data while searching / inside a zero run: queue what is pending.
 * Returns 1 if a packet was queued, 0 if nothing is left. */
int etm_sync_flush(struct etm_pktp *p);

#endif
