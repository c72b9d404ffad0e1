// Compiled API of the segmented sort for the common key and value types: callable from plain C++
// (g++, no nvcc); only <cuda_runtime_api.h> types and CUDA's half and bf16 appear. Link
// Upsweep::sort. Contracts are those of <upsweep/sort/device_segmented_sort.cuh> (stable, segment i
// = [d_begin_offsets[i], d_end_offsets[i]), end <= begin empty, in place allowed, errors);
// offsets are int64 device arrays (one array d_offsets with d_offsets + 1 will do), and the whole
// key is sorted (no bit window).
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises.
//  - convenience form allocates stream-ordered and throws upsweep::cuda_error.
//  - sort_rows_*: num_rows rows of row_length items one after another, each sorted on its own.
// Keys K: float, double, __half, __nv_bfloat16, int32_t, uint32_t, int64_t, uint64_t.
// Values V: int32_t, uint32_t, float, int64_t, uint64_t, double (moved as their bytes).
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/sort/sort_order.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, V)                                                                 \
  UPSWEEP_API cudaError_t segmented_sort_pairs(                                                                        \
      void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out, const V* d_values_in,  \
      V* d_values_out, std::int64_t num_items, std::int64_t num_segments, const std::int64_t* d_begin_offsets,         \
      const std::int64_t* d_end_offsets, sort_order order = sort_order::ascending, cudaStream_t stream = 0);           \
  UPSWEEP_API void segmented_sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,      \
                                        std::int64_t num_items, std::int64_t num_segments,                             \
                                        const std::int64_t* d_begin_offsets, const std::int64_t* d_end_offsets,        \
                                        sort_order order = sort_order::ascending, cudaStream_t stream = 0);            \
  UPSWEEP_API cudaError_t sort_rows_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,   \
                                          K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t num_rows, \
                                          std::int64_t row_length, sort_order order = sort_order::ascending,           \
                                          cudaStream_t stream = 0);                                                    \
  UPSWEEP_API void sort_rows_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,           \
                                   std::int64_t num_rows, std::int64_t row_length,                                     \
                                   sort_order order = sort_order::ascending, cudaStream_t stream = 0);

#define UPSWEEP_DECLARE_SEGMENTED_SORT_API(K)                                                                        \
  /* Each segment's keys sorted stably; async. */                                                                    \
  UPSWEEP_API cudaError_t segmented_sort_keys(                                                                       \
      void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in, K* d_keys_out,                      \
      std::int64_t num_items, std::int64_t num_segments, const std::int64_t* d_begin_offsets,                        \
      const std::int64_t* d_end_offsets, sort_order order = sort_order::ascending, cudaStream_t stream = 0);         \
  UPSWEEP_API void segmented_sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_items,                    \
                                       std::int64_t num_segments, const std::int64_t* d_begin_offsets,               \
                                       const std::int64_t* d_end_offsets, sort_order order = sort_order::ascending,  \
                                       cudaStream_t stream = 0);                                                     \
  UPSWEEP_API cudaError_t sort_rows_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,  \
                                         K* d_keys_out, std::int64_t num_rows, std::int64_t row_length,              \
                                         sort_order order = sort_order::ascending, cudaStream_t stream = 0);         \
  UPSWEEP_API void sort_rows_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_rows, std::int64_t row_length, \
                                  sort_order order = sort_order::ascending, cudaStream_t stream = 0);                \
  UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, std::int32_t)                                                          \
  UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, std::uint32_t)                                                         \
  UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, float)                                                                 \
  UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, std::int64_t)                                                          \
  UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, std::uint64_t)                                                         \
  UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API(K, double)

UPSWEEP_DECLARE_SEGMENTED_SORT_API(float)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(double)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(__half)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(__nv_bfloat16)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(std::int32_t)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(std::uint32_t)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(std::int64_t)
UPSWEEP_DECLARE_SEGMENTED_SORT_API(std::uint64_t)

#undef UPSWEEP_DECLARE_SEGMENTED_SORT_API
#undef UPSWEEP_DECLARE_SEGMENTED_SORT_PAIRS_API

}  // namespace upsweep
