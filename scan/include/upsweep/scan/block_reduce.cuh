// Block layer: reduction of one value per thread (or a blocked run per thread) across the block,
// from the warp reduce. Lane and warp order are kept, so non-commutative operators work.
#pragma once

#include <upsweep/scan/warp_reduce.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/maybe.cuh>

namespace upsweep {

template <class T, int BlockThreads>
class block_reduce {
  static_assert(BlockThreads % detail::warp_threads == 0, "block_reduce needs whole warps");
  static constexpr int warps = BlockThreads / detail::warp_threads;

 public:
  struct storage {
    maybe<T> warp_totals[warps];
  };

  __device__ explicit block_reduce(storage& s) : s_(s) {}

  // Reduction of the present values, in thread order, returned to every thread.
  // Barrier before reusing the storage.
  template <class Op>
  __device__ maybe<T> reduce(maybe<T> value, Op op) {
    const maybe<T> warp_total = warp_reduce(value, op);
    if (detail::lane_id() == 0) s_.warp_totals[detail::warp_id()] = warp_total;
    __syncthreads();
    maybe<T> total = s_.warp_totals[0];
#pragma unroll
    for (int w = 1; w < warps; ++w) total = detail::combine(total, s_.warp_totals[w], op);
    return total;
  }

  template <class Op>
  __device__ T reduce(T value, Op op) {
    return reduce(maybe<T>{value, true}, op).value;
  }

 private:
  storage& s_;
};

}  // namespace upsweep
