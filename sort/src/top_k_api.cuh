// Definitions of the compiled top-k API (see <upsweep/top_k.hpp>), shared by the top_k_api_*.cu
// files that instantiate them a few key types at a time. Positions come from iterators read at
// the winners only: the input position itself, or its remainder by the row length.
#pragma once

#include <upsweep/sort/device_top_k.cuh>
#include <upsweep/top_k.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

struct input_position {
  __host__ __device__ std::int64_t operator[](long long i) const { return i; }
};

struct position_in_row {
  long long row_length;
  __host__ __device__ std::int64_t operator[](long long i) const { return i % row_length; }
};

}  // namespace upsweep::detail

#define UPSWEEP_TOP_K_CONVENIENCE(name, ...)                                                             \
  ::upsweep::detail::with_temp_storage("upsweep::" #name, stream, [&](void* d_temp, std::size_t& bytes) { \
    return name(d_temp, bytes, __VA_ARGS__);                                                             \
  })

#define UPSWEEP_DEFINE_TOP_K_API(K)                                                                                    \
  namespace upsweep {                                                                                                  \
  cudaError_t top_k_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,    \
                         std::int64_t num_items, std::int64_t k, top_k_select which, top_k_output output,             \
                         cudaStream_t stream) {                                                                        \
    return top_k_keys<K>(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items, k, which, output,      \
                         stream);                                                                                      \
  }                                                                                                                    \
  void top_k_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_items, std::int64_t k, top_k_select which,      \
                  top_k_output output, cudaStream_t stream) {                                                          \
    UPSWEEP_TOP_K_CONVENIENCE(top_k_keys, d_keys_in, d_keys_out, num_items, k, which, output, stream);                \
  }                                                                                                                    \
  cudaError_t top_k_with_indices(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,           \
                                 K* d_keys_out, std::int64_t* d_indices_out, std::int64_t num_items, std::int64_t k,  \
                                 top_k_select which, top_k_output output, cudaStream_t stream) {                      \
    return top_k_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, detail::input_position{},            \
                       d_indices_out, num_items, k, which, output, stream);                                            \
  }                                                                                                                    \
  void top_k_with_indices(const K* d_keys_in, K* d_keys_out, std::int64_t* d_indices_out, std::int64_t num_items,     \
                          std::int64_t k, top_k_select which, top_k_output output, cudaStream_t stream) {             \
    UPSWEEP_TOP_K_CONVENIENCE(top_k_with_indices, d_keys_in, d_keys_out, d_indices_out, num_items, k, which, output,  \
                              stream);                                                                                 \
  }                                                                                                                    \
  cudaError_t top_k_rows_with_indices(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,      \
                                      K* d_keys_out, std::int64_t* d_indices_out, std::int64_t num_rows,              \
                                      std::int64_t row_length, std::int64_t k, top_k_select which,                    \
                                      top_k_output output, cudaStream_t stream) {                                     \
    return top_k_rows_pairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,                                \
                            detail::position_in_row{row_length > 0 ? row_length : 1}, d_indices_out, num_rows,        \
                            row_length, k, which, output, stream);                                                     \
  }                                                                                                                    \
  void top_k_rows_with_indices(const K* d_keys_in, K* d_keys_out, std::int64_t* d_indices_out, std::int64_t num_rows, \
                               std::int64_t row_length, std::int64_t k, top_k_select which, top_k_output output,      \
                               cudaStream_t stream) {                                                                  \
    UPSWEEP_TOP_K_CONVENIENCE(top_k_rows_with_indices, d_keys_in, d_keys_out, d_indices_out, num_rows, row_length, k, \
                              which, output, stream);                                                                  \
  }                                                                                                                    \
  }  // namespace upsweep
