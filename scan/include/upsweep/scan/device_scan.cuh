// Device layer: inclusive and exclusive prefix scans over a whole array, single pass with decoupled
// look-back. Two layers:
//  - core: caller-provided temporary storage. Called with d_temp_storage == nullptr it only writes
//    temp_storage_bytes (no CUDA call); otherwise it enqueues the work on `stream` and returns.
//    It never allocates or synchronises, so it can be captured in a CUDA graph.
//  - convenience: same names without the storage arguments; allocates stream-ordered
//    (cudaMallocAsync) and throws upsweep::cuda_error. Asynchronous on `stream` as well.
// Contracts shared by every function here:
//  - `op` is associative (not necessarily commutative); partial results are held in the output's
//    value type, so u8 in and u32 out accumulate in u32.
//  - d_out == d_in (in place) is allowed when input and output elements have the same size (u8 in
//    and u32 out at one address would overwrite input not yet read); other overlaps are not.
//    Raw pointers that break this are cudaErrorInvalidValue; iterators cannot be checked.
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue.
//  - Float results depend on the tile size (association order) but not on the run: no atomics
//    on values, so the same inputs give the same bits.
#pragma once

#include <upsweep/scan/detail/scan_dispatch.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda/std/functional>

namespace upsweep {

// ---- core layer -------------------------------------------------------------------------------

// out[i] = in[0] op in[1] op ... op in[i].
template <class Policy = void, class InputIt, class OutputIt, class Op>
cudaError_t inclusive_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                           std::int64_t num_items, Op op, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<InputIt, OutputIt>;
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_scan_policy<acc_t>, Policy>;
  return detail::dispatch_scan<policy_t, false>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, op,
                                                maybe<acc_t>{acc_t{}, false}, stream);
}

// out[0] = init, out[i] = init op in[0] op ... op in[i - 1].
template <class Policy = void, class InputIt, class OutputIt, class T, class Op>
cudaError_t exclusive_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                           std::int64_t num_items, T init, Op op, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<InputIt, OutputIt>;
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_scan_policy<acc_t>, Policy>;
  return detail::dispatch_scan<policy_t, true>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, op,
                                               maybe<acc_t>{static_cast<acc_t>(init), true}, stream);
}

// inclusive_scan with +.
template <class Policy = void, class InputIt, class OutputIt>
cudaError_t inclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                          std::int64_t num_items, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<InputIt, OutputIt>;
  return inclusive_scan<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, cuda::std::plus<acc_t>{},
                                stream);
}

// exclusive_scan with + and init 0.
template <class Policy = void, class InputIt, class OutputIt>
cudaError_t exclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                          std::int64_t num_items, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<InputIt, OutputIt>;
  return exclusive_scan<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, acc_t{},
                                cuda::std::plus<acc_t>{}, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------

template <class InputIt, class OutputIt, class Op>
void inclusive_scan(InputIt d_in, OutputIt d_out, std::int64_t num_items, Op op, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::inclusive_scan", stream, [&](void* d_temp, std::size_t& bytes) {
    return inclusive_scan(d_temp, bytes, d_in, d_out, num_items, op, stream);
  });
}

template <class InputIt, class OutputIt, class T, class Op>
void exclusive_scan(InputIt d_in, OutputIt d_out, std::int64_t num_items, T init, Op op, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::exclusive_scan", stream, [&](void* d_temp, std::size_t& bytes) {
    return exclusive_scan(d_temp, bytes, d_in, d_out, num_items, init, op, stream);
  });
}

template <class InputIt, class OutputIt>
void inclusive_sum(InputIt d_in, OutputIt d_out, std::int64_t num_items, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::inclusive_sum", stream, [&](void* d_temp, std::size_t& bytes) {
    return inclusive_sum(d_temp, bytes, d_in, d_out, num_items, stream);
  });
}

template <class InputIt, class OutputIt>
void exclusive_sum(InputIt d_in, OutputIt d_out, std::int64_t num_items, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::exclusive_sum", stream, [&](void* d_temp, std::size_t& bytes) {
    return exclusive_sum(d_temp, bytes, d_in, d_out, num_items, stream);
  });
}

}  // namespace upsweep
