// upsweep-soak's random configurations (primitive, type, size, distribution, operator, layer),
// drawn from a seed and an index so that one line replays any of them, and the input data each
// one sorts, scans or filters. Host code only.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// ---- configurations ---------------------------------------------------------------------------

enum class primitive { inclusive_sum, exclusive_sum, reduce, sort_keys, sort_pairs, select_if, partition, unique,
                       run_length_encode, histogram_even, histogram_range, count };
const char* const primitive_names[] = {"inclusive_sum", "exclusive_sum", "reduce", "sort_keys", "sort_pairs",
                                       "select_if", "partition", "unique", "run_length_encode", "histogram_even",
                                       "histogram_range"};
enum class type_id { u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, count };
const char* const type_names[] = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
enum class distribution { uniform, small, few_unique, sorted, reverse, all_equal, specials, count };
const char* const distribution_names[] = {"uniform", "small", "few-unique", "sorted", "reverse", "all-equal",
                                          "specials"};

struct config {
  std::uint64_t seed = 0, index = 0;
  primitive prim{};
  type_id type{};
  distribution dist{};
  std::int64_t n = 0;
  int variant = 0;  // reduce: sum/min/max; sort: direction; select: the predicate; histogram: bins
  bool in_place = false;
  bool core = true;  // core layer (caller storage) or convenience layer
  int begin_bit = 0, end_bit = 0;
  std::int64_t offset = 0;  // items the data starts past an aligned allocation

  std::string describe() const {
    char text[512];
    std::snprintf(text, sizeof text,
                  "#%" PRIu64 " %s %s n=%" PRId64 " dist=%s variant=%d %s %s layer bits=[%d,%d) offset=%" PRId64,
                  index, primitive_names[static_cast<int>(prim)], type_names[static_cast<int>(type)], n,
                  distribution_names[static_cast<int>(dist)], variant, in_place ? "in-place" : "out-of-place",
                  core ? "core" : "convenience", begin_bit, end_bit, offset);
    return text;
  }
};

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

int key_bits(type_id t) {
  static const int bits[] = {8, 16, 32, 64, 8, 16, 32, 64, 32, 64};
  return bits[static_cast<int>(t)];
}

// Configuration `index` of the run with `seed`: a pure function of both, so --only replays it.
config make_config(std::uint64_t seed, std::uint64_t index, std::int64_t max_n) {
  std::mt19937_64 rng(mix(seed ^ mix(index)));
  config c;
  c.seed = seed;
  c.index = index;
  c.prim = static_cast<primitive>(rng() % static_cast<int>(primitive::count));
  c.type = static_cast<type_id>(rng() % static_cast<int>(type_id::count));
  if (c.prim == primitive::inclusive_sum || c.prim == primitive::exclusive_sum || c.prim == primitive::reduce) {
    static const type_id scan_types[] = {type_id::i32, type_id::u32, type_id::i64, type_id::u64, type_id::f32,
                                         type_id::f64};
    c.type = scan_types[rng() % 6];
  }
  c.dist = static_cast<distribution>(rng() % static_cast<int>(distribution::count));
  // Sizes: log-uniform up to max_n, often right at or beside a power of two (tile edges).
  const double log_n = std::log2(static_cast<double>(max_n)) * std::uniform_real_distribution<double>(0, 1)(rng);
  c.n = static_cast<std::int64_t>(std::exp2(log_n)) - 1;
  if (rng() % 4 == 0) c.n = (std::int64_t{1} << (rng() % static_cast<int>(std::log2(static_cast<double>(max_n)) + 1))) +
                            static_cast<std::int64_t>(rng() % 3) - 1;
  c.n = std::clamp<std::int64_t>(c.n, 0, max_n);
  c.variant = static_cast<int>(rng() % 6);
  c.in_place = rng() % 3 == 0 && c.prim != primitive::partition && c.prim != primitive::unique &&
               c.prim != primitive::run_length_encode && c.prim != primitive::reduce &&
               c.prim != primitive::histogram_even && c.prim != primitive::histogram_range;
  c.core = rng() % 2 == 0;
  const int bits = key_bits(c.type);
  c.begin_bit = 0;
  c.end_bit = bits;
  if (rng() % 4 == 0) {  // a bit window, sometimes empty
    c.begin_bit = static_cast<int>(rng() % (bits + 1));
    c.end_bit = c.begin_bit + static_cast<int>(rng() % (bits - c.begin_bit + 1));
  }
  c.offset = rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 4) : 0;
  return c;
}

// ---- data ---------------------------------------------------------------------------------------

template <class T>
std::vector<T> make_data(const config& c, std::mt19937_64& rng, bool finite_only, bool scan_safe) {
  std::vector<T> v(static_cast<std::size_t>(c.n));
  const auto random_value = [&]() -> T {
    const std::uint64_t r = rng();
    if (scan_safe || c.dist == distribution::small) {  // small magnitudes: float sums stay near exact
      if constexpr (std::is_floating_point_v<T>) return static_cast<T>(static_cast<std::int64_t>(r % 2001) - 1000) / 8;
      else if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<std::int64_t>(r % 201) - 100);
      else return static_cast<T>(r % 201);
    }
    if constexpr (std::is_floating_point_v<T>) {
      if (c.dist == distribution::specials && r % 8 == 0) {
        const T specials[] = {T(0), -T(0), std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                              std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(),
                              std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::max()};
        const T s = specials[(r >> 8) % 8];
        return finite_only && !std::isfinite(s) ? T(1) : s;
      }
      return static_cast<T>(std::ldexp(static_cast<double>(static_cast<std::int64_t>(r >> 11) - (std::int64_t{1} << 52)),
                                       static_cast<int>((r >> 3) % 40) - 60));
    } else {
      T x;
      std::memcpy(&x, &r, sizeof x);
      return x;
    }
  };
  switch (c.dist) {
    case distribution::few_unique: {
      T pool[16];
      for (auto& p : pool) p = random_value();
      for (auto& x : v) x = pool[rng() % 16];
      break;
    }
    case distribution::all_equal: {
      const T x0 = random_value();
      std::fill(v.begin(), v.end(), x0);
      break;
    }
    default:
      for (auto& x : v) x = random_value();
  }
  if (c.dist == distribution::sorted || c.dist == distribution::reverse) {
    if constexpr (std::is_floating_point_v<T>) {
      std::sort(v.begin(), v.end(), [](T a, T b) { return a < b; });  // NaNs make it only partly sorted: fine
    } else {
      std::sort(v.begin(), v.end());
    }
    if (c.dist == distribution::reverse) std::reverse(v.begin(), v.end());
  }
  return v;
}

}  // namespace
