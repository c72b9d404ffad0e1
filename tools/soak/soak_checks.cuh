// upsweep-soak's checks, one per primitive: run the configuration on the device and compare with a
// CPU reference (sorts also bitwise with CUB); each returns what went wrong, or nothing.
#pragma once

#include "soak_config.hpp"
#include "soak_device.cuh"

#include <upsweep/compact.hpp>
#include <upsweep/histogram.hpp>
#include <upsweep/histogram/bin_index.cuh>
#include <upsweep/scan.hpp>
#include <upsweep/sort.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// ---- references and checks, one per primitive --------------------------------------------------

template <class T>
using ordered_t = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                  std::conditional_t<sizeof(T) == 2, std::uint16_t,
                  std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// CUB's radix order: signed integers with the sign bit flipped, floats twiddled (-0.0 before +0.0
// in bits, but the sort treats them as equal: it maps -0.0 to +0.0 first, like CUB).
template <class T>
ordered_t<T> ordered_bits(T x) {
  using U = ordered_t<T>;
  constexpr U sign = U(U(1) << (8 * sizeof(T) - 1));
  if constexpr (std::is_floating_point_v<T>) {
    if (x == T(0)) x = T(0);
    U u;
    std::memcpy(&u, &x, sizeof u);
    return (u & sign) ? U(~u) : U(u | sign);
  } else {
    U u;
    std::memcpy(&u, &x, sizeof u);
    return std::is_signed_v<T> ? U(u ^ sign) : u;
  }
}

template <class T>
std::string check_scan(const config& c, device_arena& arena, std::mt19937_64& rng) {
  const auto in = make_data<T>(c, rng, true, true);
  const T* d_in = upload_at(arena.a, c.offset, in);
  T* d_out = c.in_place ? const_cast<T*>(d_in) : poisoned_at<T>(arena.b, c.offset, c.n);
  const bool inclusive = c.prim == primitive::inclusive_sum;
  call(c, arena,
       [&](void* t, std::size_t& b) {
         return inclusive ? upsweep::inclusive_sum(t, b, d_in, d_out, c.n) : upsweep::exclusive_sum(t, b, d_in, d_out, c.n);
       },
       [&] { inclusive ? upsweep::inclusive_sum(d_in, d_out, c.n) : upsweep::exclusive_sum(d_in, d_out, c.n); });
  const auto got = download(d_out, c.n);
  // The reference in the type, wrapping for integers (through unsigned), in double for floats.
  std::vector<double> expected_f(in.size());
  std::vector<T> expected(in.size());
  using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, ordered_t<T>>;
  acc_t running{};
  double magnitude = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!inclusive) expected_f[i] = static_cast<double>(running), expected[i] = static_cast<T>(running);
    running = static_cast<acc_t>(running + static_cast<acc_t>(in[i]));
    magnitude += std::fabs(static_cast<double>(in[i]));
    if (inclusive) expected_f[i] = static_cast<double>(running), expected[i] = static_cast<T>(running);
  }
  if constexpr (std::is_floating_point_v<T>) {
    const double bound = static_cast<double>(c.n) * std::numeric_limits<T>::epsilon() * magnitude + 1e-30;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(static_cast<double>(got[i]) - expected_f[i]) <= bound))
        return "item " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", expected about " +
               std::to_string(expected_f[i]);
  } else {
    if (!same_bits(got, expected)) return "differs from the CPU scan";
  }
  if (!guard_intact(d_out, c.n)) return "wrote past the end of the output";
  return {};
}

