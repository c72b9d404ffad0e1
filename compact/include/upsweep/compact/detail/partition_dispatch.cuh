// Host dispatch of the partitions, on the caller's stream, no allocation, no
// synchronisation. Inputs whose tiles fit in one wave take one pass (partition_one_wave_kernel):
// every tile is resident, so after a grid barrier each knows the split point and writes its
// rejected items in order straight away. Larger inputs take two kernels: the select kernel writes
// the rejected items to the back in reverse order, then the reversal of that tail.
#pragma once

#include <upsweep/compact/detail/partition_kernels.cuh>
#include <upsweep/compact/detail/partition_one_wave_kernel.cuh>
#include <upsweep/compact/detail/select_dispatch.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/cooperative_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class InputIt, class OutputIt, class Pred>
inline constexpr auto partition_one_wave = partition_one_wave_kernel<Policy, InputIt, OutputIt, Pred>;

// Whether a block per tile of the one-pass kernel can all be resident at once (capped by the
// policy's persistent grid limit when positive: tests take the two-kernel path at small sizes).
template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t partition_fits_one_wave(std::int64_t num_items, bool& fits) {
  int resident = 0;
  UPSWEEP_CUDA_RETURN((persistent_grid<partition_one_wave<Policy, InputIt, OutputIt, Pred>, Policy::block_threads>(
      Policy::persistent_grid_limit, resident)));
  fits = ceil_div<std::int64_t>(num_items, Policy::tile_items) <= resident;
  return cudaSuccess;
}

// The policy's items per thread in one block of up to 1024 threads, its tile within 44 KB of
// static shared memory (11264 4-byte items): inputs past the policy's tile that fit take one such
// block, an ordinary launch with no barrier across blocks (a cooperative launch and its grid
// barrier cost about 1 us more on an H100). Inputs of one policy tile keep its block, which is
// faster there (H100, 10^2 items: 6.5 us against 7.8 with 704 threads).
template <class Policy, class T>
constexpr int one_block_partition_threads() {
  constexpr int by_bytes = 44 * 1024 / (Policy::items_per_thread * static_cast<int>(sizeof(T))) / 32 * 32;
  return by_bytes < 1024 ? by_bytes : 1024;
}
template <class Policy, class T>
using one_block_partition_policy =
    select_policy<one_block_partition_threads<Policy, T>(), Policy::items_per_thread, Policy::io>;

// The one-pass partition: a block per tile, their counts in the temporary storage (nothing to
// clear: each block writes its own before the barrier, and all read after it). One block is an
// ordinary launch; more are cooperative, refused rather than run when they would not all fit.
template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t launch_partition_one_wave(void* tile_counts, InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected,
                                      std::int64_t num_items, Pred pred, cudaStream_t stream) {
  auto* counts = static_cast<int*>(tile_counts);
  using one_block = one_block_partition_policy<Policy, typename cuda::std::iterator_traits<InputIt>::value_type>;
  const auto launch_one_block = [&](auto block_policy) {
    using P = decltype(block_policy);
    partition_one_wave<P, InputIt, OutputIt, Pred><<<1, P::block_threads, 0, stream>>>(d_in, d_out, d_num_selected,
                                                                                      num_items, counts, pred);
    return cudaGetLastError();
  };
  if (num_items <= Policy::tile_items) return launch_one_block(Policy{});
  if (num_items <= one_block::tile_items) return launch_one_block(one_block{});
  const auto grid = static_cast<unsigned>(ceil_div<std::int64_t>(num_items, Policy::tile_items));
  return launch_cooperative(partition_one_wave<Policy, InputIt, OutputIt, Pred>, grid, Policy::block_threads, stream,
                            d_in, d_out, d_num_selected, static_cast<long long>(num_items), counts, pred);
}

// Second kernel of the two-kernel partition: [split, num_items) reversed in place. The split
// point is on the device; the grid is sized for the most pairs there can be.
template <class OutputIt>
cudaError_t reverse_rejected_tail(OutputIt d_out, const std::int64_t* d_num_selected, std::int64_t num_items,
                                  cudaStream_t stream) {
  int device = 0, sms = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));  // cached per device
  const std::int64_t wanted = ceil_div<std::int64_t>(num_items / 2, reverse_tile_pairs);
  const std::int64_t resident = static_cast<std::int64_t>(sms) * reverse_blocks_per_sm;
  const unsigned grid = static_cast<unsigned>(wanted < resident ? wanted : resident);
  reverse_rejected_kernel<<<grid, reverse_block_threads, 0, stream>>>(d_out, d_num_selected, num_items);
  return cudaGetLastError();
}

// Selected items first in order, rejected after them in reverse order: the select kernel alone.
template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t dispatch_partition_reversed(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                        OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items,
                                        Pred pred, cudaStream_t stream) {
  return dispatch_select<Policy, select_output::partitioned>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                             d_num_selected, num_items, predicate_flags<Pred>{pred},
                                                             stream);
}

template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t dispatch_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                               std::int64_t* d_num_selected, std::int64_t num_items, Pred pred, cudaStream_t stream) {
  // Rejected items go past the split point, over input other tiles may not have loaded yet.
  if constexpr (cuda::std::is_pointer_v<InputIt> && cuda::std::is_pointer_v<OutputIt>) {
    if (num_items > 0 && static_cast<const void*>(d_in) == static_cast<const void*>(d_out)) return cudaErrorInvalidValue;
  }
  using source_t = predicate_flags<Pred>;
  // The one pass takes the two kernels' temporary storage (the tile state's bytes hold the tile
  // counts), so the size query needs no choice.
  if (d_temp_storage != nullptr && num_items > 0) {
    // Bad arguments are refused before the occupancy query, as before any other CUDA call.
    void* tile_counts = nullptr;
    UPSWEEP_CUDA_RETURN((prepare_select<Policy, select_output::partitioned_in_order>(
        d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, tile_counts)));
    using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
    using one_pass = few_tiles_policy_t<Policy>;  // the same tile, so the same storage
    bool one_wave = num_items <= one_block_partition_policy<one_pass, item_t>::tile_items;
    if (!one_wave) {
      UPSWEEP_CUDA_RETURN((partition_fits_one_wave<one_pass, InputIt, OutputIt, Pred>(num_items, one_wave)));
    }
    if (one_wave) {
      const cudaError_t status = launch_partition_one_wave<one_pass>(tile_counts, d_in, d_out, d_num_selected,
                                                                     num_items, pred, stream);
      if (status != cudaErrorCooperativeLaunchTooLarge) return status;
      // Refused: fewer blocks fit than the occupancy query said (the GPU is partitioned, say). The
      // refusal is no fault of the stream's; clear it and take two kernels.
      (void)cudaGetLastError();
    }
  }
  UPSWEEP_CUDA_RETURN((dispatch_select<Policy, select_output::partitioned>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, source_t{pred}, stream)));
  if (d_temp_storage == nullptr || num_items < 2) return cudaSuccess;
  return reverse_rejected_tail(d_out, d_num_selected, num_items, stream);
}

}  // namespace upsweep::detail
