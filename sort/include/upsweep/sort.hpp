// Compiled API of radix sort for the standard key and value types: callable from plain C++ (g++,
// no nvcc); only <cuda_runtime_api.h> types appear. Link Upsweep::sort. The templates in
// <upsweep/sort/device_radix_sort.cuh> hold the same contracts for __half and bf16 keys, struct
// keys through a decomposer, double buffers, and values of any trivially copyable type of 1 to 16
// bytes.
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises, so it
//    can be captured in a CUDA graph.
//  - convenience form (no storage arguments) allocates stream-ordered (cudaMallocAsync on
//    `stream`) and throws upsweep::cuda_error.
//  - every call is asynchronous on `stream`; results stay in device memory.
//  - stable in every mode (descending too); order is CUB's bit for bit: -0.0 and +0.0 equal and
//    kept in input order, NaNs by bit pattern (+NaN after +inf, -NaN before -inf). One exception:
//    descending over a window that drops a float's low bits, CUB puts the zeros among the tiniest
//    negatives; here descending is the exact reverse of ascending (zeros among the tiniest positives).
//  - [begin_bit, end_bit) selects the ordered key bits to sort by (default: all of them); outside
//    0 <= begin_bit <= end_bit <= key bits is cudaErrorInvalidValue.
//  - num_items is 64-bit; negative counts and n >= 2^59 are cudaErrorInvalidValue; n = 0 does nothing.
// Keys K: uint8/16/32/64_t, int8/16/32/64_t, float, double. Values V of sort_pairs: uint32_t,
// int32_t, float, uint64_t, int64_t, double (moved with their keys, never compared). Indices of
// argsort: uint32_t (num_items <= 2^32) or uint64_t.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_SORT_KEYS_API(K)                                                                              \
  /* Stable ascending sort of keys; d_keys_out == d_keys_in sorts in place, else the input is kept; async. */        \
  UPSWEEP_API cudaError_t sort_keys(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,       \
                                    K* d_keys_out, std::int64_t num_items, int begin_bit = 0,                        \
                                    int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                           \
  /* Stable descending sort of keys (the exact reverse order, equal keys in input order); in place as sort_keys. */  \
  UPSWEEP_API cudaError_t sort_keys_descending(void* d_temp_storage, std::size_t& temp_storage_bytes,               \
                                               const K* d_keys_in, K* d_keys_out, std::int64_t num_items,            \
                                               int begin_bit = 0, int end_bit = 8 * sizeof(K),                       \
                                               cudaStream_t stream = 0);                                             \
  /* Convenience sort_keys: stream-ordered temporaries, throws upsweep::cuda_error; async. */                         \
  UPSWEEP_API void sort_keys(const K* d_keys_in, K* d_keys_out, std::int64_t num_items, int begin_bit = 0,           \
                             int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                                  \
  /* Convenience sort_keys_descending: stream-ordered temporaries, throws upsweep::cuda_error; async. */              \
  UPSWEEP_API void sort_keys_descending(const K* d_keys_in, K* d_keys_out, std::int64_t num_items,                  \
                                        int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);    \
  /* d_indices_out = the stable ascending sorting permutation of the keys (input unchanged); async. */               \
  UPSWEEP_API cudaError_t argsort(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,        \
                                  std::uint32_t* d_indices_out, std::int64_t num_items, int begin_bit = 0,           \
                                  int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                             \
  /* argsort with 64-bit indices. */                                                                                 \
  UPSWEEP_API cudaError_t argsort(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,        \
                                  std::uint64_t* d_indices_out, std::int64_t num_items, int begin_bit = 0,           \
                                  int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                             \
  /* The stable descending sorting permutation (equal keys in input order); input unchanged; async. */               \
  UPSWEEP_API cudaError_t argsort_descending(void* d_temp_storage, std::size_t& temp_storage_bytes,                 \
                                             const K* d_keys_in, std::uint32_t* d_indices_out,                      \
                                             std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K), \
                                             cudaStream_t stream = 0);                                               \
  /* argsort_descending with 64-bit indices. */                                                                      \
  UPSWEEP_API cudaError_t argsort_descending(void* d_temp_storage, std::size_t& temp_storage_bytes,                 \
                                             const K* d_keys_in, std::uint64_t* d_indices_out,                      \
                                             std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K), \
                                             cudaStream_t stream = 0);                                               \
  /* Convenience argsort: stream-ordered temporaries, throws upsweep::cuda_error; async. */                           \
  UPSWEEP_API void argsort(const K* d_keys_in, std::uint32_t* d_indices_out, std::int64_t num_items,                \
                           int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                 \
  /* Convenience argsort, 64-bit indices. */                                                                         \
  UPSWEEP_API void argsort(const K* d_keys_in, std::uint64_t* d_indices_out, std::int64_t num_items,                \
                           int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);                 \
  /* Convenience argsort_descending, 32-bit indices. */                                                              \
  UPSWEEP_API void argsort_descending(const K* d_keys_in, std::uint32_t* d_indices_out, std::int64_t num_items,     \
                                      int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);      \
  /* Convenience argsort_descending, 64-bit indices. */                                                              \
  UPSWEEP_API void argsort_descending(const K* d_keys_in, std::uint64_t* d_indices_out, std::int64_t num_items,     \
                                      int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);

#define UPSWEEP_DECLARE_SORT_PAIRS_API(K, V)                                                                          \
  /* Stable ascending sort of keys, values moved with them; in place with out == in for both arrays; async. */      \
  UPSWEEP_API cudaError_t sort_pairs(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,      \
                                     K* d_keys_out, const V* d_values_in, V* d_values_out, std::int64_t num_items,   \
                                     int begin_bit = 0, int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);       \
  /* Stable descending sort of pairs (equal keys keep input order); in place as sort_pairs; async. */                \
  UPSWEEP_API cudaError_t sort_pairs_descending(void* d_temp_storage, std::size_t& temp_storage_bytes,              \
                                                const K* d_keys_in, K* d_keys_out, const V* d_values_in,             \
                                                V* d_values_out, std::int64_t num_items, int begin_bit = 0,          \
                                                int end_bit = 8 * sizeof(K), cudaStream_t stream = 0);               \
  /* Convenience sort_pairs: stream-ordered temporaries, throws upsweep::cuda_error; async. */                        \
  UPSWEEP_API void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,             \
                              std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K),                \
                              cudaStream_t stream = 0);                                                              \
  /* Convenience sort_pairs_descending: stream-ordered temporaries, throws upsweep::cuda_error; async. */             \
  UPSWEEP_API void sort_pairs_descending(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,  \
                                         std::int64_t num_items, int begin_bit = 0, int end_bit = 8 * sizeof(K),     \
                                         cudaStream_t stream = 0);

#define UPSWEEP_DECLARE_SORT_API(K)                  \
  UPSWEEP_DECLARE_SORT_KEYS_API(K)                   \
  UPSWEEP_DECLARE_SORT_PAIRS_API(K, std::uint32_t)   \
  UPSWEEP_DECLARE_SORT_PAIRS_API(K, std::int32_t)    \
  UPSWEEP_DECLARE_SORT_PAIRS_API(K, float)           \
  UPSWEEP_DECLARE_SORT_PAIRS_API(K, std::uint64_t)   \
  UPSWEEP_DECLARE_SORT_PAIRS_API(K, std::int64_t)    \
  UPSWEEP_DECLARE_SORT_PAIRS_API(K, double)

UPSWEEP_DECLARE_SORT_API(std::uint8_t)
UPSWEEP_DECLARE_SORT_API(std::uint16_t)
UPSWEEP_DECLARE_SORT_API(std::uint32_t)
UPSWEEP_DECLARE_SORT_API(std::uint64_t)
UPSWEEP_DECLARE_SORT_API(std::int8_t)
UPSWEEP_DECLARE_SORT_API(std::int16_t)
UPSWEEP_DECLARE_SORT_API(std::int32_t)
UPSWEEP_DECLARE_SORT_API(std::int64_t)
UPSWEEP_DECLARE_SORT_API(float)
UPSWEEP_DECLARE_SORT_API(double)

#undef UPSWEEP_DECLARE_SORT_API
#undef UPSWEEP_DECLARE_SORT_PAIRS_API
#undef UPSWEEP_DECLARE_SORT_KEYS_API

}  // namespace upsweep

#include <upsweep/host_sort.hpp>  // the same keys and values in host memory, larger than the device
