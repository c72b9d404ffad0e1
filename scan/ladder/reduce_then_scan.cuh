// Scan rung 4: reduce-then-scan, after seed 002, in two forms. Both read the input twice but write
// the output once (scan-then-fan writes it twice and reads it back).
//  - recursive: tiles are only summed first; the tile sums are scanned by the same algorithm, one
//    level per factor of tile_items; then each tile is scanned with its base added on the way out.
//  - two-pass: as many parts as blocks (two_pass_parts), each a run of whole tiles. Pass 1 sums
//    each part, one block scans the part sums, pass 2 scans each part tile by tile with a running
//    carry. No recursion, but each block walks its part serially.
// Both use the warp-organised block scan with the PTX warp scan, as the seed does.
#pragma once

#include "ladder_common.cuh"
#include "scan_then_fan.cuh"
#include "warp_scan_variants.cuh"


namespace upsweep::ladder {

using reduce_then_scan_tile = warp_organised_tile<shfl_ptx_warp_scan>;
inline constexpr std::int64_t two_pass_parts = 1024;
static_assert(two_pass_parts <= reduce_then_scan_tile::tile_items, "the part sums must fit one tile");

// The block's sum in thread 0: shuffle-down sums per warp, then warp 0 sums the warp sums.
template <int BlockThreads, class T>
__device__ T block_sum(T value, T (&warp_sums)[warp_threads]) {
  static_assert(BlockThreads % warp_threads == 0 && BlockThreads <= warp_threads * warp_threads, "whole warps");
  constexpr int warps = BlockThreads / warp_threads;
  const unsigned lane = detail::lane_id();
  const unsigned warp = detail::warp_id();
#pragma unroll
  for (unsigned offset = warp_threads / 2; offset > 0; offset /= 2) value += __shfl_down_sync(full_warp_mask, value, offset);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < warps ? warp_sums[lane] : T{};
#pragma unroll
    for (unsigned offset = warp_threads / 2; offset > 0; offset /= 2)
      value += __shfl_down_sync(full_warp_mask, value, offset);
  }
  return value;
}

// Sums of consecutive runs of the input: run r is [r * run_items, min((r + 1) * run_items, n)).
// Each thread folds its strided items, then the block adds the threads' sums.
template <int BlockThreads, class T>
__device__ T sum_run(const T* d_in, std::int64_t begin, std::int64_t end, T (&warp_sums)[warp_threads]) {
  T sum{};
  for (std::int64_t i = begin + threadIdx.x; i < end; i += BlockThreads) sum = sum + d_in[i];
  return block_sum<BlockThreads>(sum, warp_sums);
}

template <int BlockThreads, class T>
__global__ void __launch_bounds__(BlockThreads)
    sum_runs_kernel(const T* d_in, std::int64_t num_items, std::int64_t run_items, T* d_run_sums) {
  __shared__ T warp_sums[warp_threads];
  const std::int64_t num_runs = ceil_div(num_items, run_items);
  for (std::int64_t run = blockIdx.x; run < num_runs; run += gridDim.x) {
    const std::int64_t begin = run * run_items;
    const std::int64_t end = num_items - begin < run_items ? num_items : begin + run_items;
    const T sum = sum_run<BlockThreads>(d_in, begin, end, warp_sums);
    if (threadIdx.x == 0) d_run_sums[run] = sum;
    __syncthreads();  // the next run reuses warp_sums
  }
}

template <int BlockThreads, class T>
cudaError_t sum_runs(const T* d_in, std::int64_t num_items, std::int64_t run_items, T* d_run_sums, unsigned grid,
                     cudaStream_t stream) {
  sum_runs_kernel<BlockThreads><<<grid, BlockThreads, 0, stream>>>(d_in, num_items, run_items, d_run_sums);
  return cudaGetLastError();
}

// ---- recursive ----------------------------------------------------------------------------------

