/* realign/realign.h - the CoreSight frame realignment's decision
 * (doc/realign.md), between the packet layer and the decoder: where the
 * deformatter stops and asks (etm_dfmt_next_bulk() returns ETM_DFMT_ASK),
 * the decoder answers with etm_realign_decide(), which reads the
 * deformatter's window (source/dfmt_window.h), trial-parses it through the
 * packet decoders it is given and writes the decision back. */
#ifndef ETM_REALIGN_REALIGN_H
#define ETM_REALIGN_REALIGN_H

#include <stddef.h>
#include <stdint.h>

#include <etmtrace/config.h>

struct etm_dfmt;
struct etm_elem;
struct etm_flow;
struct etm_image;
struct etm_pkt_decoder;

/* The trace IDs of the sources not decoded. */
#define ETM_REALIGN_LEFT_IDS 128

/* The sources of the input the decoder does not decode (a selection),
 * for the damage start of a late realignment (damage_start.c): the packet
 * decoder of each (@pd[id], there where @ids[id]), its configuration, its
 * program image (NULL: none) and a trial flow over it, made at its first
 * use (left_sources.c). The decoder owns the set (decoder/left_sources.c
 * notes them). */
struct etm_realign_left {
	struct etm_pkt_decoder *pd[ETM_REALIGN_LEFT_IDS];
	struct etm_config cfg[ETM_REALIGN_LEFT_IDS];
	uint8_t ids[ETM_REALIGN_LEFT_IDS];
	const struct etm_image *img[ETM_REALIGN_LEFT_IDS];
	struct etm_flow *fl[ETM_REALIGN_LEFT_IDS];
};

/* Source @id (< 0x70, valid: etm_config_check()) of configuration @cfg
 * (copied) and program image @img (borrowed; NULL: none) is not decoded:
 * the set *@lp (made at its first source) gets a packet decoder of it,
 * replacing what it had for @id. Returns 0 or -etme_nomem. */
int etm_realign_left_add(struct etm_realign_left **lp, unsigned id,
			 const struct etm_config *cfg,
			 const struct etm_image *img);
/* Free the set @l (NULL: nothing) with its decoders and flows. */
void etm_realign_left_free(struct etm_realign_left *l);
/* The configurations of the sources of @l (NULL: none), each with its
 * trace ID, into @cfg (up to @max); returns how many. */
size_t etm_realign_left_cfgs(const struct etm_realign_left *l,
			     struct etm_config *cfg, size_t max);

/* What the decoder gives a decision: the packet decoder of each live trace
 * ID (@pd[id], NULL: none; for trial parses, etm_pkt_trial()), and the
 * first sign of trouble (a malformed packet, a
 * contradiction with the image, a loss of the trace, an address with no
 * image) among the elements a realignment may still retract, at input
 * offset >= etm_realign_sign_from() (UINT64_MAX: none). The decision
 * parses only with these. */
struct etm_realign_in {
	const struct etm_pkt_decoder *pd[128];
	uint64_t sign;
	/* the sources not decoded (NULL: none), and the input offset from
	 * which on nothing the decoder made has gone out (it may still be
	 * withdrawn: decoder/elem_hold.c; UINT64_MAX: everything made is
	 * out) */
	struct etm_realign_left *left;
	uint64_t out;
};

/* From where the sign of etm_realign_in counts, for the deformatter @d
 * that asked. */
uint64_t etm_realign_sign_from(struct etm_dfmt *d);

/* Decide the realignment the deformatter @d asked for (ETM_DFMT_ASK):
 * frames in place, a shift now, or a cut waiting at a later frame. */
void etm_realign_decide(struct etm_dfmt *d, const struct etm_realign_in *in);

/* Whether element @e is a sign of trouble where a damage may have begun,
 * that a realignment may find only frames later: a packet that did not
 * parse, a flow that contradicts the image or lost the trace. */
int etm_realign_elem_sign(const struct etm_elem *e);
/* The same, or an address with no memory image. */
int etm_realign_elem_trouble(const struct etm_elem *e);

#endif
