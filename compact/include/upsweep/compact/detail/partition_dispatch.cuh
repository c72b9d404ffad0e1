// Host dispatch of the stable partition: the select kernel in partition mode, then the reversal
// of the rejected tail, both on the caller's stream. No allocation, no synchronisation.
#pragma once

#include <upsweep/compact/detail/partition_kernels.cuh>
#include <upsweep/compact/detail/select_dispatch.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class InputIt, class OutputIt, class Pred>
cudaError_t dispatch_partition(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                               std::int64_t* d_num_selected, std::int64_t num_items, Pred pred, cudaStream_t stream) {
  // Rejected items go to the back, over input later tiles have not loaded yet.
  if constexpr (cuda::std::is_pointer_v<InputIt> && cuda::std::is_pointer_v<OutputIt>) {
    if (num_items > 0 && static_cast<const void*>(d_in) == static_cast<const void*>(d_out)) return cudaErrorInvalidValue;
  }
  UPSWEEP_CUDA_RETURN((dispatch_select<Policy, select_output::partitioned>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items, predicate_flags<Pred>{pred},
      stream)));
  if (d_temp_storage == nullptr || num_items < 2) return cudaSuccess;
  // The split point is on the device; size the grid for the most pairs there can be.
  int device = 0, sms = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));  // cached per device
  const std::int64_t wanted = ceil_div<std::int64_t>(num_items / 2, reverse_tile_pairs);
  const std::int64_t resident = static_cast<std::int64_t>(sms) * reverse_blocks_per_sm;
  const unsigned grid = static_cast<unsigned>(wanted < resident ? wanted : resident);
  reverse_rejected_kernel<<<grid, reverse_block_threads, 0, stream>>>(d_out, d_num_selected, num_items);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
