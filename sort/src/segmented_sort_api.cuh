// Definitions of the compiled segmented sort API (see <upsweep/segmented_sort.hpp>), shared by the
// segmented_sort_api_*.cu files that instantiate them a few key types at a time. Values move as
// unsigned words of their width, and rows go through an offsets array written into the temporary
// storage, so each key type instantiates the sort for int64 offsets and two value widths only.
#pragma once

#include <upsweep/segmented_sort.hpp>
#include <upsweep/sort/device_segmented_sort.cuh>
#include <upsweep/util/temp_storage.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace upsweep::detail {

template <class V>
using value_word_t = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;

// Keys only: V = no_values.
template <class K, class V>
cudaError_t compiled_segmented_sort(void* d_temp, std::size_t& bytes, const K* d_keys_in, K* d_keys_out,
                                    const V* d_values_in, V* d_values_out, std::int64_t num_items,
                                    std::int64_t num_segments, const std::int64_t* d_begins, const std::int64_t* d_ends,
                                    sort_order order, cudaStream_t stream) {
  constexpr int bits = key_bits_v<K>;
  if constexpr (!has_values_v<V>) {
    return order == sort_order::descending
               ? segmented_sort_keys_descending<K>(d_temp, bytes, d_keys_in, d_keys_out, num_items, num_segments,
                                                   d_begins, d_ends, 0, bits, stream)
               : segmented_sort_keys<K>(d_temp, bytes, d_keys_in, d_keys_out, num_items, num_segments, d_begins, d_ends,
                                        0, bits, stream);
  } else {
    using W = value_word_t<V>;
    const auto* d_words_in = reinterpret_cast<const W*>(d_values_in);
    auto* d_words_out = reinterpret_cast<W*>(d_values_out);
    return order == sort_order::descending
               ? segmented_sort_pairs_descending<K, W>(d_temp, bytes, d_keys_in, d_keys_out, d_words_in, d_words_out,
                                                       num_items, num_segments, d_begins, d_ends, 0, bits, stream)
               : segmented_sort_pairs<K, W>(d_temp, bytes, d_keys_in, d_keys_out, d_words_in, d_words_out, num_items,
                                            num_segments, d_begins, d_ends, 0, bits, stream);
  }
}

// (A template, so that every file instantiating the API has its own.)
template <class Offset>
__global__ void write_row_offsets_kernel(Offset* d_offsets, Offset num_rows, Offset row_length) {
  const Offset row = blockIdx.x * static_cast<Offset>(blockDim.x) + threadIdx.x;
  if (row <= num_rows) d_offsets[row] = row * row_length;
}

// Rows: their num_rows + 1 offsets first in the temporary storage, the sort's storage after them.
template <class K, class V>
cudaError_t compiled_sort_rows(void* d_temp, std::size_t& bytes, const K* d_keys_in, K* d_keys_out,
                               const V* d_values_in, V* d_values_out, std::int64_t num_rows, std::int64_t row_length,
                               sort_order order, cudaStream_t stream) {
  if (num_rows < 0 || row_length < 0) return cudaErrorInvalidValue;
  std::size_t sort_bytes = 0;
  const std::int64_t n = num_rows * row_length;
  UPSWEEP_CUDA_RETURN(compiled_segmented_sort(nullptr, sort_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                              num_rows, static_cast<const std::int64_t*>(nullptr),
                                              static_cast<const std::int64_t*>(nullptr), order, stream));
  void* pieces[2] = {};
  const std::size_t sizes[2] = {static_cast<std::size_t>(num_rows + 1) * sizeof(std::int64_t), sort_bytes};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp, bytes, pieces, sizes));
  if (d_temp == nullptr || n == 0) return cudaSuccess;
  auto* const d_offsets = static_cast<std::int64_t*>(pieces[0]);
  const auto blocks = static_cast<unsigned>((num_rows + 1 + 255) / 256);
  write_row_offsets_kernel<std::int64_t><<<blocks, 256, 0, stream>>>(d_offsets, num_rows, row_length);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  return compiled_segmented_sort(pieces[1], sort_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out, n, num_rows,
                                 d_offsets, d_offsets + 1, order, stream);
}

}  // namespace upsweep::detail

