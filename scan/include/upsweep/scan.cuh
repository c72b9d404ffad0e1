// Umbrella header of the core layer's template API (nvcc only).
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/device_reduce.cuh>
#include <upsweep/scan/device_scan.cuh>
#include <upsweep/scan/device_segmented_reduce.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/scan/warp_reduce.cuh>
#include <upsweep/scan/warp_scan.cuh>
