// Host dispatch of the partitions, on the caller's stream, no allocation, no
// synchronisation. The stable partition of inputs whose tiles fit in one wave takes one pass
// (partition_one_wave_kernel): every tile is resident, so after a grid barrier each knows the
// split point and writes its rejected items in order straight away. Larger inputs take two
// passes around a scan of the tile counts (partition_two_pass_kernels.cuh). The partition with
// its rejected side reversed is the select kernel alone.
#pragma once

#include <upsweep/compact/detail/partition_one_wave_kernel.cuh>
#include <upsweep/compact/detail/partition_two_pass_kernels.cuh>
#include <upsweep/compact/detail/select_dispatch.cuh>
#include <upsweep/scan/device_scan.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/cooperative_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class InputIt, class OutputIt, class Pred>
inline constexpr auto partition_one_wave = partition_one_wave_kernel<Policy, InputIt, OutputIt, Pred>;

// Whether a block per tile of the one-pass kernel can all be resident at once (capped by the
// policy's persistent grid limit when positive: tests take the two passes at small sizes).
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

// Selected items first in order, rejected after them in reverse order: the select kernel alone.
template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t dispatch_partition_reversed(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                        OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items,
                                        Pred pred, cudaStream_t stream) {
  return dispatch_select<Policy, select_output::partitioned>(d_temp_storage, temp_storage_bytes, d_in, d_out,
                                                             d_num_selected, num_items, predicate_flags<Pred>{pred},
                                                             stream);
}

// The stable partition's temporary storage: the tile counts (scanned in place), the flags of the
// two passes and the scan's own storage. The one pass (the same tile) takes the first piece for
// its tile counts, so the size query needs no choice of form.
struct stable_partition_storage {
  count_t* tile_counts = nullptr;
  void* flags = nullptr;
  void* scan = nullptr;
  std::size_t scan_bytes = 0;
};

template <class Policy>
cudaError_t carve_stable_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, std::int64_t num_items,
                                   stable_partition_storage& storage) {
  const std::int64_t num_tiles = num_items > 0 ? ceil_div<std::int64_t>(num_items, Policy::tile_items) : 0;
  UPSWEEP_CUDA_RETURN(::upsweep::inclusive_sum(nullptr, storage.scan_bytes, static_cast<count_t*>(nullptr),
                                               static_cast<count_t*>(nullptr), num_tiles));
  void* allocations[3] = {};
  const std::size_t sizes[3] = {static_cast<std::size_t>(num_tiles) * sizeof(count_t),
                                static_cast<std::size_t>(num_tiles * tile_flag_words<Policy>) *
                                    sizeof(flag_word_t<Policy>),
                                storage.scan_bytes};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  storage.tile_counts = static_cast<count_t*>(allocations[0]);
  storage.flags = allocations[1];
  storage.scan = allocations[2];
  return cudaSuccess;
}

// Past one wave: count and flag, scan the counts, place (partition_two_pass_kernels.cuh).
template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t launch_partition_two_passes(const stable_partition_storage& storage, InputIt d_in, OutputIt d_out,
                                        std::int64_t* d_num_selected, std::int64_t num_items, Pred pred,
                                        cudaStream_t stream) {
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  const unsigned grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  auto* flags = static_cast<flag_word_t<Policy>*>(storage.flags);
  // Each kernel is launched chained: scheduled while the one before it finishes.
  UPSWEEP_CUDA_RETURN(launch_chained(partition_count_kernel<Policy, InputIt, Pred>, dim3(grid),
                                     dim3(Policy::block_threads), stream, d_in, static_cast<long long>(num_items),
                                     static_cast<long long>(num_tiles), pred, flags, storage.tile_counts));
  std::size_t scan_bytes = storage.scan_bytes;
  UPSWEEP_CUDA_RETURN(
      ::upsweep::inclusive_sum(storage.scan, scan_bytes, storage.tile_counts, storage.tile_counts, num_tiles, stream));
  return launch_chained(partition_place_kernel<Policy, InputIt, OutputIt>, dim3(grid), dim3(Policy::block_threads),
                        stream, d_in, d_out, d_num_selected, static_cast<long long>(num_items),
                        static_cast<long long>(num_tiles), static_cast<const flag_word_t<Policy>*>(flags),
                        static_cast<const count_t*>(storage.tile_counts));
}

template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t dispatch_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                               std::int64_t* d_num_selected, std::int64_t num_items, Pred pred, cudaStream_t stream) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  using tile_policy = few_tiles_policy_t<Policy>;
  static_assert(cuda::std::is_trivially_copyable_v<item_t>, "items must be trivially copyable");
  static_assert(sizeof(item_t) >= 1 && sizeof(item_t) <= 16, "items of 1 to 16 bytes");
  // Rejected items go past the split point, over input other tiles may not have loaded yet.
  if constexpr (cuda::std::is_pointer_v<InputIt> && cuda::std::is_pointer_v<OutputIt>) {
    if (num_items > 0 && static_cast<const void*>(d_in) == static_cast<const void*>(d_out)) return cudaErrorInvalidValue;
  }
  if (num_items < 0 || num_items > count_tile_state::max_count) return cudaErrorInvalidValue;
  stable_partition_storage storage;
  using two_passes = two_pass_policy_t<Policy>;
  UPSWEEP_CUDA_RETURN(carve_stable_partition<two_passes>(d_temp_storage, temp_storage_bytes, num_items, storage));
  if (d_temp_storage == nullptr) return cudaSuccess;
  UPSWEEP_CUDA_RETURN((check_select_arguments<select_output::partitioned_in_order>(d_in, d_out, d_num_selected,
                                                                                   num_items)));
  // Bad arguments were refused above, before the memset and the occupancy query.
  if (num_items == 0) return cudaMemsetAsync(d_num_selected, 0, sizeof(std::int64_t), stream);
  bool one_wave = num_items <= one_block_partition_policy<tile_policy, item_t>::tile_items;
  if (!one_wave) {
    UPSWEEP_CUDA_RETURN((partition_fits_one_wave<tile_policy, InputIt, OutputIt, Pred>(num_items, one_wave)));
  }
  if (one_wave) {
    const cudaError_t status = launch_partition_one_wave<tile_policy>(storage.tile_counts, d_in, d_out, d_num_selected,
                                                                      num_items, pred, stream);
    if (status != cudaErrorCooperativeLaunchTooLarge) return status;
    // Refused: fewer blocks fit than the occupancy query said (the GPU is partitioned, say). The
    // refusal is no fault of the stream's; clear it and take the two passes.
    (void)cudaGetLastError();
  }
  return launch_partition_two_passes<two_passes>(storage, d_in, d_out, d_num_selected, num_items, pred, stream);
}

}  // namespace upsweep::detail
