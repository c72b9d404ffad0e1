// Device layer: unique and unique_by_key, one pass each, with any equality. Core and convenience
// layers as in device_select.cuh (the forms returning the count to the host synchronise).
//  - a run is a stretch of consecutive items (keys) each equal under eq to the one before it;
//    both keep the first item of each run, as std::unique and Thrust do (CUB's UniqueByKey keeps
//    the first too; its run-length encode and ReduceByKey write other items of a run: see
//    device_reduce_by_key.cuh).
//  - eq(a, b) is called on the device once for each pair of neighbours, a before b, never past
//    the end; it should be an equivalence for runs to mean anything, but the kernels only ever
//    ask about neighbours. With ==, NaNs never equal (each its own run) and -0.0 == +0.0 (one
//    run, its first item kept).
//  - the count (std::int64_t) goes to device memory; nothing is written at or past it.
//  - outputs must not overlap the inputs (a tile's first item reads the one before it); raw
//    pointers that do are cudaErrorInvalidValue, iterators cannot be checked.
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue; n = 0 writes a count of 0.
//  - pass eq to pass a stream: (..., eq, stream).
#pragma once

#include <upsweep/compact/detail/by_key_dispatch.cuh>
#include <upsweep/compact/detail/host_count.hpp>
#include <upsweep/compact/detail/select_dispatch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/stream_allocation.hpp>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// ---- core layer -------------------------------------------------------------------------------

// Copies the first item of each run of items equal under eq, in order.
template <class Policy = void, class InputIt, class OutputIt, class Eq, detail::if_not_stream<Eq> = 0>
cudaError_t unique(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                   std::int64_t* d_num_selected, std::int64_t num_items, Eq eq, cudaStream_t stream = 0) {
  if (d_temp_storage != nullptr && detail::ranges_overlap(d_in, d_out, num_items)) return cudaErrorInvalidValue;
  return detail::dispatch_select<detail::select_policy_t<Policy, InputIt>, detail::select_output::survivors>(
      d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
      detail::run_head_flags<InputIt, Eq>{d_in, eq}, stream);
}

// unique with ==.
template <class Policy = void, class InputIt, class OutputIt>
cudaError_t unique(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                   std::int64_t* d_num_selected, std::int64_t num_items, cudaStream_t stream = 0) {
  return unique<Policy>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected, num_items,
                        cuda::std::equal_to<>{}, stream);
}

// Copies the first key of each run of keys equal under eq, and the value beside it. Values wider
// than 4 bytes are read only there (d_values_in is dereferenced once per run), and so are narrower
// ones on tiles of up to 4096 items (the default's below 2^25 items); otherwise every value is
// read, as CUB's UniqueByKey always does (detail::reads_values_at_heads).
template <class Policy = void, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt,
          class Eq = cuda::std::equal_to<>>
cudaError_t unique_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyIt d_keys_in, ValueIt d_values_in,
                          KeyOutIt d_keys_out, ValueOutIt d_values_out, std::int64_t* d_num_selected,
                          std::int64_t num_items, Eq eq = {}, cudaStream_t stream = 0) {
  using key_t = detail::it_value_t<KeyIt>;
  using value_t = detail::it_value_t<ValueIt>;
  using policy_t =
      cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_unique_by_key_policy<key_t, value_t>, Policy>;
  return detail::dispatch_by_key<policy_t, detail::by_key_output::unique>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_keys_out, d_values_out, d_num_selected, num_items,
      eq, cuda::std::plus<>{}, maybe<value_t>{value_t{}, false}, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------

template <class InputIt, class OutputIt, class Eq, detail::if_not_stream<Eq> = 0>
void unique(InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items, Eq eq,
            cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::unique", stream, [&](void* d_temp, std::size_t& bytes) {
    return unique(d_temp, bytes, d_in, d_out, d_num_selected, num_items, eq, stream);
  });
}

template <class InputIt, class OutputIt>
void unique(InputIt d_in, OutputIt d_out, std::int64_t* d_num_selected, std::int64_t num_items,
            cudaStream_t stream = 0) {
  unique(d_in, d_out, d_num_selected, num_items, cuda::std::equal_to<>{}, stream);
}

template <class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt, class Eq = cuda::std::equal_to<>>
void unique_by_key(KeyIt d_keys_in, ValueIt d_values_in, KeyOutIt d_keys_out, ValueOutIt d_values_out,
                   std::int64_t* d_num_selected, std::int64_t num_items, Eq eq = {}, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::unique_by_key", stream, [&](void* d_temp, std::size_t& bytes) {
    return unique_by_key(d_temp, bytes, d_keys_in, d_values_in, d_keys_out, d_values_out, d_num_selected, num_items,
                         eq, stream);
  });
}

// ---- convenience layer returning the count: these synchronise `stream` ------------------------

template <class InputIt, class OutputIt, class Eq, detail::if_not_stream<Eq> = 0>
std::int64_t unique(InputIt d_in, OutputIt d_out, std::int64_t num_items, Eq eq, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::unique", stream, [&](std::int64_t* d_count) {
    unique(d_in, d_out, d_count, num_items, eq, stream);
  });
}

template <class InputIt, class OutputIt>
std::int64_t unique(InputIt d_in, OutputIt d_out, std::int64_t num_items, cudaStream_t stream = 0) {
  return unique(d_in, d_out, num_items, cuda::std::equal_to<>{}, stream);
}

template <class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt, class Eq = cuda::std::equal_to<>>
std::int64_t unique_by_key(KeyIt d_keys_in, ValueIt d_values_in, KeyOutIt d_keys_out, ValueOutIt d_values_out,
                           std::int64_t num_items, Eq eq = {}, cudaStream_t stream = 0) {
  return detail::count_to_host("upsweep::unique_by_key", stream, [&](std::int64_t* d_count) {
    unique_by_key(d_keys_in, d_values_in, d_keys_out, d_values_out, d_count, num_items, eq, stream);
  });
}

}  // namespace upsweep
