// Reduce rung 6 (seed 001 reduce6): rung 5's block fold, but a fixed grid of max_blocks blocks and
// each thread first folds many pairs of items, a grid apart (grid stride), in registers. When n is
// a multiple of two blocks' items, the second item of each pair needs no bounds test (the samples'
// nIsPow2 knob, a template argument of the kernel). Loads dominate, so this runs near bandwidth.
// Cost: the result depends on the grid (association order), and a second pass sums max_blocks values.
#pragma once

#include "reduce5_unrolled.cuh"

namespace upsweep::ladder {

struct reduce6_multi_element : reduce5_unrolled<256> {
  static constexpr bool grid_stride = true;
  // Enough resident 256-thread blocks to fill a 132-SM H100 or H200 eight deep.
  static constexpr std::int64_t max_blocks = 1024;
};

}  // namespace upsweep::ladder