#define UPSWEEP_SEGMENTED_CONVENIENCE(name, ...) \
  ::upsweep::detail::with_temp_storage(          \
      "upsweep::" #name, stream, [&](void* d_temp, std::size_t& bytes) { return name(d_temp, bytes, __VA_ARGS__); })

#define UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, V)                                                                \
  namespace upsweep {                                                                                                \
  cudaError_t segmented_sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,        \
                                   K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t num_items,     \
                                   std::int64_t num_segments, const std::int64_t* d_begin_offsets,                   \
                                   const std::int64_t* d_end_offsets, sort_order order, cudaStream_t stream) {       \
    return detail::compiled_segmented_sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,   \
                                           d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets,    \
                                           order, stream);                                                           \
  }                                                                                                                  \
  void segmented_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,                \
                            std::int64_t num_items, std::int64_t num_segments, const std::int64_t* d_begin_offsets,  \
                            const std::int64_t* d_end_offsets, sort_order order, cudaStream_t stream) {              \
    UPSWEEP_SEGMENTED_CONVENIENCE(segmented_sort_pairs, d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, \
                                  num_segments, d_begin_offsets, d_end_offsets, order, stream);                      \
  }                                                                                                                  \
  cudaError_t sort_rows_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,             \
                              K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t num_rows,           \
                              std::int64_t row_length, sort_order order, cudaStream_t stream) {                      \
    return detail::compiled_sort_rows(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,        \
                                      d_values_out, num_rows, row_length, order, stream);                            \
  }                                                                                                                  \
  void sort_rows_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,                     \
                       std::int64_t num_rows, std::int64_t row_length, sort_order order, cudaStream_t stream) {      \
    UPSWEEP_SEGMENTED_CONVENIENCE(sort_rows_pairs, d_keys_in, d_keys_out, d_values_in, d_values_out, num_rows,       \
                                  row_length, order, stream);                                                        \
  }                                                                                                                  \
  }  // namespace upsweep

#define UPSWEEP_DEFINE_SEGMENTED_SORT_API(K)                                                                           \
  namespace upsweep {                                                                                                  \
  cudaError_t segmented_sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,           \
                                  K* d_keys_out, std::int64_t num_items, std::int64_t num_segments,                    \
                                  const std::int64_t* d_begin_offsets, const std::int64_t* d_end_offsets,              \
                                  sort_order order, cudaStream_t stream) {                                             \
    using none = detail::no_values;                                                                                    \
    return detail::compiled_segmented_sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,                  \
                                           static_cast<const none*>(nullptr), static_cast<none*>(nullptr), num_items,  \
                                           num_segments, d_begin_offsets, d_end_offsets, order, stream);               \
  }                                                                                                                    \
  void segmented_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_items, std::int64_t num_segments,       \
                           const std::int64_t* d_begin_offsets, const std::int64_t* d_end_offsets, sort_order order,   \
                           cudaStream_t stream) {                                                                      \
    UPSWEEP_SEGMENTED_CONVENIENCE(segmented_sort_keys, d_keys_in, d_keys_out, num_items, num_segments,                 \
                                  d_begin_offsets, d_end_offsets, order, stream);                                      \
  }                                                                                                                    \
  cudaError_t sort_rows_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out, \
                             std::int64_t num_rows, std::int64_t row_length, sort_order order, cudaStream_t stream) {  \
    using none = detail::no_values;                                                                                    \
    return detail::compiled_sort_rows(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,                       \
                                      static_cast<const none*>(nullptr), static_cast<none*>(nullptr), num_rows,        \
                                      row_length, order, stream);                                                      \
  }                                                                                                                    \
  void sort_rows_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_rows, std::int64_t row_length,               \
                      sort_order order, cudaStream_t stream) {                                                         \
    UPSWEEP_SEGMENTED_CONVENIENCE(sort_rows_keys, d_keys_in, d_keys_out, num_rows, row_length, order, stream);         \
  }                                                                                                                    \
  } /* namespace upsweep */                                                                                            \
  UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, std::int32_t)                                                             \
  UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, std::uint32_t)                                                            \
  UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, float)                                                                    \
  UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, std::int64_t)                                                             \
  UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, std::uint64_t)                                                            \
  UPSWEEP_DEFINE_SEGMENTED_SORT_PAIRS_API(K, double)
