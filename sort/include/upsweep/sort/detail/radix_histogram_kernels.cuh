// The radix sort's first two kernels (Onesweep): one counts every digit position in one read of
// the keys, one block scans those counts into digit offsets and plans which buffer each pass reads
// and writes.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/sort/detail/radix_key_codec.cuh>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/detail/radix_sort_tuning.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/std/functional>

namespace upsweep::detail {

// ---- kernel 1: counts of every digit position in one read ------------------------------------
__host__ __device__ constexpr int pass_digit_bits(int bit, int end_bit) {
  return end_bit - bit < radix_bits ? end_bit - bit : radix_bits;
}

// Keys each histogram thread loads before counting them: the loads of a tile are all in flight
// at once (one key per thread between the counts left the kernel waiting on memory).
inline constexpr int histogram_items_per_thread = 16;

template <int Passes, bool Descending, class Key, class Codec>
__device__ __forceinline__ void count_key_digits(const Key& key, int begin_bit, int end_bit, int num_passes,
                                                 unsigned (&counts)[Passes][radix_digits], const Codec& codec) {
  const auto bits = codec.template sort_bits<Descending>(key);
#pragma unroll
  for (int p = 0; p < Passes; ++p) {
    if (p < num_passes) {
      const int bit = begin_bit + p * radix_bits;
      atomicAdd(&counts[p][Codec::digit(bits, bit, pass_digit_bits(bit, end_bit))], 1u);
    }
  }
}

// Blocks stride over tiles of block_threads x histogram_items_per_thread keys. Shared counters
// are 32-bit: the dispatch sizes the grid so that no block sees 2^32 keys.
template <class Policy, bool Descending, class Key, class Codec>
__global__ void __launch_bounds__(Policy::histogram_block_threads)
    radix_histogram_kernel(const Key* d_keys, long long num_items, int begin_bit, int end_bit, int num_passes,
                           radix_sort_control* d_control, Codec codec) {
  constexpr int passes_for_key = histogram_passes_v<Codec>;
  constexpr int threads = Policy::histogram_block_threads;
  constexpr int tile = threads * histogram_items_per_thread;
  __shared__ unsigned counts[passes_for_key][radix_digits];
  wait_for_previous_grid();  // every kernel of a sort launches chained (radix_sort_dispatch)
  let_next_grid_launch();
  for (int i = threadIdx.x; i < passes_for_key * radix_digits; i += blockDim.x) counts[i / radix_digits][i % radix_digits] = 0;
  __syncthreads();
  const auto count = [&](const Key& key) {
    count_key_digits<passes_for_key, Descending>(key, begin_bit, end_bit, num_passes, counts, codec);
  };
  for (long long first = static_cast<long long>(blockIdx.x) * tile; first < num_items;
       first += static_cast<long long>(gridDim.x) * tile) {
    const Key* d_tile = d_keys + first + threadIdx.x;
    if (num_items - first >= tile) {
      Key keys[histogram_items_per_thread];
#pragma unroll
      for (int i = 0; i < histogram_items_per_thread; ++i) keys[i] = d_tile[i * threads];
#pragma unroll
      for (int i = 0; i < histogram_items_per_thread; ++i) count(keys[i]);
    } else {
      const long long valid = num_items - first - threadIdx.x;
      for (int i = 0; i < histogram_items_per_thread && i * threads < valid; ++i) count(d_tile[i * threads]);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < num_passes * radix_digits; i += blockDim.x) {
    const unsigned c = counts[i / radix_digits][i % radix_digits];
    if (c != 0) atomicAdd(&d_control->digit_counts[i / radix_digits][i % radix_digits], static_cast<unsigned long long>(c));
  }
}

// ---- kernel 2: digit offsets and the plan ----------------------------------------------------
// How the passes alternate between the buffers (see plan_passes).
enum radix_plan_kind : int {
  plan_out_last = 0,      // in != out: the last pass writes out, the input is only read
  plan_first_to_alt = 1,  // in == out (keys or values), or a double buffer keeping its selector
  plan_first_to_out = 2,  // a double buffer flipping its selector: alt is the input buffer itself
};

// A pass is trivial when one digit holds every key: it would move nothing, so it is skipped. The
// j-th of the m non-trivial passes reads where pass j-1 wrote (the input for j = 0) and writes:
//  - plan_out_last: out when m-1-j is even, else alt, so the last pass writes out;
//  - plan_first_to_alt: alt when j is even, else out, so no pass reads and writes one buffer;
//  - plan_first_to_out: out when j is even, else alt (alt == in: the input is consumed by pass 0).
// When the last non-trivial pass did not write out (or m = 0), the copy kernel moves the result
// from where it lies to out, unless that is out itself. Host and device: the host tests walk it.
__host__ __device__ inline void plan_passes(const bool (&trivial)[max_radix_passes], int num_passes, int kind,
                                            radix_sort_plan& plan) {
  int m = 0;
  for (int p = 0; p < num_passes; ++p) m += trivial[p] ? 0 : 1;
  int previous = buffer_in;
  int j = 0;
  for (int p = 0; p < max_radix_passes; ++p) {
    if (p >= num_passes || trivial[p]) {
      plan.pass[p] = {buffer_none, buffer_none};
      continue;
    }
    const bool to_out = kind == plan_first_to_alt ? (j % 2 == 1)
                        : kind == plan_first_to_out ? (j % 2 == 0)
                                                    : ((m - 1 - j) % 2 == 0);
    const int dst = to_out ? buffer_out : buffer_alt;
    plan.pass[p] = {previous, dst};
    previous = dst;
    ++j;
  }
  plan.copy_src = previous == buffer_out ? buffer_none : previous;
}

// A template (of nothing) like every kernel in a header: a weak definition, so two files that
// include this header link together (the compiled API instantiates sort in several files).
template <class = void>
__global__ void __launch_bounds__(radix_digits)
    radix_scan_kernel(radix_sort_control* d_control, long long num_items, int num_passes, int plan_kind) {
  using scan_t = block_scan<unsigned long long, radix_digits>;
  __shared__ typename scan_t::storage scan_storage;
  __shared__ bool trivial[max_radix_passes];
  wait_for_previous_grid();
  let_next_grid_launch();
  const int digit = threadIdx.x;
  for (int p = 0; p < num_passes; ++p) {
    unsigned long long count[1] = {d_control->digit_counts[p][digit]};
    const bool holds_all = count[0] == static_cast<unsigned long long>(num_items);
    const bool any_holds_all = __syncthreads_or(holds_all) != 0;
    if (digit == 0) trivial[p] = any_holds_all;
    scan_t(scan_storage).exclusive_scan(count, 0ull, cuda::std::plus<unsigned long long>{});
    d_control->digit_counts[p][digit] = count[0];
    __syncthreads();  // the scan storage is reused by the next pass
  }
  if (digit == 0) plan_passes(trivial, num_passes, plan_kind, d_control->plan);
}

}  // namespace upsweep::detail
