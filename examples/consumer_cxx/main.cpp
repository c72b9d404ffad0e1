// Prefix sum and sum of device data through Upsweep's compiled API, from a g++-compiled file.
// Exits 0 when the results match a CPU loop, 1 when they do not, 77 when no GPU is usable.
#include <upsweep/scan.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <vector>

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no usable CUDA device: skipping");
    return 77;
  }
  const std::int64_t n = 1'000'000;
  std::vector<std::int64_t> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = (i * 7919) % 1000 - 500;
  std::int64_t *d_in = nullptr, *d_out = nullptr;
  try {
    // <cuda_runtime_api.h> has only the void** form of cudaMalloc.
    if (cudaMalloc(reinterpret_cast<void**>(&d_in), n * sizeof(std::int64_t)) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void**>(&d_out), (n + 1) * sizeof(std::int64_t)) != cudaSuccess)
      throw std::runtime_error("cudaMalloc failed");
    if (cudaMemcpy(d_in, host.data(), n * sizeof(std::int64_t), cudaMemcpyHostToDevice) != cudaSuccess)
      throw std::runtime_error("cudaMemcpy failed");
    upsweep::inclusive_sum(d_in, d_out, n);           // convenience layer: throws on failure
    upsweep::reduce_sum(d_in, d_out + n, n);
    std::vector<std::int64_t> result(n + 1);
    if (cudaMemcpy(result.data(), d_out, (n + 1) * sizeof(std::int64_t), cudaMemcpyDeviceToHost) != cudaSuccess)
      throw std::runtime_error("cudaMemcpy failed");
    std::int64_t running = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      running += host[i];
      if (result[i] != running) {
        std::printf("mismatch at %lld\n", static_cast<long long>(i));
        return 1;
      }
    }
    std::printf("prefix sum and reduce of %lld items: %s\n", static_cast<long long>(n),
                result[n] == running ? "ok" : "WRONG");
    if (cudaFree(d_in) != cudaSuccess || cudaFree(d_out) != cudaSuccess) throw std::runtime_error("cudaFree failed");
    return result[n] == running ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer_cxx: %s\n", e.what());
    return 1;
  }
}
