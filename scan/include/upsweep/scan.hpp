// Compiled API of the core layer for the standard types: callable from plain C++ (g++, no nvcc);
// only <cuda_runtime_api.h> types appear. Same contracts as the templates in
// <upsweep/scan/device_scan.cuh> and <upsweep/scan/device_reduce.cuh>:
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises.
//  - convenience form allocates stream-ordered and throws upsweep::cuda_error.
//  - all are asynchronous on `stream`; in place (d_out == d_in) is allowed for scans.
// For each T in int32_t, uint32_t, int64_t, uint64_t, float, double:
//   inclusive_sum / exclusive_sum (const T* d_in, T* d_out, int64_t num_items)
//   reduce_sum / reduce_min / reduce_max (const T* d_in, T* d_out (one value), int64_t num_items)
#pragma once

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_SCAN_API(T)                                                                                  \
  cudaError_t inclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,         \
                            std::int64_t num_items, cudaStream_t stream = 0);                                        \
  cudaError_t exclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,         \
                            std::int64_t num_items, cudaStream_t stream = 0);                                        \
  cudaError_t reduce_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,            \
                         std::int64_t num_items, cudaStream_t stream = 0);                                           \
  cudaError_t reduce_min(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,            \
                         std::int64_t num_items, cudaStream_t stream = 0);                                           \
  cudaError_t reduce_max(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,            \
                         std::int64_t num_items, cudaStream_t stream = 0);                                           \
  void inclusive_sum(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);                     \
  void exclusive_sum(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);                     \
  void reduce_sum(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);                        \
  void reduce_min(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);                        \
  void reduce_max(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);

UPSWEEP_DECLARE_SCAN_API(std::int32_t)
UPSWEEP_DECLARE_SCAN_API(std::uint32_t)
UPSWEEP_DECLARE_SCAN_API(std::int64_t)
UPSWEEP_DECLARE_SCAN_API(std::uint64_t)
UPSWEEP_DECLARE_SCAN_API(float)
UPSWEEP_DECLARE_SCAN_API(double)

#undef UPSWEEP_DECLARE_SCAN_API

}  // namespace upsweep
