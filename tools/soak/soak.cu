// upsweep-soak: random configurations of every primitive (scan, reduce, sort, select, partition,
// unique, run-length encoding, histogram) over types, sizes, distributions, operators, in place
// or not, core or convenience layer, run for a given time and checked against a CPU reference
// (sorts also against CUB). One line per thousand configurations; on the first mismatch, the
// configuration and a command that replays it, and exit 1. Issue 9.
//   upsweep-soak [--seconds N] [--seed S] [--max-n N] [--only INDEX]
#include "soak_checks.cuh"
#include "soak_config.hpp"
#include "soak_device.cuh"

#include <upsweep/util/error.hpp>

#include <cuda_runtime_api.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>

namespace {

template <class T>
std::string run_typed(const config& c, device_arena& arena, std::mt19937_64& rng) {
  switch (c.prim) {
    case primitive::inclusive_sum:
    case primitive::exclusive_sum:
      if constexpr (sizeof(T) >= 4) return check_scan<T>(c, arena, rng);
      break;
    case primitive::reduce:
      if constexpr (sizeof(T) >= 4) return check_reduce<T>(c, arena, rng);
      break;
    case primitive::sort_keys:
    case primitive::sort_pairs: return check_sort<T>(c, arena, rng);
    case primitive::select_if:
    case primitive::partition: return check_select<T>(c, arena, rng);
    case primitive::unique:
    case primitive::run_length_encode: return check_runs<T>(c, arena, rng);
    case primitive::histogram_even:
    case primitive::histogram_range: return check_histogram<T>(c, arena, rng);
    case primitive::count: break;
  }
  return {};
}

std::string run(const config& c, device_arena& arena) {
  std::mt19937_64 rng(mix(c.seed + 0x5eed) ^ c.index);
  switch (c.type) {
    case type_id::u8: return run_typed<std::uint8_t>(c, arena, rng);
    case type_id::u16: return run_typed<std::uint16_t>(c, arena, rng);
    case type_id::u32: return run_typed<std::uint32_t>(c, arena, rng);
    case type_id::u64: return run_typed<std::uint64_t>(c, arena, rng);
    case type_id::i8: return run_typed<std::int8_t>(c, arena, rng);
    case type_id::i16: return run_typed<std::int16_t>(c, arena, rng);
    case type_id::i32: return run_typed<std::int32_t>(c, arena, rng);
    case type_id::i64: return run_typed<std::int64_t>(c, arena, rng);
    case type_id::f32: return run_typed<float>(c, arena, rng);
    case type_id::f64: return run_typed<double>(c, arena, rng);
    case type_id::count: break;
  }
  return {};
}

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr, "upsweep-soak: %s\nusage: upsweep-soak [--seconds N] [--seed S] [--max-n N] [--only INDEX]\n", message);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60;
  std::uint64_t seed = std::random_device{}() * 0x100000001ull ^ std::random_device{}();
  std::int64_t max_n = std::int64_t{1} << 22;
  long long only = -1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::printf("usage: upsweep-soak [--seconds N] [--seed S] [--max-n N] [--only INDEX]\n"
                  "Random configurations of every primitive against the CPU reference (sorts also against CUB)\n"
                  "for N seconds (default 60); one line per thousand; on a mismatch, the configuration and the\n"
                  "command that replays it (--seed S --max-n N --only INDEX), exit 1. No GPU: exit 1.\n");
      return 0;
    }
    if (i + 1 >= argc) usage(("missing value after " + arg).c_str());
    char* end = nullptr;
    const char* value = argv[++i];
    if (arg == "--seconds") seconds = std::strtod(value, &end);
    else if (arg == "--seed") seed = std::strtoull(value, &end, 10);
    else if (arg == "--max-n") max_n = std::strtoll(value, &end, 10);
    else if (arg == "--only") only = std::strtoll(value, &end, 10);
    else usage(("unknown option " + arg).c_str());
    if (end == value || *end != '\0') usage(("bad value '" + std::string(value) + "' for " + arg).c_str());
  }
  if (max_n < 1 || max_n > (std::int64_t{1} << 31)) usage("--max-n must be in [1, 2^31]");

  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "upsweep-soak: no CUDA device available (%s: %s)\n",
                 probe != cudaSuccess ? cudaGetErrorName(probe) : "cudaErrorNoDevice",
                 probe != cudaSuccess ? cudaGetErrorString(probe) : "no CUDA-capable device is detected");
    return 1;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("upsweep-soak: seed %" PRIu64 ", max n %" PRId64 ", %s%.0f s on %s\n", seed, max_n,
              only >= 0 ? "configuration " : "", only >= 0 ? static_cast<double>(only) : seconds, prop.name);
  std::fflush(stdout);

  try {
    device_arena arena(max_n);
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    std::uint64_t done = 0, items = 0;
    for (std::uint64_t index = only >= 0 ? static_cast<std::uint64_t>(only) : 0;; ++index) {
      const config c = make_config(seed, index, max_n);
      std::string failure;
      try {
        failure = run(c, arena);
      } catch (const std::exception& e) {
        failure = std::string("error: ") + e.what();
      }
      if (!failure.empty()) {
        std::printf("MISMATCH %s\n  %s\n  replay: upsweep-soak --seed %" PRIu64 " --max-n %" PRId64 " --only %" PRIu64 "\n",
                    c.describe().c_str(), failure.c_str(), seed, max_n, index);
        return 1;
      }
      ++done;
      items += static_cast<std::uint64_t>(c.n);
      if (only >= 0) {
        std::printf("ok %s\n", c.describe().c_str());
        return 0;
      }
      if (done % 1000 == 0)
        std::printf("%8" PRIu64 " configurations ok, %.3g items, %.0f s; last %s\n", done, static_cast<double>(items),
                    elapsed(), c.describe().c_str());
      std::fflush(stdout);
      if (elapsed() >= seconds) break;
    }
    std::printf("upsweep-soak: %" PRIu64 " configurations, %.3g items, all match (seed %" PRIu64 ")\n", done,
                static_cast<double>(items), seed);
  } catch (const std::exception& e) {
    std::printf("upsweep-soak: %s\n", e.what());
    return 1;
  }
  return 0;
}