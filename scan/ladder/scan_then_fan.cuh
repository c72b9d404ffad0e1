// Scan rung 3: scan-then-fan, after seed 002. Each tile is scanned on its own and writes its total;
// the totals are scanned the same way (recursively, a level per factor of tile_items); then every
// item of tile k gets the scanned total of tiles 0..k-1 added (the fan).
// Cost: the output is written twice and read once more by the fan. The rung itself uses the
// serial warp scan; the warp-scan rungs (warp_scan_variants.cuh) and the Blelloch rung reuse this
// driver with their own tile policies.
#pragma once

#include "ladder_common.cuh"
#include "warp_scan_variants.cuh"

namespace upsweep::ladder {

// A level per factor of tile_items: 8 levels of 256-item tiles cover any 64-bit count.
inline constexpr int max_scan_levels = 8;
inline constexpr int min_level_tile_items = 256;

// Tiles scanned independently. Per tile: d_out = base + local scan, where base is
// d_tile_bases[tile] when given (reduce-then-scan); the tile total goes to d_tile_totals[tile]
// when given (scan-then-fan). In place (d_out == d_in) is fine: a thread reads the item it writes.
template <class Tile, bool Exclusive, class T>
__global__ void __launch_bounds__(Tile::block_threads)
    scan_tiles_kernel(const T* d_in, T* d_out, std::int64_t num_items, T* d_tile_totals, const T* d_tile_bases) {
  __shared__ typename Tile::template storage<T> s;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Tile::tile_items);
  for (std::int64_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const T base = d_tile_bases != nullptr ? d_tile_bases[tile] : T{};
    const T total = Tile::template scan_tile<Exclusive>(d_in, d_out, tile_at<Tile::tile_items>(tile, num_items), base, s);
    if (d_tile_totals != nullptr && threadIdx.x == 0) d_tile_totals[tile] = total;
    __syncthreads();  // the next tile reuses s
  }
}

// The fan: items of tile k >= 1 get the exclusive scan of the tile totals added.
template <int TileItems, class T>
__global__ void add_tile_bases_kernel(T* d_out, std::int64_t num_items, const T* d_tile_bases) {
  for (std::int64_t i = TileItems + global_thread_index(); i < num_items; i += grid_threads())
    d_out[i] = d_tile_bases[i / TileItems] + d_out[i];
}

template <class Tile, class T>
cudaError_t scan_tiles(bool exclusive, const T* d_in, T* d_out, std::int64_t num_items,
                       non_deduced_t<T*> d_tile_totals, non_deduced_t<const T*> d_tile_bases, cudaStream_t stream) {
  const unsigned grid = loop_grid(ceil_div<std::int64_t>(num_items, Tile::tile_items));
  if (exclusive)
    scan_tiles_kernel<Tile, true><<<grid, Tile::block_threads, 0, stream>>>(d_in, d_out, num_items, d_tile_totals,
                                                                            d_tile_bases);
  else
    scan_tiles_kernel<Tile, false><<<grid, Tile::block_threads, 0, stream>>>(d_in, d_out, num_items, d_tile_totals,
                                                                             d_tile_bases);
  return cudaGetLastError();
}

template <int TileItems, class T>
cudaError_t add_tile_bases(T* d_out, std::int64_t num_items, const T* d_tile_bases, cudaStream_t stream) {
  constexpr int block_threads = 256;
  const unsigned grid = loop_grid(ceil_div<std::int64_t>(num_items - TileItems, block_threads));
  add_tile_bases_kernel<TileItems><<<grid, block_threads, 0, stream>>>(d_out, num_items, d_tile_bases);
  return cudaGetLastError();
}

// Temporary storage of the recursive drivers: level l holds one value per tile of level l - 1
// (level -1 being the input); a level of one tile needs no level above it.
template <int TileItems, class T>
cudaError_t carve_scan_levels(void* d_temp_storage, std::size_t& temp_storage_bytes, std::int64_t num_items,
                              T* (&d_levels)[max_scan_levels]) {
  static_assert(TileItems >= min_level_tile_items, "too few levels for 64-bit counts");
  void* allocations[max_scan_levels] = {};
  std::size_t sizes[max_scan_levels] = {};
  std::int64_t items = num_items;
  for (int level = 0; level < max_scan_levels && items > 1; ++level) {
    items = ceil_div<std::int64_t>(items, TileItems);
    sizes[level] = items > 1 ? static_cast<std::size_t>(items) * sizeof(T) : 0;
  }
  UPSWEEP_CUDA_RETURN(detail::alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  for (int level = 0; level < max_scan_levels; ++level) d_levels[level] = static_cast<T*>(allocations[level]);
  return cudaSuccess;
}

template <class Tile, class T>
cudaError_t scan_then_fan_level(bool exclusive, const T* d_in, T* d_out, std::int64_t num_items,
                                T* const* d_levels, cudaStream_t stream) {
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Tile::tile_items);
  T* const d_totals = num_tiles > 1 ? d_levels[0] : nullptr;
  UPSWEEP_CUDA_RETURN(scan_tiles<Tile>(exclusive, d_in, d_out, num_items, d_totals, nullptr, stream));
  if (num_tiles == 1) return cudaSuccess;
  // Tile k's base is the exclusive scan of the totals, computed in place one level up.
  UPSWEEP_CUDA_RETURN(scan_then_fan_level<Tile>(true, d_totals, d_totals, num_tiles, d_levels + 1, stream));
  return add_tile_bases<Tile::tile_items>(d_out, num_items, d_totals, stream);
}

template <class Tile, bool Exclusive, class T>
cudaError_t scan_then_fan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,
                          std::int64_t num_items, cudaStream_t stream) {
  if (num_items < 0) return cudaErrorInvalidValue;
  T* d_levels[max_scan_levels];
  UPSWEEP_CUDA_RETURN(carve_scan_levels<Tile::tile_items>(d_temp_storage, temp_storage_bytes, num_items, d_levels));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  return scan_then_fan_level<Tile>(Exclusive, d_in, d_out, num_items, d_levels, stream);
}

// The rung: scan-then-fan over the warp-organised block scan with the serial warp scan.
using scan_then_fan_tile = warp_organised_tile<serial_warp_scan>;

}  // namespace upsweep::ladder
