// Host dispatch of the stable partition: the select kernel in partition mode, then the reversal
// of the rejected tail, both on the caller's stream. No allocation, no synchronisation.
#pragma once

#include <upsweep/compact/detail/partition_kernels.cuh>
#include <upsweep/compact/detail/select_dispatch.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/error.hpp>

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
  const std::int64_t most_pairs = num_items / 2;
  const std::int64_t wanted = ceil_div<std::int64_t>(most_pairs, reverse_block_threads);
  const unsigned grid = static_cast<unsigned>(wanted < reverse_max_blocks ? wanted : reverse_max_blocks);
  reverse_rejected_kernel<<<grid, reverse_block_threads, 0, stream>>>(d_out, d_num_selected, num_items);
  return cudaGetLastError();
}

}  // namespace upsweep::detail
