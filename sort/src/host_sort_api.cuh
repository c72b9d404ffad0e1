// Definitions of the compiled host-to-host sort API (see <upsweep/host_sort.hpp>), instantiated by
// the sort_api_*.cu files beside the device sort of the same key types (the kernels are shared
// within a file). Values travel as the unsigned word of their size.
#pragma once

#include <upsweep/host_sort.hpp>
#include <upsweep/sort/host_radix_sort.cuh>

#define UPSWEEP_DEFINE_HOST_SORT_KEYS_API(K)                                                                          \
  namespace upsweep {                                                                                                 \
  cudaError_t host_sort_keys(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out, std::int64_t num_items, \
                             int begin_bit, int end_bit, cudaStream_t stream) {                                     \
    return host_sort_keys<K>(storage, h_keys_in, h_keys_out, num_items, begin_bit, end_bit, stream);                 \
  }                                                                                                                   \
  cudaError_t host_sort_keys_descending(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out,              \
                                        std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream) {  \
    return host_sort_keys_descending<K>(storage, h_keys_in, h_keys_out, num_items, begin_bit, end_bit, stream);      \
  }                                                                                                                   \
  void host_sort_keys(const K* h_keys_in, K* h_keys_out, std::int64_t num_items, int begin_bit, int end_bit,        \
                      host_sort_options options, cudaStream_t stream) {                                             \
    host_sort_keys<K>(h_keys_in, h_keys_out, num_items, begin_bit, end_bit, options, stream);                        \
  }                                                                                                                   \
  void host_sort_keys_descending(const K* h_keys_in, K* h_keys_out, std::int64_t num_items, int begin_bit,          \
                                 int end_bit, host_sort_options options, cudaStream_t stream) {                     \
    host_sort_keys_descending<K>(h_keys_in, h_keys_out, num_items, begin_bit, end_bit, options, stream);             \
  }                                                                                                                   \
  cudaError_t host_sort_keys(host_sort_storage& storage, host_stream<K>& keys_in, host_stream<K>& keys_out,          \
                             std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream) {             \
    return host_sort_keys<K>(storage, keys_in, keys_out, num_items, begin_bit, end_bit, stream);                     \
  }                                                                                                                   \
  cudaError_t host_sort_keys_descending(host_sort_storage& storage, host_stream<K>& keys_in,                         \
                                        host_stream<K>& keys_out, std::int64_t num_items, int begin_bit,            \
                                        int end_bit, cudaStream_t stream) {                                         \
    return host_sort_keys_descending<K>(storage, keys_in, keys_out, num_items, begin_bit, end_bit, stream);          \
  }                                                                                                                   \
  void host_sort_keys(host_stream<K>& keys_in, host_stream<K>& keys_out, std::int64_t num_items, int begin_bit,     \
                      int end_bit, host_sort_options options, cudaStream_t stream) {                                \
    host_sort_keys<K>(keys_in, keys_out, num_items, begin_bit, end_bit, options, stream);                            \
  }                                                                                                                   \
  void host_sort_keys_descending(host_stream<K>& keys_in, host_stream<K>& keys_out, std::int64_t num_items,         \
                                 int begin_bit, int end_bit, host_sort_options options, cudaStream_t stream) {      \
    host_sort_keys_descending<K>(keys_in, keys_out, num_items, begin_bit, end_bit, options, stream);                 \
  }                                                                                                                   \
  }