template <class T>
std::string check_reduce(const config& c, device_arena& arena, std::mt19937_64& rng) {
  const auto in = make_data<T>(c, rng, true, c.variant % 3 == 0);
  const T* d_in = upload_at(arena.a, c.offset, in);
  T* d_out = poisoned_at<T>(arena.b, 0, 1);
  const int op = c.variant % 3;  // sum, min, max
  call(c, arena,
       [&](void* t, std::size_t& b) {
         return op == 0 ? upsweep::reduce_sum(t, b, d_in, d_out, c.n)
                        : op == 1 ? upsweep::reduce_min(t, b, d_in, d_out, c.n) : upsweep::reduce_max(t, b, d_in, d_out, c.n);
       },
       [&] {
         op == 0 ? upsweep::reduce_sum(d_in, d_out, c.n)
                 : op == 1 ? upsweep::reduce_min(d_in, d_out, c.n) : upsweep::reduce_max(d_in, d_out, c.n);
       });
  const T got = download(d_out, 1)[0];
  if (op == 0) {
    using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, ordered_t<T>>;
    acc_t sum{};
    double magnitude = 0;
    for (T x : in) sum = static_cast<acc_t>(sum + static_cast<acc_t>(x)), magnitude += std::fabs(static_cast<double>(x));
    if constexpr (std::is_floating_point_v<T>) {
      const double bound = static_cast<double>(c.n) * std::numeric_limits<T>::epsilon() * magnitude + 1e-30;
      if (!(std::fabs(static_cast<double>(got) - sum) <= bound)) return "sum " + std::to_string(got) + ", expected about " + std::to_string(sum);
    } else if (got != static_cast<T>(sum)) {
      return "sum " + std::to_string(got) + ", expected " + std::to_string(static_cast<T>(sum));
    }
    return {};
  }
  T expected = op == 1 ? (std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max())
                       : (std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest());
  for (T x : in) expected = op == 1 ? (x < expected ? x : expected) : (expected < x ? x : expected);
  if (!(got == expected)) return "got " + std::to_string(got) + ", expected " + std::to_string(expected);
  return {};
}

// CUB's sort of the same keys (and index values), for the two key types where it is instantiated.
template <class T>
bool cub_sort(const config& c, const T* d_keys, T* d_keys_out, const std::uint32_t* d_values, std::uint32_t* d_values_out,
              device_arena& arena) {
  if constexpr (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>) {
    const bool descending = c.variant % 2 == 1;
    std::size_t bytes = 0;
    const auto run = [&](void* t) {
      return descending ? cub::DeviceRadixSort::SortPairsDescending(t, bytes, d_keys, d_keys_out, d_values, d_values_out,
                                                                     c.n, c.begin_bit, c.end_bit)
                        : cub::DeviceRadixSort::SortPairs(t, bytes, d_keys, d_keys_out, d_values, d_values_out, c.n,
                                                          c.begin_bit, c.end_bit);
    };
    check(run(nullptr), "cub size query");
    check(run(arena.temporary(bytes)), "cub::DeviceRadixSort");
    return true;
  } else {
    return false;
  }
}

