// Host dispatch of run-length encoding: temporary storage sizing (the tile state of (heads, last
// head) pairs: one word per tile below 2^31 items, the general split layout past that), clearing
// it, and the one launch (a block per tile, or resident blocks reducing ahead). No allocation, no
// synchronisation.
#pragma once

#include <upsweep/compact/detail/run_length_kernels.cuh>
#include <upsweep/compact/detail/run_length_tile_state.cuh>
#include <upsweep/compact/detail/select_tuning.cuh>
#include <upsweep/scan/cluster_tile_state.cuh>
#include <upsweep/scan/tile_prefetch.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/one_wave.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

// Select's resident blocks, but 5 for 4-byte items reducing ahead: the shared memory of its two
// tile buffers and staged lengths leaves an SM room for no more, and asking ptxas for 6 would
// only cost registers (sm_90, CUDA 13: 40 and spills, against 48 at 5).
template <class T>
constexpr int default_run_length_min_blocks() {
  return sizeof(T) == 4 ? 5 : default_select_min_blocks<T>();
}

// 4-byte items reduce ahead; their block per tile (inputs too small to reduce ahead,
// few_tiles_policy_t) is the same 4096-item tile as 512 x 8 at two blocks per SM. H100 2026-11-24
// (tune/run_length_encode_i32_50pct/small_*): 10^3 6.96 us, 10^4 7.80, 10^5 8.46, against 256 x
// 16's 7.32, 8.31, 8.93 (CUB 7.30, 8.12, 9.04; 128 x 8 was faster at 10^3 only).
struct run_length_policy_4_byte : select_policy<256, default_select_items_per_thread<int>(), tile_io::transpose,
                                                default_look_back_delay_ns, default_run_length_min_blocks<int>(), 1200,
                                                tile_schedule::reduce_ahead> {
  using few_tiles = select_policy<512, 8, tile_io::transpose, default_look_back_delay_ns, 2, 1200>;
  // From more tiles than SMs up to the reduce-ahead grid, 512 x 8 at two blocks runs more than a
  // wave; 256 x 16 at five fills the same 660 blocks (132 SMs) as reducing ahead (A/B harness, H200,
  // 2026-12-04, runs of about 2, against CUB 3.0 in one run: 1.6 x 10^6 items 0.83x -> 0.96x,
  // 2.4 x 10^6 0.76x -> 0.97x, 10^6 0.93x -> 0.92x; at four blocks 0.97x and 0.89x, 512 x 8 at
  // three 0.95x and 0.81x). run_length_encode only: non_trivial_runs was not measured on it.
  using one_wave = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 5, 1200>;
};

}  // namespace detail

// Select's tile, schedule (reduce-ahead for 4-byte items) and pause before the look-back (used by
// a block per tile only). Not tuned on its own, but for the 4-byte block per tile above.
template <class T>
using default_run_length_policy = cuda::std::conditional_t<
    sizeof(T) == 4, detail::run_length_policy_4_byte,
    select_policy<256, detail::default_select_items_per_thread<T>(), tile_io::transpose, default_look_back_delay_ns,
                  detail::default_run_length_min_blocks<T>(), 1200, tile_schedule::block_per_tile>>;

}  // namespace upsweep

