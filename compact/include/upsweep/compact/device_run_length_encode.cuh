// Device layer: run-length encoding in one pass (run_length_kernels.cuh), template form. The
// compiled API (<upsweep/compact.hpp>) has it for the arithmetic types with 64-bit lengths; this
// form takes any item type of 1 to 16 bytes compared with ==, a policy, and any integer type for
// the lengths: 32-bit lengths (as cub::DeviceRunLengthEncode writes) save a third of the bytes
// written when runs are short.
//  - core: caller-provided temporary storage; a null d_temp_storage only writes
//    temp_storage_bytes. Never allocates or synchronises (CUDA-graph capturable).
//  - a run starts where an item is not == the one before it (NaNs never equal: each its own run).
//    Run values go to d_unique_out, lengths to d_run_lengths, the number of runs (std::int64_t)
//    to *d_num_runs in device memory; nothing is written at or past that count.
//  - outputs must not overlap the input; num_items is 64-bit, and at most the largest LengthT
//    (a longer run could not be written), else cudaErrorInvalidValue.
#pragma once

#include <upsweep/compact/detail/run_length_dispatch.cuh>

#include <cstddef>
#include <cstdint>

namespace upsweep {

template <class Policy = void, class T, class LengthT>
cudaError_t run_length_encode(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_unique_out,
                              LengthT* d_run_lengths, std::int64_t* d_num_runs, std::int64_t num_items,
                              cudaStream_t stream = 0) {
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_run_length_policy<T>, Policy>;
  return detail::dispatch_run_length_encode<policy_t>(d_temp_storage, temp_storage_bytes, d_in, d_unique_out,
                                                      d_run_lengths, d_num_runs, num_items, stream);
}

}  // namespace upsweep