template <class T>
std::string check_sort(const config& c, device_arena& arena, std::mt19937_64& rng) {
  const auto keys = make_data<T>(c, rng, false, false);
  const bool pairs = c.prim == primitive::sort_pairs, descending = c.variant % 2 == 1;
  std::vector<std::uint32_t> ids(keys.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::uint32_t>(i);
  T* d_keys = upload_at(arena.a, c.offset, keys);
  std::uint32_t* d_ids = upload_at(arena.c, c.offset, ids);
  T* d_out = c.in_place ? d_keys : poisoned_at<T>(arena.b, c.offset, c.n);
  std::uint32_t* d_ids_out = c.in_place ? d_ids : poisoned_at<std::uint32_t>(arena.d, c.offset, c.n);
  const int b0 = c.begin_bit, b1 = c.end_bit;
  call(c, arena,
       [&](void* t, std::size_t& b) {
         if (pairs)
           return descending ? upsweep::sort_pairs_descending(t, b, d_keys, d_out, d_ids, d_ids_out, c.n, b0, b1)
                             : upsweep::sort_pairs(t, b, d_keys, d_out, d_ids, d_ids_out, c.n, b0, b1);
         return descending ? upsweep::sort_keys_descending(t, b, d_keys, d_out, c.n, b0, b1)
                           : upsweep::sort_keys(t, b, d_keys, d_out, c.n, b0, b1);
       },
       [&] {
         if (pairs)
           descending ? upsweep::sort_pairs_descending(d_keys, d_out, d_ids, d_ids_out, c.n, b0, b1)
                      : upsweep::sort_pairs(d_keys, d_out, d_ids, d_ids_out, c.n, b0, b1);
         else
           descending ? upsweep::sort_keys_descending(d_keys, d_out, c.n, b0, b1) : upsweep::sort_keys(d_keys, d_out, c.n, b0, b1);
       });
  const auto got_keys = download(d_out, c.n);
  const auto got_ids = pairs ? download(d_ids_out, c.n) : std::vector<std::uint32_t>{};
  // Reference: a stable sort of the indices by the window's digits.
  using U = ordered_t<T>;
  const int width = b1 - b0;
  const U mask = width >= static_cast<int>(8 * sizeof(U)) ? U(~U(0)) : U((U(1) << width) - 1);
  const auto digit = [&](std::uint32_t i) { return width == 0 ? U(0) : U((ordered_bits(keys[i]) >> b0) & mask); };
  std::vector<std::uint32_t> order(ids);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
    return descending ? digit(x) > digit(y) : digit(x) < digit(y);
  });
  std::vector<T> expected(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) expected[i] = keys[order[i]];
  if (!same_bits(got_keys, expected)) return "keys differ from std::stable_sort";
  if (pairs && got_ids != order) return "values differ from std::stable_sort (stability)";
  if (!guard_intact(d_out, c.n) || (pairs && !guard_intact(d_ids_out, c.n))) return "wrote past the end of the output";
  // CUB, on fresh copies of the input.
  T* d_cub_in = upload_at(arena.a, 0, keys);
  std::uint32_t* d_cub_ids = upload_at(arena.c, 0, ids);
  T* d_cub_out = poisoned_at<T>(arena.b, 0, c.n);
  std::uint32_t* d_cub_ids_out = poisoned_at<std::uint32_t>(arena.d, 0, c.n);
  if (c.n > 0 && b0 < b1 && cub_sort(c, d_cub_in, d_cub_out, d_cub_ids, d_cub_ids_out, arena)) {
    // CUB's order: ours, except that its multi-tile (Onesweep) path, descending, folds -0.0 onto
    // +0.0 after inverting the ordered bits, so a window short of the whole key buckets the zeros
    // with the tiniest negatives (device_radix_sort.cuh). Its one-block path for small inputs
    // ranks descending without inverting and keeps our order. Either is accepted, so every other
    // difference still shows.
    std::vector<std::uint32_t> folded_order(order);
    if (std::is_floating_point_v<T> && descending && width < static_cast<int>(8 * sizeof(U))) {
      const U sign = U(U(1) << (8 * sizeof(U) - 1));
      const auto cub_digit = [&](std::uint32_t i) {
        U inverted = U(~ordered_bits(keys[i]));
        if (inverted == U(sign - 1)) inverted = sign;  // +0.0's inverted bits become -0.0's
        return U((inverted >> b0) & mask);
      };
      std::iota(folded_order.begin(), folded_order.end(), 0u);
      std::stable_sort(folded_order.begin(), folded_order.end(),
                       [&](std::uint32_t x, std::uint32_t y) { return cub_digit(x) < cub_digit(y); });
    }
    const auto cub_keys = download(d_cub_out, c.n);
    const auto cub_ids = pairs ? download(d_cub_ids_out, c.n) : std::vector<std::uint32_t>{};
    const auto cub_matches = [&](const std::vector<std::uint32_t>& model) {
      std::vector<T> model_keys(keys.size());
      for (std::size_t i = 0; i < model.size(); ++i) model_keys[i] = keys[model[i]];
      return same_bits(cub_keys, model_keys) && (!pairs || cub_ids == model);
    };
    if (!cub_matches(order) && !cub_matches(folded_order))
      return pairs ? "CUB's keys or values differ from both modelled orders" : "CUB's keys differ from both modelled orders";
  }
  return {};
}

template <class T>
upsweep::predicate<T> pick_predicate(int variant, const std::vector<T>& items) {
  const T pivot = items.empty() ? T(0) : items[items.size() / 2];
  switch (variant) {
    case 0: return upsweep::predicate<T>::less(pivot);
    case 1: return upsweep::predicate<T>::odd();
    case 2: return upsweep::predicate<T>::finite();
    case 3: return !upsweep::predicate<T>::nonzero();
    case 4: return upsweep::predicate<T>::in_range(std::min(pivot, items.empty() ? T(0) : items.front()),
                                                  std::max(pivot, items.empty() ? T(0) : items.front()));
    default: return upsweep::predicate<T>::greater_equal(pivot);
  }
}

