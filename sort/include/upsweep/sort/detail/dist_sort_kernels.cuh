// Sort across ranks, device kernels of the plan: a rank's samples and the header every rank
// reads, and its send bounds (a binary search per splitter). Keys compare by their radix window,
// so the order is the radix sort's; the join of the received runs is in dist_merge_kernels.cuh.
#pragma once

#include <upsweep/sort/detail/dist_sort_plan.hpp>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/radix_traits.cuh>

#include <cuda/std/cstdint>

namespace upsweep::detail {

// A rank's block in the sample all-gather: its item count, its output capacity, then s samples.
inline constexpr int dist_header_words = 2;

template <bool Descending, class Key>
__global__ void gather_samples_kernel(const Key* d_sorted, long long num_items, long long capacity,
                                      long long samples, int begin_bit, int end_bit, cuda::std::uint64_t* d_block) {
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (j == 0) {
    d_block[0] = static_cast<cuda::std::uint64_t>(num_items);
    d_block[1] = static_cast<cuda::std::uint64_t>(capacity);
  }
  if (j >= samples) return;
  d_block[dist_header_words + j] =
      num_items > 0 ? radix_window<Descending>(d_sorted[dist_sample_position(num_items, samples, j)], begin_bit, end_bit)
                    : 0;
}

// First position in d_sorted whose window value is not below (Upper: above) `value`.
template <bool Upper, bool Descending, class Key>
__device__ long long window_bound(const Key* d_sorted, long long num_items, cuda::std::uint64_t value, int begin_bit,
                                  int end_bit) {
  long long low = 0, high = num_items;
  while (low < high) {
    const long long mid = low + (high - low) / 2;
    const cuda::std::uint64_t at = radix_window<Descending>(d_sorted[mid], begin_bit, end_bit);
    if (Upper ? at <= value : at < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

// d_bounds[t] = the rank's items below splitter t (t < P - 1); d_bounds[P - 1] = all of them.
template <bool Descending, class Key>
__global__ void find_send_bounds_kernel(const Key* d_sorted, long long num_items, int rank, const dist_key* d_splitters,
                                        int num_ranks, int begin_bit, int end_bit, long long* d_bounds) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t + 1 == num_ranks) d_bounds[t] = num_items;
  if (t + 1 >= num_ranks) return;
  const dist_key splitter = d_splitters[t];
  const long long lower = window_bound<false, Descending>(d_sorted, num_items, splitter.value, begin_bit, end_bit);
  const long long upper = window_bound<true, Descending>(d_sorted, num_items, splitter.value, begin_bit, end_bit);
  d_bounds[t] = dist_items_below(splitter, rank, lower, upper);
}

}  // namespace upsweep::detail
