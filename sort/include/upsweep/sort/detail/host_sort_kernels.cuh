// Host-to-host sort, device kernels: the digit counts that plan the buckets (one digit of the
// window bits, under a set of parent prefixes), and where each group starts in a sorted chunk.
// Keys are read through radix_window, so the order is the radix sort's, descending included.
#pragma once

#include <upsweep/sort/detail/host_sort_plan.hpp>
#include <upsweep/sort/radix_traits.cuh>

#include <cuda/std/cstdint>

namespace upsweep::detail {

// Parents counted by one launch: their shared counters (32-bit, 32 KB) stay under the static limit.
inline constexpr int count_parents_per_launch = 32;
inline constexpr int count_block_threads = 256;

struct digit_count_args {
  int begin_bit = 0;
  int end_bit = 0;
  count_level digits;
  const cuda::std::uint64_t* d_parents = nullptr;  // sorted prefixes of the window bits above digits.high
  int num_parents = 0;                             // 0: no parent, every key counts under slot 0
  unsigned long long* d_counts = nullptr;          // [parent][host_sort_digits], added to
};

// Slot of `prefix` among the sorted parents, or -1.
__device__ inline int find_parent(const cuda::std::uint64_t* d_parents, int num_parents, cuda::std::uint64_t prefix) {
  int low = 0, high = num_parents;
  while (low < high) {
    const int mid = (low + high) / 2;
    if (d_parents[mid] < prefix) low = mid + 1;
    else high = mid;
  }
  return low < num_parents && d_parents[low] == prefix ? low : -1;
}

// Block-private counters in shared memory (equal keys would serialise on one global counter),
// added to the global ones once per block.
template <bool Descending, class Key>
__global__ void __launch_bounds__(count_block_threads)
    count_window_digits_kernel(const Key* d_keys, long long num_items, digit_count_args args) {
  __shared__ unsigned counts[count_parents_per_launch * host_sort_digits];
  const int slots = (args.num_parents > 0 ? args.num_parents : 1) * host_sort_digits;
  for (int i = threadIdx.x; i < slots; i += blockDim.x) counts[i] = 0;
  __syncthreads();
  const int above = args.digits.high;  // window bits above the digit form the parent prefix
  const unsigned mask = (1u << (args.digits.high - args.digits.low)) - 1;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < num_items; i += stride) {
    const cuda::std::uint64_t window = radix_window<Descending>(d_keys[i], args.begin_bit, args.end_bit);
    int parent = 0;
    if (args.num_parents > 0) {
      parent = find_parent(args.d_parents, args.num_parents, above >= 64 ? 0 : window >> above);
      if (parent < 0) continue;
    }
    atomicAdd(&counts[parent * host_sort_digits + static_cast<int>((window >> args.digits.low) & mask)], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < slots; i += blockDim.x)
    if (counts[i] != 0) atomicAdd(&args.d_counts[i], static_cast<unsigned long long>(counts[i]));
}

// d_starts[g] = the first position in the sorted keys whose window value is not below
// d_bounds[g] (lower bound); one thread a bound.
template <bool Descending, class Key>
__global__ void find_group_starts_kernel(const Key* d_sorted, long long num_items, int begin_bit, int end_bit,
                                         const cuda::std::uint64_t* d_bounds, int num_bounds,
                                         long long* d_starts) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_bounds) return;
  long long low = 0, high = num_items;
  while (low < high) {
    const long long mid = low + (high - low) / 2;
    if (radix_window<Descending>(d_sorted[mid], begin_bit, end_bit) < d_bounds[g]) low = mid + 1;
    else high = mid;
  }
  d_starts[g] = low;
}

// Blocks for counting: enough to fill the GPU, few enough that each block's 32-bit counters hold
// its share.
inline unsigned count_grid(long long num_items) {
  const long long wanted = (num_items + count_block_threads * 16 - 1) / (count_block_threads * 16);
  const long long grid = wanted < 1024 ? wanted : 1024;
  return static_cast<unsigned>(grid > 0 ? grid : 1);
}

}  // namespace upsweep::detail