template <class Tile, class T>
cudaError_t reduce_then_scan_level(bool exclusive, const T* d_in, T* d_out, std::int64_t num_items,
                                   T* const* d_levels, cudaStream_t stream) {
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Tile::tile_items);
  T* d_bases = nullptr;
  if (num_tiles > 1) {
    d_bases = d_levels[0];
    UPSWEEP_CUDA_RETURN(
        sum_runs<Tile::block_threads>(d_in, num_items, Tile::tile_items, d_bases, loop_grid(num_tiles), stream));
    UPSWEEP_CUDA_RETURN(reduce_then_scan_level<Tile>(true, d_bases, d_bases, num_tiles, d_levels + 1, stream));
  }
  return scan_tiles<Tile>(exclusive, d_in, d_out, num_items, nullptr, d_bases, stream);
}

template <bool Exclusive, class T>
cudaError_t reduce_then_scan_recursive(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                       T* d_out, std::int64_t num_items, cudaStream_t stream) {
  using tile = reduce_then_scan_tile;
  if (num_items < 0) return cudaErrorInvalidValue;
  T* d_levels[max_scan_levels];
  UPSWEEP_CUDA_RETURN(carve_scan_levels<tile::tile_items>(d_temp_storage, temp_storage_bytes, num_items, d_levels));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  return reduce_then_scan_level<tile>(Exclusive, d_in, d_out, num_items, d_levels, stream);
}

// ---- two-pass ------------------------------------------------------------------------------------

// Whole tiles per part, so that only the last tile of the last part is partial.
template <int TileItems>
constexpr std::int64_t two_pass_part_items(std::int64_t num_items) {
  return ceil_div<std::int64_t>(ceil_div<std::int64_t>(num_items, two_pass_parts), TileItems) * TileItems;
}

// Block p scans part p tile by tile, starting from the part's base (the scanned part sums).
template <class Tile, bool Exclusive, class T>
__global__ void __launch_bounds__(Tile::block_threads)
    scan_parts_kernel(const T* d_in, T* d_out, std::int64_t num_items, std::int64_t part_items,
                      const T* d_part_bases) {
  __shared__ typename Tile::template storage<T> s;
  const std::int64_t first_tile = blockIdx.x * (part_items / Tile::tile_items);
  const std::int64_t part_end_tile = first_tile + part_items / Tile::tile_items;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Tile::tile_items);
  const std::int64_t end_tile = part_end_tile < num_tiles ? part_end_tile : num_tiles;
  T carry = d_part_bases[blockIdx.x];
  for (std::int64_t tile = first_tile; tile < end_tile; ++tile) {
    carry = carry + Tile::template scan_tile<Exclusive>(d_in, d_out, tile_at<Tile::tile_items>(tile, num_items),
                                                        carry, s);
    __syncthreads();  // the next tile reuses s
  }
}

template <bool Exclusive, class T>
cudaError_t reduce_then_scan_two_pass(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in,
                                      T* d_out, std::int64_t num_items, cudaStream_t stream) {
  using tile = reduce_then_scan_tile;
  if (num_items < 0) return cudaErrorInvalidValue;
  const std::int64_t part_items = num_items > 0 ? two_pass_part_items<tile::tile_items>(num_items) : 1;
  const std::int64_t num_parts = ceil_div<std::int64_t>(num_items, part_items);
  void* allocations[1] = {};
  const std::size_t sizes[1] = {static_cast<std::size_t>(num_parts) * sizeof(T)};
  UPSWEEP_CUDA_RETURN(detail::alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  T* const d_part_sums = static_cast<T*>(allocations[0]);
  const unsigned grid = static_cast<unsigned>(num_parts);

  UPSWEEP_CUDA_RETURN(sum_runs<tile::block_threads>(d_in, num_items, part_items, d_part_sums, grid, stream));
  UPSWEEP_CUDA_RETURN(scan_tiles<tile>(true, d_part_sums, d_part_sums, num_parts, nullptr, nullptr, stream));
  scan_parts_kernel<tile, Exclusive>
      <<<grid, tile::block_threads, 0, stream>>>(d_in, d_out, num_items, part_items, d_part_sums);
  return cudaGetLastError();
}

}  // namespace upsweep::ladder
