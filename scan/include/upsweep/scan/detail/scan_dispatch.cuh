// Host dispatch of the device scan: temporary storage sizing, the one-block path for small
// inputs, tile-state clearing and the multi-tile launch. No allocation, no synchronisation.
#pragma once

#include <upsweep/scan/detail/scan_kernels.cuh>
#include <upsweep/scan/detail/scan_tuning.cuh>
#include <upsweep/scan/cluster_tile_state.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/cluster_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/maybe.cuh>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/one_wave.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// Partial results live in the output's value type (the input's where the output has none), so
// u8 in and u32 out accumulate in u32.
template <class InputIt, class OutputIt>
using scan_accumulator_t = cuda::std::conditional_t<
    cuda::std::is_void_v<typename cuda::std::iterator_traits<OutputIt>::value_type>,
    typename cuda::std::iterator_traits<InputIt>::value_type,
    typename cuda::std::iterator_traits<OutputIt>::value_type>;

template <class InputIt>
using input_value_t = typename cuda::std::iterator_traits<InputIt>::value_type;

// Whether the reduce-ahead kernel applies: asked by the policy, a plain pointer, whole 16-byte
// vectors per thread, and an accumulator the size of the input (the store reuses the buffer).
template <class Policy, class InputIt, class Acc>
constexpr bool reduces_ahead() {
  if constexpr (Policy::schedule == tile_schedule::reduce_ahead && cuda::std::is_pointer_v<InputIt>)
    return prefetchable_v<input_value_t<InputIt>, Policy::items_per_thread> &&
           sizeof(input_value_t<InputIt>) == sizeof(Acc);
  return false;
}

// The one-block scan of small inputs. The default policies run 512 threads of 80 bytes each,
// loaded and stored directly: 10240 4-byte items in one launch with no tile state, in the few
// bytes of shared memory the block scan needs (an exchange buffer of 40 KB took 1.9 us more at
// 10^2 items than one of 16 KB: H200, 2026-12-03). Any other policy runs a block of its own.
template <class In, class Acc>
constexpr int one_block_scan_items_per_thread() {
  constexpr int widest = static_cast<int>(sizeof(In) > sizeof(Acc) ? sizeof(In) : sizeof(Acc));
  return 80 / widest < 1 ? 1 : (80 / widest > 32 ? 32 : 80 / widest);
}

template <class Policy, class In, class Acc>
using one_block_scan_policy =
    cuda::std::conditional_t<cuda::std::is_same_v<Policy, default_scan_policy<Acc>>,
                             scan_policy<512, one_block_scan_items_per_thread<In, Acc>(), tile_io::direct>, Policy>;

template <class Policy, class In, class Acc>
constexpr bool runs_in_one_block(std::int64_t num_items) {
  return num_items <= one_block_scan_policy<Policy, In, Acc>::single_block_max_items;
}

// Past one of its tiles and up to 16 of them, the default policies scan as one cluster: tiles of
// 256 threads x 32 bytes loaded directly (2049 to 32768 int32), aggregates through shared memory
// (cluster_tile_state.cuh). A/B harness, H200, 2026-12-03, int32: 10^4 items 6.8 -> 5.2 us,
// 16000 8.0 -> 5.2, 30000 7.7 -> 5.5 (CUB 3.5: 6.1, 6.5, 6.6). Larger inputs stay on the tile
// state: 16 SMs of wider tiles move less than a whole-GPU grid (512 x 20 tiles: 10^5 in 9.1 us).
template <class In, class Acc>
constexpr int cluster_scan_items_per_thread() {
  constexpr int widest = static_cast<int>(sizeof(In) > sizeof(Acc) ? sizeof(In) : sizeof(Acc));
  return 32 / widest < 1 ? 1 : 32 / widest;
}

