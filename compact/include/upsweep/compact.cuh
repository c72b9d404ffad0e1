// Umbrella header of the compaction template API (nvcc only).
#pragma once

#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_reduce_by_key.cuh>
#include <upsweep/compact/device_run_length_encode.cuh>
#include <upsweep/compact/device_scan_by_key.cuh>
#include <upsweep/compact/device_select.cuh>
#include <upsweep/compact/device_unique.cuh>
