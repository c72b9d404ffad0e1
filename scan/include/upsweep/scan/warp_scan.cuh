// Warp layer: inclusive and exclusive scans across the 32 lanes of a full warp, Kogge-Stone by
// shuffles. Any associative operator; the lower lane is always the left operand, so
// non-commutative operators work.
#pragma once

#include <upsweep/util/arch.cuh>
#include <upsweep/util/maybe.cuh>
#include <upsweep/util/shuffle.cuh>

namespace upsweep {

template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T value, Op op) {
  const unsigned lane = detail::lane_id();
#pragma unroll
  for (unsigned offset = 1; offset < detail::warp_threads; offset *= 2) {
    const T lower = detail::shfl_up(value, offset);
    if (lane >= offset) value = op(lower, value);
  }
  return value;
}

// Exclusive prefix of each lane without an identity: lane 0's prefix is absent.
// `inclusive` receives the inclusive scan; lane 31's inclusive is the warp total.
template <class T, class Op>
__device__ __forceinline__ maybe<T> warp_exclusive_scan(T value, Op op, T& inclusive) {
  inclusive = warp_inclusive_scan(value, op);
  const T lower = detail::shfl_up(inclusive, 1);
  return {lower, detail::lane_id() != 0};
}

// Exclusive scan seeded with `init`: lane 0 gets init, lane i gets init op v0 op ... op v(i-1).
template <class T, class Op>
__device__ __forceinline__ T warp_exclusive_scan(T value, T init, Op op) {
  T inclusive;
  const maybe<T> prefix = warp_exclusive_scan(value, op, inclusive);
  return prefix.valid ? op(init, prefix.value) : init;
}

// The total of all 32 lanes, broadcast to every lane.
template <class T, class Op>
__device__ __forceinline__ T warp_total(T value, Op op) {
  return detail::shfl_idx(warp_inclusive_scan(value, op), detail::warp_threads - 1);
}

}  // namespace upsweep
