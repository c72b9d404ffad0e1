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

  // Every thread holds a value: one shuffle tree on the values, no flags.
  template <class Op>
  __device__ T reduce(T value, Op op) {
    const T warp_total = warp_reduce(value, op);
    if (detail::lane_id() == 0) s_.warp_totals[detail::warp_id()].value = warp_total;
    __syncthreads();
    T total = s_.warp_totals[0].value;
#pragma unroll
    for (int w = 1; w < warps; ++w) total = op(total, s_.warp_totals[w].value);
    return total;
  }

  // Reduction of threads [0, count) in thread order, in thread 0 only (count >= 1; the other
  // threads' values are never read). Lighter than the maybe<T> form: a one-block reduce of 100
  // items spent most of its instructions on the flags.
  template <class Op>
  __device__ T reduce_prefix(T value, int count, Op op) {
    const int warp = static_cast<int>(detail::warp_id());
    const int in_warp = count - warp * detail::warp_threads;
    if (in_warp > 0) {
      const T warp_total = warp_reduce_prefix(value, in_warp, op);
      if (detail::lane_id() == 0) s_.warp_totals[warp].value = warp_total;
    }
    __syncthreads();
    T total = value;
    if (threadIdx.x == 0) {
      total = s_.warp_totals[0].value;
      const int present_warps = (count + detail::warp_threads - 1) / detail::warp_threads;
#pragma unroll
      for (int w = 1; w < warps; ++w)
        if (w < present_warps) total = op(total, s_.warp_totals[w].value);
    }
    return total;
  }

 private:
  storage& s_;
};

}  // namespace upsweep
