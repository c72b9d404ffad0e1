// Warp layer: reductions across the lanes of a full warp by shuffle-down trees. The lower lane is
// always the left operand, so the order of lanes is kept and non-commutative operators work.
#pragma once

#include <upsweep/util/arch.cuh>
#include <upsweep/util/maybe.cuh>
#include <upsweep/util/shuffle.cuh>

namespace upsweep {

// Reduction of all 32 lanes, broadcast to every lane.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T value, Op op) {
  const unsigned lane = detail::lane_id();
#pragma unroll
  for (unsigned offset = 1; offset < detail::warp_threads; offset *= 2) {
    const T upper = detail::shfl_down(value, offset);
    // Lane l now covers lanes [l, min(l + 2*offset, 32)): lane 0 ends with all of them, in order.
    if (lane + offset < detail::warp_threads) value = op(value, upper);
  }
  return detail::shfl_idx(value, 0);
}

// Reduction of the lanes whose value is present, in lane order, broadcast to every lane.
template <class T, class Op>
__device__ __forceinline__ maybe<T> warp_reduce(maybe<T> value, Op op) {
#pragma unroll
  for (unsigned offset = 1; offset < detail::warp_threads; offset *= 2) {
    maybe<T> upper;
    upper.value = detail::shfl_down(value.value, offset);
    upper.valid = __shfl_down_sync(detail::full_warp_mask, static_cast<int>(value.valid), offset) != 0 &&
                  detail::lane_id() + offset < detail::warp_threads;
    value = detail::combine(value, upper, op);
  }
  return {detail::shfl_idx(value.value, 0), __shfl_sync(detail::full_warp_mask, static_cast<int>(value.valid), 0) != 0};
}

// Reduction of lanes [0, count) in lane order, in lane 0 only (count >= 1). The present lanes
// being a prefix, one shuffle tree on the values does, without maybe<T>'s flags.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_prefix(T value, int count, Op op) {
  const int lane = static_cast<int>(detail::lane_id());
#pragma unroll
  for (int offset = 1; offset < detail::warp_threads; offset *= 2) {
    const T upper = detail::shfl_down(value, offset);
    // Lane l covers [l, min(l + 2 * offset, count)): lane 0 ends with the whole prefix.
    if (lane + offset < count) value = op(value, upper);
  }
  return value;
}

// Reduction of lanes [first, 32) in lane order, broadcast to every lane. Cheaper than the
// maybe<T> form when the present lanes are a suffix: one shuffle tree on the values alone.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_suffix(T value, int first, Op op) {
  const int lane = static_cast<int>(detail::lane_id());
  const T first_value = detail::shfl_idx(value, first);
  if (lane < first) value = first_value;  // op only ever sees real values
#pragma unroll
  for (int offset = 1; offset < detail::warp_threads; offset *= 2) {
    const T upper = detail::shfl_down(value, offset);
    // Lane l covers [l, min(l + 2 * offset, 32)), so lane `first` ends with the whole suffix.
    if (lane + offset < detail::warp_threads) value = op(value, upper);
  }
  return detail::shfl_idx(value, first);
}

}  // namespace upsweep
