// Sort across ranks, device kernels of the plan: a rank's samples, the splitters every rank
// picks alike from all of them, and its send bounds (a binary search per splitter). Keys compare
// by their radix window, so the order is the radix sort's; the join of the received runs is in
// dist_merge_kernels.cuh.
#pragma once

#include <upsweep/sort/detail/dist_sort_plan.hpp>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/cstdint>

#include <cstddef>

namespace upsweep::detail {

// A rank's block in the sample all-gather: its item count, then s samples.
inline constexpr int dist_header_words = 1;

// Also zeroes the `tail` bytes after the sorted keys and after the sorted values (a padded piece
// of the exchange may send them along), where a memset would take a launch of its own. A
// chained launch after the sort.
template <bool Descending, class Key>
__global__ void gather_samples_kernel(const Key* d_sorted, long long num_items, long long samples, int begin_bit,
                                      int end_bit, cuda::std::uint64_t* d_block, unsigned char* d_keys_tail,
                                      unsigned char* d_values_tail, int tail_key_bytes, int tail_value_bytes) {
  wait_for_previous_grid();
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long step = gridDim.x * static_cast<long long>(blockDim.x);
  for (long long b = j; b < tail_key_bytes || b < tail_value_bytes; b += step) {
    if (b < tail_key_bytes) d_keys_tail[b] = 0;
    if (b < tail_value_bytes) d_values_tail[b] = 0;
  }
  if (j == 0) d_block[0] = static_cast<cuda::std::uint64_t>(num_items);
  if (j >= samples) return;
  d_block[dist_header_words + j] =
      num_items > 0 ? radix_window<Descending>(d_sorted[dist_sample_position(num_items, samples, j)], begin_bit, end_bit)
                    : 0;
}

// Items of each of `lists` (up to MaxLists) sorted lists that precede a value, below[j] for list
// j: length(j) items, precedes(j, i) true for a prefix of them. The searches take their steps
// together (binary lifting from the longest list's top bit), so each round's loads overlap: one
// list after another would wait out every load in turn.
template <int MaxLists, class Length, class Precedes>
__device__ void lockstep_below(int lists, Length length, Precedes precedes, long long (&below)[MaxLists]) {
  long long longest = 0;
#pragma unroll
  for (int j = 0; j < MaxLists; ++j) {
    below[j] = 0;
    if (j < lists && length(j) > longest) longest = length(j);
  }
  long long step = 1;
  while (step * 2 <= longest) step *= 2;
  for (; longest > 0 && step > 0; step /= 2) {
#pragma unroll
    for (int j = 0; j < MaxLists; ++j)
      if (j < lists && below[j] + step <= length(j) && precedes(j, below[j] + step - 1)) below[j] += step;
  }
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
  let_next_grid_launch();  // find_send_bounds_kernel, chained
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
  constexpr int group = 8;  // ranks searched together
  for (int r0 = 0; r0 < num_ranks; r0 += group) {
    const auto in_group = [&](int k) { return r0 + k != q && count_of(r0 + k) > 0 ? s : 0ll; };
    long long below[group];
    lockstep_below<group>(
        num_ranks - r0, in_group,
        [&](int k, long long i) { return r0 + k < q ? samples_of(r0 + k)[i] <= x.value : samples_of(r0 + k)[i] < x.value; },
        below);
#pragma unroll
    for (int k = 0; k < group; ++k) {
      const int r = r0 + k;
      if (below[k] == 0) continue;  // also every rank past the last, and q itself
      const long long n_r = count_of(r);
      weight += static_cast<u128>(below[k]) * static_cast<u128>(n_r);
      place += below[k];
      const dist_key candidate{samples_of(r)[below[k] - 1], r, dist_sample_position(n_r, s, below[k] - 1)};
      if (before_weight == 0 || before < candidate) {
        before = candidate;
        before_weight = n_r;
      }
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

// The first positions in d_sorted whose window value is not below `value` (lower) and above it
// (upper), found by one warp: each step its lanes probe 32 evenly spaced positions of each
// range and a ballot keeps the stretch holding the answer, so 2^22 items take 5 rounds of loads
// where a binary search per thread takes 22 a bound, one after another.
template <bool Descending, class Key>
__device__ void warp_window_bounds(const Key* d_sorted, long long num_items, cuda::std::uint64_t value, int begin_bit,
                                   int end_bit, long long& lower, long long& upper) {
  const long long lane = threadIdx.x % 32;
  long long low[2] = {0, 0}, high[2] = {num_items, num_items};
  while (low[0] < high[0] || low[1] < high[1]) {  // the same on every lane
    long long step[2];
    bool before[2];
#pragma unroll
    for (int b = 0; b < 2; ++b) {  // b = 0: items below value; 1: items not above it
      step[b] = (high[b] - low[b] + 31) / 32;
      const long long probe = low[b] + (lane + 1) * step[b] - 1;
      before[b] = false;
      if (step[b] > 0 && probe < high[b]) {
        const cuda::std::uint64_t at = radix_window<Descending>(d_sorted[probe], begin_bit, end_bit);
        before[b] = b == 0 ? at < value : at <= value;
      }
    }
#pragma unroll
    for (int b = 0; b < 2; ++b) {  // the probes before the answer are the first `taken`
      if (step[b] == 0) continue;
      const long long taken = __popc(__ballot_sync(0xffffffffu, before[b]));
      const long long end = low[b] + (taken + 1) * step[b] - 1;
      low[b] += taken * step[b];
      high[b] = end < high[b] ? end : high[b];
    }
  }
  lower = low[0];
  upper = low[1];
}

// d_bounds[t] = the rank's items below splitter t (t < B - 1, B buckets), one warp a splitter;
// d_bounds[B - 1] = all of them; d_bounds[B] = its output capacity (the other ranks check their
// sends against it). Launch at least B - 1 warps, in blocks of whole warps, chained after
// choose_splitters_kernel.
template <bool Descending, class Key>
__global__ void find_send_bounds_kernel(const Key* d_sorted, long long num_items, long long capacity, int rank,
                                        const dist_key* d_splitters, int num_buckets, int begin_bit, int end_bit,
                                        long long* d_bounds) {
  wait_for_previous_grid();
  const long long thread = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (thread == 0) {
    d_bounds[num_buckets - 1] = num_items;
    d_bounds[num_buckets] = capacity;
  }
  const long long t = thread / 32;
  if (t + 1 >= num_buckets) return;  // whole warps
  const dist_key splitter = d_splitters[t];
  long long lower = 0, upper = 0;
  warp_window_bounds<Descending>(d_sorted, num_items, splitter.value, begin_bit, end_bit, lower, upper);
  if (thread % 32 == 0) d_bounds[t] = dist_items_below(splitter, rank, lower, upper);
}

}  // namespace upsweep::detail
