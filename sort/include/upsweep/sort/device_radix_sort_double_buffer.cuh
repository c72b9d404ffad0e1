// Device layer: the radix sort's double-buffer forms, core and convenience (the contract is in
// device_radix_sort.cuh, which includes this header; either may be included first). The caller
// owns both n-sized buffers, so the temporary storage holds no alternate buffer; `selector` names
// the buffer that holds the result when the call returns.
#pragma once

#include <upsweep/sort/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// Two caller buffers of num_items elements and which one holds the data: the double-buffer sorts
// read d_buffers[selector] and leave the result in d_buffers[selector], updating selector.
template <class T>
struct double_buffer {
  T* d_buffers[2] = {nullptr, nullptr};
  int selector = 0;
  double_buffer() = default;
  double_buffer(T* d_current, T* d_alternate) : d_buffers{d_current, d_alternate} {}
  T* current() const { return d_buffers[selector]; }
  T* alternate() const { return d_buffers[selector ^ 1]; }
};

namespace detail {

template <class Policy, bool Descending, class Key, class Value, class Codec>
cudaError_t sort_double_buffer(void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& keys,
                               double_buffer<Value>* values, std::int64_t num_items, int begin_bit, int end_bit,
                               cudaStream_t stream, const Codec& codec) {
  using policy_t = radix_sort_policy_t<Policy, Key, Value>;
  if constexpr (has_values_v<Value>) {
    return dispatch_radix_sort_double_buffer<policy_t, Descending>(d_temp_storage, temp_storage_bytes, keys.d_buffers,
                                                                   keys.selector, values->d_buffers, values->selector,
                                                                   num_items, begin_bit, end_bit, stream, codec);
  } else {
    no_values* const none[2] = {nullptr, nullptr};
    int none_selector = 0;
    return dispatch_radix_sort_double_buffer<policy_t, Descending>(d_temp_storage, temp_storage_bytes,
                                                                   keys.d_buffers, keys.selector, none, none_selector,
                                                                   num_items, begin_bit, end_bit, stream, codec);
  }
}

}  // namespace detail

// ---- core layer, double buffers: no n-sized temporary, selector names the result -------------
template <class Policy = void, class Key>
cudaError_t sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys,
                      std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                      cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, false, Key, detail::no_values>(
      d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items, begin_bit, end_bit, stream,
      detail::radix_key_codec<Key>{});
}

template <class Policy = void, class Key>
cudaError_t sort_keys_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys,
                                 std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
                                 cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, true, Key, detail::no_values>(
      d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items, begin_bit, end_bit, stream,
      detail::radix_key_codec<Key>{});
}

template <class Policy = void, class Key, class Value>
cudaError_t sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys,
                       double_buffer<Value>& d_values, std::int64_t num_items, int begin_bit = 0,
                       int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, false>(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                                                   begin_bit, end_bit, stream, detail::radix_key_codec<Key>{});
}

template <class Policy = void, class Key, class Value>
cudaError_t sort_pairs_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys,
                                  double_buffer<Value>& d_values, std::int64_t num_items, int begin_bit = 0,
                                  int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, true>(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                                                  begin_bit, end_bit, stream, detail::radix_key_codec<Key>{});
}

template <class Policy = void, class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_keys(
    void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys, std::int64_t num_items,
    Decomposer decomposer, int begin_bit = 0, int end_bit = decomposed_key_bits_v<Key, Decomposer>,
    cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, false, Key, detail::no_values>(
      d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items, begin_bit, end_bit, stream,
      detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_keys_descending(
    void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys, std::int64_t num_items,
    Decomposer decomposer, int begin_bit = 0, int end_bit = decomposed_key_bits_v<Key, Decomposer>,
    cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, true, Key, detail::no_values>(
      d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items, begin_bit, end_bit, stream,
      detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_pairs(
    void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys, double_buffer<Value>& d_values,
    std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, false>(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                                                   begin_bit, end_bit, stream,
                                                   detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

template <class Policy = void, class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, cudaError_t> sort_pairs_descending(
    void* d_temp_storage, std::size_t& temp_storage_bytes, double_buffer<Key>& d_keys, double_buffer<Value>& d_values,
    std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  return detail::sort_double_buffer<Policy, true>(d_temp_storage, temp_storage_bytes, d_keys, &d_values, num_items,
                                                  begin_bit, end_bit, stream,
                                                  detail::decomposed_key_codec<Key, Decomposer>{decomposer});
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------
// Double buffers (selector updated when the call returns; the work is still asynchronous).
template <class Key>
void sort_keys(double_buffer<Key>& d_keys, std::int64_t num_items, int begin_bit = 0, int end_bit = key_bits_v<Key>,
               cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys(d_temp, bytes, d_keys, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key>
void sort_keys_descending(double_buffer<Key>& d_keys, std::int64_t num_items, int begin_bit = 0,
                          int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys_descending(d_temp, bytes, d_keys, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value>
void sort_pairs(double_buffer<Key>& d_keys, double_buffer<Value>& d_values, std::int64_t num_items, int begin_bit = 0,
                int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs(d_temp, bytes, d_keys, d_values, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value>
void sort_pairs_descending(double_buffer<Key>& d_keys, double_buffer<Value>& d_values, std::int64_t num_items,
                           int begin_bit = 0, int end_bit = key_bits_v<Key>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs_descending(d_temp, bytes, d_keys, d_values, num_items, begin_bit, end_bit, stream);
  });
}

template <class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_keys(double_buffer<Key>& d_keys, std::int64_t num_items,
                                                         Decomposer decomposer, int begin_bit = 0,
                                                         int end_bit = decomposed_key_bits_v<Key, Decomposer>,
                                                         cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys(d_temp, bytes, d_keys, num_items, decomposer, begin_bit, end_bit, stream);
  });
}

template <class Key, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_keys_descending(
    double_buffer<Key>& d_keys, std::int64_t num_items, Decomposer decomposer, int begin_bit = 0,
    int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_keys_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_keys_descending(d_temp, bytes, d_keys, num_items, decomposer, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_pairs(double_buffer<Key>& d_keys, double_buffer<Value>& d_values,
                                                          std::int64_t num_items, Decomposer decomposer,
                                                          int begin_bit = 0,
                                                          int end_bit = decomposed_key_bits_v<Key, Decomposer>,
                                                          cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs(d_temp, bytes, d_keys, d_values, num_items, decomposer, begin_bit, end_bit, stream);
  });
}

template <class Key, class Value, class Decomposer>
detail::if_decomposer_t<Key, Decomposer, void> sort_pairs_descending(
    double_buffer<Key>& d_keys, double_buffer<Value>& d_values, std::int64_t num_items, Decomposer decomposer,
    int begin_bit = 0, int end_bit = decomposed_key_bits_v<Key, Decomposer>, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::sort_pairs_descending", stream, [&](void* d_temp, std::size_t& bytes) {
    return sort_pairs_descending(d_temp, bytes, d_keys, d_values, num_items, decomposer, begin_bit, end_bit, stream);
  });
}

}  // namespace upsweep
