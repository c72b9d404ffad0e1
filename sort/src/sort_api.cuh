// Definitions of the compiled radix-sort API (see <upsweep/sort.hpp>), shared by the sort_api_*.cu
// files that instantiate them a few key types at a time. Typed values are moved as unsigned words
// of their size, so each key type instantiates two value widths, not six value types.
#pragma once

#include <upsweep/sort.hpp>
#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class V>
using value_word_t = typename unsigned_of_size<sizeof(V)>::type;

}  // namespace upsweep::detail

#define UPSWEEP_SORT_CONVENIENCE(name, what, ...)                                                        \
  ::upsweep::detail::with_temp_storage("upsweep::" what, stream, [&](void* d_temp, std::size_t& bytes) { \
    return name(d_temp, bytes, __VA_ARGS__);                                                             \
  })

#define UPSWEEP_DEFINE_SORT_KEYS_API(K)                                                                               \
  namespace upsweep {                                                                                                 \
  cudaError_t sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,   \
                        std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream) {                  \
    return sort_keys<void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items, begin_bit, end_bit, \
                           stream);                                                                                  \
  }                                                                                                                   \
  cudaError_t sort_keys_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,       \
                                   K* d_keys_out, std::int64_t num_items, int begin_bit, int end_bit,               \
                                   cudaStream_t stream) {                                                            \
    return sort_keys_descending<void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items,          \
                                      begin_bit, end_bit, stream);                                                   \
  }                                                                                                                   \
  void sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_items, int begin_bit, int end_bit,             \
                 cudaStream_t stream) {                                                                              \
    UPSWEEP_SORT_CONVENIENCE(sort_keys<void>, "sort_keys", d_keys_in, d_keys_out, num_items, begin_bit, end_bit,     \
                             stream);                                                                                \
  }                                                                                                                   \
  void sort_keys_descending(const K* d_keys_in, K* d_keys_out, std::int64_t num_items, int begin_bit, int end_bit,  \
                            cudaStream_t stream) {                                                                   \
    UPSWEEP_SORT_CONVENIENCE(sort_keys_descending<void>, "sort_keys_descending", d_keys_in, d_keys_out, num_items,   \
                             begin_bit, end_bit, stream);                                                            \
  }                                                                                                                   \
  UPSWEEP_DEFINE_ARGSORT(K, std::uint32_t)                                                                            \
  UPSWEEP_DEFINE_ARGSORT(K, std::uint64_t)                                                                            \
  }

#define UPSWEEP_DEFINE_ARGSORT(K, I)                                                                                  \
  cudaError_t argsort(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, I* d_indices_out,  \
                      std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream) {                    \
    return argsort<void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_indices_out, num_items, begin_bit,         \
                         end_bit, stream);                                                                           \
  }                                                                                                                   \
  cudaError_t argsort_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,         \
                                 I* d_indices_out, std::int64_t num_items, int begin_bit, int end_bit,              \
                                 cudaStream_t stream) {                                                              \
    return argsort_descending<void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_indices_out, num_items,         \
                                    begin_bit, end_bit, stream);                                                     \
  }                                                                                                                   \
  void argsort(const K* d_keys_in, I* d_indices_out, std::int64_t num_items, int begin_bit, int end_bit,            \
               cudaStream_t stream) {                                                                                \
    UPSWEEP_SORT_CONVENIENCE(argsort<void>, "argsort", d_keys_in, d_indices_out, num_items, begin_bit,               \
                             end_bit, stream);                                                                       \
  }                                                                                                                   \
  void argsort_descending(const K* d_keys_in, I* d_indices_out, std::int64_t num_items, int begin_bit, int end_bit, \
                          cudaStream_t stream) {                                                                     \
    UPSWEEP_SORT_CONVENIENCE(argsort_descending<void>, "argsort_descending", d_keys_in, d_indices_out, num_items,    \
                             begin_bit, end_bit, stream);                                                            \
  }

// Values travel as the unsigned word of their size: the bits are moved, never interpreted.
#define UPSWEEP_DEFINE_SORT_PAIRS_API(K, V)                                                                           \
  namespace upsweep {                                                                                                 \
  cudaError_t sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,  \
                         const V* d_values_in, V* d_values_out, std::int64_t num_items, int begin_bit, int end_bit, \
                         cudaStream_t stream) {                                                                      \
    using word_t = detail::value_word_t<V>;                                                                          \
    return sort_pairs<void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,                               \
                            reinterpret_cast<const word_t*>(d_values_in), reinterpret_cast<word_t*>(d_values_out),   \
                            num_items, begin_bit, end_bit, stream);                                                  \
  }                                                                                                                   \
  cudaError_t sort_pairs_descending(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,      \
                                    K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t num_items,   \
                                    int begin_bit, int end_bit, cudaStream_t stream) {                              \
    using word_t = detail::value_word_t<V>;                                                                          \
    return sort_pairs_descending<void>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,                    \
                                       reinterpret_cast<const word_t*>(d_values_in),                                 \
                                       reinterpret_cast<word_t*>(d_values_out), num_items, begin_bit, end_bit,       \
                                       stream);                                                                      \
  }                                                                                                                   \
  void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t num_items, \
                  int begin_bit, int end_bit, cudaStream_t stream) {                                                 \
    using word_t = detail::value_word_t<V>;                                                                          \
    UPSWEEP_SORT_CONVENIENCE(sort_pairs<void>, "sort_pairs", d_keys_in, d_keys_out,                                  \
                             reinterpret_cast<const word_t*>(d_values_in), reinterpret_cast<word_t*>(d_values_out),  \
                             num_items, begin_bit, end_bit, stream);                                                 \
  }                                                                                                                   \
  void sort_pairs_descending(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,              \
                             std::int64_t num_items, int begin_bit, int end_bit, cudaStream_t stream) {             \
    using word_t = detail::value_word_t<V>;                                                                          \
    UPSWEEP_SORT_CONVENIENCE(sort_pairs_descending<void>, "sort_pairs_descending", d_keys_in, d_keys_out,            \
                             reinterpret_cast<const word_t*>(d_values_in), reinterpret_cast<word_t*>(d_values_out),  \
                             num_items, begin_bit, end_bit, stream);                                                 \
  }                                                                                                                   \
  }

#define UPSWEEP_DEFINE_SORT_API(K)                  \
  UPSWEEP_DEFINE_SORT_KEYS_API(K)                   \
  UPSWEEP_DEFINE_SORT_PAIRS_API(K, std::uint32_t)   \
  UPSWEEP_DEFINE_SORT_PAIRS_API(K, std::int32_t)    \
  UPSWEEP_DEFINE_SORT_PAIRS_API(K, float)           \
  UPSWEEP_DEFINE_SORT_PAIRS_API(K, std::uint64_t)   \
  UPSWEEP_DEFINE_SORT_PAIRS_API(K, std::int64_t)    \
  UPSWEEP_DEFINE_SORT_PAIRS_API(K, double)