template <class T>
std::string check_select(const config& c, device_arena& arena, std::mt19937_64& rng) {
  const auto in = make_data<T>(c, rng, false, false);
  const auto pred = pick_predicate<T>(c.variant, in);
  T* d_in = upload_at(arena.a, c.offset, in);
  T* d_out = c.in_place ? d_in : poisoned_at<T>(arena.b, c.offset, c.n);
  std::int64_t* d_count = arena.count;
  check(cudaMemset(d_count, poison, sizeof(std::int64_t)), "cudaMemset");
  std::vector<T> expected, rejected;
  for (T x : in) (pred(x) ? expected : rejected).push_back(x);
  std::int64_t count = 0;
  if (c.prim == primitive::select_if) {
    call(c, arena, [&](void* t, std::size_t& b) { return upsweep::select_if(t, b, d_in, d_out, d_count, c.n, pred); },
         [&] { upsweep::select_if(d_in, d_out, d_count, c.n, pred); });
    count = download(d_count, 1)[0];
    if (count != static_cast<std::int64_t>(expected.size()))
      return "count " + std::to_string(count) + ", expected " + std::to_string(expected.size());
    if (!same_bits(download(d_out, count), expected)) return "kept items differ from std::copy_if";
    // Nothing written at or past the count: the poison, or in place the input itself.
    const auto rest = download(d_out + count, c.n - count);
    if (c.in_place) {
      if (!same_bits(rest, std::vector<T>(in.begin() + count, in.end()))) return "in place: wrote past the count";
    } else if (!std::all_of(reinterpret_cast<const unsigned char*>(rest.data()),
                            reinterpret_cast<const unsigned char*>(rest.data() + rest.size()),
                            [](unsigned char x) { return x == poison; })) {
      return "wrote past the count";
    }
  } else {  // partition: selected, then rejected, both in input order
    call(c, arena, [&](void* t, std::size_t& b) { return upsweep::stable_partition(t, b, d_in, d_out, d_count, c.n, pred); },
         [&] { upsweep::stable_partition(d_in, d_out, d_count, c.n, pred); });
    count = download(d_count, 1)[0];
    expected.insert(expected.end(), rejected.begin(), rejected.end());
    if (count != static_cast<std::int64_t>(in.size() - rejected.size())) return "split point " + std::to_string(count);
    if (!same_bits(download(d_out, c.n), expected)) return "differs from std::stable_partition";
  }
  if (!guard_intact(d_out, c.n)) return "wrote past the end of the output";
  return {};
}

template <class T>
std::string check_runs(const config& c, device_arena& arena, std::mt19937_64& rng) {
  const auto in = make_data<T>(c, rng, false, false);
  T* d_in = upload_at(arena.a, c.offset, in);
  T* d_out = poisoned_at<T>(arena.b, c.offset, c.n);
  auto* d_lengths = poisoned_at<std::int64_t>(arena.c, 0, c.n);
  std::vector<T> heads;
  std::vector<std::int64_t> lengths;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || !(in[i] == in[i - 1])) heads.push_back(in[i]), lengths.push_back(0);
    ++lengths.back();
  }
  std::int64_t count = 0;
  if (c.prim == primitive::unique) {
    call(c, arena, [&](void* t, std::size_t& b) { return upsweep::unique(t, b, d_in, d_out, arena.count, c.n); },
         [&] { upsweep::unique(d_in, d_out, arena.count, c.n); });
  } else {
    call(c, arena,
         [&](void* t, std::size_t& b) { return upsweep::run_length_encode(t, b, d_in, d_out, d_lengths, arena.count, c.n); },
         [&] { upsweep::run_length_encode(d_in, d_out, d_lengths, arena.count, c.n); });
  }
  count = download(arena.count, 1)[0];
  if (count != static_cast<std::int64_t>(heads.size())) return "runs " + std::to_string(count) + ", expected " + std::to_string(heads.size());
  if (!same_bits(download(d_out, count), heads)) return "run heads differ";
  if (c.prim == primitive::run_length_encode && download(d_lengths, count) != lengths) return "run lengths differ";
  if (!guard_intact(d_out, c.n)) return "wrote past the end of the output";
  return {};
}

