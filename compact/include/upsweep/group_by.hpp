// Compiled API of the group-by family for the standard key and value types: callable from plain C++
// (g++, no nvcc); only <cuda_runtime_api.h> types appear. Link Upsweep::compact. The templates in
// <upsweep/compact/device_unique.cuh>, device_reduce_by_key.cuh and device_scan_by_key.cuh take
// any key, value, operator and equality, with the same contracts.
//  - a run is a stretch of consecutive keys equal under == (NaN keys never equal, -0.0 == +0.0).
//  - unique_by_key: the first key and first value of each run. reduce_by_key: the first key of each
//    run and the sum, min or max of its values. Both write the number of runs (std::int64_t) to
//    *d_num_runs in device memory and nothing at or past it; their outputs must not overlap the
//    inputs (cudaErrorInvalidValue).
//  - inclusive_sum_by_key: out[i] = the sum of i's run up to i; exclusive_sum_by_key: up to i - 1
//    (0 at a run's first item). In place (d_values_out == d_values_in) allowed.
//  - integer sums wrap around as unsigned arithmetic does; float sums are associated in an
//    unspecified order (rounding may differ from a sequential loop). min and max compare with <,
//    as upsweep::reduce_min does: with NaNs among a run's values the result is unspecified.
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises, so it can
//    be captured in a CUDA graph. Convenience form: stream-ordered temporaries, throws
//    upsweep::cuda_error, asynchronous except the forms returning the number of runs to the host,
//    which synchronise `stream`.
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue; n = 0 writes a count of 0.
// For each key type K and value type V in int32_t, uint32_t, int64_t, uint64_t, float, double.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

enum class reduction : std::int32_t { sum, min, max };

#define UPSWEEP_DECLARE_GROUP_BY_API(K, V)                                                                            \
  UPSWEEP_API cudaError_t unique_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,   \
                                        const V* d_values_in, K* d_keys_out, V* d_values_out,                        \
                                        std::int64_t* d_num_runs, std::int64_t num_items, cudaStream_t stream = 0);  \
  UPSWEEP_API cudaError_t reduce_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, const K* d_keys_in,   \
                                        const V* d_values_in, K* d_unique_keys_out, V* d_aggregates_out,             \
                                        std::int64_t* d_num_runs, std::int64_t num_items, reduction op,              \
                                        cudaStream_t stream = 0);                                                    \
  UPSWEEP_API cudaError_t inclusive_sum_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes,               \
                                               const K* d_keys_in, const V* d_values_in, V* d_values_out,           \
                                               std::int64_t num_items, cudaStream_t stream = 0);                     \
  UPSWEEP_API cudaError_t exclusive_sum_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes,               \
                                               const K* d_keys_in, const V* d_values_in, V* d_values_out,           \
                                               std::int64_t num_items, cudaStream_t stream = 0);                     \
  /* Convenience forms: stream-ordered temporaries, throw upsweep::cuda_error; async. */                              \
  UPSWEEP_API void unique_by_key(const K* d_keys_in, const V* d_values_in, K* d_keys_out, V* d_values_out,          \
                                 std::int64_t* d_num_runs, std::int64_t num_items, cudaStream_t stream = 0);         \
  UPSWEEP_API void reduce_by_key(const K* d_keys_in, const V* d_values_in, K* d_unique_keys_out,                    \
                                 V* d_aggregates_out, std::int64_t* d_num_runs, std::int64_t num_items,             \
                                 reduction op, cudaStream_t stream = 0);                                             \
  UPSWEEP_API void inclusive_sum_by_key(const K* d_keys_in, const V* d_values_in, V* d_values_out,                  \
                                        std::int64_t num_items, cudaStream_t stream = 0);                            \
  UPSWEEP_API void exclusive_sum_by_key(const K* d_keys_in, const V* d_values_in, V* d_values_out,                  \
                                        std::int64_t num_items, cudaStream_t stream = 0);                            \
  /* The number of runs returned to the host: synchronise `stream`; throw upsweep::cuda_error. */                    \
  UPSWEEP_API std::int64_t unique_by_key(const K* d_keys_in, const V* d_values_in, K* d_keys_out, V* d_values_out,  \
                                         std::int64_t num_items, cudaStream_t stream = 0);                           \
  UPSWEEP_API std::int64_t reduce_by_key(const K* d_keys_in, const V* d_values_in, K* d_unique_keys_out,            \
                                         V* d_aggregates_out, std::int64_t num_items, reduction op,                 \
                                         cudaStream_t stream = 0);

// X(K, V) for every value type V (the definitions use it too).
#define UPSWEEP_FOR_EACH_GROUP_BY_VALUE(X, K) \
  X(K, std::int32_t) X(K, std::uint32_t) X(K, std::int64_t) X(K, std::uint64_t) X(K, float) X(K, double)

UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DECLARE_GROUP_BY_API, std::int32_t)
UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DECLARE_GROUP_BY_API, std::uint32_t)
UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DECLARE_GROUP_BY_API, std::int64_t)
UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DECLARE_GROUP_BY_API, std::uint64_t)
UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DECLARE_GROUP_BY_API, float)
UPSWEEP_FOR_EACH_GROUP_BY_VALUE(UPSWEEP_DECLARE_GROUP_BY_API, double)

#undef UPSWEEP_DECLARE_GROUP_BY_API

}  // namespace upsweep
