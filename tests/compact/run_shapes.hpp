// Inputs made of runs of equal consecutive items, in shapes that cross the kernels' edges: every
// item its own run, short runs, runs longer than tiles, one run, runs ending exactly at tile
// edges. Shared by the run-length, unique and by-key tests.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace upsweep::test {

enum class run_shape { distinct, short_runs, long_runs, one_run, tile_edges };

inline const std::vector<run_shape>& every_run_shape() {
  static const std::vector<run_shape> all = {run_shape::distinct, run_shape::short_runs, run_shape::long_runs,
                                             run_shape::one_run, run_shape::tile_edges};
  return all;
}

inline std::string name_of(run_shape s) {
  switch (s) {
    case run_shape::distinct: return "every item its own run";
    case run_shape::short_runs: return "runs of 1 to 4";
    case run_shape::long_runs: return "runs of up to 3 tiles";
    case run_shape::one_run: return "one run";
    case run_shape::tile_edges: return "runs of exactly one tile";
  }
  return "?";
}

// Consecutive runs get values that differ under ==: a counter stepping by 1 to 7, spread over
// T's bits by an odd multiplier (integers) or kept below 2^20 (floating point, exact).
template <class T>
T value_of_run(std::uint64_t counter) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(counter % 1'000'000) - T(500'000);
  else return static_cast<T>(counter * 0x9E3779B97F4A7C15ull);
}

template <class T>
std::vector<T> runs_of_shape(std::int64_t n, run_shape shape, std::int64_t tile, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> items(static_cast<std::size_t>(n));
  std::uint64_t counter = rng() % 1000;
  std::int64_t left_in_run = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (left_in_run == 0) {
      counter += 1 + rng() % 7;
      switch (shape) {
        case run_shape::distinct: left_in_run = 1; break;
        case run_shape::short_runs: left_in_run = 1 + static_cast<std::int64_t>(rng() % 4); break;
        case run_shape::long_runs: left_in_run = 1 + static_cast<std::int64_t>(rng() % (3 * tile)); break;
        case run_shape::one_run: left_in_run = n; break;
        case run_shape::tile_edges: left_in_run = tile; break;
      }
    }
    items[i] = value_of_run<T>(counter);
    --left_in_run;
  }
  return items;
}

}  // namespace upsweep::test
