// Sort across ranks, device kernels: a rank's samples and the header every rank reads, its send
// bounds (a binary search per splitter), and the stable merge of two sorted runs that joins the
// runs a rank receives. Keys compare by their radix window, so the order is the radix sort's.
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

inline constexpr int merge_block_threads = 256;
inline constexpr int merge_items_per_thread = 8;
inline constexpr int merge_tile_items = merge_block_threads * merge_items_per_thread;

// Items of the first `diagonal` outputs that come from run a. Ties take a first (stability).
template <bool Descending, class KeyAtA, class KeyAtB>
__device__ long long merge_path(KeyAtA a, long long count_a, KeyAtB b, long long count_b, long long diagonal,
                                int begin_bit, int end_bit) {
  long long low = diagonal > count_b ? diagonal - count_b : 0;
  long long high = diagonal < count_a ? diagonal : count_a;
  while (low < high) {
    const long long mid = low + (high - low) / 2;
    const auto from_a = radix_window<Descending>(a(mid), begin_bit, end_bit);
    const auto from_b = radix_window<Descending>(b(diagonal - 1 - mid), begin_bit, end_bit);
    if (from_a <= from_b) low = mid + 1;
    else high = mid;
  }
  return low;
}

struct merge_runs_args {
  long long count_a = 0, count_b = 0;
  int begin_bit = 0, end_bit = 0;
};

// One tile of the merge of runs a and b (a before b in the input order) into out: the tile's
// slices of both runs go to shared memory, each thread merges its items there, and the keys
// leave through shared memory in order; then the values the same way.
template <bool Descending, class Key, class Value>
__global__ void __launch_bounds__(merge_block_threads)
    merge_runs_kernel(const Key* d_a, const Key* d_b, const Value* d_values_a, const Value* d_values_b, Key* d_out,
                      Value* d_values_out, merge_runs_args args) {
  constexpr std::size_t value_size = has_values_v<Value> ? sizeof(Value) : 1;
  __shared__ alignas(16) unsigned char raw[merge_tile_items * (sizeof(Key) > value_size ? sizeof(Key) : value_size)];
  __shared__ long long tile_split[2];
  Key* keys = reinterpret_cast<Key*>(raw);
  const long long total = args.count_a + args.count_b;
  const long long tile_first = blockIdx.x * static_cast<long long>(merge_tile_items);
  const long long tile_end = tile_first + merge_tile_items < total ? tile_first + merge_tile_items : total;
  auto global_a = [&](long long i) { return d_a[i]; };
  auto global_b = [&](long long i) { return d_b[i]; };
  if (threadIdx.x < 2)
    tile_split[threadIdx.x] = merge_path<Descending>(global_a, args.count_a, global_b, args.count_b,
                                                     threadIdx.x == 0 ? tile_first : tile_end, args.begin_bit,
                                                     args.end_bit);
  __syncthreads();
  const long long a0 = tile_split[0], a1 = tile_split[1];
  const long long b0 = tile_first - a0;
  const int in_a = static_cast<int>(a1 - a0), in_tile = static_cast<int>(tile_end - tile_first);
  for (int i = threadIdx.x; i < in_tile; i += merge_block_threads) keys[i] = i < in_a ? d_a[a0 + i] : d_b[b0 + i - in_a];
  __syncthreads();
  // This thread's items: a diagonal search in shared memory, then a sequential merge.
  auto shared_a = [&](long long i) { return keys[i]; };
  auto shared_b = [&](long long i) { return keys[in_a + i]; };
  const int diagonal = threadIdx.x * merge_items_per_thread < in_tile ? threadIdx.x * merge_items_per_thread : in_tile;
  int ia = static_cast<int>(merge_path<Descending>(shared_a, in_a, shared_b, in_tile - in_a, diagonal, args.begin_bit,
                                                   args.end_bit));
  int ib = diagonal - ia;
  Key merged[merge_items_per_thread];
  int source[merge_items_per_thread];  // index into the tile: a's items first, then b's
  for (int k = 0; k < merge_items_per_thread; ++k) {
    const bool take_a =
        ia < in_a && (ib >= in_tile - in_a || radix_window<Descending>(keys[ia], args.begin_bit, args.end_bit) <=
                                                  radix_window<Descending>(keys[in_a + ib], args.begin_bit, args.end_bit));
    source[k] = take_a ? ia : in_a + ib;
    if (source[k] < in_tile) merged[k] = keys[source[k]];
    take_a ? ++ia : ++ib;
  }
  __syncthreads();
  for (int k = 0; k < merge_items_per_thread; ++k)
    if (diagonal + k < in_tile) keys[diagonal + k] = merged[k];
  __syncthreads();
  for (int i = threadIdx.x; i < in_tile; i += merge_block_threads) d_out[tile_first + i] = keys[i];
  if constexpr (has_values_v<Value>) {  // the same way through shared memory
    Value* values = reinterpret_cast<Value*>(raw);
    __syncthreads();
    for (int k = 0; k < merge_items_per_thread; ++k)
      if (diagonal + k < in_tile)
        values[diagonal + k] = source[k] < in_a ? d_values_a[a0 + source[k]] : d_values_b[b0 + source[k] - in_a];
    __syncthreads();
    for (int i = threadIdx.x; i < in_tile; i += merge_block_threads) d_values_out[tile_first + i] = values[i];
  }
}

}  // namespace upsweep::detail
