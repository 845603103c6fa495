// r_beam.h -- segmented beams: one alias model every 30 units from start to end, randomly rolled
#ifndef R_BEAM_H
#define R_BEAM_H

#include "r_mlocal.h"

void r_beam_draw(const r_view_t *v, r_alias_scratch_t *sc, const mdl_t *mdl, const vec3_t start, const vec3_t end,
                 uint32_t *rng);

#endif
