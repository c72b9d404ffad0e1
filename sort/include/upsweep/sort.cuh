// Upsweep::sort: LSD radix sort of keys and key-value pairs (template layer, nvcc users), struct
// keys through a decomposer, double buffers, host-resident data sorted through the device,
// segmented sort, and top-k by radix select.
#pragma once

#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/device_segmented_sort.cuh>
#include <upsweep/sort/device_top_k.cuh>
#include <upsweep/sort/host_radix_sort.cuh>
#include <upsweep/sort/radix_decomposer.cuh>
#include <upsweep/sort/radix_traits.cuh>
