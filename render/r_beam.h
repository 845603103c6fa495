// r_beam.h -- segmented beams: one alias model every 30 units from start to end, randomly rolled
#ifndef R_BEAM_H
#define R_BEAM_H

#include "r_mlocal.h"

void r_beam_draw(const r_view_t *v, r_alias_scratch_t *sc, const mdl_t *mdl, const vec3_t start, const vec3_t end,
                 uint32_t *rng);
// Quake II's laser (RF_BEAM): a six-sided tube of one colour, `width` units across, through a
// see-through table (alphamap, alpha66 as d_polyctx_t).
void r_beam_laser(const r_view_t *v, const vec3_t start, const vec3_t end, int width, uint8_t color,
                  const uint8_t *alphamap, int alpha66);

#endif
