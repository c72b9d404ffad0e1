// Compiled API of the histogram for the standard sample types: callable from plain C++ (g++, no
// nvcc); only <cuda_runtime_api.h> types appear. Link Upsweep::histogram. The templates in
// <upsweep/histogram/device_histogram.cuh> hold the same contracts and add multi-channel pixels.
//  - core form (d_temp_storage, temp_storage_bytes, ...) returns cudaError_t; with
//    d_temp_storage == nullptr it only writes the size. Never allocates or synchronises, so it
//    can be captured in a CUDA graph.
//  - convenience form (no storage arguments) allocates stream-ordered (cudaMallocAsync on
//    `stream`) and throws upsweep::cuda_error.
//  - every call is asynchronous on `stream`; the counts stay in device memory.
//  - bins are [lower, upper) (custom: [edges[i], edges[i + 1])); samples outside, and NaNs, are
//    dropped. Integer bin indices are exact, floor((x - lower) * num_bins / (upper - lower)).
//  - bounds (and edges) of integer samples of up to 32 bits are long long, so the upper bound
//    may be one past the type's maximum ([-128, 128) is every int8); 64-bit integers and floats
//    take bounds of their own type. Bounds must lie in [min, max + 1] of the sample type.
//  - counters: uint32_t (wrap modulo 2^32) or uint64_t. histogram_mode::overwrite zeroes
//    d_counts first (also for n = 0); accumulate adds to them.
//  - invalid arguments (num_bins < 1, lower >= upper, bounds outside the type, negative counts,
//    null pointers) give cudaErrorInvalidValue before any CUDA call.
#pragma once

#include <upsweep/export.hpp>
#include <upsweep/histogram/histogram_mode.hpp>
#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

#define UPSWEEP_DECLARE_HISTOGRAM_COUNTER_API(S, L, C)                                                               \
  /* num_bins even bins over [lower, upper) of the samples into d_counts; async, no allocation. */                   \
  UPSWEEP_API cudaError_t histogram_even(void* d_temp_storage, std::size_t& temp_storage_bytes, const S* d_samples, \
                                         std::int64_t num_samples, C* d_counts, int num_bins, L lower, L upper,     \
                                         histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0);  \
  /* num_bins bins between num_bins + 1 non-decreasing device edges; async, no allocation. */                        \
  UPSWEEP_API cudaError_t histogram_range(void* d_temp_storage, std::size_t& temp_storage_bytes,                    \
                                          const S* d_samples, std::int64_t num_samples, C* d_counts,                \
                                          const L* d_edges, int num_bins,                                           \
                                          histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0); \
  /* Convenience histogram_even: stream-ordered temporaries, throws upsweep::cuda_error; async. */                    \
  UPSWEEP_API void histogram_even(const S* d_samples, std::int64_t num_samples, C* d_counts, int num_bins, L lower,  \
                                  L upper, histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0); \
  /* Convenience histogram_range: stream-ordered temporaries, throws upsweep::cuda_error; async. */                   \
  UPSWEEP_API void histogram_range(const S* d_samples, std::int64_t num_samples, C* d_counts, const L* d_edges,      \
                                   int num_bins, histogram_mode mode = histogram_mode::overwrite,                    \
                                   cudaStream_t stream = 0);

// S: sample type, L: its bound type.
#define UPSWEEP_DECLARE_HISTOGRAM_API(S, L)                    \
  UPSWEEP_DECLARE_HISTOGRAM_COUNTER_API(S, L, std::uint32_t)   \
  UPSWEEP_DECLARE_HISTOGRAM_COUNTER_API(S, L, std::uint64_t)

UPSWEEP_DECLARE_HISTOGRAM_API(std::uint8_t, long long)
UPSWEEP_DECLARE_HISTOGRAM_API(std::uint16_t, long long)
UPSWEEP_DECLARE_HISTOGRAM_API(std::uint32_t, long long)
UPSWEEP_DECLARE_HISTOGRAM_API(std::uint64_t, std::uint64_t)
UPSWEEP_DECLARE_HISTOGRAM_API(std::int8_t, long long)
UPSWEEP_DECLARE_HISTOGRAM_API(std::int16_t, long long)
UPSWEEP_DECLARE_HISTOGRAM_API(std::int32_t, long long)
UPSWEEP_DECLARE_HISTOGRAM_API(std::int64_t, std::int64_t)
UPSWEEP_DECLARE_HISTOGRAM_API(float, float)
UPSWEEP_DECLARE_HISTOGRAM_API(double, double)

#undef UPSWEEP_DECLARE_HISTOGRAM_API
#undef UPSWEEP_DECLARE_HISTOGRAM_COUNTER_API

}  // namespace upsweep
