// Running maximum with a device lambda through Upsweep's template layer (core form: caller
// storage). Exits 0 when the result matches a CPU loop, 1 otherwise, 77 without a GPU.
#include <upsweep/scan.cuh>

#include <cstdio>
#include <vector>

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no usable CUDA device: skipping");
    return 77;
  }
  const std::int64_t n = 3'000'017;
  std::vector<float> host(n);
  for (std::int64_t i = 0; i < n; ++i) host[i] = static_cast<float>((i * 2654435761u) % 100000);
  float *d_in = nullptr, *d_out = nullptr;
  void* d_temp = nullptr;
  std::size_t temp_bytes = 0;
  auto larger = [] __device__(float a, float b) { return a < b ? b : a; };
  bool ok = cudaMalloc(&d_in, n * sizeof(float)) == cudaSuccess && cudaMalloc(&d_out, n * sizeof(float)) == cudaSuccess &&
            cudaMemcpy(d_in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess &&
            upsweep::inclusive_scan(nullptr, temp_bytes, d_in, d_out, n, larger) == cudaSuccess &&
            cudaMalloc(&d_temp, temp_bytes) == cudaSuccess &&
            upsweep::inclusive_scan(d_temp, temp_bytes, d_in, d_out, n, larger) == cudaSuccess &&
            cudaDeviceSynchronize() == cudaSuccess;
  std::vector<float> result(n);
  ok = ok && cudaMemcpy(result.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
  float running = host[0];
  for (std::int64_t i = 0; ok && i < n; ++i) {
    running = running < host[i] ? host[i] : running;
    ok = result[i] == running;
  }
  std::printf("running maximum of %lld floats: %s\n", static_cast<long long>(n), ok ? "ok" : "WRONG");
  ok = cudaFree(d_in) == cudaSuccess && cudaFree(d_out) == cudaSuccess && cudaFree(d_temp) == cudaSuccess && ok;
  return ok ? 0 : 1;
}
