/* source/frame_rules.h - the CoreSight formatter's frame rules (IHI 0029,
 * ../shared/docs/coresight-formatter.md), once for every path of the
 * deformatter that reads frames: the byte path (dfmt.c), the fast path
 * (frames.c) and the realignment's trial splits (dfmt_realign.c). A frame
 * is 16 bytes: the even bytes 0, 2, ..., 14 are mixed (bit 0 set: an ID
 * change to bits [7:1]; clear: a data byte whose bit 0 is bit k of the
 * auxiliary byte 15), the odd bytes 1, 3, ..., 13 are data. An ID change
 * in byte 2k (k < 7) with auxiliary bit k set and a new ID leaves the
 * data byte 2k + 1 to the old ID; one in byte 14 applies from the next
 * frame (auxiliary bit 7 is then reserved). Private to source/. */
#ifndef ETM_SOURCE_FRAME_RULES_H
#define ETM_SOURCE_FRAME_RULES_H

#include <stdint.h>

#define ETM_FRAME_SIZE 16

/* IDs 0x01-0x6F carry trace; 0x00 (NULL padding), 0x7B (flush response)
 * and 0x7D (trigger) carry none; 0x70-0x7A, 0x7C, 0x7E, 0x7F are
 * reserved. */
static inline int etm_frame_id_is_data(int id)
{
	return id > 0 && id < 0x70;
}

static inline int etm_frame_id_is_reserved(int id)
{
	return id >= 0x70 && id != 0x7b && id != 0x7d;
}

/* Mixed byte @m: an ID change (else a data byte). */
static inline int etm_frame_is_id(uint8_t m)
{
	return m & 1;
}

/* The data byte of mixed byte @k (0-7, not an ID) of frame @f. */
static inline uint8_t etm_frame_mixed_data(const uint8_t *f, unsigned k)
{
	return (uint8_t)((f[2 * k] & 0xfe) | ((f[15] >> k) & 1));
}

/* An ID change to @nid in mixed byte @k (0-6) of frame @f, the current ID
 * being @id: whether the data byte after it still belongs to @id. */
static inline int etm_frame_next_is_old(const uint8_t *f, unsigned k,
					int nid, int id)
{
	return ((f[15] >> k) & 1) && nid != id;
}

/* Frame @f has an ID in byte 14 and auxiliary bit 7 set, a reserved bit
 * there: impossible in aligned frames. */
static inline int etm_frame_aux_reserved(const uint8_t *f)
{
	return (f[14] & 1) && (f[15] & 0x80);
}

/* One operation of a decoded frame: a data byte or an ID change. */
struct etm_frop {
	uint8_t setid; /* 1: an ID change, 0: a data byte */
	uint8_t b;     /* the data byte, or the new ID */
	uint8_t pos;   /* byte index in the frame */
};

/* Frame @f, the current ID being @id, as the operations in the order the
 * rules apply them (at most 15); returns how many. The ID current after
 * the frame is that of its last ID change. */
static inline unsigned etm_frame_ops(const uint8_t *f, int id,
				     struct etm_frop *ops)
{
	unsigned k, n = 0;

	for (k = 0; k < 8; k++) {
		uint8_t m = f[2 * k];
		int nid = m >> 1;

		if (!etm_frame_is_id(m)) {
			ops[n++] = (struct etm_frop){ 0, etm_frame_mixed_data(f, k),
						      (uint8_t)(2 * k) };
			if (k < 7)
				ops[n++] = (struct etm_frop){ 0, f[2 * k + 1],
							      (uint8_t)(2 * k + 1) };
			continue;
		}
		if (k == 7) {
			ops[n++] = (struct etm_frop){ 1, (uint8_t)nid, 14 };
		} else if (etm_frame_next_is_old(f, k, nid, id)) {
			ops[n++] = (struct etm_frop){ 0, f[2 * k + 1],
						      (uint8_t)(2 * k + 1) };
			ops[n++] = (struct etm_frop){ 1, (uint8_t)nid,
						      (uint8_t)(2 * k) };
		} else {
			ops[n++] = (struct etm_frop){ 1, (uint8_t)nid,
						      (uint8_t)(2 * k) };
			ops[n++] = (struct etm_frop){ 0, f[2 * k + 1],
						      (uint8_t)(2 * k + 1) };
		}
		id = nid;
	}
	return n;
}

#endif
