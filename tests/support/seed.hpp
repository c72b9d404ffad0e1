// Seeds for random test data: fresh each run, overridable with UPSWEEP_SEED=<n>, and printed
// with every failure through SCOPED_TRACE.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace upsweep::test {

inline std::uint64_t fresh_seed() {
  if (const char* fixed = std::getenv("UPSWEEP_SEED")) return std::strtoull(fixed, nullptr, 10);
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

inline std::string seed_trace(std::uint64_t seed) {
  return "seed " + std::to_string(seed) + " (rerun with UPSWEEP_SEED=" + std::to_string(seed) + ")";
}

// Largest size a test may use: the GPU check lowers it for compute-sanitizer runs.
inline std::int64_t max_test_items(std::int64_t wanted) {
  if (const char* cap = std::getenv("UPSWEEP_TEST_MAX_ITEMS")) {
    const std::int64_t limit = std::strtoll(cap, nullptr, 10);
    if (limit > 0 && wanted > limit) return limit;
  }
  return wanted;
}

// True under UPSWEEP_TEST_SPARSE=1 (the GPU check's racecheck): tests that loop over many data
// shapes keep the few that take different kernel paths. Racecheck instruments every shared-memory
// access; the sort's full shape matrix took 300 to 385 s a key type under it (H100, 2026-11-25).
inline bool sparse_tests() {
  const char* sparse = std::getenv("UPSWEEP_TEST_SPARSE");
  return sparse != nullptr && sparse[0] != '\0' && sparse[0] != '0';
}

}  // namespace upsweep::test
