// The device probe, checked calls, tracked allocations and the event timer of device_support.hpp.
#include <upsweep/apps/device_support.hpp>

namespace upsweep::apps {
namespace {
std::size_t held = 0, peak = 0;
}  // namespace

void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess)
    throw gpu_error(std::string(what) + " failed (" + cudaGetErrorName(code) + ": " + cudaGetErrorString(code) + ")");
}

std::string probe_device() {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    cudaGetLastError();
    throw gpu_error(std::string("no CUDA device available (") + cudaGetErrorName(code) + ": " + cudaGetErrorString(code) + ")");
  }
  if (count == 0) throw gpu_error("no CUDA device available (cudaGetDeviceCount found none)");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  return prop.name;
}

std::size_t device_bytes_held() { return held; }
std::size_t device_bytes_peak() { return peak; }

void* tracked_malloc(std::size_t bytes) {
  void* ptr = nullptr;
  check(cudaMalloc(&ptr, bytes), ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str());
  held += bytes;
  if (held > peak) peak = held;
  return ptr;
}

void tracked_free(void* ptr, std::size_t bytes) {
  cudaFree(ptr);
  held -= bytes;
}

event_timer::event_timer() {
  check(cudaEventCreate(&start_), "cudaEventCreate");
  check(cudaEventCreate(&stop_), "cudaEventCreate");
}
event_timer::~event_timer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}
void event_timer::start() { check(cudaEventRecord(start_), "cudaEventRecord"); }
float event_timer::stop_ms() {
  check(cudaEventRecord(stop_), "cudaEventRecord");
  check(cudaEventSynchronize(stop_), "the GPU work");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return ms;
}

}  // namespace upsweep::apps
