// Shared pieces of the by-key tests (reduce_by_key, unique_by_key, the scans by key): key types
// whose equality is not identity, host references that keep the first key of each run, and small
// tiles so the look-back crosses many windows at the sanitizers' sizes.
#pragma once

#include <upsweep/compact/detail/by_key_dispatch.cuh>

#include "compact_test_support.cuh"
#include "run_shapes.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace upsweep::test {

// A key compared on `key` alone: which item of a run is kept shows in `tag`.
struct tagged {
  std::int32_t key;
  std::int32_t tag;
};
struct same_key {
  __host__ __device__ bool operator()(const tagged& a, const tagged& b) const { return a.key == b.key; }
};

struct plain_equal {
  template <class T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return a == b;
  }
};

// The first of two: associative, for host references that keep each run's first value.
struct keep_first {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T&) const {
    return a;
  }
};

// A tile of 128 items: thousands of tiles at the sanitizers' sizes.
using small_by_key_tiles = scan_policy<64, 2, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                       tile_schedule::block_per_tile, 1, 0>;

// Tiles of 256 items on two resident blocks reducing ahead (reduce and the scans by key, 4-byte
// keys and values from aligned pointers; other calls take its block per tile): each block takes
// many tiles from the smallest sizes up.
using small_tiles_ahead = scan_policy<64, 4, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                      tile_schedule::reduce_ahead, 1, 0, 2>;

inline std::vector<std::int64_t> by_key_sizes(std::int64_t tile) {
  return {0, 1, 2, 31, 32, 33, tile - 1, tile, tile + 1, 3 * tile + 5, max_test_items(200'003),
          max_test_items(3'000'017)};
}

// Keys with runs of `shape`, as K: integers, floats (see float_keys), or tagged with a random tag.
template <class K>
std::vector<K> keys_of_shape(std::int64_t n, run_shape shape, std::int64_t tile, std::uint64_t seed) {
  if constexpr (std::is_same_v<K, tagged>) {
    const auto keys = runs_of_shape<std::int32_t>(n, shape, tile, seed);
    std::vector<tagged> out(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i)
      out[i] = {keys[i], static_cast<std::int32_t>(mix64(seed ^ i) & 0x7fffffff)};
    return out;
  } else {
    return runs_of_shape<K>(n, shape, tile, seed);
  }
}

// Float keys whose runs mix -0.0 and +0.0 (equal under ==: one run, the first kept) and hold NaNs
// (never equal: each its own run), between ordinary runs.
inline std::vector<float> float_keys(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n;) {
    const auto kind = rng() % 4;
    const std::int64_t length = 1 + static_cast<std::int64_t>(rng() % 6);
    const float base = static_cast<float>(rng() % 1000);
    for (std::int64_t k = 0; k < length && i < n; ++k, ++i) {
      if (kind == 0) keys[i] = (rng() & 1) ? -0.0f : 0.0f;
      else if (kind == 1) keys[i] = std::numeric_limits<float>::quiet_NaN();
      else keys[i] = base;
    }
  }
  return keys;
}

// Values with small magnitudes, so sums of integers and of integral doubles are exact.
template <class V>
std::vector<V> values_for(std::int64_t n, std::uint64_t seed) {
  std::vector<V> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const std::uint64_t r = mix64(seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i));
    if constexpr (std::is_same_v<V, mat2>) {
      values[i] = {{static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(r >> 16),
                    static_cast<std::uint32_t>(r >> 32), static_cast<std::uint32_t>(r >> 48)}};
    } else {
      values[i] = static_cast<V>(static_cast<std::int64_t>(r % 2001) - 1000);
    }
  }
  return values;
}

// The host's run heads: item 0, and every item not eq to the one before it.
template <class K, class Eq>
std::vector<bool> heads_on_host(const std::vector<K>& keys, Eq eq) {
  std::vector<bool> head(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) head[i] = i == 0 || !eq(keys[i - 1], keys[i]);
  return head;
}

// Poisons `count` items of a device output and the guard after them.
template <class T>
void poison(device_buffer<T>& buffer) {
  check(cudaMemset(buffer.data(), poison_byte, static_cast<std::size_t>(buffer.size() + guard_items) * sizeof(T)),
        "cudaMemset");
}

// Checks `got` (count + guard items downloaded) holds `want` and the poison after it.
template <class T>
void expect_output_then_poison(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  const auto count = static_cast<std::int64_t>(want.size());
  expect_same_bytes(got.data(), want.data(), count, what);
  std::vector<T> poisoned(got.size());
  std::memset(poisoned.data(), poison_byte, poisoned.size() * sizeof(T));
  expect_same_bytes(got.data() + count, poisoned.data() + count, static_cast<std::int64_t>(got.size()) - count,
                    "written past the count");
}

// Calls body(keys, values) for every size and run shape (two shapes when tests are sparse) on
// fresh keys and values, the seed, size and shape traced; stops at the first fatal failure.
template <class K, class V, class Body>
void for_every_size_and_shape(std::int64_t tile, Body&& body) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : by_key_sizes(tile)) {
    for (const run_shape shape : every_run_shape()) {
      if (sparse_tests() && shape != run_shape::short_runs && shape != run_shape::long_runs) continue;
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(shape));
      body(keys_of_shape<K>(n, shape, tile, seed + n), values_for<V>(n, seed ^ 0x5bd1e995ull));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

}  // namespace upsweep::test
