// Suite `seeds`: every rung of the seed ladder (scan/ladder/) on int32 at 10^2 .. 10^9 items, as
// rows seeds/scan/<variant>/<n> and seeds/reduce/<variant>/<n>. CUB, Thrust and the copy ceiling
// are the core suite's rows (core/inclusive_sum_i32/...), which report.py puts beside them.
// Temporary storage is allocated outside the timing; slow rungs keep a short minimum time.
#include "bench_support.cuh"

#include "ladder.hpp"

#include <cstdint>
#include <string>

namespace upsweep::bench {
namespace {

using item_t = std::int32_t;

// Long enough for a stable median at small n; at 10^9 the slowest rung (Fenwick) still runs a
// handful of iterations.
constexpr double ladder_min_time_s = 0.1;

// Small values of both signs: the sums stay near zero (no overflow), and no zero-valued shortcut.
void fill_items(item_t* d, std::int64_t n) { fill_input<item_t>(d, n, -4, 4); }

void ladder_scan(benchmark::State& state, scan_variant variant) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(n);
  fill_items(in.ptr, n);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(item_t), [&](void* temp, std::size_t& bytes,
                                                                       cudaStream_t s) {
    return ladder_inclusive_scan<item_t>(variant, temp, bytes, in.ptr, out.ptr, n, s);
  });
}

void ladder_reduce(benchmark::State& state, reduce_variant variant) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(1);
  fill_items(in.ptr, n);
  time_with_temp_storage(state, n, 1.0 * n * sizeof(item_t), [&](void* temp, std::size_t& bytes,
                                                                       cudaStream_t s) {
    return ladder_reduce_sum<item_t>(variant, temp, bytes, in.ptr, out.ptr, n, s);
  });
}

const bool registered = register_later([] {
  for (const scan_variant variant : all_scan_variants) {
    add_row(std::string("seeds/scan/") + name(variant), decade_sizes(), ladder_min_time_s,
            [variant](benchmark::State& state) { ladder_scan(state, variant); }, "i32");
  }
  for (const reduce_variant variant : all_reduce_variants) {
    add_row(std::string("seeds/reduce/") + name(variant), decade_sizes(), ladder_min_time_s,
            [variant](benchmark::State& state) { ladder_reduce(state, variant); }, "i32");
  }
});

}  // namespace
}  // namespace upsweep::bench
