// upsweep-soak's device plumbing: one arena of buffers reused by every configuration, poisoned
// guards past each output, and a call of the core or the convenience layer as the configuration
// says.
#pragma once

#include "soak_config.hpp"

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

// ---- device plumbing --------------------------------------------------------------------------

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw upsweep::cuda_error(status, what, __FILE__, __LINE__);
}

constexpr std::int64_t guard_items = 64;
constexpr unsigned char poison = 0xab;

// Buffers reused by every configuration: max_n + slack items of up to 8 bytes each.
struct device_arena {
  std::int64_t capacity_bytes = 0;
  unsigned char *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr, *temp = nullptr;
  std::size_t temp_bytes = 0;
  std::int64_t* count = nullptr;

  explicit device_arena(std::int64_t max_n) {
    capacity_bytes = (std::max<std::int64_t>(max_n, 4096) + guard_items + 8) * 8;  // 4096: bin edges
    for (unsigned char** p : {&a, &b, &c, &d}) check(cudaMalloc(p, static_cast<std::size_t>(capacity_bytes)), "cudaMalloc");
    check(cudaMalloc(&count, 2 * sizeof(std::int64_t)), "cudaMalloc");
  }
  ~device_arena() {
    for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(c), static_cast<void*>(d),
                    static_cast<void*>(temp), static_cast<void*>(count)})
      cudaFree(p);
  }
  void* temporary(std::size_t bytes) {
    if (bytes > temp_bytes) {
      check(cudaFree(temp), "cudaFree");
      temp = nullptr;
      check(cudaMalloc(&temp, bytes), "cudaMalloc temporary");
      temp_bytes = bytes;
    }
    return temp;
  }
};

template <class T>
T* upload_at(unsigned char* base, std::int64_t offset, const std::vector<T>& host) {
  T* d = reinterpret_cast<T*>(base) + offset;
  check(cudaMemset(base, poison, static_cast<std::size_t>((offset + static_cast<std::int64_t>(host.size()) + guard_items) * sizeof(T))), "cudaMemset");
  if (!host.empty()) check(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy H2D");
  return d;
}
template <class T>
T* poisoned_at(unsigned char* base, std::int64_t offset, std::int64_t n) {
  check(cudaMemset(base, poison, static_cast<std::size_t>((offset + n + guard_items) * sizeof(T))), "cudaMemset");
  return reinterpret_cast<T*>(base) + offset;
}
template <class T>
std::vector<T> download(const T* d, std::int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(n));
  check(cudaDeviceSynchronize(), "the configuration's kernels");
  if (n > 0) check(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
  return h;
}
// The guard past an output of n items must still hold the poison.
template <class T>
bool guard_intact(const T* d, std::int64_t n) {
  std::vector<unsigned char> g(guard_items * sizeof(T));
  check(cudaMemcpy(g.data(), d + n, g.size(), cudaMemcpyDeviceToHost), "cudaMemcpy guard");
  return std::all_of(g.begin(), g.end(), [](unsigned char x) { return x == poison; });
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Runs a core-layer call through the arena's temporary storage, or the convenience form.
template <class Core, class Convenience>
void call(const config& c, device_arena& arena, Core&& core, Convenience&& convenience) {
  if (c.core) {
    std::size_t bytes = 0;
    check(core(nullptr, bytes), "size query");
    check(core(arena.temporary(bytes), bytes), "core call");
  } else {
    convenience();
  }
}

}  // namespace