template <class T>
std::string check_histogram(const config& c, device_arena& arena, std::mt19937_64& rng) {
  using level_t = upsweep::histogram_level_t<T>;
  const auto in = make_data<T>(c, rng, false, false);
  const T* d_in = upload_at(arena.a, c.offset, in);
  const int num_bins = 1 + static_cast<int>(rng() % (c.variant % 2 ? 2048 : 64));
  std::vector<std::uint32_t> expected(static_cast<std::size_t>(num_bins), 0);
  auto* d_counts = poisoned_at<std::uint32_t>(arena.b, 0, num_bins);
  // Bounds: the whole type, or between two of the items.
  level_t lower, upper;
  if constexpr (std::is_floating_point_v<T>) {
    lower = -1000, upper = 1000;
    if (in.size() >= 2 && std::isfinite(in[0]) && std::isfinite(in[1]) && in[0] != in[1] &&
        std::isfinite(static_cast<T>(std::max(in[0], in[1]) - std::min(in[0], in[1]))))
      lower = std::min(in[0], in[1]), upper = std::max(in[0], in[1]);
  } else {
    lower = static_cast<level_t>(std::numeric_limits<T>::lowest());
    upper = sizeof(T) <= 4 ? static_cast<level_t>(static_cast<level_t>(std::numeric_limits<T>::max()) + 1)
                           : static_cast<level_t>(std::numeric_limits<T>::max());
    if (in.size() >= 2 && in[0] != in[1]) lower = std::min(in[0], in[1]), upper = std::max(in[0], in[1]);
  }
  if (c.prim == primitive::histogram_even) {
    upsweep::even_bins<T> bins;
    if (upsweep::make_even_bins<T>(num_bins, lower, upper, bins) != cudaSuccess) return {};  // a scale that overflows: skip
    for (T x : in) {
      const int b = bins.bin_of(x);
      if (b >= 0) ++expected[static_cast<std::size_t>(b)];
    }
    call(c, arena,
         [&](void* t, std::size_t& b) { return upsweep::histogram_even(t, b, d_in, c.n, d_counts, num_bins, lower, upper); },
         [&] { upsweep::histogram_even(d_in, c.n, d_counts, num_bins, lower, upper); });
  } else {
    std::vector<level_t> edges(static_cast<std::size_t>(num_bins) + 1);
    for (auto& e : edges) {
      if constexpr (std::is_floating_point_v<T>) e = static_cast<level_t>(std::uniform_real_distribution<double>(lower, upper)(rng));
      else {  // in [lower, upper], through unsigned: the span of a whole 64-bit type does not fit it
        const std::uint64_t span = static_cast<std::uint64_t>(upper) - static_cast<std::uint64_t>(lower);
        const std::uint64_t step = span == ~std::uint64_t{0} ? rng() : rng() % (span + 1);
        e = static_cast<level_t>(static_cast<std::uint64_t>(lower) + step);
      }
    }
    std::sort(edges.begin(), edges.end());
    for (T x : in) {
      const auto v = static_cast<level_t>(x);
      if (!(v >= edges.front() && v < edges.back())) continue;
      const auto it = std::upper_bound(edges.begin(), edges.end(), v);
      ++expected[static_cast<std::size_t>(it - edges.begin() - 1)];
    }
    level_t* d_edges = upload_at(arena.c, 0, edges);
    call(c, arena,
         [&](void* t, std::size_t& b) { return upsweep::histogram_range(t, b, d_in, c.n, d_counts, d_edges, num_bins); },
         [&] { upsweep::histogram_range(d_in, c.n, d_counts, d_edges, num_bins); });
  }
  if (download(d_counts, num_bins) != expected) return "counts differ from the CPU";
  if (!guard_intact(d_counts, num_bins)) return "wrote past the counters";
  return {};
}

}  // namespace
