// Second step of the stable partition: the select kernel leaves the rejected items at the back
// in reverse input order; reversing [num_selected, num_items) puts them in input order. Pair k
// is (first + k, num_items - 1 - k); a thread swaps reverse_pairs_per_thread pairs strided by the
// block size, so each warp access is contiguous at both ends and all of a thread's loads are in
// flight before its first store (one pair per thread left the swap latency-bound at half the
// copy bandwidth).
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/iterator>

namespace upsweep::detail {

inline constexpr int reverse_block_threads = 256;
inline constexpr int reverse_pairs_per_thread = 8;
inline constexpr long long reverse_tile_pairs =
    static_cast<long long>(reverse_block_threads) * reverse_pairs_per_thread;
inline constexpr int reverse_blocks_per_sm = 8;  // persistent grid: 2048 threads per SM

// The split point is read on the device: the host does not know it without a synchronisation.
template <class OutputIt>
__global__ void __launch_bounds__(reverse_block_threads)
    reverse_rejected_kernel(OutputIt d_out, const cuda::std::int64_t* d_num_selected, long long num_items) {
  using item_t = typename cuda::std::iterator_traits<OutputIt>::value_type;
  constexpr int ipt = reverse_pairs_per_thread;
  const long long first = *d_num_selected;
  const long long pairs = (num_items - first) / 2;
  const long long tiles = (pairs + reverse_tile_pairs - 1) / reverse_tile_pairs;
  for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const long long base = tile * reverse_tile_pairs + threadIdx.x;
    item_t low[ipt], high[ipt];
#pragma unroll
    for (int j = 0; j < ipt; ++j) {
      const long long k = base + static_cast<long long>(j) * reverse_block_threads;
      if (k < pairs) {
        low[j] = d_out[first + k];
        high[j] = d_out[num_items - 1 - k];
      }
    }
#pragma unroll
    for (int j = 0; j < ipt; ++j) {
      const long long k = base + static_cast<long long>(j) * reverse_block_threads;
      if (k < pairs) {
        d_out[first + k] = high[j];
        d_out[num_items - 1 - k] = low[j];
      }
    }
  }
}

}  // namespace upsweep::detail
