// Generated inputs: a splitmix64 stream turned into each distribution, the same on every machine.
#include <upsweep/apps/generate.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace upsweep::apps {
namespace {

struct splitmix64 {
  std::uint64_t state;
  std::uint64_t operator()() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }  // [0, 1)
};

template <class T>
T uniform_value(splitmix64& rng) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(rng());  // the low bits of a uniform 64-bit word: uniform over T
  } else {
    return static_cast<T>(rng.unit() * 2.0 - 1.0);
  }
}

template <class T>
T normal_value(splitmix64& rng) {
  const double u1 = 1.0 - rng.unit(), u2 = rng.unit();  // u1 in (0, 1]
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  if constexpr (std::is_integral_v<T>) {
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    const double v = std::round((lo + hi) / 2 + z * (hi - lo) / 8);
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  } else {
    return static_cast<T>(z);
  }
}

template <class T>
void fill(std::vector<T>& v, distribution dist, std::uint64_t seed) {
  splitmix64 rng{seed};
  switch (dist) {
    case distribution::uniform:
    case distribution::sorted:
    case distribution::reverse:
      for (T& x : v) x = uniform_value<T>(rng);
      if (dist == distribution::sorted) std::sort(v.begin(), v.end());
      if (dist == distribution::reverse) std::sort(v.begin(), v.end(), std::greater<T>());
      break;
    case distribution::normal:
      for (T& x : v) x = normal_value<T>(rng);
      break;
    case distribution::few_unique: {
      T values[16];
      for (T& x : values) x = uniform_value<T>(rng);
      for (T& x : v) x = values[rng() >> 60];
      break;
    }
    case distribution::zipf: {
      // Log-uniform over [1, k]: P(value = j) ~ 1/(j+1), Zipf with exponent 1.
      double k = 1 << 20;
      if constexpr (std::is_integral_v<T>) k = std::min(k, static_cast<double>(std::numeric_limits<T>::max()));
      const double log_k1 = std::log(k + 1);
      for (T& x : v) {
        const double j = std::floor(std::exp(rng.unit() * log_k1)) - 1;
        x = static_cast<T>(std::min(j, k - 1));
      }
      break;
    }
    case distribution::all_equal:
      std::fill(v.begin(), v.end(), uniform_value<T>(rng));
      break;
  }
}

constexpr const char* distribution_names[] = {"uniform", "normal", "sorted", "reverse", "few-unique", "zipf", "all-equal"};

}  // namespace

const char* distribution_name(distribution d) { return distribution_names[static_cast<int>(d)]; }

distribution parse_distribution(std::string_view name) {
  for (int i = 0; i < 7; ++i)
    if (name == distribution_names[i]) return static_cast<distribution>(i);
  throw std::invalid_argument("unknown distribution '" + std::string(name) +
                              "' (uniform, normal, sorted, reverse, few-unique, zipf, all-equal)");
}

std::int64_t parse_count(std::string_view text) {
  const auto bad = [&](const char* why) {
    return std::invalid_argument("bad count '" + std::string(text) + "': " + why);
  };
  std::int64_t value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec == std::errc::result_out_of_range) throw bad("too large");
  if (r.ec != std::errc() || r.ptr == text.data()) throw bad("expected a number such as 1000, 10k, 4M, 1G or 256Mi");
  if (value < 0) throw bad("negative");
  const std::string_view suffix(r.ptr, static_cast<std::size_t>(text.data() + text.size() - r.ptr));
  static const struct { const char* name; std::int64_t scale; } suffixes[] = {
      {"", 1},           {"k", 1000},       {"K", 1000},        {"M", 1000000},       {"G", 1000000000},
      {"Ki", 1 << 10},   {"Mi", 1 << 20},   {"Gi", 1 << 30}};
  for (const auto& s : suffixes) {
    if (suffix != s.name) continue;
    if (value > std::numeric_limits<std::int64_t>::max() / s.scale) throw bad("too large");
    return value * s.scale;
  }
  throw bad("unknown suffix (k, M, G are powers of 1000; Ki, Mi, Gi of 1024)");
}

number_array generate_numbers(element_type type, std::int64_t n, distribution dist, std::uint64_t seed) {
  if (n < 0) throw std::invalid_argument("generate_numbers: negative count");
  number_array out = make_array(type, static_cast<std::size_t>(n));
  std::visit([&](auto& v) { fill(v, dist, seed); }, out);
  return out;
}

}  // namespace upsweep::apps
