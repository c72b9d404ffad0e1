// Compiled API of top-k for the common key types: callable from plain C++ (g++, no nvcc); only
// <cuda_runtime_api.h> types and CUDA's half and bf16 appear. Link Upsweep::sort. Contracts are
// those of <upsweep/sort/device_top_k.cuh> (order, ties to the lowest input position, sorted or
// unsorted output, errors); these forms give the winners' positions as int64_t, as torch.topk.
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises.
//  - convenience form allocates stream-ordered and throws upsweep::cuda_error.
//  - top_k_with_indices: positions in the input. top_k_rows_with_indices: num_rows rows of
//    row_length keys one after another, k winners of each row into row r of the outputs
//    (r * k ...), positions within the row; sorted rows need k <= 1024.
// Keys K: float, double, __half, __nv_bfloat16, int32_t, uint32_t, int64_t, uint64_t.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/sort/top_k_options.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_TOP_K_API(K)                                                                                  \
  /* The k largest (or smallest) keys of num_items; async. */                                                         \
  UPSWEEP_API cudaError_t top_k_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,      \
                                     K* d_keys_out, std::int64_t num_items, std::int64_t k,                           \
                                     top_k_select which = top_k_select::largest,                                      \
                                     top_k_output output = top_k_output::sorted, cudaStream_t stream = 0);            \
  UPSWEEP_API void top_k_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_items, std::int64_t k,             \
                              top_k_select which = top_k_select::largest,                                             \
                              top_k_output output = top_k_output::sorted, cudaStream_t stream = 0);                   \
  /* The winners and their input positions; async. */                                                                 \
  UPSWEEP_API cudaError_t top_k_with_indices(void* d_temp_storage, std::size_t& temp_storage_bytes,                   \
                                             const K* d_keys_in, K* d_keys_out, std::int64_t* d_indices_out,          \
                                             std::int64_t num_items, std::int64_t k,                                  \
                                             top_k_select which = top_k_select::largest,                              \
                                             top_k_output output = top_k_output::sorted, cudaStream_t stream = 0);    \
  UPSWEEP_API void top_k_with_indices(const K* d_keys_in, K* d_keys_out, std::int64_t* d_indices_out,                 \
                                      std::int64_t num_items, std::int64_t k,                                         \
                                      top_k_select which = top_k_select::largest,                                     \
                                      top_k_output output = top_k_output::sorted, cudaStream_t stream = 0);           \
  /* Each row's winners and their positions in the row; async. */                                                     \
  UPSWEEP_API cudaError_t top_k_rows_with_indices(void* d_temp_storage, std::size_t& temp_storage_bytes,              \
                                                  const K* d_keys_in, K* d_keys_out, std::int64_t* d_indices_out,     \
                                                  std::int64_t num_rows, std::int64_t row_length, std::int64_t k,     \
                                                  top_k_select which = top_k_select::largest,                         \
                                                  top_k_output output = top_k_output::sorted,                         \
                                                  cudaStream_t stream = 0);                                           \
  UPSWEEP_API void top_k_rows_with_indices(const K* d_keys_in, K* d_keys_out, std::int64_t* d_indices_out,            \
                                           std::int64_t num_rows, std::int64_t row_length, std::int64_t k,            \
                                           top_k_select which = top_k_select::largest,                                \
                                           top_k_output output = top_k_output::sorted, cudaStream_t stream = 0);

UPSWEEP_DECLARE_TOP_K_API(float)
UPSWEEP_DECLARE_TOP_K_API(double)
UPSWEEP_DECLARE_TOP_K_API(__half)
UPSWEEP_DECLARE_TOP_K_API(__nv_bfloat16)
UPSWEEP_DECLARE_TOP_K_API(std::int32_t)
UPSWEEP_DECLARE_TOP_K_API(std::uint32_t)
UPSWEEP_DECLARE_TOP_K_API(std::int64_t)
UPSWEEP_DECLARE_TOP_K_API(std::uint64_t)

#undef UPSWEEP_DECLARE_TOP_K_API

}  // namespace upsweep
