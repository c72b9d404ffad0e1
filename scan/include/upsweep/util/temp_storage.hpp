// Caller-provided temporary storage, CUB-style: a call with d_temp_storage == nullptr only writes
// the bytes it needs; a real call carves that blob into aligned pieces. Pure arithmetic, no CUDA calls.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

inline constexpr std::size_t temp_alignment = 256;

constexpr std::size_t round_up_bytes(std::size_t bytes, std::size_t alignment = temp_alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

// Lay N allocations out in one blob. With d_temp_storage == nullptr only temp_storage_bytes is
// written (never 0, so a null pointer always means "query"); a too-small blob is an error.
template <std::size_t N>
cudaError_t alias_temporaries(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              void* (&allocations)[N], const std::size_t (&sizes)[N]) {
  std::size_t offsets[N];
  std::size_t total = 0;
  for (std::size_t i = 0; i < N; ++i) {
    offsets[i] = total;
    total += round_up_bytes(sizes[i]);
  }
  if (total == 0) total = temp_alignment;
  if (d_temp_storage == nullptr) {
    temp_storage_bytes = total;
    return cudaSuccess;
  }
  if (temp_storage_bytes < total) return cudaErrorInvalidValue;
  if (reinterpret_cast<std::uintptr_t>(d_temp_storage) % 16 != 0) return cudaErrorMisalignedAddress;
  for (std::size_t i = 0; i < N; ++i)
    allocations[i] = sizes[i] == 0 ? nullptr : static_cast<char*>(d_temp_storage) + offsets[i];
  return cudaSuccess;
}

}  // namespace upsweep::detail
