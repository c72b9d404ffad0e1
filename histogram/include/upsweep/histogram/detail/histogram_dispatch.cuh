// Host dispatch of the device histogram: check the pointers, zero the counts in overwrite mode
// (cudaMemsetAsync on the stream), size the private shared-memory copies, pick the kernel
// (privatized or global atomics, shift-only or general bins) and launch a resident grid.
// No allocation, no synchronisation; no temporary storage is needed yet.
#pragma once

#include <upsweep/histogram/detail/histogram_kernels.cuh>
#include <upsweep/histogram/detail/histogram_tuning.cuh>
#include <upsweep/histogram/histogram_mode.hpp>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

template <class Policy, class Sample>
using histogram_policy_t =
    cuda::std::conditional_t<cuda::std::is_void_v<Policy>, default_histogram_policy<Sample>, Policy>;

template <class Counter>
inline constexpr bool is_histogram_counter_v = cuda::std::is_integral_v<Counter> && cuda::std::is_unsigned_v<Counter> &&
                                               (sizeof(Counter) == 4 || sizeof(Counter) == 8);

// A block's samples stay below this, so 32-bit shared counters cannot wrap (see the policy).
inline constexpr long long max_block_samples = 1ll << 31;

// Shared-memory layout of one launch.
struct histogram_layout {
  bool privatized = false;
  int copies = 0;
  bool stage_edges = false;
  std::size_t shared_bytes = 0;
};

template <class Policy>
cudaError_t plan_histogram_layout(long long total_bins, std::size_t edge_bytes, histogram_layout& layout) {
  int device = 0, optin = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t budget = static_cast<std::size_t>(optin < Policy::max_shared_bytes ? optin : Policy::max_shared_bytes);
  // Edges are searched in shared memory when they take at most a quarter of it.
  layout.stage_edges = edge_bytes > 0 && edge_bytes <= budget / 4;
  const std::size_t left = budget - (layout.stage_edges ? edge_bytes : 0);
  const auto copy_bytes = static_cast<std::size_t>(total_bins) * sizeof(unsigned);
  layout.privatized = copy_bytes + trash_words * sizeof(unsigned) <= left;
  std::size_t counts_bytes = 0;
  if (layout.privatized) {
    // One copy always fits (checked above); more only within the copies' budget.
    const auto budget_for_copies = static_cast<std::size_t>(Policy::copies_budget_bytes);
    const std::size_t room = budget_for_copies < left ? budget_for_copies : left;
    const std::size_t trash_bytes = trash_words * sizeof(unsigned);
    const std::size_t room_for_copies = room > trash_bytes ? room - trash_bytes : 0;
    const std::size_t fit = room_for_copies / copy_bytes > 1 ? room_for_copies / copy_bytes : 1;
    layout.copies = static_cast<int>(fit < static_cast<std::size_t>(Policy::max_copies) ? fit : Policy::max_copies);
    counts_bytes = round_up_bytes(static_cast<std::size_t>(layout.copies) * copy_bytes + trash_bytes, 16);
  }
  layout.shared_bytes = counts_bytes + (layout.stage_edges ? edge_bytes : 0);
  return cudaSuccess;
}

template <class Policy, class Kernel>
cudaError_t launch_histogram(Kernel kernel, std::size_t shared_bytes, long long num_samples, long long tile_samples,
                             int& grid) {
  if (shared_bytes > 48 * 1024)
    UPSWEEP_CUDA_RETURN(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  int device = 0, sms = 0, per_sm = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));  // cached per device
  // The occupancy depends on this call's shared-memory size, so it is asked every time.
  UPSWEEP_CUDA_RETURN(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Policy::block_threads, shared_bytes));
  long long blocks = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1);
  if (blocks > Policy::max_blocks) blocks = Policy::max_blocks;
  const long long wanted = ceil_div<long long>(num_samples, tile_samples);
  if (blocks > wanted) blocks = wanted;
  const long long at_least = ceil_div<long long>(num_samples, max_block_samples);
  if (blocks < at_least) blocks = at_least;
  grid = static_cast<int>(blocks < 1 ? 1 : blocks);
  return cudaSuccess;
}

// The mappers are built and checked by the caller; num_pixels counts interleaved pixels of
// Channels samples, of which the first Active are counted.
template <class Policy, int Channels, int Active, class Sample, class Counter, class Mapper>
cudaError_t dispatch_histogram(void* d_temp_storage, std::size_t& temp_storage_bytes, const Sample* d_samples,
                               std::int64_t num_pixels, Counter* const (&d_counts)[Active],
                               const Mapper (&mappers)[Active], histogram_mode mode,
                               cudaStream_t stream) {
  static_assert(is_histogram_counter_v<Counter>, "counters are 32- or 64-bit unsigned integers");
  static_assert(1 <= Active && Active <= Channels, "1 <= active channels <= channels");
  if (num_pixels < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {0};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;

  long long total_bins = 0;
  std::size_t edge_bytes = 0;
  for (int c = 0; c < Active; ++c) {
    if (d_counts[c] == nullptr) return cudaErrorInvalidValue;
    if constexpr (Mapper::reads_edges) {
      if (num_pixels > 0 && mappers[c].edges == nullptr) return cudaErrorInvalidValue;
    }
    total_bins += mappers[c].num_bins;
    edge_bytes += mappers[c].staged_bytes();
  }
  if (num_pixels > 0 && d_samples == nullptr) return cudaErrorInvalidValue;

  if (mode == histogram_mode::overwrite) {
    for (int c = 0; c < Active; ++c)
      UPSWEEP_CUDA_RETURN(
          cudaMemsetAsync(d_counts[c], 0, static_cast<std::size_t>(mappers[c].num_bins) * sizeof(Counter), stream));
  }
  if (num_pixels == 0) return cudaSuccess;

  histogram_layout layout;
  UPSWEEP_CUDA_RETURN(plan_histogram_layout<Policy>(total_bins, edge_bytes, layout));
  histogram_params<Counter, Mapper, Active> params{};
  bool shift_only = Mapper::has_shift_path;
  for (int c = 0; c < Active; ++c) {
    params.mappers[c] = mappers[c];
    params.counts[c] = d_counts[c];
    params.bin_offsets[c + 1] = layout.privatized ? params.bin_offsets[c] + mappers[c].num_bins : 0;
    shift_only = shift_only && mappers[c].shift_only();
  }
  params.copies = layout.copies;
  params.stage_edges = layout.stage_edges;

  const long long num_samples = static_cast<long long>(num_pixels) * Channels;
  auto launch = [&](auto kernel) -> cudaError_t {
    int grid = 0;
    UPSWEEP_CUDA_RETURN(launch_histogram<Policy>(kernel, layout.shared_bytes, num_samples,
                                                 Policy::tile_bytes / static_cast<long long>(sizeof(Sample)), grid));
    kernel<<<grid, Policy::block_threads, layout.shared_bytes, stream>>>(d_samples, num_pixels, params);
    return cudaGetLastError();
  };
  if constexpr (Mapper::has_shift_path) {
    if (shift_only) {
      return layout.privatized ? launch(histogram_kernel<Policy, true, true, Channels, Active, Sample, Counter, Mapper>)
                               : launch(histogram_kernel<Policy, false, true, Channels, Active, Sample, Counter, Mapper>);
    }
  }
  return layout.privatized ? launch(histogram_kernel<Policy, true, false, Channels, Active, Sample, Counter, Mapper>)
                           : launch(histogram_kernel<Policy, false, false, Channels, Active, Sample, Counter, Mapper>);
}

}  // namespace detail
}  // namespace upsweep
