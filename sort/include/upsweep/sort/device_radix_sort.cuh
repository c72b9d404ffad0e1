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
//    One deliberate difference: descending over a window that drops a float's low bits, CUB
//    buckets the zeros with the tiniest negatives (it folds -0.0 onto +0.0 after inverting);
//    here descending stays the exact reverse of ascending, zeros with the tiniest positives.
//  - struct keys: the overloads taking a decomposer (after num_items, as in CUB) sort any
//    trivially copyable key by the members it names, most significant first, each member in its
//    own type's order above; keys move whole (members the decomposer does not name ride along).
//    Bits are numbered over the members' concatenated ordered bits, bit 0 being the last member's
//    lowest (radix_decomposer.cuh); the default window is all of them.
//  - stable in every mode: equal keys (within the bit window) keep their input order, descending
//    included (descending sorts the inverted ordered bits).
//  - [begin_bit, end_bit) selects the ordered bits to sort by; outside 0 <= begin_bit <= end_bit
//    <= key bits is cudaErrorInvalidValue; an empty window copies the input to the output.
//  - values: any trivially copyable type of 1 to 16 bytes, moved with their keys.
//  - in place: d_keys_out == d_keys_in (and/or d_values_out == d_values_in) is allowed; the input
//    is then overwritten with the result, and an odd number of digit passes that are not skipped
//    costs one more copy. The temporary storage still holds the n-sized alternate buffers: the
//    double-buffer forms need none. Otherwise the input is left unchanged. Partly overlapping
//    ranges are not allowed.
//  - double buffer: the forms taking double_buffer<T>& read d_buffers[selector], may overwrite both
//    buffers, and set selector (on the host, before returning) to the buffer holding the result:
//    it flips when the window needs an odd number of 8-bit digit passes (ceil((end_bit -
//    begin_bit) / 8)), whatever n is, and stays for an even number or an empty window. Values
//    flip with their keys. The two buffers must not overlap.
//  - keys alone of 8 or 16 bits (integers, __half, bf16; no decomposer) over all their bits, from
//    2^19 keys (8-bit), 2^21 (16-bit integers) or 2^22 (__half, bf16), sort without digit passes:
//    every key value is counted and the counts expanded into the output (counting_sort_kernels.cuh).
//    The output is the same, bit for bit, including the input order of -0.0 and +0.0, which then
//    costs one more read of the input when both occur. The double-buffer selector follows the rule
//    above all the same. CUB has no such path.
//  - temporary storage holds an alternate buffer of num_items keys (and values; not for double
//    buffers), the digit counts and the look-back words (for the counting sort, at least that:
//    a size asked for n items serves any smaller n); num_items is 64-bit, n = 0 does nothing,
//    n >= 2^59 is invalid.
//  - argsort: d_indices_out = the stable sorting permutation (the input position of each sorted
//    key), unsigned indices of 32 bits (num_items <= 2^32) or 64; the keys are left unchanged.
#pragma once

#include <upsweep/sort/detail/radix_sort_dispatch.cuh>
#include <upsweep/sort/radix_decomposer.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

template <class Key>
inline constexpr int key_bits_v = static_cast<int>(sizeof(Key) * 8);

namespace detail {

template <class Key, class Decomposer, class Result>
using if_decomposer_t = cuda::std::enable_if_t<is_decomposer_v<Key, Decomposer>, Result>;

}  // namespace detail

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

// Stable sorting permutation of the keys (ascending); the keys are left unchanged. Temporary
// storage: the pair sort's plus num_items keys and indices.
template <class Policy = void, class Key, class Index>
cudaError_t argsort(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Index* d_indices_out,
                    std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_argsort<detail::radix_sort_policy_t<Policy, Key, Index>, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_indices_out, num_items, begin_bit, end_bit, stream);
}

template <class Policy = void, class Key, class Index>
cudaError_t argsort_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                               Index* d_indices_out, std::int64_t num_items, int begin_bit = 0,
                               int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::dispatch_argsort<detail::radix_sort_policy_t<Policy, Key, Index>, true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_indices_out, num_items, begin_bit, end_bit, stream);
}

