// Block layer: scans of a blocked tile (thread t holds items [t * IPT, (t + 1) * IPT)), built
// from the warp scan. A prefix callback is the seam that lets one block scan serve a lone block
// (no prefix or an init value), a device scan (the callback does the decoupled look-back),
// compaction and sort.
#pragma once

#include <upsweep/scan/warp_scan.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/maybe.cuh>

#include <cuda/std/type_traits>

namespace upsweep {

// Prefix callback for a block that nothing precedes.
struct no_prefix {};

// Prefix callback that returns a fixed value (an exclusive scan's init, a running carry).
template <class T>
struct fixed_prefix {
  T value;
  __device__ maybe<T> operator()(const T&) const { return {value, true}; }
};

template <class T, int BlockThreads>
class block_scan {
  static_assert(BlockThreads % detail::warp_threads == 0, "block_scan needs whole warps");
  static constexpr int warps = BlockThreads / detail::warp_threads;

 public:
  struct storage {
    T warp_totals[warps];
    maybe<T> block_prefix;
  };

  __device__ explicit block_scan(storage& s) : s_(s) {}

  // Inclusive scan in place. `prefix_of(block_total)` is called by every lane of warp 0 and
  // returns what precedes this block (maybe<T>); pass no_prefix{} for none. Returns the block
  // total without the prefix. With no_prefix, barrier before reusing the storage.
  template <int IPT, class Op, class PrefixOf>
  __device__ T inclusive_scan(T (&items)[IPT], Op op, PrefixOf&& prefix_of) {
    T block_total;
    const maybe<T> prefix = thread_prefix(items, op, prefix_of, block_total);
    if (prefix.valid) items[0] = op(prefix.value, items[0]);
#pragma unroll
    for (int i = 1; i < IPT; ++i) items[i] = op(items[i - 1], items[i]);
    return block_total;
  }

  // Exclusive scan in place; thread 0's first item is left as it was when no prefix is given.
  template <int IPT, class Op, class PrefixOf>
  __device__ T exclusive_scan(T (&items)[IPT], Op op, PrefixOf&& prefix_of) {
    T block_total;
    const maybe<T> prefix = thread_prefix(items, op, prefix_of, block_total);
    T running = detail::apply_prefix(prefix, items[0], op);
    if (prefix.valid) items[0] = prefix.value;
#pragma unroll
    for (int i = 1; i < IPT; ++i) {
      const T item = items[i];
      items[i] = running;
      running = op(running, item);
    }
    return block_total;
  }

  template <int IPT, class Op>
  __device__ T exclusive_scan(T (&items)[IPT], T init, Op op) {
    return exclusive_scan(items, op, fixed_prefix<T>{init});
  }

 private:
  template <int IPT, class Op>
  __device__ static T reduce_items(const T (&items)[IPT], Op& op) {
    T total = items[0];
#pragma unroll
    for (int i = 1; i < IPT; ++i) total = op(total, items[i]);
    return total;
  }

  // What precedes this thread's first item: the block prefix, then earlier warps, then earlier
  // lanes. Also yields the block total.
  template <int IPT, class Op, class PrefixOf>
  __device__ maybe<T> thread_prefix(const T (&items)[IPT], Op& op, PrefixOf& prefix_of, T& block_total) {
    const unsigned lane = detail::lane_id();
    const unsigned warp = detail::warp_id();
    T warp_inclusive;
    const maybe<T> before_lane = warp_exclusive_scan(reduce_items(items, op), op, warp_inclusive);
    if (lane == detail::warp_threads - 1) s_.warp_totals[warp] = warp_inclusive;
    __syncthreads();

    maybe<T> before_warp = {s_.warp_totals[0], false};
    T total = s_.warp_totals[0];
#pragma unroll
    for (int w = 1; w < warps; ++w) {
      if (w == static_cast<int>(warp)) before_warp = {total, true};
      total = op(total, s_.warp_totals[w]);
    }
    block_total = total;

    maybe<T> before_block = {total, false};
    if constexpr (!cuda::std::is_same_v<cuda::std::decay_t<PrefixOf>, no_prefix>) {
      if (warp == 0) {
        const maybe<T> prefix = prefix_of(total);
        if (lane == 0) s_.block_prefix = prefix;
      }
      __syncthreads();
      before_block = s_.block_prefix;
    }
    return detail::combine(detail::combine(before_block, before_warp, op), before_lane, op);
  }

  storage& s_;
};

}  // namespace upsweep
