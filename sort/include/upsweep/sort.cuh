// Upsweep::sort: LSD radix sort of keys and key-value pairs (template layer, nvcc users), struct
// keys through a decomposer, double buffers, and host-resident data sorted through the device.
#pragma once

#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/host_radix_sort.cuh>
#include <upsweep/sort/radix_decomposer.cuh>
#include <upsweep/sort/radix_traits.cuh>