namespace upsweep::detail {

inline bool packs_run_tallies(std::int64_t num_items) { return num_items <= packed_run_tally_state::max_field; }

template <class Policy>
std::size_t run_length_state_bytes(std::int64_t num_items) {
  if (num_items <= 0) return 0;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  return packs_run_tallies(num_items) ? packed_run_tally_state::bytes(num_tiles)
                                      : tile_state<global_run_tally>::bytes(num_tiles);
}

// Clears the tile state of (runs, last head) pairs at `storage` and runs launch(state, num_tiles)
// with it: one word per tile below 2^31 items, the general layout past that. 2 to 8 tiles take a
// cluster's state instead, with nothing to clear (H200, 2026-12-03, int32 runs of 16, 10^4 items:
// run_length_encode 8.1 -> 6.0 us, non_trivial_runs 8.6 -> 6.6), unless the policy caps its
// persistent grid (tests do, so that a few blocks reduce ahead over many tiles).
template <class Policy, class Launch>
cudaError_t with_run_tally_state(void* storage, std::int64_t num_items, cudaStream_t stream, Launch&& launch) {
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  bool one_cluster = false;
  UPSWEEP_CUDA_RETURN(fits_one_portable_cluster<Policy>(num_tiles, one_cluster));
  if (one_cluster) return launch(cluster_tile_state<global_run_tally>{}, num_tiles);
  if (packs_run_tallies(num_items)) {
    UPSWEEP_CUDA_RETURN(packed_run_tally_state::initialize(storage, num_tiles, stream));
    return launch(packed_run_tally_state(storage), num_tiles);
  }
  UPSWEEP_CUDA_RETURN(tile_state<global_run_tally>::initialize(storage, num_tiles, stream));
  return launch(make_tile_state<global_run_tally>(storage, num_tiles), num_tiles);
}

// Whether the policy and item type allow run-length encoding's reduce-ahead kernels.
template <class Policy, class T>
inline constexpr bool reduces_runs_ahead_v =
    Policy::schedule == tile_schedule::reduce_ahead && prefetchable_v<T, Policy::items_per_thread>;

template <class Policy, class T, class LengthT, class State, class Eq>
cudaError_t launch_run_length_encode(const T* d_in, T* d_unique_out, LengthT* d_run_lengths, std::int64_t* d_num_runs,
                                     std::int64_t num_items, std::int64_t num_tiles, const State& state, Eq eq,
                                     cudaStream_t stream) {
  if constexpr (reduces_runs_ahead_v<Policy, T> && !in_one_cluster_v<State>) {
    bool launched = false;
    UPSWEEP_CUDA_RETURN((launch_reducing_ahead<run_length_reduce_ahead_kernel<Policy, T, LengthT, State, Eq>, Policy>(
        launched, d_in, num_tiles, stream, d_unique_out, d_run_lengths, d_num_runs, num_items, num_tiles, state, eq)));
    if (launched) return cudaSuccess;
  }
  using wave_policy = one_wave_policy_t<Policy>;
  if constexpr (!cuda::std::is_void_v<wave_policy> && !in_one_cluster_v<State>) {
    static_assert(wave_policy::tile_items == Policy::tile_items, "the same tile, so the same tile state");
    constexpr auto kernel = run_length_encode_kernel<wave_policy, T, LengthT, State, Eq>;
    std::int64_t wave_tiles = 0;
    UPSWEEP_CUDA_RETURN((one_wave_tiles<kernel, wave_policy::block_threads>(num_items, Policy::tile_items,
                                                                             wave_policy::tile_items, wave_tiles)));
    if (wave_tiles > 0)
      return launch_chained(kernel, dim3(static_cast<unsigned>(num_tiles)), dim3(wave_policy::block_threads), stream,
                            d_in, d_unique_out, d_run_lengths, d_num_runs, static_cast<long long>(num_items),
                            static_cast<long long>(num_tiles), state, eq);
  }
  using block_policy = few_tiles_policy_t<Policy>;  // the same tile, so the same tile state
  return launch_tile_kernel<State>(run_length_encode_kernel<block_policy, T, LengthT, State, Eq>, num_tiles,
                                   dim3(block_policy::block_threads), stream, d_in, d_unique_out, d_run_lengths,
                                   d_num_runs, static_cast<long long>(num_items), static_cast<long long>(num_tiles),
                                   state, eq);
}

template <class Policy, class T, class LengthT, class Eq>
cudaError_t dispatch_run_length_encode(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                       T* d_unique_out, LengthT* d_run_lengths, std::int64_t* d_num_runs,
                                       std::int64_t num_items, Eq eq, cudaStream_t stream) {
  static_assert(cuda::std::is_trivially_copyable_v<T>, "items must be trivially copyable");
  static_assert(sizeof(T) >= 1 && sizeof(T) <= 16, "items of 1 to 16 bytes");
  static_assert(cuda::std::is_integral_v<LengthT>, "run lengths are integers");
  if (num_items < 0) return cudaErrorInvalidValue;
  // A run as long as the input must fit its length type.
  using length_limits = cuda::std::numeric_limits<LengthT>;
  if (static_cast<cuda::std::uint64_t>(num_items) > static_cast<cuda::std::uint64_t>(length_limits::max()))
    return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {run_length_state_bytes<Policy>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_num_runs == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && (d_in == nullptr || d_unique_out == nullptr || d_run_lengths == nullptr))
    return cudaErrorInvalidValue;
  // A tile's first head reads the item before the tile, which an overlapping output may have replaced.
  if (ranges_overlap(d_in, d_unique_out, num_items) || ranges_overlap(d_in, d_run_lengths, num_items))
    return cudaErrorInvalidValue;
  if (num_items == 0) return cudaMemsetAsync(d_num_runs, 0, sizeof(std::int64_t), stream);

  return with_run_tally_state<Policy>(allocations[0], num_items, stream, [&](const auto& state, std::int64_t tiles) {
    return launch_run_length_encode<Policy>(d_in, d_unique_out, d_run_lengths, d_num_runs, num_items, tiles, state,
                                            eq, stream);
  });
}

}  // namespace upsweep::detail
