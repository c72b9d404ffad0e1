// Tile state of run-length encoding and non_trivial_runs for inputs below 2^31 items: a tile's
// (runs, last head) pair and its status in one 64-bit word (packed_pair_tile_state.cuh). The
// encoders' outputs never alias their input, so the words need to order nothing but themselves.
#pragma once

#include <upsweep/compact/detail/packed_pair_tile_state.cuh>
#include <upsweep/compact/detail/run_length_kernels.cuh>

namespace upsweep::detail {

// Runs and last head + 1 (0: none) as the two fields.
struct run_tally_fields {
  using value_type = global_run_tally;
  __device__ static void split(const value_type& t, long long& high, long long& low) {
    high = t.runs;
    low = t.last_head + 1;
  }
  __device__ static value_type join(long long high, long long low) { return {high, low - 1}; }
};

using packed_run_tally_state = packed_pair_tile_state<run_tally_fields>;

}  // namespace upsweep::detail