// ---- core layer, struct keys through a decomposer --------------------------------------------
// Stable ascending sort of struct keys by the decomposer's members; in place as sort_keys.
template <class Policy = void, class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_keys(
    void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
    std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  using values_t = detail::no_values;
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, values_t>, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<const values_t*>(nullptr),
      static_cast<values_t*>(nullptr), num_items, begin_bit, end_bit, stream,
      detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_keys_descending(
    void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
    std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  using values_t = detail::no_values;
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, values_t>, true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, static_cast<const values_t*>(nullptr),
      static_cast<values_t*>(nullptr), num_items, begin_bit, end_bit, stream,
      detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_pairs(
    void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
    const Value* d_values_in, Value* d_values_out, std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, Value>, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
      end_bit, stream, detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_pairs_descending(
    void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
    const Value* d_values_in, Value* d_values_out, std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  return detail::dispatch_radix_sort<detail::radix_sort_policy_t<Policy, Key, Value>, true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit,
      end_bit, stream, detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Index, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> argsort(
    void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Index* d_indices_out,
    std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  return detail::dispatch_argsort<detail::radix_sort_policy_t<Policy, Key, Index>, false>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_indices_out, num_items, begin_bit, end_bit, stream,
      detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Index, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> argsort_descending(
    void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Index* d_indices_out,
    std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  return detail::dispatch_argsort<detail::radix_sort_policy_t<Policy, Key, Index>, true>(
      d_temp_storage, temp_storage_bytes, d_keys_in, d_indices_out, num_items, begin_bit, end_bit, stream,
      detail::decomposed_key_codec<Key, Decomposer>{decomposer});
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

template <class Key, class Index>
void argsort(const Key* d_keys_in, Index* d_indices_out, std::int64_t num_items, int begin_bit = 0,
             int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::argsort", stream, [&](void* d_temp, std::size_t& bytes) {
    return argsort(d_temp, bytes, d_keys_in, d_indices_out, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key, class Index>
void argsort_descending(const Key* d_keys_in, Index* d_indices_out, std::int64_t num_items, int begin_bit = 0,
                        int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::argsort_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return argsort_descending(d_temp, bytes, d_keys_in, d_indices_out, num_items, begin_bit, end_bit, stream);
  });
}

// Struct keys through a decomposer.
template <class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_keys(const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items,
                                                         Decomposer decomposer, int begin_bit = 0,
                                                         int end_bit = decomposed_key_bits_v<Key, Decomposer>,
                                                         cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys(d_temp, bytes, d_keys_in, d_keys_out, num_items, decomposer, begin_bit, end_bit, stream);
  });
}

template <class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_keys_descending(
    const Key* d_keys_in, Key* d_keys_out, std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys_descending(d_temp, bytes, d_keys_in, d_keys_out, num_items, decomposer, begin_bit, end_bit,
                                stream);
  });
}

template <class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_pairs(const Key* d_keys_in, Key* d_keys_out,
                                                          const Value* d_values_in, Value* d_values_out,
                                                          std::int64_t num_items, Decomposer decomposer,
                                                          int begin_bit = 0,
                                                          int end_bit = decomposed_key_bits_v<Key, Decomposer>,
                                                          cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, decomposer,
                      begin_bit, end_bit, stream);
  });
}

template <class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_pairs_descending(
    const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in, Value* d_values_out, std::int64_t num_items,
    Decomposer decomposer, int begin_bit = 0, int end_bit = decomposed_key_bits_v<Key, Decomposer>,
    cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs_descending(d_temp, bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items,
                                 decomposer, begin_bit, end_bit, stream);
  });
}

template <class Key, class Index, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> argsort(const Key* d_keys_in, Index* d_indices_out,
                                                       std::int64_t num_items, Decomposer decomposer,
                                                       int begin_bit = 0,
                                                       int end_bit = decomposed_key_bits_v<Key, Decomposer>,
                                                       cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::argsort", stream, [&](void* d_temp, std::size_t& bytes) {
    return argsort(d_temp, bytes, d_keys_in, d_indices_out, num_items, decomposer, begin_bit, end_bit, stream);
  });
}

template <class Key, class Index, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> argsort_descending(
    const Key* d_keys_in, Index* d_indices_out, std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::argsort_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return argsort_descending(d_temp, bytes, d_keys_in, d_indices_out, num_items, decomposer, begin_bit, end_bit,
                              stream);
  });
}

}  // namespace upsweep

// The double-buffer forms (the contract above), in a header of their own.
#include <upsweep/sort/device_radix_sort_double_buffer.cuh>