#define UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, V)                                                                      \
  namespace upsweep {                                                                                                 \
  cudaError_t host_sort_pairs(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out, const V* h_values_in,  \
                              V* h_values_out, std::int64_t num_items, int begin_bit, int end_bit,                  \
                              cudaStream_t stream) {                                                                 \
    using word_t = detail::value_word_t<V>;                                                                          \
    return host_sort_pairs<K, word_t>(storage, h_keys_in, h_keys_out, reinterpret_cast<const word_t*>(h_values_in),  \
                                      reinterpret_cast<word_t*>(h_values_out), num_items, begin_bit, end_bit,        \
                                      stream);                                                                       \
  }                                                                                                                   \
  cudaError_t host_sort_pairs_descending(host_sort_storage& storage, const K* h_keys_in, K* h_keys_out,             \
                                         const V* h_values_in, V* h_values_out, std::int64_t num_items,             \
                                         int begin_bit, int end_bit, cudaStream_t stream) {                         \
    using word_t = detail::value_word_t<V>;                                                                          \
    return host_sort_pairs_descending<K, word_t>(storage, h_keys_in, h_keys_out,                                     \
                                                 reinterpret_cast<const word_t*>(h_values_in),                       \
                                                 reinterpret_cast<word_t*>(h_values_out), num_items, begin_bit,      \
                                                 end_bit, stream);                                                   \
  }                                                                                                                   \
  void host_sort_pairs(const K* h_keys_in, K* h_keys_out, const V* h_values_in, V* h_values_out,                    \
                       std::int64_t num_items, int begin_bit, int end_bit, host_sort_options options,               \
                       cudaStream_t stream) {                                                                        \
    using word_t = detail::value_word_t<V>;                                                                          \
    host_sort_pairs<K, word_t>(h_keys_in, h_keys_out, reinterpret_cast<const word_t*>(h_values_in),                  \
                               reinterpret_cast<word_t*>(h_values_out), num_items, begin_bit, end_bit, options,      \
                               stream);                                                                              \
  }                                                                                                                   \
  void host_sort_pairs_descending(const K* h_keys_in, K* h_keys_out, const V* h_values_in, V* h_values_out,         \
                                  std::int64_t num_items, int begin_bit, int end_bit, host_sort_options options,    \
                                  cudaStream_t stream) {                                                             \
    using word_t = detail::value_word_t<V>;                                                                          \
    host_sort_pairs_descending<K, word_t>(h_keys_in, h_keys_out, reinterpret_cast<const word_t*>(h_values_in),       \
                                          reinterpret_cast<word_t*>(h_values_out), num_items, begin_bit, end_bit,    \
                                          options, stream);                                                          \
  }                                                                                                                   \
  cudaError_t host_sort_pairs(host_sort_storage& storage, host_stream<K>& keys_in, host_stream<K>& keys_out,         \
                              host_stream<V>& values_in, host_stream<V>& values_out, std::int64_t num_items,        \
                              int begin_bit, int end_bit, cudaStream_t stream) {                                    \
    return detail::dispatch_host_streams<false, K, detail::value_word_t<V>>(                                          \
        storage, keys_in, keys_out, &values_in, &values_out, num_items, begin_bit, end_bit, stream);                 \
  }                                                                                                                   \
  cudaError_t host_sort_pairs_descending(host_sort_storage& storage, host_stream<K>& keys_in,                        \
                                         host_stream<K>& keys_out, host_stream<V>& values_in,                       \
                                         host_stream<V>& values_out, std::int64_t num_items, int begin_bit,         \
                                         int end_bit, cudaStream_t stream) {                                        \
    return detail::dispatch_host_streams<true, K, detail::value_word_t<V>>(                                           \
        storage, keys_in, keys_out, &values_in, &values_out, num_items, begin_bit, end_bit, stream);                 \
  }                                                                                                                   \
  void host_sort_pairs(host_stream<K>& keys_in, host_stream<K>& keys_out, host_stream<V>& values_in,                \
                       host_stream<V>& values_out, std::int64_t num_items, int begin_bit, int end_bit,              \
                       host_sort_options options, cudaStream_t stream) {                                            \
    detail::host_stream_convenience<false, K, detail::value_word_t<V>>("upsweep::host_sort_pairs", keys_in, keys_out, \
                                                                       &values_in, &values_out, num_items,           \
                                                                       begin_bit, end_bit, options, stream);         \
  }                                                                                                                   \
  void host_sort_pairs_descending(host_stream<K>& keys_in, host_stream<K>& keys_out, host_stream<V>& values_in,     \
                                  host_stream<V>& values_out, std::int64_t num_items, int begin_bit, int end_bit,   \
                                  host_sort_options options, cudaStream_t stream) {                                 \
    detail::host_stream_convenience<true, K, detail::value_word_t<V>>("upsweep::host_sort_pairs_descending", keys_in, \
                                                                      keys_out, &values_in, &values_out, num_items,  \
                                                                      begin_bit, end_bit, options, stream);          \
  }                                                                                                                   \
  }

// Each value type names its word, so the word-typed templates are instantiated once per width.
#define UPSWEEP_DEFINE_HOST_SORT_API(K)                  \
  UPSWEEP_DEFINE_HOST_SORT_KEYS_API(K)                   \
  UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, std::uint32_t)   \
  UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, std::int32_t)    \
  UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, float)           \
  UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, std::uint64_t)   \
  UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, std::int64_t)    \
  UPSWEEP_DEFINE_HOST_SORT_PAIRS_API(K, double)
