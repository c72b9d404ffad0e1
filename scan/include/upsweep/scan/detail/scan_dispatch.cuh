// Host dispatch of the device scan: temporary storage sizing, the one-block path for small
// inputs, tile-state clearing and the multi-tile launch. No allocation, no synchronisation.
#pragma once

#include <upsweep/scan/detail/scan_kernels.cuh>
#include <upsweep/scan/detail/scan_tuning.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/maybe.cuh>
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

template <class Policy>
constexpr bool runs_in_one_block(std::int64_t num_items) {
  return num_items <= Policy::single_block_max_items;
}

template <class Policy, class Acc>
constexpr std::size_t scan_state_bytes(std::int64_t num_items) {
  if (runs_in_one_block<Policy>(num_items)) return 0;
  return tile_state<Acc>::bytes(ceil_div<std::int64_t>(num_items, Policy::tile_items));
}

template <class Policy, bool Exclusive, class InputIt, class OutputIt, class Acc, class Op>
cudaError_t dispatch_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                          std::int64_t num_items, Op op, maybe<Acc> seed, cudaStream_t stream) {
  if (num_items < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {scan_state_bytes<Policy, Acc>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;

  if (runs_in_one_block<Policy>(num_items)) {
    single_block_scan_kernel<Policy, Exclusive><<<1, Policy::block_threads, 0, stream>>>(d_in, d_out, num_items, op,
                                                                                         seed);
    return cudaGetLastError();
  }
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  UPSWEEP_CUDA_RETURN(tile_state<Acc>::initialize(allocations[0], num_tiles, stream));
  // Blocks claim tiles in a loop, so the grid needs no more blocks than tiles (nor than a grid may have).
  const unsigned grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  const auto state = make_tile_state<Acc>(allocations[0], num_tiles);
  device_scan_kernel<Policy, Exclusive><<<grid, Policy::block_threads, 0, stream>>>(d_in, d_out, num_items, num_tiles,
                                                                                   state, op, seed);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
