// Scan rungs 5: the warp scans of seed 002, each plugged into one warp-organised block scan (warps
// scan their items, one warp scans the warp totals, every thread adds its warp's prefix).
//   serial_warp_scan       lane 0 walks 32 items in shared memory (the scan-then-fan baseline)
//   kogge_stone_smem       log2(32) steps in shared memory, each lane tests lane >= offset
//   kogge_stone_padded     16 zeros below each warp's slots replace the lane tests
//   shfl_up_warp_scan      registers only, __shfl_up_sync plus a lane test
//   shfl_ptx_warp_scan     shfl.sync.up's own in-range predicate guards the add, no branch
// Seed 002 runs the shared-memory steps on volatile memory with no barrier; since Volta a lane may
// read a slot its neighbour is writing, so each step here reads, __syncwarp()s, then writes.
#pragma once

#include "ladder_common.cuh"

#include <cuda/std/bit>
#include <cuda/std/type_traits>

namespace upsweep::ladder {

// A lane's inclusive and exclusive prefix within its warp (or block).
template <class T>
struct scan_pair {
  T inclusive;
  T exclusive;
};

struct serial_warp_scan {
  static constexpr int slots_per_warp = warp_threads;

  template <class T>
  __device__ static scan_pair<T> scan(T value, T* warp_slots) {
    const unsigned lane = detail::lane_id();
    warp_slots[lane] = value;
    __syncwarp();
    if (lane == 0) {
      T running{};
      for (int i = 0; i < warp_threads; ++i) warp_slots[i] = running = running + warp_slots[i];
    }
    __syncwarp();
    return {warp_slots[lane], lane == 0 ? T{} : warp_slots[lane - 1]};
  }
};

struct kogge_stone_smem {
  static constexpr int slots_per_warp = warp_threads;

  template <class T>
  __device__ static scan_pair<T> scan(T value, T* warp_slots) {
    const unsigned lane = detail::lane_id();
    warp_slots[lane] = value;
    __syncwarp();
#pragma unroll
    for (unsigned offset = 1; offset < warp_threads; offset *= 2) {
      const T lower = lane >= offset ? warp_slots[lane - offset] : T{};
      __syncwarp();  // every read of this step before any write
      if (lane >= offset) warp_slots[lane] = value = lower + value;
      __syncwarp();
    }
    return {value, lane == 0 ? T{} : warp_slots[lane - 1]};
  }
};

struct kogge_stone_padded {
  static constexpr int padding = warp_threads / 2;  // the largest step reaches 16 lanes down
  static constexpr int slots_per_warp = padding + warp_threads;

  template <class T>
  __device__ static scan_pair<T> scan(T value, T* warp_slots) {
    const unsigned lane = detail::lane_id();
    T* const mine = warp_slots + padding + lane;
    if (lane < padding) warp_slots[lane] = T{};  // rewritten per call: no set-up pass, no stale state
    *mine = value;
    __syncwarp();
#pragma unroll
    for (unsigned offset = 1; offset < warp_threads; offset *= 2) {
      const T lower = *(mine - offset);  // a zero below lane 0..offset-1: no test needed
      __syncwarp();
      *mine = value = lower + value;
      __syncwarp();
    }
    return {value, *(mine - 1)};
  }
};

struct shfl_up_warp_scan {
  static constexpr int slots_per_warp = 0;

  template <class T>
  __device__ static scan_pair<T> scan(T value, T*) {
    const unsigned lane = detail::lane_id();
#pragma unroll
    for (unsigned offset = 1; offset < warp_threads; offset *= 2) {
      const T lower = __shfl_up_sync(full_warp_mask, value, offset);
      if (lane >= offset) value = lower + value;
    }
    const T previous = __shfl_up_sync(full_warp_mask, value, 1);
    return {value, lane == 0 ? T{} : previous};
  }
};

// shfl.sync.up sets a predicate when the source lane exists; the add is predicated on it.
__device__ __forceinline__ void predicated_shfl_up_add(int& value, unsigned offset) {
  asm volatile(
      "{\n\t.reg .s32 lower;\n\t.reg .pred in_range;\n\t"
      "shfl.sync.up.b32 lower|in_range, %0, %1, 0, -1;\n\t"
      "@in_range add.s32 %0, lower, %0;\n\t}"
      : "+r"(value)
      : "r"(offset));
}
__device__ __forceinline__ void predicated_shfl_up_add(unsigned& value, unsigned offset) {
  asm volatile(
      "{\n\t.reg .u32 lower;\n\t.reg .pred in_range;\n\t"
      "shfl.sync.up.b32 lower|in_range, %0, %1, 0, -1;\n\t"
      "@in_range add.u32 %0, lower, %0;\n\t}"
      : "+r"(value)
      : "r"(offset));
}
__device__ __forceinline__ void predicated_shfl_up_add(float& value, unsigned offset) {
  asm volatile(
      "{\n\t.reg .f32 lower;\n\t.reg .pred in_range;\n\t"
      "shfl.sync.up.b32 lower|in_range, %0, %1, 0, -1;\n\t"
      "@in_range add.f32 %0, lower, %0;\n\t}"
      : "+f"(value)
      : "r"(offset));
}

// The lane below's value, or 0 in lane 0, selected by the same predicate.
__device__ __forceinline__ unsigned predicated_shfl_up_one(unsigned bits) {
  unsigned result;
  asm volatile(
      "{\n\t.reg .u32 lower;\n\t.reg .pred in_range;\n\t"
      "shfl.sync.up.b32 lower|in_range, %1, 1, 0, -1;\n\t"
      "selp.b32 %0, lower, 0, in_range;\n\t}"
      : "=r"(result)
      : "r"(bits));
  return result;
}

struct shfl_ptx_warp_scan {
  static constexpr int slots_per_warp = 0;

