// Device layer: reduce_by_key in one pass (by_key_kernels.cuh). Core and convenience layers as in
// device_select.cuh (the forms returning the count to the host synchronise).
//  - a run is a stretch of consecutive keys each equal under eq to the one before it (eq is called
//    once for each pair of neighbours, a before b). For each run, in order: its first key to
//    d_unique_keys_out and reduce_op over its values, in input order, to d_aggregates_out. CUB's
//    ReduceByKey writes the same runs but, for keys equal yet not identical (-0.0 and +0.0, or a
//    custom eq that compares part of a key), may write another key of the run.
//  - reduce_op must be associative, not necessarily commutative (a 2x2 matrix product is fine);
//    partial results are held in the aggregates' value type (the values' where the output has
//    none). It is also applied to copies of input values in a partial last tile, results discarded.
//  - runs may be any length, up to the whole input; the number of runs (std::int64_t) goes to
//    *d_num_runs in device memory; nothing is written at or past it.
//  - outputs must not overlap the inputs (cudaErrorInvalidValue for raw pointers) or each other
//    (not checked: their length, the number of runs, is known only on the device).
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue; n = 0 writes a count of 0.
//  - pass eq to pass a stream: (..., reduce_op, eq, stream).
#pragma once

#include <upsweep/compact/detail/by_key_dispatch.cuh>
#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/scan/detail/scan_dispatch.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep {

template <class Policy = void, class KeyIt, class ValueIt, class KeyOutIt, class AggregateOutIt, class ReduceOp,
          class Eq = cuda::std::equal_to<>>
cudaError_t reduce_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyIt d_keys_in, ValueIt d_values_in,
                          KeyOutIt d_unique_keys_out, AggregateOutIt d_aggregates_out, std::int64_t* d_num_runs,
                          std::int64_t num_items, ReduceOp reduce_op, Eq eq = {}, cudaStream_t stream = 0) {
  using acc_t = detail::scan_accumulator_t<ValueIt, AggregateOutIt>;
  using policy_t = cuda::std::conditional_t<cuda::std::is_void_v<Policy>,
                                            default_reduce_by_key_policy<detail::it_value_t<KeyIt>, acc_t>, Policy>;
  return detail::dispatch_by_key<policy_t, detail::by_key_output::reduce>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_unique_keys_out, d_aggregates_out, d_num_runs,
      num_items, eq, reduce_op, maybe<acc_t>{acc_t{}, false}, stream);
}

template <class KeyIt, class ValueIt, class KeyOutIt, class AggregateOutIt, class ReduceOp,
          class Eq = cuda::std::equal_to<>>
void reduce_by_key(KeyIt d_keys_in, ValueIt d_values_in, KeyOutIt d_unique_keys_out, AggregateOutIt d_aggregates_out,
                   std::int64_t* d_num_runs, std::int64_t num_items, ReduceOp reduce_op, Eq eq = {},
                   cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::reduce_by_key", stream, [&](void* d_temp, std::size_t& bytes) {
    return reduce_by_key(d_temp, bytes, d_keys_in, d_values_in, d_unique_keys_out, d_aggregates_out, d_num_runs,
                         num_items, reduce_op, eq, stream);
  });
}

// Returns the number of runs; synchronises `stream`.
template <class KeyIt, class ValueIt, class KeyOutIt, class AggregateOutIt, class ReduceOp,
          class Eq = cuda::std::equal_to<>>
std::int64_t reduce_by_key(KeyIt d_keys_in, ValueIt d_values_in, KeyOutIt d_unique_keys_out,
                           AggregateOutIt d_aggregates_out, std::int64_t num_items, ReduceOp reduce_op, Eq eq = {},
                           cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::reduce_by_key", stream, [&](std::int64_t* d_count) {
    reduce_by_key(d_keys_in, d_values_in, d_unique_keys_out, d_aggregates_out, d_count, num_items, reduce_op, eq,
                  stream);
  });
}

}  // namespace upsweep