template <class Policy, class In, class Acc>
using cluster_scan_policy =
    cuda::std::conditional_t<cuda::std::is_same_v<Policy, default_scan_policy<Acc>>,
                             scan_policy<256, cluster_scan_items_per_thread<In, Acc>(), tile_io::direct>, void>;

// The tiles of the one-cluster scan of num_items (a default policy), or 0 where it does not apply.
template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op>
cudaError_t one_cluster_scan_tiles(std::int64_t num_items, std::int64_t& tiles) {
  tiles = 0;
  using policy = cluster_scan_policy<Policy, input_value_t<InputIt>, Acc>;
  if (num_items <= policy::tile_items || num_items > largest_cluster_blocks * std::int64_t{policy::tile_items})
    return cudaSuccess;
  int limit = 0;
  UPSWEEP_CUDA_RETURN((cluster_blocks_limit<device_scan_kernel<policy, Exclusive, InputIt, OutputIt, Acc, Op,
                                                               cluster_tile_state<Acc>>,
                                            policy::block_threads>(limit)));
  const std::int64_t needed = ceil_div<std::int64_t>(num_items, policy::tile_items);
  if (needed <= limit) tiles = needed;
  return cudaSuccess;
}

// Inputs of more of its tiles than SMs that fit one wave of larger tiles: the default policy for
// 4-byte items runs a block per tile of 512 x 16 at two blocks with the pipelined look-back, not
// the reduce-ahead shape's block per tile of 256 x 16 (A/B harness, H200, 2026-12-04, int32
// against CUB 3.0 in one run: 10^6 items 0.99x -> 1.05x, 2 x 10^6 0.96x -> 1.05x, 3 x 10^5 1.07x
// -> 1.08x; 512 x 16 without the pipelined look-back 1.02x at 10^6, 384 x 16 at three 1.01x,
// 512 x 20 and direct loads slower; below an SM a tile, 3.3 x 10^4 to 2 x 10^5, 0.1 to 1.0 us
// slower). Any other policy: void, its own tiles at every size.
template <class Policy, class In, class Acc>
using one_wave_scan_policy =
    cuda::std::conditional_t<cuda::std::is_same_v<Policy, default_scan_policy<Acc>> && sizeof(In) == 4 &&
                                 sizeof(Acc) == 4,
                             scan_policy<512, 16, tile_io::transpose, 1, default_look_back_delay_ns, true,
                                         tile_schedule::block_per_tile, 2>,
                             void>;

// Launches the one-wave scan where it applies (`launched`); the tile state is cleared for its tiles.
template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op>
cudaError_t scan_in_one_wave(void* state_storage, InputIt d_in, OutputIt d_out, std::int64_t num_items, Op op,
                             maybe<Acc> seed, cudaStream_t stream, bool& launched) {
  launched = false;
  using policy = one_wave_scan_policy<Policy, input_value_t<InputIt>, Acc>;
  if constexpr (!cuda::std::is_void_v<policy>) {
    static_assert(policy::tile_items >= Policy::tile_items, "no more tiles than the tile state holds");
    constexpr auto kernel = device_scan_kernel<policy, Exclusive, InputIt, OutputIt, Acc, Op, tile_state<Acc>>;
    std::int64_t tiles = 0;
    UPSWEEP_CUDA_RETURN(
        (one_wave_tiles<kernel, policy::block_threads>(num_items, Policy::tile_items, policy::tile_items, tiles)));
    if (tiles == 0) return cudaSuccess;
    launched = true;
    UPSWEEP_CUDA_RETURN(tile_state<Acc>::initialize(state_storage, tiles, stream));
    return launch_chained(kernel, dim3(static_cast<unsigned>(tiles)), dim3(policy::block_threads), stream, d_in, d_out,
                          static_cast<long long>(num_items), static_cast<long long>(tiles),
                          make_tile_state<Acc>(state_storage, tiles), op, seed);
  }
  return cudaSuccess;
}

