/* realign/realign_int.h - shared by the realignment's decision (decide.c)
 * and its damage start among the sources not decoded (damage_start.c). */
#ifndef ETM_REALIGN_REALIGN_INT_H
#define ETM_REALIGN_REALIGN_INT_H

#include <stddef.h>
#include <stdint.h>

struct etm_dfmt;
struct etm_realign_in;

/* A realignment decided with its cut at the judged window of @df, whose
 * frames (those kept before it included) begin at input offset @w on the
 * old grid, shift @k, its error at @at: where the damage began among the
 * data of the sources not decoded (@in->left) in the input before (<= @at;
 * @at if none is found or the deformatter keeps no history). */
uint64_t etm_realign_damage_start(struct etm_dfmt *df,
				  const struct etm_realign_in *in, uint64_t w,
				  size_t k, uint64_t at);

#endif
