// Second step of the stable partition: the select kernel leaves the rejected items at the back
// in reverse input order; reversing [num_selected, num_items) puts them in input order. Each
// thread swaps a pair from the two ends, so both halves of a warp's accesses are contiguous.
#pragma once

#include <cuda/std/cstdint>
#include <cuda/std/iterator>

namespace upsweep::detail {

inline constexpr int reverse_block_threads = 256;
inline constexpr unsigned reverse_max_blocks = 4096;  // grid-stride beyond this

// The split point is read on the device: the host does not know it without a synchronisation.
template <class OutputIt>
__global__ void __launch_bounds__(reverse_block_threads)
    reverse_rejected_kernel(OutputIt d_out, const cuda::std::int64_t* d_num_selected, long long num_items) {
  using item_t = typename cuda::std::iterator_traits<OutputIt>::value_type;
  const long long first = *d_num_selected;
  const long long pairs = (num_items - first) / 2;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < pairs; k += stride) {
    const item_t low = d_out[first + k];
    const item_t high = d_out[num_items - 1 - k];
    d_out[first + k] = high;
    d_out[num_items - 1 - k] = low;
  }
}

}  // namespace upsweep::detail
