// Definitions of the compiled histogram API (see <upsweep/histogram.hpp>), shared by the
// histogram_api_*.cu files that instantiate them a few sample types at a time.
#pragma once

#include <upsweep/histogram.hpp>
#include <upsweep/histogram/device_histogram.cuh>

#include <cstddef>
#include <cstdint>

#define UPSWEEP_DEFINE_HISTOGRAM_COUNTER_API(S, C)                                                                    \
  namespace upsweep {                                                                                                 \
  cudaError_t histogram_even(void* d_temp_storage, std::size_t& temp_storage_bytes, const S* d_samples,              \
                             std::int64_t num_samples, C* d_counts, int num_bins, histogram_level_t<S> lower,        \
                             histogram_level_t<S> upper, histogram_mode mode, cudaStream_t stream) {                 \
    return histogram_even<void>(d_temp_storage, temp_storage_bytes, d_samples, num_samples, d_counts, num_bins,       \
                                lower, upper, mode, stream);                                                         \
  }                                                                                                                   \
  cudaError_t histogram_range(void* d_temp_storage, std::size_t& temp_storage_bytes, const S* d_samples,             \
                              std::int64_t num_samples, C* d_counts, const histogram_level_t<S>* d_edges,            \
                              int num_bins, histogram_mode mode, cudaStream_t stream) {                              \
    return histogram_range<void>(d_temp_storage, temp_storage_bytes, d_samples, num_samples, d_counts, d_edges,       \
                                 num_bins, mode, stream);                                                            \
  }                                                                                                                   \
  void histogram_even(const S* d_samples, std::int64_t num_samples, C* d_counts, int num_bins,                       \
                      histogram_level_t<S> lower, histogram_level_t<S> upper, histogram_mode mode,                   \
                      cudaStream_t stream) {                                                                         \
    detail::with_temp_storage("upsweep::histogram_even", stream, [&](void* d_temp, std::size_t& bytes) {              \
      return histogram_even<void>(d_temp, bytes, d_samples, num_samples, d_counts, num_bins, lower, upper, mode,      \
                                  stream);                                                                           \
    });                                                                                                               \
  }                                                                                                                   \
  void histogram_range(const S* d_samples, std::int64_t num_samples, C* d_counts,                                    \
                       const histogram_level_t<S>* d_edges, int num_bins, histogram_mode mode, cudaStream_t stream) {\
    detail::with_temp_storage("upsweep::histogram_range", stream, [&](void* d_temp, std::size_t& bytes) {             \
      return histogram_range<void>(d_temp, bytes, d_samples, num_samples, d_counts, d_edges, num_bins, mode, stream); \
    });                                                                                                               \
  }                                                                                                                   \
  }

#define UPSWEEP_DEFINE_HISTOGRAM_API(S)                     \
  UPSWEEP_DEFINE_HISTOGRAM_COUNTER_API(S, std::uint32_t)    \
  UPSWEEP_DEFINE_HISTOGRAM_COUNTER_API(S, std::uint64_t)
