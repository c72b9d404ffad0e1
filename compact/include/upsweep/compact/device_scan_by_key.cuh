// Device layer: inclusive and exclusive scans by key, one pass (by_key_kernels.cuh; 4-byte keys
// and values from 16-byte aligned pointers on resident blocks reducing ahead,
// by_key_reduce_ahead_kernel.cuh): the scan restarts at each run of keys equal under eq (called
// once for each pair of neighbours, a before b). Core and convenience layers as in
// device_scan.cuh; all asynchronous.
//  - op must be associative, not necessarily commutative; partial results are held in the
//    output's value type (the values' where the output has none). op is also applied to copies
//    of input values in a partial last tile, results discarded.
//  - exclusive: out[i] = init at the head of a run, else init op (the run's values before i).
//  - d_values_out == d_values_in (in place) is allowed for values and results of one size; the
//    output must not overlap the keys, and no other overlap is allowed (cudaErrorInvalidValue
//    for raw pointers).
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue.
//  - pass eq to pass a stream: (..., op, eq, stream).
#pragma once

#include <upsweep/compact/detail/by_key_dispatch.cuh>
#include <upsweep/scan/detail/scan_dispatch.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

template <class Policy, by_key_output Output, class KeyIt, class ValueIt, class ValueOutIt, class Acc, class Op,
          class Eq>
cudaError_t scan_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyIt d_keys_in, ValueIt d_values_in,
                        ValueOutIt d_values_out, std::int64_t num_items, maybe<Acc> init, Op op, Eq eq,
                        cudaStream_t stream) {
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>,
                                            default_scan_by_key_policy<it_value_t<KeyIt>, Acc>, Policy>;
  return dispatch_by_key<policy_t, Output>(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in,
                                           static_cast<it_value_t<KeyIt>*>(nullptr), d_values_out,
                                           static_cast<std::int64_t*>(nullptr), num_items, eq, op, init, stream);
}

}  // namespace detail

// ---- core layer -------------------------------------------------------------------------------

// out[i] = op over values[h .. i], h the head of i's run.
template <class Policy = void, class KeyIt, class ValueIt, class ValueOutIt, class Op,
          class Eq = cuda::std::equal_to<>>
cudaError_t inclusive_scan_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyIt d_keys_in,
                                  ValueIt d_values_in, ValueOutIt d_values_out, std::int64_t num_items, Op op,
                                  Eq eq = {}, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<ValueIt, ValueOutIt>;
  return detail::scan_by_key<Policy, detail::by_key_output::inclusive_scan>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, num_items,
      maybe<acc_t>{acc_t{}, false}, op, eq, stream);
}

// out[h] = init, out[i] = init op values[h] op ... op values[i - 1], h the head of i's run.
template <class Policy = void, class KeyIt, class ValueIt, class ValueOutIt, class T, class Op,
          class Eq = cuda::std::equal_to<>>
cudaError_t exclusive_scan_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyIt d_keys_in,
                                  ValueIt d_values_in, ValueOutIt d_values_out, std::int64_t num_items, T init, Op op,
                                  Eq eq = {}, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<ValueIt, ValueOutIt>;
  return detail::scan_by_key<Policy, detail::by_key_output::exclusive_scan>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out, num_items,
      maybe<acc_t>{static_cast<acc_t>(init), true}, op, eq, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------

template <class KeyIt, class ValueIt, class ValueOutIt, class Op, class Eq = cuda::std::equal_to<>>
void inclusive_scan_by_key(KeyIt d_keys_in, ValueIt d_values_in, ValueOutIt d_values_out, std::int64_t num_items,
                           Op op, Eq eq = {}, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::inclusive_scan_by_key", stream, [&](void* d_temp, std::size_t& bytes) {
    return inclusive_scan_by_key(d_temp, bytes, d_keys_in, d_values_in, d_values_out, num_items, op, eq, stream);
  });
}

template <class KeyIt, class ValueIt, class ValueOutIt, class T, class Op, class Eq = cuda::std::equal_to<>>
void exclusive_scan_by_key(KeyIt d_keys_in, ValueIt d_values_in, ValueOutIt d_values_out, std::int64_t num_items,
                           T init, Op op, Eq eq = {}, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::exclusive_scan_by_key", stream, [&](void* d_temp, std::size_t& bytes) {
    return exclusive_scan_by_key(d_temp, bytes, d_keys_in, d_values_in, d_values_out, num_items, init, op, eq,
                                 stream);
  });
}

}  // namespace upsweep
