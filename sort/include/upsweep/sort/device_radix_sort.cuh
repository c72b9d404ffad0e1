// Device layer: LSD radix sort of keys or key-value pairs (Onesweep design, Adinets and Merrill
// 2022), built on the core layer's block scan and tile counter. Two layers:
//  - core: caller-provided temporary storage. With d_temp_storage == nullptr it only writes
//    temp_storage_bytes (no CUDA call); otherwise it enqueues the work on `stream` and returns.
//    It never allocates or synchronises, so it can be captured in a CUDA graph.
//  - convenience: same names without the storage arguments; allocates stream-ordered and throws
//    upsweep::cuda_error. Asynchronous on `stream`.
// Contracts shared by every function here:
//  - keys: 8- to 64-bit integers, float, double, __half, __nv_bfloat16. Order is CUB's, bit for
//    bit: signed integers in numeric order; -0.0 and +0.0 equal (kept in input order, each key
//    written back with its own bits); NaNs by bit pattern, +NaN after +inf, -NaN before -inf.
//  - stable in every mode: equal keys (within the bit window) keep their input order, descending
//    included (descending sorts the inverted ordered bits).
//  - [begin_bit, end_bit) selects the ordered bits to sort by; outside 0 <= begin_bit <= end_bit
//    <= key bits is cudaErrorInvalidValue; an empty window copies the input to the output.
//  - values: any trivially copyable type of 1 to 16 bytes, moved with their keys.
//  - in place: d_keys_out == d_keys_in (and d_values_out == d_values_in) is allowed; the input is
//    then overwritten with the result, and an odd number of non-trivial passes costs one more
//    copy. Otherwise the input is left unchanged. Partly overlapping ranges are not allowed.
//  - temporary storage holds an alternate buffer of num_items keys (and values), the digit counts
//    and the look-back words; num_items is 64-bit, n = 0 does nothing, n >= 2^62 is invalid.
#pragma once

#include <upsweep/sort/detail/radix_sort_dispatch.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

template <class Key>
inline constexpr int key_bits_v = static_cast<int>(sizeof(Key) * 8);

// ---- core layer -------------------------------------------------------------------------------
template <class Policy = void, class Key>
cudaError_t sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                      std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                      cudaStream_t stream = 0) {
  using values_t = detail::no_values;
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, values_t>, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<const values_t*>(nullptr),
      static_cast<values_t*>(nullptr), num_items, begin_bit, end_bit, stream);
}

template <class Policy = void, class Key>
cudaError_t sort_keys_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                 Key* d_keys_out, std::int64_t num_items, int begin_bit = 0,
                                 int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  using values_t = detail::no_values;
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, values_t>, true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<const values_t*>(nullptr),
      static_cast<values_t*>(nullptr), num_items, begin_bit, end_bit, stream);
}

template <class Policy = void, class Key, class Value>
cudaError_t sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                       const Value* d_values_in, Value* d_values_out, std::int64_t num_items, int begin_bit = 0,
                       int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, Value>, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
      end_bit, stream);
}

template <class Policy = void, class Key, class Value>
cudaError_t sort_pairs_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                  Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                                  std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                                  cudaStream_t stream = 0) {
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, Value>, true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
      end_bit, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------
template <class Key>
void sort_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items, int begin_bit = 0,
               int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys(d_temp, bytes, d_keys_in, d_keys_out, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key>
void sort_keys_descending(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items, int begin_bit = 0,
                          int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys_descending(d_temp, bytes, d_keys_in, d_keys_out, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value>
void sort_pairs(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit,
                      stream);
  });
}

template <class Key, class Value>
void sort_pairs_descending(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out,
                           std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                           cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs_descending(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                                 begin_bit, end_bit, stream);
  });
}

}  // namespace upsweep
