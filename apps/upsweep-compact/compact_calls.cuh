// The library calls of upsweep-compact's jobs (core layer) and Thrust's answers for --verify,
// shared by the whole-input run (compact_gpu.cu) and the streamed one (compact_stream.cu).
#pragma once

#include "compact_gpu.hpp"

#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_select.cuh>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace upsweep::apps {

struct nonzero {
  template <class F>
  __host__ __device__ bool operator()(F f) const { return f != 0; }
};

// The library call for the job, core layer: with d_temp == nullptr it only sizes the storage.
template <class T>
cudaError_t compact_call(const compact_job& job, void* d_temp, std::size_t& bytes, const T* d_in,
                         const std::uint8_t* d_mask, T* d_out, std::int64_t* d_count, std::int64_t n,
                         cudaStream_t stream = nullptr) {
  switch (job.mode) {
    case compact_mode::select:
      if (job.mask) return upsweep::select_flagged(d_temp, bytes, d_in, d_mask, d_out, d_count, n, stream);
      return upsweep::select_if(d_temp, bytes, d_in, d_out, d_count, n, *job.where, stream);
    case compact_mode::partition:
      return upsweep::stable_partition(d_temp, bytes, d_in, d_out, d_count, n, *job.where, stream);
    case compact_mode::count:
      if (job.mask) return upsweep::count_if(d_temp, bytes, d_mask, d_count, n, nonzero{}, stream);
      return upsweep::count_if(d_temp, bytes, d_in, d_count, n, *job.where, stream);
  }
  return cudaErrorInvalidValue;
}

// Thrust's answer on the device; returns its count and leaves its items in d_ref.
template <class T>
std::int64_t thrust_reference(const compact_job& job, const T* d_in, const std::uint8_t* d_mask, T* d_ref,
                              std::int64_t n, cudaStream_t stream = nullptr) {
  const auto policy = thrust::cuda::par.on(stream);
  switch (job.mode) {
    case compact_mode::select:
      if (job.mask) return thrust::copy_if(policy, d_in, d_in + n, d_mask, d_ref, nonzero{}) - d_ref;
      return thrust::copy_if(policy, d_in, d_in + n, d_ref, *job.where) - d_ref;
    case compact_mode::partition:
      thrust::copy(policy, d_in, d_in + n, d_ref);
      return thrust::stable_partition(policy, d_ref, d_ref + n, *job.where) - d_ref;
    case compact_mode::count:
      if (job.mask) return thrust::count_if(policy, d_mask, d_mask + n, nonzero{});
      return thrust::count_if(policy, d_in, d_in + n, *job.where);
  }
  return -1;
}

}  // namespace upsweep::apps
