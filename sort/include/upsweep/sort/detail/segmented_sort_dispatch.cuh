// Host side of the segmented sort: temporary storage, argument checks and the four launches (the
// warp kernel sorts the small segments and lists the rest by size; one block kernel per list).
#pragma once

#include <upsweep/sort/detail/row_offsets.cuh>
#include <upsweep/sort/detail/segmented_sort_blocks.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/type_traits>

#include <algorithm>
#include <climits>
#include <cstddef>

namespace upsweep::detail {

// Blocks of a kernel with `shared_bytes` of dynamic shared memory resident at once on the current
// device (asked once per device and kernel).
template <auto Kernel, int BlockThreads>
cudaError_t resident_blocks_sharing(std::size_t shared_bytes, int& blocks) {
  static std::atomic<int> cached[max_cached_devices] = {};
  int device = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  if (device < max_cached_devices && (blocks = cached[device].load(std::memory_order_relaxed)) > 0) return cudaSuccess;
  int sms = 0, per_sm = 0;
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));
  UPSWEEP_CUDA_RETURN(allow_dynamic_shared(Kernel, shared_bytes));
  UPSWEEP_CUDA_RETURN(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, BlockThreads, shared_bytes));
  blocks = sms * (per_sm > 0 ? per_sm : 1);
  if (device < max_cached_devices) cached[device].store(blocks, std::memory_order_relaxed);
  return cudaSuccess;
}

// A block kernel over one list: as many blocks as fit at once, at most one per segment.
template <auto Kernel, int BlockThreads, class Storage, class... Args>
cudaError_t launch_list_kernel(long long num_segments, cudaStream_t stream, Args&&... args) {
  constexpr std::size_t shared_bytes = sizeof(Storage);
  int resident = 0;
  UPSWEEP_CUDA_RETURN((resident_blocks_sharing<Kernel, BlockThreads>(shared_bytes, resident)));
  const auto blocks = static_cast<unsigned>(std::min<long long>(resident, num_segments));
  return launch_chained_shared(Kernel, blocks, BlockThreads, shared_bytes, stream, std::forward<Args>(args)...);
}

// The block kernel of a tier (tier_small_tile, tier_large_tile or tier_passes) over `segments`.
template <int Tier, bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets, class Segments>
cudaError_t launch_block_tier(const segmented_io<Key, Value>& io, long long num_segments, BeginOffsets begin_offsets,
                              EndOffsets end_offsets, Segments segments, int begin_bit, int end_bit,
                              cudaStream_t stream) {
  using policy =
      cuda::std::conditional_t<Tier == tier_small_tile, segmented_small_tile_policy, segmented_large_tile_policy>;
  if constexpr (Tier == tier_passes) {
    constexpr auto kernel =
        segmented_pass_sort_kernel<policy, Descending, Key, Value, BeginOffsets, EndOffsets, Segments>;
    return launch_list_kernel<kernel, policy::block_threads, segment_pass_storage<policy, Key, Value>>(
        num_segments, stream, io, begin_offsets, end_offsets, segments, begin_bit, end_bit);
  } else if constexpr (loads_next_keys_early_v<policy, Key, Value>) {
    constexpr auto kernel =
        segmented_tile_sort_loading_ahead_kernel<policy, Descending, Key, Value, BeginOffsets, EndOffsets, Segments>;
    return launch_list_kernel<kernel, policy::block_threads, segment_tile_storage<policy, Key, Value>>(
        num_segments, stream, io, begin_offsets, end_offsets, segments, begin_bit, end_bit);
  } else {
    constexpr auto kernel =
        segmented_tile_sort_kernel<policy, Descending, Key, Value, BeginOffsets, EndOffsets, Segments>;
    return launch_list_kernel<kernel, policy::block_threads, segment_tile_storage<policy, Key, Value>>(
        num_segments, stream, io, begin_offsets, end_offsets, segments, begin_bit, end_bit);
  }
}

// The warp kernel over every segment; `plain`: an ordinary launch (after a memset).
template <bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t launch_warp_tier(const segmented_io<Key, Value>& io, long long num_segments, BeginOffsets begin_offsets,
                             EndOffsets end_offsets, const segment_lists& lists, int begin_bit, int end_bit, bool plain,
                             cudaStream_t stream) {
  constexpr auto kernel = segmented_warp_sort_kernel<Descending, Key, Value, BeginOffsets, EndOffsets>;
  constexpr int warps = segment_warp_block_threads / warp_threads;
  int resident = 0;
  UPSWEEP_CUDA_RETURN((resident_blocks<kernel, segment_warp_block_threads>(resident)));
  const long long groups = (num_segments + warp_threads - 1) / warp_threads;
  const auto blocks = static_cast<unsigned>(std::min<long long>(resident, (groups + warps - 1) / warps));
  if (!plain)
    return launch_chained(kernel, blocks, segment_warp_block_threads, stream, io, num_segments, begin_offsets,
                          end_offsets, lists, begin_bit, end_bit);
  kernel<<<blocks, segment_warp_block_threads, 0, stream>>>(io, num_segments, begin_offsets, end_offsets, lists,
                                                            begin_bit, end_bit);
  return cudaGetLastError();
}

