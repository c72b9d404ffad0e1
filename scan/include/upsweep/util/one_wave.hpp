// Where a block per tile of larger tiles replaces a dispatch's own block per tile: inputs that fit
// one wave of the larger tiles and hold more of the smaller ones than SMs (scan, select, the scans
// by key, run-length encoding).
#pragma once

#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace upsweep::detail {

// The tiles of one wave of a larger-tile block per tile (WaveKernel, its tiles of `wave_tile`
// items, a block each) for num_items, or 0 where it does not apply: past one wave of it, or while
// the smaller tiles it replaces (`tile` items) are no more than the SMs, since while each has an
// SM to itself larger tiles only lengthen each (H200, 2026-12-04: docs/performance.md).
template <auto WaveKernel, int BlockThreads>
cudaError_t one_wave_tiles(std::int64_t num_items, std::int64_t tile, std::int64_t wave_tile, std::int64_t& tiles) {
  tiles = 0;
  int device = 0, sms = 0, resident = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));
  if ((num_items + tile - 1) / tile <= sms) return cudaSuccess;
  UPSWEEP_CUDA_RETURN((resident_blocks<WaveKernel, BlockThreads>(resident)));
  const std::int64_t needed = (num_items + wave_tile - 1) / wave_tile;
  if (needed <= resident) tiles = needed;
  return cudaSuccess;
}

}  // namespace upsweep::detail
