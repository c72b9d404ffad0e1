// Host dispatch of select, count and partition's first pass: temporary storage sizing (the
// tile state), clearing it, and the launch. No allocation, no synchronisation.
#pragma once

#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/compact/detail/select_tuning.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/error.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class InputIt>
using select_policy_t =
    cuda::std::conditional_t<cuda::std::is_void_v<Policy>,
                             default_select_policy<typename cuda::std::iterator_traits<InputIt>::value_type>, Policy>;

// 32-bit counts in the packed word when the policy asks and no count can pass 2^32 - 1 (a count
// is at most num_items); 64-bit counts in the split layout otherwise.
using packed_count_state = ordered_tile_state<cuda::std::uint32_t>;
template <class Policy>
constexpr bool packs_counts(std::int64_t num_items) {
  return Policy::packed_counts && num_items <= static_cast<std::int64_t>(UINT32_MAX);
}

template <class Policy>
constexpr std::size_t select_state_bytes(std::int64_t num_items) {
  if (num_items <= 0) return 0;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  return packs_counts<Policy>(num_items) ? packed_count_state::bytes(num_tiles) : tile_state<count_t>::bytes(num_tiles);
}

template <class Policy, select_output Output, class InputIt, class OutputIt, class Source>
cudaError_t dispatch_select(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                            std::int64_t* d_num_selected, std::int64_t num_items, Source source,
                            cudaStream_t stream) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  static_assert(cuda::std::is_trivially_copyable_v<item_t>, "items must be trivially copyable");
  static_assert(sizeof(item_t) >= 1 && sizeof(item_t) <= 16, "items of 1 to 16 bytes");
  if (num_items < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {select_state_bytes<Policy>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (d_num_selected == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && is_null(d_in)) return cudaErrorInvalidValue;
  if constexpr (Output != select_output::count_only) {
    if (num_items > 0 && is_null(d_out)) return cudaErrorInvalidValue;
    // Survivors may go in place (each lands at or before its own index); partition's rejected
    // tail lands past it, so its output may not touch the input at all.
    const bool bad_overlap = Output == select_output::partitioned ? ranges_overlap(d_in, d_out, num_items)
                                                                   : ranges_overlap_partly(d_in, d_out, num_items);
    if (bad_overlap) return cudaErrorInvalidValue;
  }
  // No tile writes the count when there is none; the memset keeps n = 0 graph-capturable too.
  if (num_items == 0) return cudaMemsetAsync(d_num_selected, 0, sizeof(std::int64_t), stream);

  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  // Blocks claim tiles in a loop, so the grid needs no more blocks than tiles (nor than a grid may have).
  const unsigned grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  if constexpr (Policy::packed_counts) {
    if (packs_counts<Policy>(num_items)) {
      UPSWEEP_CUDA_RETURN(packed_count_state::initialize(allocations[0], num_tiles, stream));
      select_kernel<Policy, Output><<<grid, Policy::block_threads, 0, stream>>>(
          d_in, d_out, d_num_selected, num_items, num_tiles, source, packed_count_state(allocations[0]));
      return cudaGetLastError();
    }
  }
  UPSWEEP_CUDA_RETURN(tile_state<count_t>::initialize(allocations[0], num_tiles, stream));
  const auto state = make_tile_state<count_t>(allocations[0], num_tiles);
  select_kernel<Policy, Output><<<grid, Policy::block_threads, 0, stream>>>(d_in, d_out, d_num_selected, num_items,
                                                                            num_tiles, source, state);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
