// upsweep-bench: Google Benchmark main with the GPU in the context block, and --suite NAME as a
// shorthand for --benchmark_filter=^NAME/ (suites: core, sort, compact, histogram, tune, seeds;
// all runs everything). --benchmark_list_tests needs no GPU; running without one exits with 1
// and says why.
#include "bench_support.cuh"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

void add_gpu_context() {
  int device = 0, runtime = 0, driver = 0;
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDevice(&device));
  BENCH_CUDA(cudaGetDeviceProperties(&prop, device));
  BENCH_CUDA(cudaRuntimeGetVersion(&runtime));
  BENCH_CUDA(cudaDriverGetVersion(&driver));
  benchmark::AddCustomContext("gpu", prop.name);
  benchmark::AddCustomContext("sm_count", std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("l2_bytes", std::to_string(prop.l2CacheSize));
  benchmark::AddCustomContext("cuda_runtime", std::to_string(runtime));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver));
}

// Rewrites "--suite NAME" into a benchmark filter.
std::vector<std::string> translate_suite(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string suite;
    if (arg == "--suite" && i + 1 < argc) suite = argv[++i];
    else if (arg.rfind("--suite=", 0) == 0) suite = arg.substr(8);
    else {
      args.push_back(arg);
      continue;
    }
    if (suite != "all") args.push_back("--benchmark_filter=^" + suite + "/");
  }
  return args;
}

// Listing touches no CUDA: rows are registered without it and allocate only when they run.
bool only_listing(const std::vector<std::string>& args) {
  for (const auto& arg : args)
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" || arg == "--benchmark_list_tests=1")
      return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args = translate_suite(argc, argv);
  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(a.data());
  int raw_argc = static_cast<int>(raw.size());
  benchmark::Initialize(&raw_argc, raw.data());
  if (benchmark::ReportUnrecognizedArguments(raw_argc, raw.data())) return 1;
  if (!only_listing(args)) {
    try {
      add_gpu_context();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "upsweep-bench: no usable CUDA device, nothing measured: %s\n", e.what());
      return 1;
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
