// Scan rung 2: Blelloch's work-efficient scan with bank-conflict avoidance (BCAO), the "BCAO" row
// of seed 000. A tile of 2 items per thread is reduced up a binary tree in shared memory, its root
// cleared, and swept down again, giving the tile's exclusive scan in 2 log2(tile) barrier steps
// and O(tile) adds. Slot i lives at i + i / 32, so the tree's power-of-two strides spread over the
// banks. Larger inputs go through the scan-then-fan driver (scan_then_fan.cuh), a level per tile.
// Cost against the Fenwick rung: work-efficient, but twice the barriers of a warp-organised scan
// and idle threads at the top of the tree.
#pragma once

#include "ladder_common.cuh"
#include "scan_then_fan.cuh"

namespace upsweep::ladder {

template <int BlockThreads = 512>
struct blelloch_bcao_tile {
  static_assert((BlockThreads & (BlockThreads - 1)) == 0, "the tree needs a power-of-two tile");
  static constexpr int block_threads = BlockThreads;
  static constexpr int tile_items = 2 * BlockThreads;
  static constexpr int log_banks = 5;

  __host__ __device__ static constexpr int padded(int i) { return i + (i >> log_banks); }

  template <class T>
  struct storage {
    T tree[padded(tile_items - 1) + 1];
    T tile_total;
  };

  // Up-sweep: after level d, slot (k + 1) * 2^(d+1) - 1 holds the sum of its 2^(d+1) items.
  template <class T>
  __device__ static void up_sweep(T* tree) {
    const int t = static_cast<int>(threadIdx.x);
    for (int stride = 1, pairs = tile_items / 2; pairs > 0; stride *= 2, pairs /= 2) {
      __syncthreads();  // the level below is complete
      if (t < pairs) {
        const int left = stride * (2 * t + 1) - 1;
        tree[padded(left + stride)] += tree[padded(left)];
      }
    }
    __syncthreads();
  }

  // Down-sweep from a cleared root: each left child takes its parent's prefix, each right child
  // the parent's prefix plus the left child's old sum.
  template <class T>
  __device__ static void down_sweep(T* tree) {
    const int t = static_cast<int>(threadIdx.x);
    for (int stride = tile_items / 2, pairs = 1; pairs < tile_items; stride /= 2, pairs *= 2) {
      __syncthreads();
      if (t < pairs) {
        const int left = stride * (2 * t + 1) - 1;
        const T left_sum = tree[padded(left)];
        tree[padded(left)] = tree[padded(left + stride)];
        tree[padded(left + stride)] += left_sum;
      }
    }
    __syncthreads();
  }

  template <bool Exclusive, class T>
  __device__ static T scan_tile(const T* d_in, T* d_out, tile_span tile, T base, storage<T>& s) {
    const int first = static_cast<int>(threadIdx.x);  // a block-stride apart: coalesced loads
    const int second = first + block_threads;
    const T x_first = first < tile.valid ? d_in[tile.base + first] : T{};
    const T x_second = second < tile.valid ? d_in[tile.base + second] : T{};
    s.tree[padded(first)] = x_first;
    s.tree[padded(second)] = x_second;

    up_sweep(s.tree);
    if (first == 0) {
      s.tile_total = s.tree[padded(tile_items - 1)];
      s.tree[padded(tile_items - 1)] = T{};
    }
    down_sweep(s.tree);  // its first barrier publishes tile_total and the cleared root

    const T before_first = s.tree[padded(first)];
    const T before_second = s.tree[padded(second)];
    if (first < tile.valid) d_out[tile.base + first] = base + (Exclusive ? before_first : before_first + x_first);
    if (second < tile.valid)
      d_out[tile.base + second] = base + (Exclusive ? before_second : before_second + x_second);
    return s.tile_total;
  }
};

}  // namespace upsweep::ladder