// Any offsets: the warp kernel sorts the small segments and lists the others by tier; then one
// block kernel per list. The warp kernel launches plainly after the lists' memset (a chained
// launch there measured slower: dispatch_batched_top_k).
template <bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t enqueue_segmented_sort(const segmented_io<Key, Value>& io, long long num_segments,
                                   BeginOffsets begin_offsets, EndOffsets end_offsets, const segment_lists& lists,
                                   int begin_bit, int end_bit, cudaStream_t stream) {
  UPSWEEP_CUDA_RETURN(cudaMemsetAsync(lists.counts, 0, listed_tiers * sizeof(unsigned), stream));
  UPSWEEP_CUDA_RETURN(launch_warp_tier<Descending>(io, num_segments, begin_offsets, end_offsets, lists, begin_bit,
                                                   end_bit, true, stream));
  const auto listed = [&](int tier) {
    const int t = tier - first_listed_tier;
    return listed_segments{lists.ids + t * lists.capacity, lists.counts + t};
  };
  UPSWEEP_CUDA_RETURN((launch_block_tier<tier_small_tile, Descending>(
      io, num_segments, begin_offsets, end_offsets, listed(tier_small_tile), begin_bit, end_bit, stream)));
  UPSWEEP_CUDA_RETURN((launch_block_tier<tier_large_tile, Descending>(
      io, num_segments, begin_offsets, end_offsets, listed(tier_large_tile), begin_bit, end_bit, stream)));
  return launch_block_tier<tier_passes, Descending>(io, num_segments, begin_offsets, end_offsets, listed(tier_passes),
                                                    begin_bit, end_bit, stream);
}

// Rows of one width: the host knows their tier, so one kernel sorts them all, with no lists.
template <bool Descending, class Key, class Value>
cudaError_t enqueue_row_sort(const segmented_io<Key, Value>& io, long long num_rows, row_offsets begins,
                             row_offsets ends, int begin_bit, int end_bit, cudaStream_t stream) {
  const all_segments rows{num_rows};
  switch (segment_tier_of(begins.width)) {
    case tier_small_tile:
      return launch_block_tier<tier_small_tile, Descending>(io, num_rows, begins, ends, rows, begin_bit, end_bit,
                                                            stream);
    case tier_large_tile:
      return launch_block_tier<tier_large_tile, Descending>(io, num_rows, begins, ends, rows, begin_bit, end_bit,
                                                            stream);
    case tier_passes:
      return launch_block_tier<tier_passes, Descending>(io, num_rows, begins, ends, rows, begin_bit, end_bit, stream);
    default:  // no row is listed
      return launch_warp_tier<Descending>(io, num_rows, begins, ends, segment_lists{}, begin_bit, end_bit, false,
                                          stream);
  }
}

// values pointers null (Value = no_values): keys only.
template <bool Descending, class Key, class Value, class BeginOffsets, class EndOffsets>
cudaError_t dispatch_segmented_sort(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                    Key* d_keys_out, const Value* d_values_in, Value* d_values_out, long long num_items,
                                    long long num_segments, BeginOffsets begin_offsets, EndOffsets end_offsets,
                                    int begin_bit, int end_bit, cudaStream_t stream) {
  constexpr bool has_values = has_values_v<Value>;
  if (num_items < 0 || num_segments < 0 || num_segments > INT_MAX || begin_bit < 0 || begin_bit > end_bit ||
      end_bit > radix_traits<Key>::key_bits)
    return cudaErrorInvalidValue;
  void* pieces[4] = {};
  const std::size_t sizes[4] = {listed_tiers * sizeof(unsigned),
                                static_cast<std::size_t>(listed_tiers * num_segments) * sizeof(unsigned),
                                static_cast<std::size_t>(num_items) * sizeof(Key),
                                has_values ? static_cast<std::size_t>(num_items) * sizeof(Value) : 0};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, pieces, sizes));
  if (d_temp_storage == nullptr || num_items == 0 || num_segments == 0) return cudaSuccess;
  if (d_keys_in == nullptr || d_keys_out == nullptr ||
      (has_values && (d_values_in == nullptr || d_values_out == nullptr)))
    return cudaErrorInvalidValue;
  const segmented_io<Key, Value> io{
      d_keys_in, d_keys_out, d_values_in, d_values_out, static_cast<Key*>(pieces[2]), static_cast<Value*>(pieces[3])};
  if constexpr (cuda::std::is_same_v<BeginOffsets, row_offsets> && cuda::std::is_same_v<EndOffsets, row_offsets>) {
    return enqueue_row_sort<Descending>(io, num_segments, begin_offsets, end_offsets, begin_bit, end_bit, stream);
  } else {
    const segment_lists lists{static_cast<unsigned*>(pieces[0]), static_cast<unsigned*>(pieces[1]), num_segments};
    return enqueue_segmented_sort<Descending>(io, num_segments, begin_offsets, end_offsets, lists, begin_bit, end_bit,
                                              stream);
  }
}

}  // namespace upsweep::detail