template <class Policy, class In, class Acc>
constexpr std::size_t scan_state_bytes(std::int64_t num_items) {
  if (runs_in_one_block<Policy, In, Acc>(num_items)) return 0;
  return tile_state<Acc>::bytes(ceil_div<std::int64_t>(num_items, Policy::tile_items));
}

template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op>
cudaError_t dispatch_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                          std::int64_t num_items, Op op, maybe<Acc> seed, cudaStream_t stream) {
  if (num_items < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {scan_state_bytes<Policy, input_value_t<InputIt>, Acc>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  if (is_null(d_in) || is_null(d_out) || ranges_overlap_partly(d_in, d_out, num_items)) return cudaErrorInvalidValue;

  using cluster_policy = cluster_scan_policy<Policy, input_value_t<InputIt>, Acc>;
  if constexpr (!cuda::std::is_void_v<cluster_policy>) {
    std::int64_t tiles = 0;
    UPSWEEP_CUDA_RETURN((one_cluster_scan_tiles<Policy, Exclusive, InputIt, OutputIt, Acc, Op>(num_items, tiles)));
    if (tiles > 0) {
      constexpr auto kernel =
          device_scan_kernel<cluster_policy, Exclusive, InputIt, OutputIt, Acc, Op, cluster_tile_state<Acc>>;
      return launch_one_cluster(kernel, static_cast<unsigned>(tiles), dim3(cluster_policy::block_threads), stream,
                                d_in, d_out, static_cast<long long>(num_items), static_cast<long long>(tiles),
                                cluster_tile_state<Acc>{}, op, seed);
    }
  }
  if (runs_in_one_block<Policy, input_value_t<InputIt>, Acc>(num_items)) {
    using one_block = one_block_scan_policy<Policy, input_value_t<InputIt>, Acc>;
    single_block_scan_kernel<one_block, Exclusive><<<1, one_block::block_threads, 0, stream>>>(d_in, d_out, num_items,
                                                                                               op, seed);
    return cudaGetLastError();
  }
  bool in_one_wave = false;
  UPSWEEP_CUDA_RETURN((scan_in_one_wave<Policy, Exclusive>(allocations[0], d_in, d_out, num_items, op, seed, stream,
                                                           in_one_wave)));
  if (in_one_wave) return cudaSuccess;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  UPSWEEP_CUDA_RETURN(tile_state<Acc>::initialize(allocations[0], num_tiles, stream));
  const auto state = make_tile_state<Acc>(allocations[0], num_tiles);
  // Reduce-ahead pays off once blocks take several tiles each; fewer tiles than resident blocks
  // would only add a claim that finds nothing left (10^4 to 10^6 items measured slower).
  if constexpr (reduces_ahead<Policy, InputIt, Acc>()) {
    if (is_aligned_16(d_in)) {
      constexpr auto kernel = device_scan_reduce_ahead_kernel<Policy, Exclusive, input_value_t<InputIt>, OutputIt, Acc,
                                                              Op, tile_state<Acc>>;
      int resident = 0;
      UPSWEEP_CUDA_RETURN((persistent_grid<kernel, Policy::block_threads>(Policy::persistent_grid_limit, resident)));
      if (num_tiles > resident)
        return launch_chained(kernel, dim3(resident), dim3(Policy::block_threads), stream, d_in, d_out,
                              static_cast<long long>(num_items), static_cast<long long>(num_tiles), state, op, seed);
    }
  }
  // Blocks claim tiles in a loop, so the grid needs no more blocks than tiles (nor than a grid may have).
  const unsigned grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  constexpr auto kernel = device_scan_kernel<Policy, Exclusive, InputIt, OutputIt, Acc, Op, tile_state<Acc>>;
  return launch_chained(kernel, dim3(grid), dim3(Policy::block_threads), stream, d_in, d_out,
                        static_cast<long long>(num_items), static_cast<long long>(num_tiles), state, op, seed);
}

}  // namespace upsweep::detail
