// Device layer: histograms of evenly spaced or custom bins, single- or multi-channel. Two layers:
//  - core: caller-provided temporary storage. With d_temp_storage == nullptr it only writes
//    temp_storage_bytes (no CUDA call, no pointer read); otherwise it enqueues the work on
//    `stream` and returns. It never allocates or synchronises, so it can be captured in a graph.
//  - convenience: the same names without the storage arguments; allocates stream-ordered and
//    throws upsweep::cuda_error. Asynchronous on `stream`.
// Contracts shared by every function here:
//  - samples: 8- to 64-bit signed or unsigned integers, float or double, in device memory, any
//    alignment of the type. Counters: uint32_t or uint64_t. 32-bit counts wrap modulo 2^32.
//  - bins are [lower, upper) (custom: [edges[i], edges[i + 1])); samples outside, and NaNs, are
//    dropped. Bounds have type histogram_level_t<Sample>: 64-bit for integers of up to 32 bits,
//    so that [-128, 128) is every int8; they must lie in [min, max + 1] of the sample type.
//  - bin indices of integer samples are exact: floor((x - lower) * num_bins / (upper - lower)),
//    for every range up to the whole type (see bin_index.cuh). Float samples use
//    (x - lower) * (num_bins / (upper - lower)) in the sample type, truncated, clamped to the
//    last bin; this is the documented formula values on edges follow.
//  - mode: overwrite zeroes d_counts first (also when num_samples == 0); accumulate adds to it.
//  - invalid arguments give cudaErrorInvalidValue before any CUDA call: num_bins < 1; lower >=
//    upper, NaN or infinite bounds, or bounds outside the type; negative counts; null d_counts;
//    null samples (or edges) with num_samples > 0. A size query checks only the scalars.
//  - integer bins and 32-bit counts below 2^32 are deterministic; the order of atomic updates is not.
#pragma once

#include <upsweep/histogram/bin_index.cuh>
#include <upsweep/histogram/detail/histogram_dispatch.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include <cstddef>
#include <cstdint>

namespace upsweep {

// ---- core layer -------------------------------------------------------------------------------

// num_bins evenly spaced bins over [lower, upper).
template <class Policy = void, class Sample, class Counter>
cudaError_t histogram_even(void* d_temp_storage, std::size_t& temp_storage_bytes, const Sample* d_samples,
                           std::int64_t num_samples, Counter* d_counts, int num_bins, histogram_level_t<Sample> lower,
                           histogram_level_t<Sample> upper, histogram_mode mode = histogram_mode::overwrite,
                           cudaStream_t stream = 0) {
  if (num_samples < 0) return cudaErrorInvalidValue;
  even_bins<Sample> mappers[1];
  UPSWEEP_CUDA_RETURN(make_even_bins<Sample>(num_bins, lower, upper, mappers[0]));
  Counter* const counts[1] = {d_counts};
  return detail::dispatch_histogram<detail::histogram_policy_t<Policy, Sample>, 1, 1>(
      d_temp_storage, temp_storage_bytes, d_samples, num_samples, counts, mappers, mode, stream);
}

// num_bins bins between num_bins + 1 non-decreasing edges in device memory (searched in shared
// memory when they fit, in global memory otherwise).
template <class Policy = void, class Sample, class Counter>
cudaError_t histogram_range(void* d_temp_storage, std::size_t& temp_storage_bytes, const Sample* d_samples,
                            std::int64_t num_samples, Counter* d_counts, const histogram_level_t<Sample>* d_edges,
                            int num_bins, histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0) {
  if (num_samples < 0 || num_bins < 1) return cudaErrorInvalidValue;
  const range_bins<Sample> mappers[1] = {{d_edges, num_bins}};
  Counter* const counts[1] = {d_counts};
  return detail::dispatch_histogram<detail::histogram_policy_t<Policy, Sample>, 1, 1>(
      d_temp_storage, temp_storage_bytes, d_samples, num_samples, counts, mappers, mode, stream);
}

// Interleaved pixels of Channels samples (RGBA8: Channels = 4); the first ActiveChannels of each
// pixel get a histogram each (RGB of RGBA: ActiveChannels = 3), with their own bins and bounds.
template <int Channels, int ActiveChannels, class Policy = void, class Sample, class Counter>
cudaError_t histogram_even_multi(void* d_temp_storage, std::size_t& temp_storage_bytes, const Sample* d_samples,
                                 std::int64_t num_pixels, Counter* const (&d_counts)[ActiveChannels],
                                 const int (&num_bins)[ActiveChannels],
                                 const histogram_level_t<Sample> (&lower)[ActiveChannels],
                                 const histogram_level_t<Sample> (&upper)[ActiveChannels],
                                 histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0) {
  static_assert(1 <= ActiveChannels && ActiveChannels <= Channels, "1 <= ActiveChannels <= Channels");
  if (num_pixels < 0) return cudaErrorInvalidValue;
  even_bins<Sample> mappers[ActiveChannels];
  for (int c = 0; c < ActiveChannels; ++c)
    UPSWEEP_CUDA_RETURN(make_even_bins<Sample>(num_bins[c], lower[c], upper[c], mappers[c]));
  return detail::dispatch_histogram<detail::histogram_policy_t<Policy, Sample>, Channels, ActiveChannels>(
      d_temp_storage, temp_storage_bytes, d_samples, num_pixels, d_counts, mappers, mode, stream);
}

// ---- convenience layer: stream-ordered temporaries, throws upsweep::cuda_error ----------------

template <class Sample, class Counter>
void histogram_even(const Sample* d_samples, std::int64_t num_samples, Counter* d_counts, int num_bins,
                    histogram_level_t<Sample> lower, histogram_level_t<Sample> upper,
                    histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::histogram_even", stream, [&](void* d_temp, std::size_t& bytes) {
    return histogram_even(d_temp, bytes, d_samples, num_samples, d_counts, num_bins, lower, upper, mode, stream);
  });
}

template <class Sample, class Counter>
void histogram_range(const Sample* d_samples, std::int64_t num_samples, Counter* d_counts,
                     const histogram_level_t<Sample>* d_edges, int num_bins,
                     histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::histogram_range", stream, [&](void* d_temp, std::size_t& bytes) {
    return histogram_range(d_temp, bytes, d_samples, num_samples, d_counts, d_edges, num_bins, mode, stream);
  });
}

template <int Channels, int ActiveChannels, class Sample, class Counter>
void histogram_even_multi(const Sample* d_samples, std::int64_t num_pixels, Counter* const (&d_counts)[ActiveChannels],
                          const int (&num_bins)[ActiveChannels],
                          const histogram_level_t<Sample> (&lower)[ActiveChannels],
                          const histogram_level_t<Sample> (&upper)[ActiveChannels],
                          histogram_mode mode = histogram_mode::overwrite, cudaStream_t stream = 0) {
  detail::with_temp_storage("upsweep::histogram_even_multi", stream, [&](void* d_temp, std::size_t& bytes) {
    return histogram_even_multi<Channels, ActiveChannels>(d_temp, bytes, d_samples, num_pixels, d_counts, num_bins,
                                                          lower, upper, mode, stream);
  });
}

}  // namespace upsweep
