// Reduce rung 3 (seed 001 reduce3, seed 004 "two loads per thread"): each thread adds two items,
// a block apart, while loading, then folds as rung 2 does. Half the blocks for the same input, and
// no thread idles in the first step.
// Cost: each thread still loads only two items; the fold's barriers are unchanged.
#pragma once

#include "reduce2_sequential.cuh"

namespace upsweep::ladder {

struct reduce3_first_add_on_load : reduce2_sequential {
  static constexpr int loads_per_thread = 2;
};

}  // namespace upsweep::ladder
