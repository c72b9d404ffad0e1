// Sort across ranks, device kernels of the plan: a rank's samples, the splitters every rank
// picks alike from all of them, and its send bounds (a binary search per splitter). Keys compare
// by their radix window, so the order is the radix sort's; the join of the received runs is in
// dist_merge_kernels.cuh.
#pragma once

#include <upsweep/sort/detail/dist_sort_plan.hpp>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/radix_traits.cuh>

#include <cuda/std/cstdint>

namespace upsweep::detail {

// A rank's block in the sample all-gather: its item count, then s samples.
inline constexpr int dist_header_words = 1;

template <bool Descending, class Key>
__global__ void gather_samples_kernel(const Key* d_sorted, long long num_items, long long samples, int begin_bit,
                                      int end_bit, cuda::std::uint64_t* d_block) {
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (j == 0) d_block[0] = static_cast<cuda::std::uint64_t>(num_items);
  if (j >= samples) return;
  d_block[dist_header_words + j] =
      num_items > 0 ? radix_window<Descending>(d_sorted[dist_sample_position(num_items, samples, j)], begin_bit, end_bit)
                    : 0;
}

// Samples of one rank (sorted) whose value is below `value`, or not above it when `inclusive`.
__device__ inline long long samples_below(const cuda::std::uint64_t* values, long long s, cuda::std::uint64_t value,
                                          bool inclusive) {
  long long low = 0, high = s;
  while (low < high) {
    const long long mid = low + (high - low) / 2;
    if (inclusive ? values[mid] <= value : values[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

// The least k in [1, limit] with k * unit > bound, or limit + 1 (a search: no 128-bit division).
__device__ inline int first_multiple_above(unsigned __int128 bound, unsigned __int128 unit, int limit) {
  int low = 1, high = limit + 1;
  while (low < high) {
    const int mid = (low + high) / 2;
    if (static_cast<unsigned __int128>(mid) * unit > bound) high = mid;
    else low = mid + 1;
  }
  return low;
}

// The splitters choose_splitters (dist_sort_plan.hpp) picks, picked on the device from the
// gathered blocks (count, then s samples, per rank), so no host waits for them. One thread a
// sample finds the samples before it in the global order (a search in each other rank's) and so
// the sampled weight W before it, and the one just before it (weight w): it is splitter t for
// every t with (W - w) P < (t + 1) N s <= W P, in units of 1/s item. The last sample also writes
// the empty shares' splitter, above every item, past its own weight. The work is P^2 s log s
// searches: nothing for tens of ranks; thousands would want the samples merged instead.
// With B = P C buckets (C > 1) it picks B - 1 splitters, the weight's multiples of N / B; those
// at multiples of C are the P - 1 splitters of the ranks (the same condition, scaled by C), and
// the ones between split each rank's share into the exchange's rounds.
__global__ inline void choose_splitters_kernel(const cuda::std::uint64_t* d_blocks, int num_ranks, int num_buckets,
                                               long long s, dist_key* d_splitters) {
  using u128 = unsigned __int128;
  const long long words = s + dist_header_words;
  const auto count_of = [&](int r) { return static_cast<long long>(d_blocks[r * words]); };
  const auto samples_of = [&](int r) { return d_blocks + r * words + dist_header_words; };
  const dist_key above_all{~cuda::std::uint64_t{0}, num_ranks, 0};
  const long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  u128 total = 0;
  long long sample_count = 0;
  for (int r = 0; r < num_ranks; ++r) {
    total += static_cast<u128>(count_of(r));
    sample_count += count_of(r) > 0 ? s : 0;
  }
  if (g == 0 && total == 0)
    for (int t = 0; t + 1 < num_buckets; ++t) d_splitters[t] = above_all;
  if (g >= num_ranks * s) return;
  const int q = static_cast<int>(g / s);
  const long long j = g % s, n_q = count_of(q);
  if (n_q == 0) return;
  const dist_key x{samples_of(q)[j], q, dist_sample_position(n_q, s, j)};
  u128 weight = static_cast<u128>(j) * static_cast<u128>(n_q);
  long long place = j;
  dist_key before{};
  long long before_weight = 0;  // 0: x is the first sample
  if (j > 0) {
    before = {samples_of(q)[j - 1], q, dist_sample_position(n_q, s, j - 1)};
    before_weight = n_q;
  }
  for (int r = 0; r < num_ranks; ++r) {
    const long long n_r = count_of(r);
    if (r == q || n_r == 0) continue;
    const long long below = samples_below(samples_of(r), s, x.value, r < q);
    weight += static_cast<u128>(below) * static_cast<u128>(n_r);
    place += below;
    if (below == 0) continue;
    const dist_key candidate{samples_of(r)[below - 1], r, dist_sample_position(n_r, s, below - 1)};
    if (before_weight == 0 || before < candidate) {
      before = candidate;
      before_weight = n_r;
    }
  }
  const u128 unit = total * static_cast<u128>(s);
  const u128 reach = weight * static_cast<u128>(num_buckets);
  if (before_weight > 0) {
    const u128 from = (weight - static_cast<u128>(before_weight)) * static_cast<u128>(num_buckets);
    for (int k = first_multiple_above(from, unit, num_buckets - 1); k < num_buckets && k * unit <= reach; ++k)
      d_splitters[k - 1] = x;
  }
  if (place + 1 == sample_count)
    for (int k = first_multiple_above(reach, unit, num_buckets - 1); k < num_buckets; ++k) d_splitters[k - 1] = above_all;
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

// d_bounds[t] = the rank's items below splitter t (t < B - 1, B buckets); d_bounds[B - 1] = all
// of them; d_bounds[B] = its output capacity (the other ranks check their sends against it).
template <bool Descending, class Key>
__global__ void find_send_bounds_kernel(const Key* d_sorted, long long num_items, long long capacity, int rank,
                                        const dist_key* d_splitters, int num_buckets, int begin_bit, int end_bit,
                                        long long* d_bounds) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == num_buckets) d_bounds[t] = capacity;
  if (t + 1 == num_buckets) d_bounds[t] = num_items;
  if (t + 1 >= num_buckets) return;
  const dist_key splitter = d_splitters[t];
  const long long lower = window_bound<false, Descending>(d_sorted, num_items, splitter.value, begin_bit, end_bit);
  const long long upper = window_bound<true, Descending>(d_sorted, num_items, splitter.value, begin_bit, end_bit);
  d_bounds[t] = dist_items_below(splitter, rank, lower, upper);
}

}  // namespace upsweep::detail
