// Compiled API of the core layer (scan and reduce) for the standard types: callable from plain C++
// (g++, no nvcc); only <cuda_runtime_api.h> types appear. Link Upsweep::scan. The templates in
// <upsweep/scan/device_scan.cuh> and <upsweep/scan/device_reduce.cuh> hold the same contracts
// for any type and operator.
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises, so it
//    can be captured in a CUDA graph.
//  - convenience form (no storage arguments) allocates stream-ordered (cudaMallocAsync on
//    `stream`) and throws upsweep::cuda_error.
//  - every call is asynchronous on `stream`; results stay in device memory.
//  - num_items is 64-bit; negative counts are cudaErrorInvalidValue.
//  - scans may run in place (d_out == d_in, the same T); any other overlap of input and output is
//    cudaErrorInvalidValue.
// For each T in int32_t, uint32_t, int64_t, uint64_t, float, double.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_SCAN_API(T)                                                                                  \
  /* d_out[i] = d_in[0] + ... + d_in[i]; in place (d_out == d_in) allowed; async, no allocation. */                 \
  UPSWEEP_API cudaError_t inclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,        \
                                        T* d_out, std::int64_t num_items, cudaStream_t stream = 0);                   \
  /* d_out[0] = 0, d_out[i] = d_in[0] + ... + d_in[i - 1]; in place allowed; async, no allocation. */                \
  UPSWEEP_API cudaError_t exclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,        \
                                        T* d_out, std::int64_t num_items, cudaStream_t stream = 0);                   \
  /* *d_out = sum of d_in (0 for n = 0), one device value; async, no allocation. */                                  \
  UPSWEEP_API cudaError_t reduce_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, \
                                     std::int64_t num_items, cudaStream_t stream = 0);                                \
  /* *d_out = smallest of d_in (+inf or the type's max for n = 0); async, no allocation. */                        \
  UPSWEEP_API cudaError_t reduce_min(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, \
                                     std::int64_t num_items, cudaStream_t stream = 0);                                \
  /* *d_out = largest of d_in (-inf or the type's lowest for n = 0); async, no allocation. */                      \
  UPSWEEP_API cudaError_t reduce_max(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out, \
                                     std::int64_t num_items, cudaStream_t stream = 0);                                \
  /* Convenience inclusive_sum: stream-ordered temporaries, throws upsweep::cuda_error; async. */                    \
  UPSWEEP_API void inclusive_sum(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);          \
  /* Convenience exclusive_sum: stream-ordered temporaries, throws upsweep::cuda_error; async. */                    \
  UPSWEEP_API void exclusive_sum(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);          \
  /* Convenience reduce_sum: the sum stays on the device; throws upsweep::cuda_error; async. */                      \
  UPSWEEP_API void reduce_sum(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);             \
  /* Convenience reduce_min: the minimum stays on the device; throws upsweep::cuda_error; async. */                  \
  UPSWEEP_API void reduce_min(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);             \
  /* Convenience reduce_max: the maximum stays on the device; throws upsweep::cuda_error; async. */                  \
  UPSWEEP_API void reduce_max(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);

UPSWEEP_DECLARE_SCAN_API(std::int32_t)
UPSWEEP_DECLARE_SCAN_API(std::uint32_t)
UPSWEEP_DECLARE_SCAN_API(std::int64_t)
UPSWEEP_DECLARE_SCAN_API(std::uint64_t)
UPSWEEP_DECLARE_SCAN_API(float)
UPSWEEP_DECLARE_SCAN_API(double)

#undef UPSWEEP_DECLARE_SCAN_API

}  // namespace upsweep