  template <class T>
  __device__ static scan_pair<T> scan(T value, T*) {
    static_assert(cuda::std::is_same_v<T, int> || cuda::std::is_same_v<T, unsigned> || cuda::std::is_same_v<T, float>,
                  "the PTX warp scan adds 32-bit ints and floats");
#pragma unroll
    for (unsigned offset = 1; offset < warp_threads; offset *= 2) predicated_shfl_up_add(value, offset);
    // All-zero bits are 0 for each of the three types.
    const unsigned previous = predicated_shfl_up_one(cuda::std::bit_cast<unsigned>(value));
    return {value, cuda::std::bit_cast<T>(previous)};
  }
};

// The block scan every warp-scan rung plugs into: one item per thread.
template <class WarpScan, class T, int BlockThreads>
struct warp_organised_block_scan {
  static_assert(BlockThreads % warp_threads == 0 && BlockThreads <= warp_threads * warp_threads,
                "whole warps, and no more warps than one warp can scan");
  static constexpr int warps = BlockThreads / warp_threads;
  static constexpr int slot_count = WarpScan::slots_per_warp * warps;

  struct storage {
    T slots[slot_count > 0 ? slot_count : 1];  // warp w owns slots [w * slots_per_warp, ...)
    T warp_sums[warp_threads];                 // warp totals, then their exclusive prefixes
    T block_total;
  };

  // This thread's inclusive and exclusive prefix in the block, and the block total for every
  // thread. Barrier before reusing the storage.
  __device__ static scan_pair<T> scan(T value, storage& s, T& block_total) {
    const unsigned lane = detail::lane_id();
    const unsigned warp = detail::warp_id();
    T* const warp_slots = s.slots + warp * WarpScan::slots_per_warp;
    const scan_pair<T> in_warp = WarpScan::scan(value, warp_slots);
    if (lane == warp_threads - 1) s.warp_sums[warp] = in_warp.inclusive;
    __syncthreads();

    // Warp 0 may reuse its slots: its own scan is done and no other warp touches them.
    if (warp == 0) {
      const T warp_sum = lane < warps ? s.warp_sums[lane] : T{};
      const scan_pair<T> across = WarpScan::scan(warp_sum, warp_slots);
      if (lane < warps) s.warp_sums[lane] = across.exclusive;
      if (lane == warp_threads - 1) s.block_total = across.inclusive;
    }
    __syncthreads();

    const T warp_prefix = s.warp_sums[warp];
    block_total = s.block_total;
    return {warp_prefix + in_warp.inclusive, warp_prefix + in_warp.exclusive};
  }
};

// Tile policy for scan_tiles_kernel (scan_then_fan.cuh): one item per thread.
template <class WarpScan, int BlockThreads = 1024>
struct warp_organised_tile {
  static constexpr int block_threads = BlockThreads;
  static constexpr int tile_items = BlockThreads;
  template <class T>
  using block_scan_t = warp_organised_block_scan<WarpScan, T, BlockThreads>;
  template <class T>
  using storage = typename block_scan_t<T>::storage;

  // Writes base + the tile's local scan; returns the tile total (without base) to every thread.
  template <bool Exclusive, class T>
  __device__ static T scan_tile(const T* d_in, T* d_out, tile_span tile, T base, storage<T>& s) {
    const int t = static_cast<int>(threadIdx.x);
    const T value = t < tile.valid ? d_in[tile.base + t] : T{};
    T tile_total;
    const scan_pair<T> local = block_scan_t<T>::scan(value, s, tile_total);
    if (t < tile.valid) d_out[tile.base + t] = base + (Exclusive ? local.exclusive : local.inclusive);
    return tile_total;
  }
};

}  // namespace upsweep::ladder
